// The bearer check every /p/ route runs before its handler (registered once, for the scope of the /p/ routes).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { unauthorized } from '../errors.ts'
import type { AccessTokens } from './tokens.ts'

export function requireUser(tokens: AccessTokens) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const header = request.headers.authorization
    const match = typeof header === 'string' ? /^Bearer ([A-Za-z0-9_\-.]+)$/.exec(header) : null
    const userId = await tokens.verify(match?.[1])
    if (userId === null) throw unauthorized()
    request.userId = userId
  }
}
