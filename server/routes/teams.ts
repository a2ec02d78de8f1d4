// The team calls of API.md: create-team, join-team, remove-from-team, delete-team (issue 4).
// Each path answers with and without its trailing slash: the app calls `/p/create-team/`, and the
// router's `ignoreTrailingSlash` is a global switch, so both forms are registered here.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createTeamForm, firstError, joinTeamForm } from '../../contract/schemas.ts'
import { requireUser } from '../auth/hook.ts'
import type { Deps } from '../deps.ts'
import { badRequest, tooManyRequests } from '../errors.ts'
import { bodyOf, idFrom, userIdOf } from '../http.ts'
import { JOIN_ATTEMPTS, databaseAttemptLimiter, type AttemptLimiter } from '../teams/attempt-limiter.ts'
import { randomInviteCode, type InviteCodeGenerator } from '../teams/invite-codes.ts'
import { UnknownInviteCode, createTeam, deleteTeam, joinTeam, removeMember } from '../teams/repository.ts'

export interface TeamRouteOptions {
  deps: Deps
  /** Failed invite-code attempts; the database by default, Redis when several instances share one (issue 6). */
  joinLimiter?: AttemptLimiter
  inviteCode?: InviteCodeGenerator
}

type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>

export default async function teamsRoutes(app: FastifyInstance, { deps, joinLimiter, inviteCode }: TeamRouteOptions) {
  const limiter = joinLimiter ?? databaseAttemptLimiter(deps.db, JOIN_ATTEMPTS)
  const generate = inviteCode ?? randomInviteCode

  await app.register(async (p) => {
    p.addHook('onRequest', requireUser(deps.tokens))
    const post = (path: string, handler: Handler) => {
      p.post(path, handler)
      p.post(`${path}/`, handler)
    }

    post('/p/create-team', async (request) => {
      const body = bodyOf(request)
      const eventId = idFrom(body.event_id, 'event_id')
      const invalid = firstError(createTeamForm, { team_name: body.team_name })
      if (invalid) throw badRequest(invalid)
      const team = await createTeam(
        deps.db,
        { eventId, userId: userIdOf(request), name: body.team_name as string },
        generate,
      )
      return { error: false, message: 'Team created', team }
    })

    post('/p/join-team', async (request) => {
      const body = bodyOf(request)
      const eventId = idFrom(body.event_id, 'event_id')
      const invalid = firstError(joinTeamForm, { invite_code: body.invite_code })
      if (invalid) throw badRequest(invalid)
      const userId = userIdOf(request)
      const key = `join:${userId}`
      // The attempt is reserved before anything is looked up, so a student at the limit learns nothing and
      // changes nothing, and a burst of parallel guesses cannot all pass a check made before any was counted.
      const state = await limiter.hit(key)
      if (!state.allowed) {
        const minutes = Math.ceil(state.retryAfterSeconds / 60)
        throw tooManyRequests(
          state.retryAfterSeconds,
          `Too many wrong invite codes. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        )
      }
      let wrongCode = false
      try {
        const team = await joinTeam(deps.db, { eventId, userId, code: body.invite_code as string })
        return { error: false, message: 'Joined team', team }
      } catch (err) {
        wrongCode = err instanceof UnknownInviteCode
        throw err
      } finally {
        // Only a wrong code is a failed guess; any other outcome hands the reserved attempt back.
        if (!wrongCode) await limiter.refund(key)
      }
    })

    post('/p/remove-from-team', async (request) => {
      const body = bodyOf(request)
      const teamId = idFrom(body.team_id, 'team_id')
      const userId = idFrom(body.user_id, 'user_id')
      await removeMember(deps.db, { callerId: userIdOf(request), teamId, userId })
      return { error: false, message: 'Member removed' }
    })

    post('/p/delete-team', async (request) => {
      const body = bodyOf(request)
      const eventId = idFrom(body.event_id, 'event_id')
      const teamId = idFrom(body.team_id, 'team_id')
      await deleteTeam(deps.db, { callerId: userIdOf(request), eventId, teamId })
      return { error: false, message: 'Team deleted' }
    })
  })
}
