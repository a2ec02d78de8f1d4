// Redis out of reach while a student tries invite codes (issue 23 item 2: the limiter is domain code and throws its
// own error, not an HTTP one): the join is refused for now, never let through uncounted, and the error handler
// answers it as before: 503 with Retry-After and the limiter's words.
import Fastify from 'fastify'
import { Redis } from 'ioredis'
import { afterAll, describe, expect, it } from 'vitest'
import { AttemptsUnavailable, JOIN_ATTEMPTS } from '../../server/db/people/attempts.ts'
import { errors } from '../../server/plugins/errors.ts'
import { redisAttemptLimiter } from '../../server/teams/redis-attempt-limiter.ts'

// Port 1 answers nothing; no offline queue and no retries: each command fails at once, as with Redis down.
const away = new Redis({ host: '127.0.0.1', port: 1, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null })
afterAll(() => away.disconnect())

describe('the invite-code limiter with Redis away', () => {
  const limiter = redisAttemptLimiter(away, JOIN_ATTEMPTS, 'test:attempts:')

  it('refuses each step with AttemptsUnavailable (nothing let through uncounted)', async () => {
    for (const step of [() => limiter.hit('user:1'), () => limiter.peek('user:1'), () => limiter.refund('user:1')]) {
      const err = await step().then(
        () => null,
        (e: unknown) => e,
      )
      expect(err).toBeInstanceOf(AttemptsUnavailable)
      expect(err).toMatchObject({ message: 'Joining teams is briefly unavailable. Please try again in a minute.', retryAfterSeconds: 30 })
    }
  })

  it('is answered 503 with Retry-After by the error handler', async () => {
    const app = Fastify()
    await app.register(errors)
    app.post('/join', async () => limiter.hit('user:2'))
    const res = await app.inject({ method: 'POST', url: '/join' })
    expect(res.statusCode).toBe(503)
    expect(res.headers['retry-after']).toBe('30')
    expect(res.json()).toEqual({ error: true, message: 'Joining teams is briefly unavailable. Please try again in a minute.', code: 'UNAVAILABLE' })
    await app.close()
  })
})
