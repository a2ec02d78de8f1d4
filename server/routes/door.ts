// The door's calls (API.md Part 2 "At the door"): the events, the ticket list for offline checking, check-in,
// its undo, and the sync of offline scans. Who may call them and every rule are in server/db/door/door.ts.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { declared } from './declare.ts'
import { DOOR_MESSAGES, doorReply, valueOf } from './outcomes.ts'

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
        const { status, body } = doorReply(answer)
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
      return { error: false as const, results: results.map((r) => doorReply(r).body) }
    },
  })
}

export default doorRoutes
