// The organiser's refunds and cancel of a paid event (issue 35 items 5-6), declared the way contract/api.ts declares
// Part 1 (docs/architecture.md): built from define.ts only (never from api.ts, which joins this file into CALLS). Every
// call is for an organiser of the event's council or an admin; amounts are whole paise. The payments list, totals,
// CSV, UPI confirmations, the statement import, the desk and receipts are contract/payments-org.ts's.
import * as z from 'zod/mini'
import { bearer, type CallSpec, doc, fields, ok, positiveId } from './define.ts'
import { PAYMENT_METHODS, PAYMENT_STATUSES } from './payment-rules.ts'

/** A payment as the refund calls show it to the treasurer: who paid, how, and where its refund stands. */
export const adminPayment = doc(
  z.object({
    id: z.int(),
    event_id: z.int(),
    user_id: z.nullable(z.int()),
    /** The student's name, null for an account since deleted. */
    name: z.nullable(z.string()),
    status: z.enum(PAYMENT_STATUSES),
    method: z.nullable(z.enum(PAYMENT_METHODS)),
    amount: z.int(),
    reference: z.string(),
    utr: z.nullable(z.string()),
    paid_at: z.nullable(z.string()),
    refund_requested_at: z.nullable(z.string()),
    refunded_at: z.nullable(z.string()),
  }),
  { id: 'AdminPayment' },
)

const paymentId = { payment_id: positiveId('payment_id') }
const eventId = { event_id: positiveId('event_id') }

export const PAYMENT_ADMIN_CALLS = {
  paymentRefunds: {
    method: 'POST',
    path: '/org/p/payment/refunds',
    auth: 'bearer',
    tag: 'organiser',
    summary:
      'The refunds due for an event (REFUND_PENDING), oldest request first: Razorpay’s are made by the server’s refund job; UPI and desk ones are for the treasurer to pay back by hand and then mark with /org/p/payment/refunded.',
    body: fields(eventId),
    answers: { 200: ok({ payments: z.array(adminPayment) }), ...bearer(403, 404) },
  },
  paymentRefund: {
    method: 'POST',
    path: '/org/p/payment/refund',
    auth: 'bearer',
    tag: 'organiser',
    summary:
      'Refunds one PAID payment: it becomes REFUND_PENDING (Razorpay: paid back by the refund job; UPI and desk: listed for the treasurer) and its place is released (a ticket taken back and its place offered to the waitlist, a registration dropped). Audited.',
    body: fields(paymentId),
    answers: { 200: ok({ message: z.string(), payment: adminPayment }), ...bearer(403, 404, 409) },
  },
  paymentRefunded: {
    method: 'POST',
    path: '/org/p/payment/refunded',
    auth: 'bearer',
    tag: 'organiser',
    summary:
      'A UPI or desk refund paid back by hand: REFUND_PENDING becomes REFUNDED, with a ledger row naming who marked it (once; a Razorpay payment is refused: its refund is the gateway’s). Audited.',
    body: fields(paymentId),
    answers: { 200: ok({ message: z.string(), payment: adminPayment }), ...bearer(403, 404, 409) },
  },
  eventCancel: {
    method: 'POST',
    path: '/org/p/event/cancel',
    auth: 'bearer',
    tag: 'organiser',
    summary:
      'Cancels a paid event: cancelled_at is set and every held place expires at once (nothing more is claimed or paid); every PAID payment then becomes REFUND_PENDING, its ticket taken back, by a job that resumes after a restart and moves each payment once. A repeat answers the same cancellation. Audited.',
    body: fields(eventId),
    answers: {
      200: ok({ message: z.string(), cancelled_at: z.string(), holds_expired: z.int(), refunds_to_request: z.int() }),
      ...bearer(403, 404, 409),
    },
  },
} as const satisfies Record<string, CallSpec>
