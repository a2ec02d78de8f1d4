// The event calls of API.md: lists, details and the student's actions on an event.
import type { FastifyReply } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { notFound } from '../errors.ts'
import { declared } from './declare.ts'
import { drawKeyAnswers, holdRefusals } from './draw-keys.ts'
import { MESSAGES, refusal, valueOf } from './outcomes.ts'

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
      if (!event) throw refusal('eventNotFound')
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
      if (!keys || id === null) throw refusal('eventNotFound')
      if (keys === 'pending') throw notFound('DRAW_NOT_MADE', MESSAGES.notDrawnYet)
      return drawKeys.send(request, reply, await drawKeys.of(id, keys))
    },
    onSend: holdRefusals,
  })

  app.route({
    ...declared(CALLS.register),
    config: writes,
    handler: async (request) => {
      const held = valueOf(await events.register(request.userId, request.body.event_id, request.body.answers))
      // A paid event without tickets (issue 35): the registration is held until it is paid.
      if (held) return { error: false as const, result: 'PAYMENT_PENDING' as const, pay_by: held.payBy, message: MESSAGES.payBy(held.payBy) }
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
      const outcome = await app.claimsRepository.claim(request.userId, request.body.event_id, request.body.draw_nonce ?? undefined)
      // Refusals are counted before valueOf() throws them as their HTTP answer; a claim the draw kept waiting
      // (drawRunning, sent again a second later) is not counted, as before the retry moved into the repository.
      if (!outcome.ok && outcome.refusal !== 'drawRunning') app.metrics.claim(outcome)
      const claim = valueOf(outcome)
      if (claim.kind === 'held') {
        app.metrics.claim({ ok: true })
        return { error: false as const, result: 'PAYMENT_PENDING' as const, pay_by: claim.payBy, message: MESSAGES.payBy(claim.payBy) }
      }
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
