// The bearer check every /p/ route runs before its handler (registered once, for the scope of the /p/ routes).
// The per-student rate limit it counts is the rate-limit plugin's, passed in (plugins/auth.ts): auth/ imports no
// plugin.
import type { FastifyReply, FastifyRequest } from 'fastify'
import { unauthorized } from '../errors.ts'
import type { AccessTokens } from './tokens.ts'
import type { Revocations } from './revocations.ts'

/** A per-student limit the bearer check counts in the revocation check's Redis round trip (plugins/rate-limit.ts). */
export interface StudentCounting<Rule extends { windowSeconds: number }> {
  /** The route's rule, if the bearer check is to count it. */
  ruleOf(request: FastifyRequest): Rule | undefined
  /** The counter's key for a student. */
  key(rule: Rule, userId: number): string
  /** Headers, and past the limit the 429 (thrown). */
  answer(request: FastifyRequest, reply: FastifyReply, rule: Rule, current: number, ttlMs: number): void
}

export function requireUser<Rule extends { windowSeconds: number }>(tokens: AccessTokens, revoked?: Revocations, counting?: StudentCounting<Rule>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization
    const match = typeof header === 'string' ? /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header) : null
    const claims = tokens.claims(match?.[1])
    if (claims === null) throw unauthorized()
    // A per-student limited route with Redis: the revocation check and the count in one round trip.
    const rule = revoked?.checkAndCount ? counting?.ruleOf(request) : undefined
    if (rule && counting && revoked?.checkAndCount) {
      const counted = await revoked.checkAndCount(claims.sessionId, { key: counting.key(rule, claims.userId), windowMs: rule.windowSeconds * 1000 })
      if (counted?.revoked) throw unauthorized()
      request.userId = claims.userId
      request.countedWithBearer = true
      if (counted) counting.answer(request, reply, rule, counted.current, counted.ttlMs)
      return
    }
    // A session ended by logout or by a replayed refresh token: its access tokens stop working at once.
    if (claims.sessionId && revoked && (await revoked.isRevoked(claims.sessionId))) throw unauthorized()
    request.userId = claims.userId
  }
}
