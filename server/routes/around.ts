// Give back, ticket transfer, waitlist, push subscriptions and the organiser's message (API.md Part 2 "Around the event").
import { rupees } from '../../contract/payment-rules.ts'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { badRequest, tooManyRequests } from '../errors.ts'
import { endpointAllowed, PRIVATE_ENDPOINT_MESSAGE } from '../push/endpoint.ts'
import { declared } from './declare.ts'
import { AROUND_MESSAGES, refusal, valueOf } from './outcomes.ts'

/** The /p/ calls (inside the bearer scope). */
export const aroundSignedInRoutes: FastifyPluginAsyncZod = async (app) => {
  const writes = { rateLimit: app.rateLimits.writes }
  const kick = () => void app.aroundJobs.tick() // offers made: their notifications go out now, not at the next tick

  app.route({
    ...declared(CALLS.releaseTicket),
    config: writes,
    handler: async (request) => {
      const { offered, refund } = valueOf(await app.waitlistRepository.release(request.userId, request.body.event_id))
      if (offered.length > 0) kick()
      return { error: false as const, message: refund > 0 ? AROUND_MESSAGES.releasedRefund(rupees(refund)) : AROUND_MESSAGES.released }
    },
  })

  app.route({
    ...declared(CALLS.transferTicket),
    config: writes,
    handler: async (request) => {
      const { event_id, email } = request.body
      // Tries at someone who cannot receive the ticket are limited (issue 36 item 5): at the limit nothing is looked
      // up. Only such a try is counted, after its answer (which is the same whatever the reason, so a burst past the
      // limit learns nothing either), so any other refusal writes nothing at all.
      const key = `transfer:${request.userId}`
      const state = await app.transferMisses.peek(key)
      if (!state.allowed) {
        const minutes = Math.ceil(state.retryAfterSeconds / 60)
        throw tooManyRequests(
          state.retryAfterSeconds,
          `Too many tries to give a ticket to someone who cannot receive it. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
          'TOO_MANY_TRANSFER_MISSES',
        )
      }
      const outcome = await app.transfersRepository.transfer(request.userId, event_id, email)
      if (!outcome.ok && outcome.refusal === 'friendCannotReceive') await app.transferMisses.hit(key)
      const { to, transfers_left } = valueOf(outcome)
      kick() // the friend's notification goes out now
      return { error: false as const, message: AROUND_MESSAGES.transferred(to), to, transfers_left }
    },
  })

  app.route({
    ...declared(CALLS.waitlist),
    config: writes,
    handler: async (request) => {
      const { event_id, join } = request.body
      if (join) {
        const position = valueOf(await app.waitlistRepository.join(request.userId, event_id))
        return { error: false as const, position, message: AROUND_MESSAGES.joined }
      }
      const { left, offered } = valueOf(await app.waitlistRepository.leave(request.userId, event_id))
      if (offered.length > 0) kick()
      return { error: false as const, message: left ? AROUND_MESSAGES.left : AROUND_MESSAGES.notOnList }
    },
  })

  app.route({
    ...declared(CALLS.pushSubscribe),
    config: writes,
    handler: async (request) => {
      if (!endpointAllowed(request.body.subscription.endpoint, app.pushEndpoints)) throw badRequest(PRIVATE_ENDPOINT_MESSAGE)
      valueOf(await app.pushRepository.subscribe(request.userId, request.body.subscription))
      return { error: false as const }
    },
  })

  app.route({
    ...declared(CALLS.pushUnsubscribe),
    config: writes,
    handler: async (request) => {
      await app.pushRepository.unsubscribe(request.userId, request.body.endpoint)
      return { error: false as const }
    },
  })

  app.route({
    ...declared(CALLS.orgNotify),
    config: writes,
    handler: async (request) => {
      const { event_id, title, body, to } = request.body
      const access = await app.rolesRepository.eventAccess(request.userId, event_id)
      // No such event: 404 for an organiser, the same 403 as for a known event for anyone else (org.ts, unknownEvent).
      if (!access && !(await app.orgRepository.hasOrganiserRole(request.userId))) throw refusal('notOrganiser')
      const { sent, in_app } = valueOf(await app.pushRepository.organiserMessage(request.userId, access, { eventId: event_id, title, body, to }))
      kick()
      return { error: false as const, sent, in_app }
    },
  })

  app.route({
    ...declared(CALLS.orgNotifyStatus),
    handler: async (request) => {
      const { event_id } = request.body
      const access = await app.rolesRepository.eventAccess(request.userId, event_id)
      if (!access && !(await app.orgRepository.hasOrganiserRole(request.userId))) throw refusal('notOrganiser')
      return { error: false as const, ...valueOf(await app.pushRepository.notifyStatus(access, event_id)) }
    },
  })
}

/** The public call: the VAPID key the app subscribes with. */
export const aroundPublicRoutes: FastifyPluginAsyncZod = async (app) => {
  app.route({
    ...declared(CALLS.pushKey),
    handler: async () => ({ error: false as const, publicKey: app.vapid.publicKey }),
  })
}
