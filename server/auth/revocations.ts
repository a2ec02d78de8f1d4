// Sessions ended before their access tokens expire (issue 10): logout, or a replayed refresh token that revoked
// its family. Each access token names its session (`sid`, the refresh family); the bearer check asks this store,
// never the database. With Redis the revocation is a key every instance sees (kept as long as an access token
// lives, after which the tokens are dead anyway); each instance caches answers for a moment so the hot path costs
// at most one Redis GET per session every CACHE_MS. Without Redis (one instance) it is a map in memory.
import type { Redis } from 'ioredis'

export interface Revocations {
  revoke(sessionId: string): Promise<void>
  isRevoked(sessionId: string): Promise<boolean>
  /**
   * With Redis only: the revocation check and one count of a per-student rate limit in one round trip (a Lua
   * script; issue 15: at most one Redis round trip per claim). The counter is not moved for a revoked session.
   * Null when Redis failed (logged through onError): the caller lets the request through uncounted, as the
   * revocation check and the rate limiter each did on their own.
   */
  checkAndCount?(sessionId: string | undefined, counter: { key: string; windowMs: number }): Promise<Counted | null>
}

export interface Counted {
  revoked: boolean
  /** The counter after this request (0 when revoked), and the milliseconds left in its window. */
  current: number
  ttlMs: number
}

// KEYS[1]: the session's revocation key ('' for a token without a session), KEYS[2]: the counter. The counting is
// @fastify/rate-limit's RedisStore script (INCR, PEXPIRE on the first, else PTTL), on the same keys.
const CHECK_AND_COUNT = `
if KEYS[1] ~= '' and redis.call('EXISTS', KEYS[1]) == 1 then return {1, 0, 0} end
local current = redis.call('INCR', KEYS[2])
local ttl
if current == 1 then
  redis.call('PEXPIRE', KEYS[2], ARGV[1])
  ttl = tonumber(ARGV[1])
else
  ttl = redis.call('PTTL', KEYS[2])
end
return {0, current, ttl}
`
type WithCheckAndCount = Redis & {
  campusCheckAndCount(revocationKey: string, counterKey: string, windowMs: number): Promise<[number, number, number]>
}

/** How long an instance trusts its cached "not revoked" for a session: the most another instance lags a logout. */
export const CACHE_MS = 2_000
const MAX_ENTRIES = 100_000

interface Entry {
  revoked: boolean
  until: number
}

export function revocations(options: {
  redis: Redis | null
  prefix: string
  ttlSeconds: number
  onError?: (err: unknown) => void
  now?: () => number
}): Revocations {
  const { redis, prefix, ttlSeconds, onError } = options
  const now = options.now ?? Date.now
  const cache = new Map<string, Entry>()
  const remember = (sessionId: string, entry: Entry) => {
    cache.delete(sessionId)
    if (cache.size >= MAX_ENTRIES) {
      // Oldest first (a Map keeps insertion order): expired entries, then whatever is oldest.
      for (const [key, value] of cache) {
        if (cache.size < MAX_ENTRIES * 0.9) break
        if (value.until <= now() || !redis) cache.delete(key)
      }
      if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string)
    }
    cache.set(sessionId, entry)
  }
  const key = (sessionId: string) => `${prefix}revoked:${sessionId}`
  const scripted = !!redis && typeof redis.defineCommand === 'function'
  if (scripted && !('campusCheckAndCount' in redis)) redis.defineCommand('campusCheckAndCount', { numberOfKeys: 2, lua: CHECK_AND_COUNT })

  return {
    async revoke(sessionId) {
      remember(sessionId, { revoked: true, until: now() + ttlSeconds * 1000 })
      if (redis) await redis.set(key(sessionId), '1', 'EX', ttlSeconds)
    },
    async isRevoked(sessionId) {
      const cached = cache.get(sessionId)
      if (cached && cached.until > now()) return cached.revoked
      if (!redis) {
        if (cached) cache.delete(sessionId)
        return false
      }
      try {
        const revoked = (await redis.exists(key(sessionId))) === 1
        remember(sessionId, { revoked, until: now() + (revoked ? ttlSeconds * 1000 : CACHE_MS) })
        return revoked
      } catch (err) {
        // Redis unreachable: let the token through (it still expires within its lifetime) rather than sign every
        // student out during an outage; logged by the caller.
        onError?.(err)
        return false
      }
    },
    checkAndCount: scripted
      ? async (sessionId, counter) => {
          // A session known to be revoked is refused without a trip (and without a count), as isRevoked does.
          const cached = sessionId ? cache.get(sessionId) : undefined
          if (cached?.revoked && cached.until > now()) return { revoked: true, current: 0, ttlMs: 0 }
          try {
            const [revoked, current, ttlMs] = await (redis as WithCheckAndCount).campusCheckAndCount(
              sessionId ? key(sessionId) : '',
              `${prefix}rate:${counter.key}`,
              counter.windowMs,
            )
            if (sessionId) remember(sessionId, { revoked: revoked === 1, until: now() + (revoked === 1 ? ttlSeconds * 1000 : CACHE_MS) })
            return { revoked: revoked === 1, current, ttlMs }
          } catch (err) {
            onError?.(err)
            return null
          }
        }
      : undefined,
  }
}
