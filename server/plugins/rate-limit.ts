// Rate limits (issue 6) through @fastify/rate-limit: each route names its limit in `config.rateLimit`
// (app.rateLimits.writes, .signIn, .refresh), so a renamed or new route cannot silently lose it. Writes are
// counted per student (after the bearer check: the key is the user id), sign-in and refresh per client address.
// Counters live in Redis when there is one (every instance behind the proxy shares them), in memory otherwise.
// The limits and the reasoning behind them are in docs/deployment.md.
import { createRequire } from 'node:module'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import rateLimitPlugin, { type FastifyRateLimitStore, type RateLimitOptions } from '@fastify/rate-limit'
import { tooManyRequests } from '../errors.ts'
import { clientAddress } from './client-address.ts'

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
  /** The door's calls (check-in, sync, undo, the ticket list): per volunteer, a gate's pace in a rush. */
  door?: Rule
  /**
   * The calendar feed (a public GET): per client address, in a bucket of its own (issue 21 item 12): a calendar
   * service (Google Calendar) fetches the feeds of many students from one address. RATE_LIMITS' when not given.
   */
  calendar?: Rule
  /** The certificate check /verify (a public GET): per client address; RATE_LIMITS' when not given. */
  verify?: Rule
  /**
   * A fair opening's draw keys (issue 36 item 3: 1.3 MB at 20,000 entrants), GET /event/p/draw-keys and the event's
   * `keys: true`: per student. The draw page asks once, and the phone keeps the answer; RATE_LIMITS' when not given.
   */
  drawKeys?: Rule
}

export const RATE_LIMITS: RateLimits = {
  writes: { limit: 30, windowSeconds: 60 },
  signIn: { limit: 60, windowSeconds: 60 },
  refresh: { limit: 300, windowSeconds: 60 },
  door: { limit: 600, windowSeconds: 60 },
  calendar: { limit: 600, windowSeconds: 60 },
  verify: { limit: 60, windowSeconds: 60 },
  drawKeys: { limit: 10, windowSeconds: 600 },
}

const DOOR_DEFAULT: Rule = { limit: 600, windowSeconds: 60 }

declare module 'fastify' {
  interface FastifyInstance {
    /** The `config.rateLimit` of each kind of route; `false` when the limits are off (tests that flood). */
    rateLimits: Record<keyof RateLimits, RateLimitOptions | false>
  }
  interface FastifyRequest {
    /** Set by the bearer check when it counted this request's per-student limit itself (see StudentRule). */
    countedWithBearer?: boolean
  }
}

/**
 * A per-student limit (writes, door) with Redis: the bearer check (auth/hook.ts) counts it in the same Redis
 * round trip as the revocation check (auth/revocations.ts checkAndCount), and @fastify/rate-limit lets such a
 * request through uncounted (allowList). Same key, same counting, same answers (headers, 429, log) as the plugin.
 */
export interface StudentRule {
  bucket: 'writes' | 'door'
  limit: number
  windowSeconds: number
}

/** The per-student rule of the route this request is for, if the bearer check is to count it. */
export function studentRuleOf(request: FastifyRequest): StudentRule | undefined {
  return (request.routeOptions.config as { rateLimit?: { perStudent?: StudentRule } } | undefined)?.rateLimit?.perStudent
}

/** The counter key of a student in a bucket (the plugin's key: `${bucket}:user:${id}`). */
export const studentKey = (rule: StudentRule, userId: number) => `${rule.bucket}:user:${userId}`

/** What @fastify/rate-limit does with a count: the headers, and past the limit a logged 429 with Retry-After. */
export function answerStudentCount(request: FastifyRequest, reply: FastifyReply, rule: StudentRule, current: number, ttlMs: number) {
  if (current > rule.limit) {
    reply.header('x-ratelimit-limit', rule.limit).header('x-ratelimit-remaining', 0)
    request.log.warn({ bucket: rule.bucket, who: `user:${request.userId}`, limit: rule.limit, windowSeconds: rule.windowSeconds }, 'rate limited')
    throw tooManyRequests(Math.ceil(ttlMs / 1000), TOO_MANY)
  }
  reply.header('x-ratelimit-limit', rule.limit).header('x-ratelimit-remaining', rule.limit - current)
}

