// The bearer check every /p/ route runs before its handler (registered once, for the scope of the /p/ routes).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { unauthorized } from '../errors.ts'
import type { AccessTokens } from './tokens.ts'
import type { Revocations } from './revocations.ts'
import { answerStudentCount, studentKey, studentRuleOf } from '../plugins/rate-limit.ts'

export function requireUser(tokens: AccessTokens, revoked?: Revocations) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization
    const match = typeof header === 'string' ? /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header) : null
    const claims = tokens.claims(match?.[1])
    if (claims === null) throw unauthorized()
    // A per-student limited route with Redis: the revocation check and the count in one round trip.
    const rule = revoked?.checkAndCount ? studentRuleOf(request) : undefined
    if (rule && revoked?.checkAndCount) {
      const counted = await revoked.checkAndCount(claims.sessionId, { key: studentKey(rule, claims.userId), windowMs: rule.windowSeconds * 1000 })
      if (counted?.revoked) throw unauthorized()
      request.userId = claims.userId
      request.countedWithBearer = true
      if (counted) answerStudentCount(request, reply, rule, counted.current, counted.ttlMs)
      return
    }
    // A session ended by logout or by a replayed refresh token: its access tokens stop working at once.
    if (claims.sessionId && revoked && (await revoked.isRevoked(claims.sessionId))) throw unauthorized()
    request.userId = claims.userId
  }
}
