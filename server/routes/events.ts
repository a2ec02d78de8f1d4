// The event calls of API.md (prefix /api/v1/event): lists, details and the student's actions on an event.
import type { FastifyInstance } from 'fastify'
import type { Deps } from '../deps.ts'
import { requireUser } from '../auth/hook.ts'
import { notFound } from '../errors.ts'
import { MAX_ID, bodyOf, idFrom, userIdOf } from '../http.ts'
import { getEventDetail, listEventsByState, listMyEvents } from '../events/repository.ts'
import { MESSAGES, claimTicket, rateEvent, ratingFrom, registerForEvent } from '../events/actions.ts'

export default async function eventsRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  const { db } = deps
  await app.register(async (p) => {
    p.addHook('onRequest', requireUser(deps.tokens))

    p.post('/p/get', async (request) => ({ error: false, events: await listEventsByState(db, userIdOf(request)) }))

    // Registered before /p/get/:id; find-my-way prefers the static path whatever the order.
    p.post('/p/get/me', async (request) => ({ error: false, events: await listMyEvents(db, userIdOf(request)) }))

    p.post('/p/get/:id', async (request) => {
      const raw = (request.params as { id: string }).id
      // A path that names no event, such as /p/get/abc or /p/get/-1, is an unknown event, not a bad body.
      // Past MAX_ID no row can exist, and the number must not reach an integer column.
      const id = /^\d{1,10}$/.test(raw) ? Number(raw) : 0
      const event = id > 0 && id <= MAX_ID ? await getEventDetail(db, id, userIdOf(request)) : null
      if (!event) throw notFound(MESSAGES.eventNotFound)
      return { error: false, event }
    })

    p.post('/p/register-for-event', async (request) => {
      const eventId = idFrom(bodyOf(request).event_id, 'event_id')
      await registerForEvent(db, userIdOf(request), eventId)
      return { error: false, message: MESSAGES.registered }
    })

    p.post('/p/claim-ticket', async (request) => {
      const eventId = idFrom(bodyOf(request).event_id, 'event_id')
      const ticket_code = await claimTicket(db, userIdOf(request), eventId)
      return { error: false, message: MESSAGES.ticketClaimed, ticket_code }
    })

    p.post('/p/rate', async (request) => {
      const body = bodyOf(request)
      const eventId = idFrom(body.event_id, 'event_id')
      const rating = ratingFrom(body.rating)
      await rateEvent(db, userIdOf(request), eventId, rating)
      return { error: false, message: MESSAGES.rated }
    })
  })
}
