// The team calls of API.md: create-team, join-team, remove-from-team, delete-team (issue 4). Their paths end with
// a slash, as the app calls them; app.ts answers the same paths without it too.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { tooManyRequests } from '../errors.ts'
import { declared } from './declare.ts'
import { TEAM_MESSAGES, valueOf } from './outcomes.ts'

const teamRoutes: FastifyPluginAsyncZod = async (app) => {
  const teams = app.teamsRepository
  const writes = { rateLimit: app.rateLimits.writes }

  app.route({
    ...declared(CALLS.createTeam),
    config: writes,
    handler: async (request) => {
      const { event_id: eventId, team_name: name, answers } = request.body
      const team = valueOf(await teams.create({ eventId, userId: request.userId, name, answers }))
      return { error: false as const, message: TEAM_MESSAGES.created, team }
    },
  })

  app.route({
    ...declared(CALLS.joinTeam),
    config: writes,
    handler: async (request) => {
      const { event_id: eventId, invite_code: code, answers } = request.body
      const { userId } = request
      const key = `join:${userId}`
      // The attempt is reserved before anything is looked up, so a student at the limit learns nothing and
      // changes nothing, and a burst of parallel guesses cannot all pass a check made before any was counted.
      const state = await app.joinAttempts.hit(key)
      if (!state.allowed) {
        const minutes = Math.ceil(state.retryAfterSeconds / 60)
        throw tooManyRequests(
          state.retryAfterSeconds,
          `Too many wrong invite codes. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
          'TOO_MANY_WRONG_CODES',
        )
      }
      let wrongCode = false
      try {
        const joined = await teams.join({ eventId, userId, code, answers })
        wrongCode = !joined.ok && joined.refusal === 'unknownCode'
        return { error: false as const, message: TEAM_MESSAGES.joined, team: valueOf(joined) }
      } finally {
        // Only a wrong code is a failed guess; any other outcome hands the reserved attempt back.
        if (!wrongCode) await app.joinAttempts.refund(key)
      }
    },
  })

  app.route({
    ...declared(CALLS.removeFromTeam),
    config: writes,
    handler: async (request) => {
      const { team_id: teamId, user_id: userId } = request.body
      valueOf(await teams.removeMember({ callerId: request.userId, teamId, userId }))
      return { error: false as const, message: TEAM_MESSAGES.removed }
    },
  })

  app.route({
    ...declared(CALLS.deleteTeam),
    config: writes,
    handler: async (request) => {
      const { event_id: eventId, team_id: teamId } = request.body
      valueOf(await teams.delete({ callerId: request.userId, eventId, teamId }))
      return { error: false as const, message: TEAM_MESSAGES.deleted }
    },
  })
}

export default teamRoutes
