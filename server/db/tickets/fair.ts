// A fair opening (issue 24, API.md Part 3): the seed and its commitment, the draw keys, the draw itself and the
// published record. Entering the draw is claim_tickets()'s (server/db/functions/claim_tickets.sql), one insert per batch of claims; the
// draw is fair_draw(), set-based (keys, tickets, waitlist, push and record in one statement), run here in a
// transaction that takes the event's row: `FOR UPDATE SKIP LOCKED` from the scheduler's tick, so with several
// instances each due draw is taken by one of them, and fair_drawn_at, set inside, keeps it from ever running again.
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { DrawEntry, FairStart } from '../../../contract/types.ts'
import { recordAudit } from '../audit.ts'
import { newTicketCode } from './claims.ts'
import type { Db } from '../index.ts'
import { rowsOf } from '../outcomes.ts'
import type { events } from '../schema.ts'

type EventRow = typeof events.$inferSelect

/** The window a new ticketed event gets when its organiser says nothing (issue 24 item 1): contract/limits.ts. */
export { DEFAULT_FAIR_WINDOW_SECONDS } from '../../../contract/limits.ts'

/** A new seed: 32 bytes of the system's CSPRNG in lowercase hex (64 characters, one HMAC block as UTF-8). */
export const newFairSeed = () => randomBytes(32).toString('hex')

/** The commitment published before the draw: lowercase hex SHA-256 of the seed's UTF-8 bytes. */
export const seedHash = (seed: string) => createHash('sha256').update(seed, 'utf8').digest('hex')

/**
 * A student's draw key (API.md Part 3): lowercase hex HMAC-SHA256(key = the seed's UTF-8 bytes, message =
 * `<decimal user id>:<nonce>`), or the user id alone for an entry made before nonces (null).
 */
export const drawKey = (seed: string, userId: number, nonce: string | null) =>
  createHmac('sha256', Buffer.from(seed, 'utf8'))
    .update(nonce === null ? String(userId) : `${userId}:${nonce}`, 'utf8')
    .digest('hex')

/**
 * The HMAC's inner and outer padded keys (RFC 2104: the key, hashed if over 64 bytes, zero-padded to 64, XOR 0x36
 * and 0x5c), so that fair_draw() computes every key with the core sha256() alone.
 */
export function hmacPads(seed: string): { ipad: string; opad: string } {
  let key = Buffer.from(seed, 'utf8')
  if (key.length > 64) key = createHash('sha256').update(key).digest()
  const block = Buffer.alloc(64)
  key.copy(block)
  const ipad = Buffer.alloc(64)
  const opad = Buffer.alloc(64)
  for (let i = 0; i < 64; i++) {
    ipad[i] = block[i] ^ 0x36
    opad[i] = block[i] ^ 0x5c
  }
  return { ipad: ipad.toString('hex'), opad: opad.toString('hex') }
}

/** The event's fair_start on the wire, without the keys (lists carry none; the detail adds them). */
export function fairStartOf(e: EventRow): FairStart | null {
  if (e.fairWindowSeconds <= 0 || !e.fairSeed) return null
  const drawn = e.fairDrawnAt !== null
  return {
    window_seconds: e.fairWindowSeconds,
    draw_at: e.fairDrawAt ? e.fairDrawAt.toISOString() : null,
    seed_hash: seedHash(e.fairSeed),
    seed: drawn ? e.fairSeed : null,
    entrants: drawn ? (e.fairEntrantCount ?? 0) : null,
    keys: [],
  }
}

/** What a draw published: immutable once written, so kept in memory by each instance after its first read. */
export interface PublishedDraw {
  seed: string
  entrants: number
  winners: number
  waitlisted: number
  lastWinnerKey: string | null
  keys: string[]
}

export interface DrawDone {
  eventId: number
  entrants: number
  winners: number
  waitlisted: number
  /** When the draw was due, and when it ran (the difference is its lateness). */
  dueAt: Date
  at: Date
}

