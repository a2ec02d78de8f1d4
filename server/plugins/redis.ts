// Redis for the counters several instances share (rate limits, wrong invite codes), through ioredis: commands
// issued in one turn of the event loop go out in one write (auto-pipelining), every command has a deadline, and
// a Redis outage becomes an error the caller decides about. Absent without REDIS_URL: the counters stay local.
import { createRequire } from 'node:module'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'

declare module 'fastify' {
  interface FastifyInstance {
    /** The shared Redis, or null when this instance counts on its own. */
    redis: Redis | null
    /** Prefix of every key this app writes (tests use a unique one each). */
    redisPrefix: string
  }
}

export type { Redis }

export function createRedis(url: string, { timeoutMs = 1000 } = {}): Redis {
  // ioredis (about 28 MB resident) is loaded only when there is a Redis: not on an embedded start (issue 15 item 6).
  const { Redis } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis')
  return new Redis(url, {
    enableAutoPipelining: true,
    commandTimeout: timeoutMs,
    // One retry on a lost connection, then the command fails: never a request waiting on a dead Redis.
    maxRetriesPerRequest: 1,
    // Reconnecting: 50 ms, 100 ms, ... at most 1 s apart (ioredis's default goes to 2 s), so a Redis back from a
    // restart is used again within about a second (issue 27: the faults suite's case (b)).
    retryStrategy: (times) => Math.min(times * 50, 1000),
    lazyConnect: true,
  })
}

export interface RedisOptions {
  url?: string
  /** A client made by the caller (tests share one between two apps); it is not closed with the app. */
  client?: Redis
  prefix?: string
}

export const redis = fp(
  async (app, { url, client, prefix = 'campus:' }: RedisOptions) => {
    const own = !client && url ? createRedis(url) : undefined
    const shared = client ?? own ?? null
    // Without a listener ioredis prints each failed reconnection; the callers log what the outage costs them.
    shared?.on('error', (err) => app.log.warn({ err }, 'redis connection error'))
    app.decorate('redis', shared)
    app.decorate('redisPrefix', prefix)
    if (own) {
      // Connected at start (not at the first command), so that /metrics' campus_redis_up says so from the first
      // scrape and the first request does not wait for the connection; a Redis down at start is retried as always.
      app.addHook('onReady', async () => void own.connect().catch(() => {}))
      app.addHook('onClose', async () => void (await own.quit().catch(() => own.disconnect())))
    }
  },
  { name: 'redis' },
)
