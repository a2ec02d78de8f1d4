// Access tokens and the bearer check, for every route: `app.tokens` signs and verifies, `app.authenticate` is the
// onRequest hook of the /p/ scope, and `request.userId` is the signed-in student's id once it has run.
import type { onRequestAsyncHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { accessTokens, type AccessTokens } from '../auth/tokens.ts'
import { requireUser } from '../auth/hook.ts'

declare module 'fastify' {
  interface FastifyInstance {
    tokens: AccessTokens
    authenticate: onRequestAsyncHookHandler
  }
  interface FastifyRequest {
    /** The signed-in student; set by `authenticate` on every /p/ route, 0 elsewhere. */
    userId: number
  }
}

export const auth = fp(
  async (app, { secret, accessTokenSeconds }: { secret: Uint8Array; accessTokenSeconds?: number }) => {
    const tokens = accessTokens(secret, accessTokenSeconds)
    app.decorate('tokens', tokens)
    app.decorate('authenticate', requireUser(tokens))
    app.decorateRequest('userId', 0)
  },
  { name: 'auth' },
)
