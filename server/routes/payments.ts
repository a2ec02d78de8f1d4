// Paid events' calls (issue 35, API.md Part 4): the pay step, Razorpay's checkout answer, a UPI payment's UTR, and
// Razorpay's webhook. The server marks a place PAID only on a verified signature or a signed webhook, never on the
// client's word; every state change is the payments repository's (server/db/payments/payments.ts), in one transaction with the
// place it pays for.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { type RazorpayEvent, participantPaymentOf, type Settled } from '../db/payments/payments.ts'
import { outcomeOf } from '../db/outcomes.ts'
import { GatewayError } from '../payments/razorpay.ts'
import { checkoutSignatureValid, webhookSignatureValid } from '../payments/signatures.ts'
import { badRequest, HttpError, notFound } from '../errors.ts'
import { declared } from './declare.ts'
import { kolkataTime, refusal, valueOf } from './outcomes.ts'

export const PAYMENT_MESSAGES = {
  paid: 'Payment received: your ticket is ready.',
  paidRegistration: 'Payment received: you are registered.',
  refunding: 'Your payment arrived after your held place was released and no place is left: it is being refunded in full.',
  utrTaken: (payBy: string) =>
    `Thank you: the council confirms UPI payments by their UTR. Your place stays held (it was due by ${kolkataTime(payBy)}); your ticket comes once it is confirmed.`,
  badWebhook: 'The webhook’s signature does not match its body.',
  noEventId: 'The webhook has no X-Razorpay-Event-Id.',
  notJson: 'The webhook’s body is not a Razorpay event.',
} as const

/** The checkout's or a confirmation's result in a student's words. */
const settledMessage = (s: Settled) =>
  s.result === 'refunding' ? PAYMENT_MESSAGES.refunding : s.payment.kind === 'TICKET' ? PAYMENT_MESSAGES.paid : PAYMENT_MESSAGES.paidRegistration

/** upi://pay with the exact amount and our reference in the note (NPCI's UPI linking specification's parameters). */
export function upiUrl(upi: { vpa: string; name: string }, amount: number, reference: string): string {
  const q = (v: string) => encodeURIComponent(v)
  return `upi://pay?pa=${q(upi.vpa)}&pn=${q(upi.name)}&am=${(amount / 100).toFixed(2)}&cu=INR&tn=${q(reference)}`
}

