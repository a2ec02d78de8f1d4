// Access tokens and the bearer check, for every route: `app.tokens` signs and verifies, `app.authenticate` is the
// onRequest hook of the /p/ scope, and `request.userId` is the signed-in student's id once it has run.
// `app.revocations` holds the sessions ended early (logout, a replayed refresh token): in Redis when there is one.
import type { onRequestAsyncHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { ACCESS_TOKEN_SECONDS, accessTokens, type AccessTokens } from '../auth/tokens.ts'
import { requireUser } from '../auth/hook.ts'
import { revocations, type Revocations } from '../auth/revocations.ts'
import { answerStudentCount, studentKey, studentRuleOf } from './rate-limit.ts'

declare module 'fastify' {
  interface FastifyInstance {
    tokens: AccessTokens
    revocations: Revocations
    authenticate: onRequestAsyncHookHandler
  }
  interface FastifyRequest {
    /** The signed-in student; set by `authenticate` on every /p/ route, 0 elsewhere. */
    userId: number
  }
}

export const auth = fp(
  async (app, { secret, accessTokenSeconds }: { secret: Uint8Array; accessTokenSeconds?: number }) => {
    const lifetime = accessTokenSeconds ?? ACCESS_TOKEN_SECONDS
    const tokens = accessTokens(secret, lifetime)
    const revoked = revocations({
      redis: app.redis,
      prefix: app.redisPrefix,
      // Kept a little longer than any access token signed before the revocation can live.
      ttlSeconds: lifetime + 60,
      onError: (err) => app.log.error({ err }, 'revocation check failed (Redis): token let through'),
    })
    app.decorate('tokens', tokens)
    app.decorate('revocations', revoked)
    app.decorate('authenticate', requireUser(tokens, revoked, { ruleOf: studentRuleOf, key: studentKey, answer: answerStudentCount }))
    app.decorateRequest('userId', 0)
  },
  { name: 'auth', dependencies: ['redis'] },
)