export const TOO_MANY = 'Too many requests. Please wait a moment and try again.'

// The plugin's own stores. Its child() gives every route counters of its own; a student's writes are one
// budget across every write call, so every route shares one store here and the key names the bucket.
const require = createRequire(import.meta.url)
type StoreCtor = new (continueExceeding: boolean, exponentialBackoff: boolean, ...rest: unknown[]) => FastifyRateLimitStore
const RedisStore: StoreCtor = require('@fastify/rate-limit/store/RedisStore.js')
const LocalStore: StoreCtor = require('@fastify/rate-limit/store/LocalStore.js')

export const rateLimit = fp(
  async (app, { limits }: { limits: RateLimits | false }) => {
    const who = {
      writes: (r: FastifyRequest) => `user:${r.userId}`,
      signIn: clientAddress,
      refresh: clientAddress,
      door: (r: FastifyRequest) => `user:${r.userId}`,
      calendar: clientAddress,
      verify: clientAddress,
      drawKeys: (r: FastifyRequest) => `user:${r.userId}`,
    }
    const rule = (bucket: keyof RateLimits): RateLimitOptions | false => {
      if (!limits) return false
      const { limit, windowSeconds } = limits[bucket] ?? RATE_LIMITS[bucket] ?? DOOR_DEFAULT
      const perStudent: StudentRule | undefined = app.redis && (bucket === 'writes' || bucket === 'door') ? { bucket, limit, windowSeconds } : undefined
      return {
        ...(perStudent ? { perStudent, allowList: (request: FastifyRequest) => request.countedWithBearer === true } : {}),
        max: limit,
        timeWindow: windowSeconds * 1000,
        keyGenerator: (request) => `${bucket}:${who[bucket](request)}`,
        // Per student after the route's bearer check (onRequest) and before validation, so a refused body
        // counts as a write too (and the event's `keys: true` can be told from its body); per address before
        // anything else is done.
        hook: bucket === 'writes' || bucket === 'door' || bucket === 'drawKeys' ? 'preValidation' : 'onRequest',
        onExceeded: (request, key) => request.log.warn({ bucket, who: key.slice(bucket.length + 1), limit, windowSeconds }, 'rate limited'),
      }
    }
    app.decorate('rateLimits', {
      writes: rule('writes'),
      signIn: rule('signIn'),
      refresh: rule('refresh'),
      door: rule('door'),
      calendar: rule('calendar'),
      verify: rule('verify'),
      drawKeys: rule('drawKeys'),
    })
    if (!limits) return

    const inner = app.redis ? new RedisStore(false, false, app.redis, `${app.redisPrefix}rate:`) : new LocalStore(false, false, 10_000)
    const shared: FastifyRateLimitStore = { incr: inner.incr.bind(inner), child: () => shared }
    await app.register(rateLimitPlugin, {
      global: false,
      store: function SharedStore() {
        return shared
      } as unknown as new () => FastifyRateLimitStore,
      // Counting failed (Redis down): let the request through rather than turn an outage of the limiter into an
      // outage of the app during a rush; the write paths stay correct without it.
      skipOnError: true,
      // The headers the app may read, as before: the limit and what is left (Retry-After on a refusal).
      addHeadersOnExceeding: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': false },
      addHeaders: { 'x-ratelimit-limit': true, 'x-ratelimit-remaining': true, 'x-ratelimit-reset': false, 'retry-after': true },
      errorResponseBuilder: (_request, context) => tooManyRequests(Math.ceil(context.ttl / 1000), TOO_MANY),
    })
  },
  { name: 'rate-limit', dependencies: ['redis', 'auth'] },
)
