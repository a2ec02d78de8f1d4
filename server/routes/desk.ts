// The desk at the door (contract/payments-org.ts, issue 35 item 4): find a student, take the fee (cash or UPI) for a
// held or unpaid place and admit them at once, and the totals per volunteer for handing over the cash. The payment
// is the desk repository's (server/db/payments/desk.ts, through settleIn); the admission is the door's own scan, with the scan
// id made from the client's key, so a retry neither pays nor admits twice.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { rupees } from '../../contract/payment-rules.ts'
import { stepOf, timeCode, withTimeCode } from '../../contract/time-code.ts'
import { deskRepository, deskScanId } from '../db/payments/desk.ts'
import { declared } from './declare.ts'
import { valueOf } from './outcomes.ts'

export const DESK_GATE = 'Desk'

export const deskRoutes: FastifyPluginAsyncZod = async (app) => {
  const desk = deskRepository(app.db)
  const limit = { rateLimit: app.rateLimits.door }

  app.route({
    ...declared(CALLS.deskFind),
    config: limit,
    handler: async (request) => ({
      error: false as const,
      students: valueOf(await desk.find(request.userId, request.body.event_id, request.body.query)),
    }),
  })

  app.route({
    ...declared(CALLS.deskPay),
    config: { rateLimit: app.rateLimits.writes },
    handler: async (request) => {
      const { event_id, user_id, method, key } = request.body
      const paid = valueOf(await desk.pay(request.userId, { eventId: event_id, userId: user_id, mode: method, key }))
      let admitted = false
      if (paid.ticketCode) {
        // The ticket the student has in hand is the one the door admits: its time code made here where tickets rotate.
        const text = paid.rotating && paid.ticketSecret ? withTimeCode(paid.ticketCode, await timeCode(paid.ticketSecret, stepOf(Date.now()))) : paid.ticketCode
        const scan = await app.doorRepository.checkIn(request.userId, { eventId: event_id, ticketCode: text, scanId: deskScanId(key), gate: DESK_GATE })
        admitted = scan.ok && (scan.value.result === 'CHECKED_IN' || scan.value.result === 'ALREADY_CHECKED_IN')
        if (scan.ok) app.metrics.checkIn(scan.value.result, 'scan')
      }
      const words = `${rupees(paid.amount)} taken${paid.repeat ? ' (already recorded)' : ''}`
      return {
        error: false as const,
        message: paid.ticketCode
          ? admitted
            ? `${words}: ticket issued and checked in.`
            : `${words}: ticket issued; scan it to check in.`
          : `${words}: registered.`,
        amount: paid.amount,
        ticket_code: paid.ticketCode,
        receipt: paid.receipt,
        admitted,
      }
    },
  })

  app.route({
    ...declared(CALLS.deskTotals),
    config: limit,
    handler: async (request) => ({ error: false as const, ...valueOf(await desk.totals(request.userId, request.body.event_id)) }),
  })
}
