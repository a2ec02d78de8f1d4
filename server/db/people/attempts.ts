// The attempts repository: counts attempts per key (e.g. `join:<userId>`) in fixed windows, in the
// `attempt_counters` table, so the limit holds across restarts and across several server instances on one
// PostgreSQL. The interface is small on purpose: the Redis one (server/teams/redis-attempt-limiter.ts) replaces
// this one when instances share a Redis, without touching the routes.
import { and, eq, gt, sql } from 'drizzle-orm'
import type { Db } from '../index.ts'
import { attemptCounters } from '../schema.ts'

export interface LimitState {
  allowed: boolean
  /** Attempts left in the current window after this call. */
  remaining: number
  /** Seconds until the current window ends (0 when there is no window running). */
  retryAfterSeconds: number
}

/**
 * The attempt counter is out of reach (Redis away): the guarded call is refused for now, never let through uncounted.
 * The error handler (plugins/errors.ts) answers it 503 with Retry-After.
 */
export class AttemptsUnavailable extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message)
  }
}

export interface AttemptLimiter {
  /**
   * Reserves one attempt, atomically. `allowed: false` means the limit is reached and nothing was recorded.
   * Reserving BEFORE the guarded lookup (not counting after a failure) is what keeps many concurrent
   * guesses from all slipping past the check at once.
   */
  hit(key: string): Promise<LimitState>
  /** Reads the state without counting. */
  peek(key: string): Promise<LimitState>
  /** Gives back an attempt reserved by `hit` that turned out not to be a failure (e.g. a correct code). */
  refund(key: string): Promise<void>
}

export interface LimitOptions {
  limit: number
  windowSeconds: number
}

/** The limit on failed invite-code attempts per student, across all events (reasoning: docs/teams.md). */
export const JOIN_ATTEMPTS: LimitOptions = { limit: 10, windowSeconds: 15 * 60 }

/**
 * The limit on transfers to someone who cannot receive the ticket, per student (issue 36 item 5): each such try would
 * otherwise tell whether an e-mail has an account here; 10 an hour is more than any mistyped address needs.
 */
export const TRANSFER_MISSES: LimitOptions = { limit: 10, windowSeconds: 60 * 60 }

export function databaseAttemptLimiter(db: Db, { limit, windowSeconds }: LimitOptions): AttemptLimiter {
  const c = attemptCounters
  const window = sql`(${windowSeconds}::int * interval '1 second')`
  // Every clock reading is the database's now(): instances with skewed clocks still share one window.
  const expired = sql`${c.windowStartedAt} <= now() - ${window}`
  const secondsLeft = sql<number>`greatest(0, ceil(extract(epoch from ${c.windowStartedAt} + ${window} - now())))::int`

  async function peek(key: string): Promise<LimitState> {
    const [row] = await db
      .select({ count: c.count, expired: sql<boolean>`${expired}`, secondsLeft })
      .from(c)
      .where(eq(c.key, key))
    if (!row || row.expired) return { allowed: true, remaining: limit, retryAfterSeconds: 0 }
    return { allowed: row.count < limit, remaining: Math.max(0, limit - row.count), retryAfterSeconds: row.secondsLeft }
  }

  return {
    peek,
    async hit(key) {
      // One statement decides: a new key or an expired window starts at 1; a running window counts up only
      // while under the limit (setWhere). At the limit the row is left as it is and nothing is returned.
      const rows = await db
        .insert(c)
        .values({ key, count: 1, windowStartedAt: sql`now()` })
        .onConflictDoUpdate({
          target: c.key,
          set: {
            count: sql`CASE WHEN ${expired} THEN 1 ELSE ${c.count} + 1 END`,
            windowStartedAt: sql`CASE WHEN ${expired} THEN now() ELSE ${c.windowStartedAt} END`,
          },
          setWhere: sql`${expired} OR ${c.count} < ${limit}::int`,
        })
        .returning({ count: c.count, secondsLeft })
      const row = rows[0]
      if (row) return { allowed: true, remaining: Math.max(0, limit - row.count), retryAfterSeconds: row.secondsLeft }
      const state = await peek(key)
      // The window may have ended between the two statements; a refusal still needs a positive wait.
      return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, state.retryAfterSeconds) }
    },
    async refund(key) {
      await db
        .update(c)
        .set({ count: sql`${c.count} - 1` })
        .where(and(eq(c.key, key), gt(c.count, 0)))
    },
  }
}
