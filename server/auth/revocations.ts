// Sessions ended before their access tokens expire (issue 10): logout, or a replayed refresh token that revoked
// its family. Each access token names its session (`sid`, the refresh family); the bearer check asks this store,
// never the database. With Redis the revocation is a key every instance sees (kept as long as an access token
// lives, after which the tokens are dead anyway); each instance caches answers for a moment so the hot path costs
// at most one Redis GET per session every CACHE_MS. Without Redis (one instance) it is a map in memory.
import type { Redis } from 'ioredis'

export interface Revocations {
  revoke(sessionId: string): Promise<void>
  isRevoked(sessionId: string): Promise<boolean>
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
  }
}
