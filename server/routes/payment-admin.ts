// The organiser's refunds and cancel of a paid event (issue 35 items 5-6, contract/payment-admin.ts): each route is its
// schema and a call of the refunds repository (server/db/payments/refunds.ts), whose roles are read from the database.
// A cancel starts the cancel job at once (the payments tick runs it again until it is done, on any instance).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { rupees } from '../../contract/payment-rules.ts'
import { declared } from './declare.ts'
import { valueOf } from './outcomes.ts'

export const PAYMENT_ADMIN_MESSAGES = {
  refund: (amount: number, method: string | null) =>
    method === 'RAZORPAY'
      ? `Refund of ${rupees(amount)} requested: Razorpay pays it back to the student’s account; the place is released.`
      : `Refund of ${rupees(amount)} is due: pay it back to the student by hand, then mark it refunded. The place is released.`,
  refunded: (amount: number) => `Marked refunded: ${rupees(amount)} paid back by hand.`,
  cancelled: (refunds: number) =>
    refunds === 0
      ? 'The event is cancelled: no payment to refund.'
      : `The event is cancelled: ${refunds} paid ${refunds === 1 ? 'place is' : 'places are'} being refunded (Razorpay automatically; UPI and desk payments are listed for the treasurer).`,
} as const

export const paymentAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const repo = app.paymentRefunds
  const writes = { rateLimit: app.rateLimits.writes }

  app.route({
    ...declared(CALLS.paymentRefunds),
    handler: async (request) => ({ error: false as const, payments: valueOf(await repo.refundsDue(request.userId, request.body.event_id)) }),
  })

  app.route({
    ...declared(CALLS.paymentRefund),
    config: writes,
    handler: async (request) => {
      const payment = valueOf(await repo.refund(request.userId, request.body.payment_id))
      app.aroundJobs?.tick().catch(() => {})
      return { error: false as const, message: PAYMENT_ADMIN_MESSAGES.refund(payment.amount, payment.method), payment }
    },
  })

  app.route({
    ...declared(CALLS.paymentRefunded),
    config: writes,
    handler: async (request) => {
      const payment = valueOf(await repo.markRefunded(request.userId, request.body.payment_id))
      return { error: false as const, message: PAYMENT_ADMIN_MESSAGES.refunded(payment.amount), payment }
    },
  })

  app.route({
    ...declared(CALLS.eventCancel),
    config: writes,
    handler: async (request) => {
      const started = valueOf(await repo.cancel(request.userId, request.body.event_id))
      // The job's first run now, not on the request's path: the tick takes it up again if this instance stops.
      if (started.refunds_to_request > 0) void app.paymentJobs.tick()
      return { error: false as const, message: PAYMENT_ADMIN_MESSAGES.cancelled(started.refunds_to_request), ...started }
    },
  })
}
