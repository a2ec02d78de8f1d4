// The signed-in student's own profile (API.md "user" rows): read it, and write the onboarding fields; and their
// inbox (contract/inbox.ts): a page of their messages, and read marks up to an id. Only the caller's own, always.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { COLLEGE, DEGREE } from '../../contract/constants.ts'
import { branchFromWire, branchToWire } from '../../contract/profile-options.ts'
import { toWireUser } from '../db/people/users.ts'
import { forbidden } from '../errors.ts'
import { declared } from './declare.ts'
import { USER_MESSAGES, refusal, valueOf } from './outcomes.ts'

const userRoutes: FastifyPluginAsyncZod = async (app) => {
  const users = app.usersRepository

  app.route({
    ...declared(CALLS.me),
    handler: async (request) => {
      const [user, roles, unread] = await Promise.all([
        users.find(request.userId),
        app.rolesRepository.of(request.userId),
        app.inboxRepository.unread(request.userId),
      ])
      if (!user) throw refusal('userNotFound')
      return { error: false as const, user: toWireUser(user, roles), unread }
    },
  })

  // A read, like /user/p/me: no limit of its own beyond the global one.
  app.route({
    ...declared(CALLS.inbox),
    handler: async (request) => ({ error: false as const, ...(await app.inboxRepository.page(request.userId, request.body.before ?? null)) }),
  })

  // Read marks change rows: counted with the student's other writes.
  app.route({
    ...declared(CALLS.inboxRead),
    config: { rateLimit: app.rateLimits.writes },
    handler: async (request) => ({ error: false as const, unread: await app.inboxRepository.markRead(request.userId, request.body.up_to) }),
  })

  app.route({
    ...declared(CALLS.updateProfile),
    config: { rateLimit: app.rateLimits.writes },
    handler: async (request) => {
      const p = request.body
      if (p.id != null && p.id !== request.userId) throw forbidden('NOT_YOUR_PROFILE', USER_MESSAGES.notYours)
      // Only the listed fields, from the validated body: anything else in the request is never written.
      const row = valueOf(
        await users.updateProfile(request.userId, {
          phoneNumber: p.phone_number,
          rollNumber: p.roll_number.trim(),
          gender: p.gender,
          year: p.year,
          branch: branchToWire(branchFromWire(p.branch)),
          interests: [...new Set(p.interests)],
          degree: DEGREE,
          college: COLLEGE,
        }),
      )
      return { error: false as const, message: USER_MESSAGES.updated, user: toWireUser(row, await app.rolesRepository.of(request.userId)) }
    },
  })
}

export default userRoutes
