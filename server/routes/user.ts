// The signed-in user's own profile (API.md "user" rows): read it, and write the onboarding fields.
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import { COLLEGE, DEGREE } from '../../contract/constants.ts'
import { branchFromWire, branchToWire } from '../../contract/profile-options.ts'
import { MESSAGES, firstError, onboardingPayload, type OnboardingPayload } from '../../contract/schemas.ts'
import type { Deps } from '../deps.ts'
import { users } from '../db/schema.ts'
import { badRequest, conflict, forbidden, isUniqueViolation, unauthorized } from '../errors.ts'
import { bodyOf, idFrom, userIdOf } from '../http.ts'
import { requireUser } from '../auth/hook.ts'
import { findUser, toWireUser } from '../auth/users.ts'

export const UPDATE_MESSAGES = {
  updated: 'Profile updated',
  notYours: 'You can only update your own profile.',
  degree: `Degree must be '${DEGREE}'`,
  college: `College must be '${COLLEGE}'`,
} as const

const absent = (v: unknown) => v === undefined || v === null

export default async function userRoutes(app: FastifyInstance, { deps }: { deps: Deps }) {
  await app.register(async (p) => {
    p.addHook('onRequest', requireUser(deps.tokens))

    p.post('/p/me', async (request) => {
      const user = await findUser(deps.db, userIdOf(request))
      // A valid token of a user who no longer exists is as good as no token.
      if (!user) throw unauthorized()
      return { error: false, user: toWireUser(user) }
    })

    p.post('/p/update', async (request) => {
      const me = userIdOf(request)
      const body = bodyOf(request)
      if (!absent(body.id) && idFrom(body.id, 'id') !== me) throw forbidden(UPDATE_MESSAGES.notYours)
      const problem = firstError(onboardingPayload, body)
      if (problem) throw badRequest(problem)
      if (!absent(body.degree) && body.degree !== DEGREE) throw badRequest(UPDATE_MESSAGES.degree)
      if (!absent(body.college) && body.college !== COLLEGE) throw badRequest(UPDATE_MESSAGES.college)

      // Only the listed fields, taken from the parsed payload: anything else in the body is never written.
      const p = onboardingPayload.parse(body) as OnboardingPayload
      const [row] = await deps.db
        .update(users)
        .set({
          phoneNumber: p.phone_number,
          rollNumber: p.roll_number.trim(),
          gender: p.gender,
          year: p.year,
          branch: branchToWire(branchFromWire(p.branch)),
          interests: [...new Set(p.interests)],
          degree: DEGREE,
          college: COLLEGE,
          updatedAt: new Date(),
        })
        .where(eq(users.id, me))
        .returning()
        // The unique indexes decide who holds a number (migration 0003), however close two students' updates are.
        .catch((err: unknown) => {
          if (isUniqueViolation(err, 'users_phone_number')) throw conflict(MESSAGES.phoneTaken)
          if (isUniqueViolation(err, 'users_roll_number')) throw conflict(MESSAGES.rollTaken)
          throw err
        })
      if (!row) throw unauthorized()
      return { error: false, message: UPDATE_MESSAGES.updated, user: toWireUser(row) }
    })
  })
}
