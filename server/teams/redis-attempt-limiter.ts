// The invite-code attempt limiter (server/db/people/attempts.ts) on Redis, for several instances sharing one Redis
// (issue 6). Each operation is one Lua script, so the check and the count are a single atomic step on the Redis
// server, whatever the number of instances and concurrent requests. Kept in-house: the wrong-code rule (counted
// before the lookup, handed back unless the code was wrong) is the product's own, not a generic rate limit.
import type { Redis } from 'ioredis'
import { type AttemptLimiter, AttemptsUnavailable, type LimitOptions, type LimitState } from '../db/people/attempts.ts'

// KEYS[1] the counter; ARGV[1] the limit, ARGV[2] the window in ms. At the limit nothing is counted.
const HIT = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[1]) then
  local ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
  return {0, n, ttl}
end
n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
return {1, n, ttl}`

const REFUND = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then redis.call('DECR', KEYS[1]) end
return 0`

const PEEK = `return {tonumber(redis.call('GET', KEYS[1]) or '0'), redis.call('PTTL', KEYS[1])}`

/** Redis unreachable: the join is refused for now (never let guesses through uncounted), and said so. */
async function orUnavailable<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch {
    throw new AttemptsUnavailable('Joining teams is briefly unavailable. Please try again in a minute.', 30)
  }
}

type Script = (key: string, ...args: (string | number)[]) => Promise<number[]>

export function redisAttemptLimiter(redis: Redis, { limit, windowSeconds }: LimitOptions, prefix = 'campus:attempts:'): AttemptLimiter {
  // EVALSHA with a fallback to EVAL on NOSCRIPT, as ioredis defines a command.
  for (const [name, lua] of [
    ['joinAttemptHit', HIT],
    ['joinAttemptRefund', REFUND],
    ['joinAttemptPeek', PEEK],
  ] as const) {
    if (!(name in redis)) redis.defineCommand(name, { numberOfKeys: 1, lua })
  }
  const command = (name: string) => (redis as unknown as Record<string, Script>)[name].bind(redis)
  const [hitScript, refundScript, peekScript] = [command('joinAttemptHit'), command('joinAttemptRefund'), command('joinAttemptPeek')]
  const windowMs = windowSeconds * 1000
  const seconds = (ms: number) => Math.max(0, Math.ceil(ms / 1000))

  return {
    async hit(key) {
      const [allowed, count, ttl] = await orUnavailable(hitScript(prefix + key, limit, windowMs))
      if (allowed === 1) return { allowed: true, remaining: Math.max(0, limit - count), retryAfterSeconds: seconds(ttl) }
      return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, seconds(ttl)) }
    },
    async peek(key): Promise<LimitState> {
      const [n, ttl] = await orUnavailable(peekScript(prefix + key))
      if (n === 0 || ttl === -2) return { allowed: true, remaining: limit, retryAfterSeconds: 0 }
      return { allowed: n < limit, remaining: Math.max(0, limit - n), retryAfterSeconds: seconds(ttl) }
    },
    async refund(key) {
      await orUnavailable(refundScript(prefix + key))
    },
  }
}