/** The first index in a sorted list whose value is not below `key`. */
function lowerBound(keys: string[], key: string): number {
  let lo = 0
  let hi = keys.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (keys[mid] < key) lo = mid + 1
    else hi = mid
  }
  return lo
}

const due = sql`state = 'TICKET_OPEN' AND is_ticket_feature_enabled AND fair_draw_at <= now() AND fair_drawn_at IS NULL`

/** At most this many draws in one tick (the rest on the next, a moment later). */
const DRAW_BATCH = 20
/** Published draws kept in memory (each up to ~1.4 MB at 20,000 entrants). */
const CACHE_DRAWS = 16

export function fairRepository(db: Db) {
  const cache = new Map<number, PublishedDraw>()

  /** Draws one event in its own transaction; null when it was not due, or taken (wait: false) by another instance. */
  async function drawOne(eventId: number, wait: boolean): Promise<DrawDone | null> {
    return db.transaction(async (txn) => {
      const tx = txn as unknown as Db
      const [row] = rowsOf(
        await tx.execute(sql`
          SELECT id, organizer_id, fair_seed, fair_draw_at, ticket_count, tickets_sold + tickets_held AS tickets_sold, now() AS now,
                 (SELECT count(*) FROM fair_entrants f WHERE f.event_id = events.id)::int AS entrants,
                 (SELECT count(*) FROM waitlist w WHERE w.event_id = events.id AND w.offered_at IS NOT NULL)::int AS held
            FROM events WHERE id = ${eventId} AND ${due}
            ${wait ? sql`FOR UPDATE` : sql`FOR UPDATE SKIP LOCKED`}`),
      ) as {
        id: number
        organizer_id: number
        fair_seed: string
        fair_draw_at: Date | string
        ticket_count: number
        tickets_sold: number
        now: Date | string
        entrants: number
        held: number
      }[]
      if (!row) return null
      const free = Math.max(0, Math.min(Number(row.ticket_count) - Number(row.tickets_sold) - Number(row.held), Number(row.entrants)))
      const codes = Array.from({ length: free }, () => newTicketCode())
      const { ipad, opad } = hmacPads(row.fair_seed)
      const [drawn] = rowsOf(
        await tx.execute(sql`SELECT fair_draw(${eventId}::int, decode(${ipad}, 'hex'), decode(${opad}, 'hex'), ${`{${codes.join(',')}}`}::text[]) AS counts`),
      ) as { counts: unknown }[]
      const counts = parseInts(drawn?.counts)
      if (counts.length !== 3) return null
      const [entrants, winners, waitlisted] = counts as [number, number, number]
      await recordAudit(tx, {
        actorId: null,
        actorKind: 'scheduler',
        action: 'event.draw',
        eventId,
        councilId: Number(row.organizer_id) || null,
        before: { seed_hash: seedHash(row.fair_seed), draw_at: new Date(row.fair_draw_at).toISOString() },
        after: { seed: row.fair_seed, entrants, winners, waitlisted },
      })
      return { eventId, entrants, winners, waitlisted, dueAt: new Date(row.fair_draw_at), at: new Date(row.now) }
    })
  }

  return {
    /** Runs every due draw (up to DRAW_BATCH), each once across instances; the draws this call made. */
    async runDue(): Promise<DrawDone[]> {
      const rows = rowsOf(await db.execute(sql`SELECT id FROM events WHERE ${due} ORDER BY fair_draw_at LIMIT ${DRAW_BATCH}`)) as { id: number }[]
      const done: DrawDone[] = []
      for (const { id } of rows) {
        const d = await drawOne(Number(id), false)
        if (d) done.push(d)
      }
      return done
    },

    /**
     * Runs this event's draw now if it is due, waiting for another instance's draw of it to finish rather than
     * skipping it (a claim that arrives after draw_at waits for the draw, then claims what is left).
     */
    drawNow: (eventId: number) => drawOne(eventId, true),

    /** When the next draw is due, or null. */
    async nextDrawAt(): Promise<Date | null> {
      const [row] = rowsOf(
        await db.execute(sql`SELECT min(fair_draw_at) AS next FROM events WHERE fair_draw_at IS NOT NULL AND fair_drawn_at IS NULL AND state = 'TICKET_OPEN'`),
      ) as { next: Date | string | null }[]
      return row?.next ? new Date(row.next) : null
    },

    /** The published record of an event's draw, or null before it. */
    async published(eventId: number): Promise<PublishedDraw | null> {
      const hit = cache.get(eventId)
      if (hit) return hit
      const [row] = rowsOf(
        await db.execute(sql`SELECT seed, entrants, winners, waitlisted, last_winner_key, keys FROM fair_draws WHERE event_id = ${eventId}`),
      ) as { seed: string; entrants: number; winners: number; waitlisted: number; last_winner_key: string | null; keys: unknown }[]
      if (!row) return null
      const draw: PublishedDraw = {
        seed: row.seed,
        entrants: Number(row.entrants),
        winners: Number(row.winners),
        waitlisted: Number(row.waitlisted),
        lastWinnerKey: row.last_winner_key,
        keys: parseTexts(row.keys),
      }
      if (cache.size >= CACHE_DRAWS) cache.delete(cache.keys().next().value as number)
      cache.set(eventId, draw)
      return draw
    },

    /**
     * The caller's entry in the draw, or null when they did not enter: PENDING before the draw, then what the draw
     * did with them (fair_entrants.outcome: WON, WAITLISTED or NOT_ELIGIBLE), with the key's place in the list and
     * the entry's nonce (theirs alone: with it the app recomputes their key).
     */
    async entryOf(eventId: number, userId: number, drawn: PublishedDraw | null): Promise<DrawEntry | null> {
      const [row] = rowsOf(
        await db.execute(sql`SELECT entered_at, nonce, key, outcome FROM fair_entrants WHERE event_id = ${eventId} AND user_id = ${userId}`),
      ) as { entered_at: Date | string; nonce: string | null; key: string | null; outcome: string | null }[]
      if (!row) return null
      const entered_at = new Date(row.entered_at).toISOString()
      const nonce = row.nonce
      if (!drawn) return { entered_at, result: 'PENDING', nonce, position: null }
      const key = row.key ?? drawKey(drawn.seed, userId, nonce)
      // A draw older than the outcome column (migration 0018) decided by the last winner's key, as it was shown then.
      const result = row.outcome ?? (drawn.lastWinnerKey !== null && key <= drawn.lastWinnerKey ? 'WON' : 'WAITLISTED')
      return { entered_at, result: result as DrawEntry['result'], nonce, position: lowerBound(drawn.keys, key) + 1 }
    },

    /** Students in the draw of each event (the console's live count). */
    async entrantCounts(eventIds: number[]): Promise<Map<number, number>> {
      const map = new Map<number, number>()
      if (eventIds.length === 0) return map
      const rows = rowsOf(
        await db.execute(
          sql`SELECT event_id, count(*)::int AS n FROM fair_entrants WHERE event_id IN (${sql.join(
            eventIds.map((id) => sql`${id}`),
            sql`, `,
          )}) GROUP BY event_id`,
        ),
      ) as { event_id: number; n: number }[]
      for (const r of rows) map.set(Number(r.event_id), Number(r.n))
      return map
    },
  }
}

export type FairRepository = ReturnType<typeof fairRepository>

/** An int[] as either driver answers it. */
function parseInts(value: unknown): number[] {
  if (Array.isArray(value)) return value.map(Number)
  if (typeof value === 'string') return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number)
  return []
}

/** A text[] of hex keys as either driver answers it (no quoting needed: hex has no commas or quotes). */
function parseTexts(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String)
  if (typeof value === 'string') return value.replace(/[{}]/g, '').split(',').filter(Boolean)
  return []
}
