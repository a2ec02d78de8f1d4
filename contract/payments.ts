// Paid events' calls (issue 35, API.md Part 4), declared the way contract/api.ts declares Part 1 (docs/architecture.md):
// built from define.ts only (never from api.ts, which joins this file into CALLS). Amounts are whole paise.
import * as z from 'zod/mini'
import { bearer, type CallSpec, doc, fields, ok, positiveId, refusals } from './define.ts'
import { participantPayment } from './entities.ts'
import { PAYMENT_LIMITS, PAYMENT_METHODS, UTR } from './payment-rules.ts'

const eventId = { event_id: positiveId('event_id') }

const method = z.enum(PAYMENT_METHODS, { error: 'method must be one of RAZORPAY, UPI' })

/** Razorpay's ids as its checkout hands them back: `order_…` and `pay_…`, a signature in hex. */
const gatewayText = (field: string, pattern: RegExp) =>
  z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? `${field} is a required field` : `${field} is not valid`) })
    .check(z.regex(pattern, { error: `${field} is not valid` }))

const utr = z
  .string({
    error: (iss) =>
      iss.input === undefined || iss.input === null || iss.input === '' ? 'utr is a required field' : 'utr must be the 12 digits your UPI app shows',
  })
  .check(z.regex(UTR, { error: 'utr must be the 12 digits your UPI app shows' }))

/** The pay step's answer: Razorpay's checkout options, or the UPI link. */
export const payAnswer = z.union([
  ok({
    method: z.literal('RAZORPAY'),
    order_id: z.string(),
    key_id: z.string(),
    amount: z.int(),
    currency: z.literal('INR'),
    name: z.string(),
    description: z.string(),
    /** Beyond API.md: the standard checkout's script (RAZORPAY_CHECKOUT_URL), which the app loads only now. */
    checkout_url: z.string(),
    pay_by: z.string(),
  }),
  ok({ method: z.literal('UPI'), upi_url: z.string(), reference: z.string(), amount: z.int(), payee: z.string(), pay_by: z.string() }),
])

export const PAYMENT_CALLS = {
  pay: {
    method: 'POST',
    path: '/event/p/pay',
    auth: 'bearer',
    tag: 'payments',
    summary:
      'The pay step of the caller’s held place: RAZORPAY creates the Razorpay order (once; a second tap answers the same one) and answers the checkout’s options; UPI answers the upi://pay link with the exact amount and our reference in the note.',
    body: fields({ ...eventId, method }),
    answers: { 200: payAnswer, ...bearer(403, 404, 409) },
  },
  payVerify: {
    method: 'POST',
    path: '/event/p/pay/verify',
    auth: 'bearer',
    tag: 'payments',
    summary:
      'Razorpay’s checkout answer: the signature (hex HMAC-SHA256 of `order_id|payment_id`, keyed by the key secret) is checked; valid, the place is PAID and the ticket issued; not valid, 400 and nothing written.',
    body: fields({
      ...eventId,
      razorpay_order_id: gatewayText('razorpay_order_id', /^order_[A-Za-z0-9]{1,40}$/),
      razorpay_payment_id: gatewayText('razorpay_payment_id', /^pay_[A-Za-z0-9]{1,40}$/),
      razorpay_signature: gatewayText('razorpay_signature', /^[0-9a-f]{64}$/),
    }),
    answers: { 200: ok({ message: z.string(), payment: participantPayment, ticket_code: z.nullable(z.string()) }), ...bearer(403, 404, 409) },
  },
  payUtr: {
    method: 'POST',
    path: '/event/p/pay/utr',
    auth: 'bearer',
    tag: 'payments',
    summary:
      'A UPI payment made straight to the council: the 12-digit UTR the student’s UPI app shows. The place stays held, AWAITING_CONFIRMATION, until an organiser confirms it; a UTR confirms one payment only.',
    body: fields({ ...eventId, utr }),
    answers: { 200: ok({ message: z.string(), payment: participantPayment }), ...bearer(403, 404, 409) },
  },
  razorpayWebhook: {
    method: 'POST',
    path: '/payments/razorpay/webhook',
    auth: 'public',
    tag: 'payments',
    summary:
      'Razorpay’s webhook as it sends it, checked by X-Razorpay-Signature (hex HMAC-SHA256 of the raw body, keyed by the webhook secret) and recorded once by X-Razorpay-Event-Id: payment.captured and order.paid pay the hold their order names, refund.processed completes a refund. 2xx once recorded (a duplicate too), 400 on a bad signature.',
    body: doc(z.unknown(), { description: 'Razorpay’s webhook body, exactly as sent (its bytes are what the signature covers).' }),
    answers: { 200: z.object({ error: z.literal(false), status: z.enum(['recorded', 'duplicate', 'ignored']) }), ...refusals(400, 413, 415, 429, 503) },
    bodyLimit: 256 * 1024,
  },
} as const satisfies Record<string, CallSpec>

export { PAYMENT_LIMITS }
