// Rate limits (issue 6): per student on writes, per address on sign-in. Fixed windows counted in Redis
// when REDIS_URL is set (every instance behind the proxy shares the counters), in memory otherwise.
// The limits and the reasoning behind them are in docs/deployment.md.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { tooManyRequests } from '../errors.ts'
import type { Redis } from '../redis.ts'
import { userIdOf } from '../http.ts'
import { global } from './global.ts'

export interface Rule {
  limit: number
  windowSeconds: number
}

export interface RateLimits {
  /** Register, claim, rate, team calls, profile update: per student, all together. */
  writes: Rule
  /** GET /auth/google, its callback, the development form: per client address. */
  signIn: Rule
  /** POST /auth/refresh-token: per client address (a campus NAT puts many students on one). */
  refresh: Rule
}

export const RATE_LIMITS: RateLimits = {
  writes: { limit: 30, windowSeconds: 60 },
  signIn: { limit: 60, windowSeconds: 60 },
  refresh: { limit: 300, windowSeconds: 60 },
}

export interface Counters {
  /** Counts one hit on `key` and answers the count in the current window and the seconds until it ends. */
  hit(key: string, windowSeconds: number): Promise<{ count: number; resetSeconds: number }>
  close(): void
}

export function memoryCounters(now = () => Date.now()): Counters {
  const windows = new Map<string, { count: number; resetAt: number }>()
  // Expired windows are dropped once a minute, so a flood of addresses cannot grow the map without end.
  const sweep = setInterval(() => {
    const t = now()
    for (const [key, w] of windows) if (w.resetAt <= t) windows.delete(key)
  }, 60_000)
  sweep.unref()
  return {
    async hit(key, windowSeconds) {
      const t = now()
      let w = windows.get(key)
      if (!w || w.resetAt <= t) windows.set(key, (w = { count: 0, resetAt: t + windowSeconds * 1000 }))
      w.count += 1
      return { count: w.count, resetSeconds: Math.max(1, Math.ceil((w.resetAt - t) / 1000)) }
    },
    close: () => clearInterval(sweep),
  }
}

// INCR, and start the window's expiry on the first hit: one atomic step on the Redis server.
const HIT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`

export function redisCounters(redis: Redis, prefix: string): Counters {
  const hit = redis.script(HIT)
  return {
    async hit(key, windowSeconds) {
      const [count, ttl] = (await hit([prefix + key], [windowSeconds * 1000])) as number[]
      return { count, resetSeconds: Math.max(1, Math.ceil(ttl / 1000)) }
    },
    close() {},
  }
}

const WRITES = new Set(
  ['/user/p/update', '/event/p/register-for-event', '/event/p/claim-ticket', '/event/p/rate', '/event/p/create-team', '/event/p/join-team', '/event/p/remove-from-team', '/event/p/delete-team'].map(
    (p) => '/api/v1' + p,
  ),
)
const SIGN_IN = new Set(['/auth/google', '/auth/google/callback', '/auth/dev'].map((p) => '/api/v1' + p))
const REFRESH = '/api/v1/auth/refresh-token'

/** The route's pattern without a trailing slash (the team calls are registered both ways). */
function routeOf(request: FastifyRequest): string {
  const url = request.routeOptions.url ?? ''
  return url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url
}

export const rateLimit = global(async (app: FastifyInstance, { limits, counters }: { limits: RateLimits; counters: Counters }) => {
  async function check(request: FastifyRequest, reply: FastifyReply, bucket: keyof RateLimits, who: string) {
    const rule = limits[bucket]
    let result: { count: number; resetSeconds: number }
    try {
      result = await counters.hit(`${bucket}:${who}`, rule.windowSeconds)
    } catch (err) {
      // Counting failed (Redis down): let the request through rather than turn an outage of the limiter
      // into an outage of the app during a rush; the write paths stay correct without it.
      request.log.error({ err, bucket }, 'rate limit counter unavailable; request allowed')
      return
    }
    reply.header('x-ratelimit-limit', String(rule.limit))
    reply.header('x-ratelimit-remaining', String(Math.max(0, rule.limit - result.count)))
    if (result.count > rule.limit) {
      request.log.warn({ bucket, who, limit: rule.limit, windowSeconds: rule.windowSeconds, retryAfter: result.resetSeconds }, 'rate limited')
      throw tooManyRequests(result.resetSeconds, 'Too many requests. Please wait a moment and try again.')
    }
  }

  // Per address before anything else is done for the request (trustProxy makes request.ip the client's).
  app.addHook('onRequest', async (request, reply) => {
    const route = routeOf(request)
    if (SIGN_IN.has(route)) await check(request, reply, 'signIn', request.ip)
    else if (route === REFRESH) await check(request, reply, 'refresh', request.ip)
  })
  // Per student after the route's own onRequest hook has checked the bearer token.
  app.addHook('preHandler', async (request, reply) => {
    if (WRITES.has(routeOf(request))) await check(request, reply, 'writes', `user:${userIdOf(request)}`)
  })
  app.addHook('onClose', async () => counters.close())
})
