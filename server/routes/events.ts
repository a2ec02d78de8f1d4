// The event calls of API.md: lists, details and the student's actions on an event.
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { HttpError, notFound } from '../errors.ts'
import { declared } from './declare.ts'
import { drawKeyAnswers, holdRefusals } from './draw-keys.ts'
import { MESSAGES, valueOf } from './outcomes.ts'

const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  const events = app.eventsRepository
  const writes = { rateLimit: app.rateLimits.writes }

  app.route({
    ...declared(CALLS.events),
    handler: async (request) => ({ error: false as const, events: await events.listByState(request.userId, request.body) }),
  })

  // find-my-way prefers the static /get/me over /get/:id whatever the order.
  app.route({
    ...declared(CALLS.myEvents),
    handler: async (request) => ({ error: false as const, events: await events.listMine(request.userId) }),
  })

  // A fair opening's keys (issue 36 item 3): one answer per drawn event, made once (routes/draw-keys.ts), and at most
  // a few of them per student, with the event's `keys: true` (counted only when it asks for them).
  const drawKeys = drawKeyAnswers()
  const keysLimit = app.rateLimits.drawKeys

  app.route({
    ...declared(CALLS.event),
    config: { rateLimit: keysLimit && { ...keysLimit, allowList: (request) => (request.body as { keys?: unknown } | null)?.keys !== true } },
    handler: async (request, reply) => {
      const { id } = request.params
      const event = id === null ? null : await events.detail(id, request.userId, request.body?.keys === true)
      if (!event) throw notFound(MESSAGES.eventNotFound)
      const keys = event.fair_start?.keys ?? []
      if (id === null || !event.fair_start || keys.length === 0) return { error: false as const, event }
      const fair = event.fair_start
      const serialize = (k: string[]) => reply.serialize({ error: false, event: { ...event, fair_start: { ...fair, keys: k } } }) as string
      return drawKeys.sendWithKeys(request, reply as FastifyReply, serialize, await drawKeys.of(id, keys))
    },
    onSend: holdRefusals,
  })

  app.route({
    ...declared(CALLS.drawKeys),
    config: { rateLimit: keysLimit },
    // Sent precompressed, as made once: nothing for @fastify/compress to do.
    compress: false,
    handler: async (request, reply) => {
      const { id } = request.params
      const keys = id === null ? null : await events.drawKeys(id)
      if (!keys || id === null) throw notFound(MESSAGES.eventNotFound)
      if (keys === 'pending') throw notFound(MESSAGES.notDrawnYet)
      return drawKeys.send(request, reply, await drawKeys.of(id, keys))
    },
    onSend: holdRefusals,
  })

  app.route({
    ...declared(CALLS.register),
    config: writes,
    handler: async (request) => {
      valueOf(await events.register(request.userId, request.body.event_id, request.body.answers))
      return { error: false as const, message: MESSAGES.registered }
    },
  })

  app.route({
    ...declared(CALLS.claimTicket),
    config: writes,
    // The answer is under a hundred bytes, always below the compression threshold: no compression hook on the
    // rush's path (issue 15), where it would only read Accept-Encoding to decide not to compress.
    compress: false,
    handler: async (request) => {
      const eventId = request.body.event_id
      const nonce = request.body.draw_nonce ?? undefined
      let outcome = await app.claimsRepository.claim(request.userId, eventId, nonce)
      // A fair opening whose window has closed but whose draw has not run yet: run it (or wait for the instance
      // running it), then claim what is left, first come, first served. Once drawn, a claim never answers this.
      for (let tries = 0; outcome.ok && outcome.value.kind === 'drawPending' && tries < 3; tries++) {
        await app.fairDraws.drawNow(eventId)
        outcome = await app.claimsRepository.claim(request.userId, eventId, nonce)
      }
      // Refusals are counted before valueOf() throws them as their HTTP answer.
      if (!outcome.ok) app.metrics.claim(outcome)
      const claim = valueOf(outcome)
      if (claim.kind === 'drawPending') throw new HttpError(503, MESSAGES.drawRunning, { 'retry-after': '1' })
      if (claim.kind === 'entered') {
        app.metrics.claim({ ok: true, entered: true })
        return { error: false as const, result: 'IN_DRAW' as const, draw_at: claim.drawAt, message: MESSAGES.inDraw(claim.drawAt) }
      }
      app.metrics.claim({ ok: true })
      return { error: false as const, result: 'CLAIMED' as const, message: MESSAGES.ticketClaimed, ticket_code: claim.code }
    },
  })

  app.route({
    ...declared(CALLS.rate),
    config: writes,
    handler: async (request) => {
      valueOf(await events.rate(request.userId, request.body.event_id, request.body.rating))
      return { error: false as const, message: MESSAGES.rated }
    },
  })
}

export default eventRoutes
