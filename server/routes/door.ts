// The door's calls (API.md Part 2 "At the door"): the events, the ticket list for offline checking, check-in,
// its undo, and the sync of offline scans. Who may call them and every rule are in server/db/door.ts.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import type { ScanAnswer } from '../db/door.ts'
import { declared } from './declare.ts'
import { DOOR_MESSAGES, valueOf } from './outcomes.ts'

/** The event day of an answer, on a multi-day event (issue 25 item 3). */
const days = (answer: { day?: string }) => (answer.day !== undefined ? { day: answer.day } : {})

/** A scan's answer on the wire, with its status: 200 CHECKED_IN or CHECKED_OUT, 409 ALREADY_CHECKED_IN, NOT_CHECKED_IN or NOT_INSIDE, 404 UNKNOWN_TICKET or TRANSFERRED, 410 EXPIRED_CODE. */
export function scanReply(answer: ScanAnswer) {
  switch (answer.result) {
    case 'CHECKED_IN':
      return {
        status: 200 as const,
        body: {
          error: false as const,
          result: answer.result,
          attendee: answer.attendee,
          checked_in_at: answer.checked_in_at,
          ...days(answer),
          ...(answer.reentry ? { reentry: true } : {}),
        },
      }
    case 'CHECKED_OUT':
      return {
        status: 200 as const,
        body: { error: false as const, result: answer.result, attendee: answer.attendee, checked_out_at: answer.checked_out_at, ...days(answer) },
      }
    case 'NOT_INSIDE':
      return {
        status: 409 as const,
        body: {
          error: true as const,
          message: answer.reentry_off ? DOOR_MESSAGES.reentryOff : DOOR_MESSAGES.notInside,
          result: answer.result,
          attendee: answer.attendee,
          ...days(answer),
        },
      }
    case 'ALREADY_CHECKED_IN':
      return {
        status: 409 as const,
        body: {
          error: true as const,
          message: DOOR_MESSAGES.alreadyCheckedIn,
          result: answer.result,
          attendee: answer.attendee,
          checked_in_at: answer.checked_in_at,
          gate: answer.gate,
          ...days(answer),
        },
      }
    case 'NOT_CHECKED_IN':
      return {
        status: 409 as const,
        body: { error: true as const, message: DOOR_MESSAGES.undoneScan, result: answer.result, attendee: answer.attendee },
      }
    case 'TRANSFERRED':
      return { status: 404 as const, body: { error: true as const, message: DOOR_MESSAGES.transferred, result: answer.result } }
    case 'EXPIRED_CODE':
      return { status: 410 as const, body: { error: true as const, message: DOOR_MESSAGES.expiredCode, result: answer.result } }
    default:
      return {
        status: 404 as const,
        body: {
          error: true as const,
          message: answer.given_back
            ? DOOR_MESSAGES.givenBack
            : answer.other_event
              ? DOOR_MESSAGES.otherEvent(answer.other_event)
              : DOOR_MESSAGES.unknownTicket,
          result: 'UNKNOWN_TICKET' as const,
        },
      }
  }
}

const doorRoutes: FastifyPluginAsyncZod = async (app) => {
  const door = app.doorRepository
  const limit = { rateLimit: app.rateLimits.door }

  app.route({
    ...declared(CALLS.doorEvents),
    handler: async (request) => ({ error: false as const, events: await door.events(request.userId) }),
  })

  app.route({
    ...declared(CALLS.doorTickets),
    config: limit,
    handler: async (request) => ({ error: false as const, ...valueOf(await door.tickets(request.userId, request.body.event_id)) }),
  })

  // A scan in and a scan out (issue 25 item 3): the same body and answers, another repository call.
  for (const [call, scan] of [
    [CALLS.checkIn, door.checkIn],
    [CALLS.checkOut, door.checkOut],
  ] as const) {
    app.route({
      ...declared(call),
      config: limit,
      handler: async (request, reply) => {
        const { event_id, ticket_code, scan_id, gate } = request.body
        const answer = valueOf(await scan(request.userId, { eventId: event_id, ticketCode: ticket_code, scanId: scan_id.toLowerCase(), gate }))
        app.metrics.checkIn(answer.result, 'scan')
        const { status, body } = scanReply(answer)
        if (status === 200) return body
        return reply.status(status).send(body)
      },
    })
  }

  app.route({
    ...declared(CALLS.undoCheckIn),
    config: limit,
    handler: async (request) => {
      valueOf(await door.undo(request.userId, request.body.event_id, request.body.ticket_code))
      return { error: false as const, message: DOOR_MESSAGES.undone }
    },
  })

  app.route({
    ...declared(CALLS.doorSync),
    config: limit,
    handler: async (request) => {
      const scans = request.body.scans.map((s) => ({ ...s, scan_id: s.scan_id.toLowerCase() }))
      const results = valueOf(await door.sync(request.userId, request.body.event_id, scans))
      for (const r of results) app.metrics.checkIn(r.result, 'sync')
      return { error: false as const, results: results.map((r) => ({ ...scanReply(r).body, scan_id: r.scan_id })) }
    },
  })
}

export default doorRoutes
