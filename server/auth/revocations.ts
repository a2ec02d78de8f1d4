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
   * script; issue 15: at most one Redis round trip per claim, shared with the other writes of the same turn of
   * the event loop, see CHECK_BATCH). The counter is not moved for a revoked session.
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

// Pairs of keys, one pair a request: KEYS[2i-1] the session's revocation key ('' for a token without a session),
// KEYS[2i] its counter, ARGV[i] the counter's window in ms; the answer is three numbers a pair. The counting is
// @fastify/rate-limit's RedisStore script (INCR, PEXPIRE on the first, else PTTL), on the same keys. (Keys of one
// call need one hash slot on a Redis Cluster: not supported here, as a single Redis is what deployment.md asks.)
const CHECK_AND_COUNT = `
local out = {}
for i = 1, #KEYS, 2 do
  local window = tonumber(ARGV[(i + 1) / 2])
  if KEYS[i] ~= '' and redis.call('EXISTS', KEYS[i]) == 1 then
    out[#out + 1] = 1; out[#out + 1] = 0; out[#out + 1] = 0
  else
    local current = redis.call('INCR', KEYS[i + 1])
    local ttl = window
    if current == 1 then redis.call('PEXPIRE', KEYS[i + 1], window) else ttl = redis.call('PTTL', KEYS[i + 1]) end
    out[#out + 1] = 0; out[#out + 1] = current; out[#out + 1] = ttl
  end
end
return out
`
type WithCheckAndCount = Redis & {
  /** The number of keys first (the script takes any number of pairs), then the keys, then the windows. */
  campusCheckAndCount(...args: (string | number)[]): Promise<number[]>
}

/**
 * The most requests one script call answers. The checks of the requests that arrive in one turn of the event
 * loop go to Redis together (issue 15: in a rush, one script call per request was most of Redis's work and a
 * visible share of the server's); a larger burst is split in calls of this many.
 */
export const CHECK_BATCH = 128

interface PendingCheck {
  revocationKey: string
  counterKey: string
  windowMs: number
  resolve(answer: [number, number, number] | null): void
}

/** How long an instance trusts its cached "not revoked" for a session: the most another instance lags a logout. */
export const CACHE_MS = 2_000
const MAX_ENTRIES = 100_000

interface Entry {
  revoked: boolean
  until: number
}

/** ioredis between connections: a command would wait for the next attempt, then time out. */
const AWAY = new Set(['reconnecting', 'close', 'end'])
const away = (redis: unknown) => AWAY.has((redis as { status?: string }).status ?? '')

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
  if (scripted && !('campusCheckAndCount' in redis)) redis.defineCommand('campusCheckAndCount', { lua: CHECK_AND_COUNT })

  // The checks waiting for the end of this turn of the event loop, sent as one script call (or a few) then.
  let pending: PendingCheck[] = []
  const sendPending = () => {
    const all = pending
    pending = []
    for (let from = 0; from < all.length; from += CHECK_BATCH) void sendBatch(all.slice(from, from + CHECK_BATCH))
  }
  async function sendBatch(batch: PendingCheck[]) {
    const keys: string[] = []
    for (const check of batch) keys.push(check.revocationKey, check.counterKey)
    try {
      // Redis known to be away (between reconnection attempts, issue 27): answered at once as a failed call, not
      // after each command's 1 s timeout, which during an outage made every write wait and the instance shed load.
      if (away(redis)) throw new Error('Redis is not connected')
      const out = await (redis as WithCheckAndCount).campusCheckAndCount(keys.length, ...keys, ...batch.map((check) => check.windowMs))
      if (!Array.isArray(out) || out.length !== batch.length * 3) throw new Error('the check-and-count script answered an unexpected value')
      batch.forEach((check, i) => check.resolve([out[3 * i], out[3 * i + 1], out[3 * i + 2]]))
    } catch (err) {
      onError?.(err)
      for (const check of batch) check.resolve(null)
    }
  }
  const checkAndCountInRedis = (revocationKey: string, counterKey: string, windowMs: number) =>
    new Promise<[number, number, number] | null>((resolve) => {
      if (pending.push({ revocationKey, counterKey, windowMs, resolve }) === 1) setImmediate(sendPending)
    })

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
        if (away(redis)) throw new Error('Redis is not connected')
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
          const answer = await checkAndCountInRedis(sessionId ? key(sessionId) : '', `${prefix}rate:${counter.key}`, counter.windowMs)
          if (!answer) return null // logged through onError, once for the call that failed
          const [revoked, current, ttlMs] = answer
          if (sessionId) remember(sessionId, { revoked: revoked === 1, until: now() + (revoked === 1 ? ttlSeconds * 1000 : CACHE_MS) })
          return { revoked: revoked === 1, current, ttlMs }
        }
      : undefined,
  }
}
