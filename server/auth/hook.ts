// The bearer check every /p/ route runs before its handler (registered once, for the scope of the /p/ routes).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { unauthorized } from '../errors.ts'
import type { AccessTokens } from './tokens.ts'
import type { Revocations } from './revocations.ts'

export function requireUser(tokens: AccessTokens, revoked?: Revocations) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const header = request.headers.authorization
    const match = typeof header === 'string' ? /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header) : null
    const claims = tokens.claims(match?.[1])
    if (claims === null) throw unauthorized()
    // A session ended by logout or by a replayed refresh token: its access tokens stop working at once.
    if (claims.sessionId && revoked && (await revoked.isRevoked(claims.sessionId))) throw unauthorized()
    request.userId = claims.userId
  }
}