export const paymentRoutes: FastifyPluginAsyncZod = async (app) => {
  const repo = app.paymentsRepository
  const writes = { rateLimit: app.rateLimits.writes }

  app.route({
    ...declared(CALLS.pay),
    config: writes,
    handler: async (request) => {
      const { event_id, method } = request.body
      const held = valueOf(await outcomeOf(() => repo.heldPlace(request.userId, event_id)))
      const payBy = held.payBy.toISOString()
      if (method === 'RAZORPAY') {
        if (!app.razorpay || !held.methods.includes('RAZORPAY')) throw refusal('methodNotOffered')
        let orderId = held.orderId
        if (!orderId) {
          // The order is made only now, when the student taps Pay (issue 35 item 2), and once: a second tap, or two
          // racing, answer the order the hold kept.
          let order: { id: string }
          try {
            order = await app.razorpay.api.createOrder({
              amount: held.amount,
              receipt: held.reference,
              notes: { event_id: String(event_id), payment_id: String(held.id) },
            })
          } catch (err) {
            if (err instanceof GatewayError) {
              request.log.warn({ err }, 'Razorpay did not make the order')
              throw refusal('gatewayUnavailable', undefined, 30)
            }
            throw err
          }
          orderId = await repo.keepOrder(held.id, order.id)
          if (!orderId) throw refusal('holdExpired')
        }
        return {
          error: false as const,
          method: 'RAZORPAY' as const,
          order_id: orderId,
          key_id: app.razorpay.settings.keyId,
          amount: held.amount,
          currency: 'INR' as const,
          name: held.councilName,
          description: held.eventName,
          checkout_url: app.razorpay.settings.checkoutUrl,
          pay_by: payBy,
        }
      }
      if (!held.upi || !held.methods.includes('UPI')) throw refusal('methodNotOffered')
      await repo.chooseUpi(held.id)
      return {
        error: false as const,
        method: 'UPI' as const,
        upi_url: upiUrl(held.upi, held.amount, held.reference),
        reference: held.reference,
        amount: held.amount,
        payee: held.upi.name,
        pay_by: payBy,
      }
    },
  })

  app.route({
    ...declared(CALLS.payVerify),
    config: writes,
    handler: async (request) => {
      const { event_id, razorpay_order_id: orderId, razorpay_payment_id: paymentId, razorpay_signature: signature } = request.body
      if (!app.razorpay) throw refusal('methodNotOffered')
      // Never the client's word: the signature Razorpay made with our key secret, checked before anything is read.
      if (!checkoutSignatureValid({ orderId, paymentId, signature }, app.razorpay.settings.keySecret)) throw refusal('badSignature')
      const pay = await repo.byOrder(orderId)
      if (!pay || pay.event_id !== event_id) throw refusal('paymentNotFound')
      if (pay.user_id !== request.userId) throw refusal('notYourPayment')
      // The signature says Razorpay authorised the payment; on an account that captures by hand it is captured here,
      // so the ledger records only money captured. Razorpay out of reach: nothing is written, and the reconciliation
      // (or the webhook) settles it when Razorpay answers.
      try {
        const payment = await app.razorpay.api.payment(paymentId)
        if (payment.order_id !== orderId) throw refusal('badSignature')
        if (payment.status === 'authorized') await app.razorpay.api.capture(paymentId, payment.amount)
      } catch (err) {
        if (err instanceof GatewayError) {
          request.log.warn({ err }, 'Razorpay did not answer the verification')
          throw refusal('gatewayUnavailable', undefined, 30)
        }
        throw err
      }
      const settled = valueOf(await repo.settle(pay.id, { method: 'RAZORPAY', amount: pay.amount, ref: paymentId, razorpayPaymentId: paymentId }))
      return {
        error: false as const,
        message: settledMessage(settled),
        payment: participantPaymentOf(settled.payment),
        ticket_code: settled.result === 'refunding' ? null : settled.ticketCode,
      }
    },
  })

  app.route({
    ...declared(CALLS.payUtr),
    config: writes,
    handler: async (request) => {
      const payment = valueOf(await repo.submitUtr(request.userId, request.body.event_id, request.body.utr))
      return { error: false as const, message: PAYMENT_MESSAGES.utrTaken(payment.pay_by.toISOString()), payment: participantPaymentOf(payment) }
    },
  })
}

/** The public webhook: its body kept as the bytes Razorpay signed (its own parser, in a scope of its own). */
export const razorpayWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: CALLS.razorpayWebhook.bodyLimit }, (_request, body, done) => done(null, body))

  app.route({
    ...declared(CALLS.razorpayWebhook),
    handler: async (request) => {
      if (!app.razorpay) throw notFound('NOT_FOUND', 'No such API call.')
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      const signature = request.headers['x-razorpay-signature']
      if (!webhookSignatureValid(raw, typeof signature === 'string' ? signature : undefined, app.razorpay.settings.webhookSecret))
        throw new HttpError(400, 'BAD_SIGNATURE', PAYMENT_MESSAGES.badWebhook)
      const eventId = request.headers['x-razorpay-event-id']
      if (typeof eventId !== 'string' || eventId.length === 0 || eventId.length > 100) throw badRequest(PAYMENT_MESSAGES.noEventId)
      let body: RazorpayEvent
      try {
        body = JSON.parse(raw.toString('utf8'))
      } catch {
        throw badRequest(PAYMENT_MESSAGES.notJson)
      }
      if (!body || typeof body !== 'object' || typeof body.event !== 'string') throw badRequest(PAYMENT_MESSAGES.notJson)
      const status = valueOf(await app.paymentsRepository.webhook(eventId, body))
      request.log.info({ eventId, type: body.event, status }, 'razorpay webhook')
      return { error: false as const, status }
    },
  })
}
