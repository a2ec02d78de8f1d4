// Give back and waitlist (API.md Part 2 "Around the event"). A ticket given back frees a place; a freed place is
// offered to the first in line for the hold time (waitlist_offer(), server/db/functions/waitlist_offer.sql), and while it is offered only
// that student can claim it (claim_tickets() counts the offers out). Every write here takes the event's row lock
// first (FOR UPDATE), the lock order of claim_tickets(), so offers are decided one at a time per event and a
// place is never offered twice. The tick passes expired offers on: each event is taken with FOR UPDATE SKIP
// LOCKED, so with several instances each expiry is handled by exactly one of them.
import { sql } from 'drizzle-orm'
import type { WaitlistPlace } from '../../../contract/types.ts'
import type { Db } from '../index.ts'
import { type Outcome, outcomeOf, Refused, rowsOf } from '../outcomes.ts'
import { refundRequestedIn } from '../payments/payments.ts'

/** Minutes a freed place is held for the student it is offered to (WAITLIST_HOLD_MINUTES). */
export const WAITLIST_HOLD_MINUTES = 30

interface LockedEvent {
  /** The event's start (its schedule's, else its first date) and how many hours before it paid tickets stop being refunded (issue 35). */
  starts_at: Date | string | null
  first_date: string | null
  refund_until_hours: number
  state: string
  is_ticket_feature_enabled: boolean
  ticket_count: number
  tickets_sold: number
  /** Places held for payment (issue 35): taken as much as tickets are. */
  tickets_held: number
}

async function lockEvent(tx: Db, eventId: number): Promise<LockedEvent> {
  const [ev] = rowsOf(
    await tx.execute(sql`
      SELECT state, is_ticket_feature_enabled, ticket_count, tickets_sold, tickets_held, starts_at, dates->>0 AS first_date, refund_until_hours
        FROM events WHERE id = ${eventId} FOR UPDATE`),
  ) as LockedEvent[]
  if (!ev || ev.state === 'DRAFT') throw new Refused('eventNotFound')
  return ev
}

/**
 * When a paid ticket stops being refunded when given back (issue 35 item 5): the event's start less its
 * refund_until_hours, in ms; never (Infinity) for an event without a start.
 */
function refundCutoff(ev: LockedEvent): number {
  const start = new Date(ev.starts_at ?? ev.first_date ?? Number.NaN).getTime()
  return Number.isNaN(start) ? Number.POSITIVE_INFINITY : start - Number(ev.refund_until_hours) * 3_600_000
}

async function offer(tx: Db, eventId: number, holdMinutes: number): Promise<number[]> {
  const [row] = rowsOf(await tx.execute(sql`SELECT waitlist_offer(${eventId}::int, ${holdMinutes}::int) AS offered`)) as { offered: number[] | string }[]
  return parseIntArray(row?.offered)
}

/** An int[] as either driver answers it (PGlite parses arrays; postgres.js too, but be safe with '{1,2}'). */
function parseIntArray(value: unknown): number[] {
  if (Array.isArray(value)) return value.map(Number)
  if (typeof value === 'string') return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number)
  return []
}

/** The caller's place on the waitlist of an event, or null when not on it. */
export async function waitlistPlaceOf(db: Db, eventId: number, userId: number): Promise<WaitlistPlace | null> {
  const [row] = rowsOf(
    await db.execute(sql`
      SELECT (SELECT count(*) FROM waitlist o WHERE o.event_id = w.event_id AND o.id <= w.id)::int AS position,
             CASE WHEN w.offer_expires_at > now() THEN w.offer_expires_at END AS offer_expires_at
        FROM waitlist w WHERE w.event_id = ${eventId} AND w.user_id = ${userId}`),
  ) as { position: number; offer_expires_at: Date | string | null }[]
  if (!row) return null
  const at = row.offer_expires_at
  return { position: Number(row.position), offer_expires_at: at === null ? null : new Date(at).toISOString() }
}

/**
 * Until when the places left of an event are all held for waitlisted students (the soonest offer's end), or null
 * when a place is free to claim or none is offered: what claim_tickets() counts out for everyone else.
 */
export async function heldUntil(db: Db, eventId: number, ticketsLeft: number): Promise<string | null> {
  if (ticketsLeft <= 0) return null
  const [row] = rowsOf(
    await db.execute(sql`
      SELECT count(*)::int AS offers, min(offer_expires_at) AS until
        FROM waitlist WHERE event_id = ${eventId} AND offer_expires_at > now()`),
  ) as { offers: number; until: Date | string | null }[]
  return row && row.until !== null && Number(row.offers) >= ticketsLeft ? new Date(row.until).toISOString() : null
}

export function waitlistRepository(db: Db, options: { holdMinutes?: number } = {}) {
  const hold = options.holdMinutes ?? WAITLIST_HOLD_MINUTES

  return {
    holdMinutes: hold,

    /**
     * Gives the caller's ticket back (TICKET_OPEN only): the code stops working, the place goes to the waitlist. A paid
     * ticket (issue 35 item 5) is given back only before the refund cut-off (the event's start less refund_until_hours;
     * after it REFUND_CLOSED: a transfer to a friend is the way), and its payment waits for its refund in the same
     * transaction (REFUND_PENDING: the refund job pays a Razorpay payment back; UPI and desk payments are listed for the
     * treasurer). `refund` answers the amount on its way back, in paise (0 for a free ticket).
     */
    async release(userId: number, eventId: number, now = new Date()): Promise<Outcome<{ offered: number[]; refund: number }>> {
      return outcomeOf(() =>
        db.transaction(async (tx) => {
          const ev = await lockEvent(tx, eventId)
          if (ev.state !== 'TICKET_OPEN' || !ev.is_ticket_feature_enabled) throw new Refused('releaseClosed')
          // The place's payment, locked after the event's row (the lock order of claims and payments).
          const [paid] = rowsOf(
            await tx.execute(sql`
              SELECT y.id, y.amount FROM payments y JOIN participants p ON p.id = y.participant_id
                WHERE p.event_id = ${eventId} AND p.user_id = ${userId} AND y.status = 'PAID' AND y.double_of IS NULL
                  AND p.ticket_collected AND p.checked_in_at IS NULL
                FOR UPDATE OF y`),
          ) as { id: number; amount: number }[]
          if (paid && now.getTime() >= refundCutoff(ev)) throw new Refused('refundClosed')
          const released = rowsOf(
            await tx.execute(sql`
              UPDATE participants p SET ticket_collected = false, ticket_code = NULL, ticket_collected_at = NULL, ticket_transfers = 0
                FROM (SELECT id, ticket_code FROM participants
                        WHERE event_id = ${eventId} AND user_id = ${userId} AND ticket_collected AND checked_in_at IS NULL FOR UPDATE) old
                WHERE p.id = old.id
                RETURNING p.id, old.ticket_code AS code`),
          ) as { id: number; code: string | null }[]
          // The code is kept apart, so the door can say the ticket was given back (issue 22 item 12).
          for (const { code } of released)
            if (code)
              await tx.execute(sql`
                INSERT INTO released_tickets (ticket_code, event_id) VALUES (${code}, ${eventId})
                  ON CONFLICT (ticket_code) DO UPDATE SET event_id = EXCLUDED.event_id, released_at = now()`)
          if (released.length === 0) {
            const [p] = rowsOf(
              await tx.execute(sql`SELECT ticket_collected, checked_in_at FROM participants WHERE event_id = ${eventId} AND user_id = ${userId}`),
            ) as { ticket_collected: boolean; checked_in_at: unknown }[]
            if (!p) throw new Refused('notRegistered')
            throw new Refused(p.checked_in_at ? 'alreadyCheckedIn' : 'noTicket')
          }
          if (paid) await refundRequestedIn(tx, Number(paid.id))
          return { offered: await offer(tx, eventId, hold), refund: paid ? Number(paid.amount) : 0 }
        }),
      )
    },

    /** Joins the waitlist of a sold-out TICKET_OPEN event the caller is registered for; answers the position. */
    async join(userId: number, eventId: number): Promise<Outcome<number>> {
      return outcomeOf(() =>
        db.transaction(async (tx) => {
          const ev = await lockEvent(tx, eventId)
          if (ev.state !== 'TICKET_OPEN' || !ev.is_ticket_feature_enabled) throw new Refused('waitlistClosed')
          const [p] = rowsOf(await tx.execute(sql`SELECT ticket_collected FROM participants WHERE event_id = ${eventId} AND user_id = ${userId}`)) as {
            ticket_collected: boolean
          }[]
          if (!p) throw new Refused('notRegistered')
          if (p.ticket_collected) throw new Refused('alreadyHasTicket')
          const [on] = rowsOf(await tx.execute(sql`SELECT 1 FROM waitlist WHERE event_id = ${eventId} AND user_id = ${userId}`))
          if (!on) {
            const [{ held }] = rowsOf(
              await tx.execute(sql`SELECT count(*)::int AS held FROM waitlist WHERE event_id = ${eventId} AND offered_at IS NOT NULL`),
            ) as { held: number }[]
            if (Number(ev.tickets_sold) + Number(ev.tickets_held) + Number(held) < Number(ev.ticket_count)) throw new Refused('notSoldOut')
            await tx.execute(sql`INSERT INTO waitlist (event_id, user_id) VALUES (${eventId}, ${userId}) ON CONFLICT DO NOTHING`)
          }
          const place = await waitlistPlaceOf(tx, eventId, userId)
          return place?.position ?? 0
        }),
      )
    },

    /** Leaves the waitlist (a place held for the caller goes to the next in line); not being on it is no error. */
    async leave(userId: number, eventId: number): Promise<Outcome<{ left: boolean; offered: number[] }>> {
      return outcomeOf(() =>
        db.transaction(async (tx) => {
          await lockEvent(tx, eventId)
          const gone = rowsOf(await tx.execute(sql`DELETE FROM waitlist WHERE event_id = ${eventId} AND user_id = ${userId} RETURNING offered_at`)) as {
            offered_at: unknown
          }[]
          const offered = gone[0]?.offered_at ? await offer(tx, eventId, hold) : []
          return { left: gone.length > 0, offered }
        }),
      )
    },

    /**
     * Passes expired offers on and offers places that came free (a participant gone, more tickets): one
     * transaction per event, each event taken FOR UPDATE SKIP LOCKED (another instance on it: skipped, it does
     * the work). Answers the expired and the newly offered students.
     */
    async tick(): Promise<{ expired: number; offered: number }> {
      const due = rowsOf(
        await db.execute(sql`
          SELECT e.id FROM events e
            WHERE e.state = 'TICKET_OPEN' AND e.is_ticket_feature_enabled
              AND EXISTS (SELECT 1 FROM waitlist w WHERE w.event_id = e.id)
              AND (EXISTS (SELECT 1 FROM waitlist w WHERE w.event_id = e.id AND w.offer_expires_at <= now())
                   OR e.ticket_count - e.tickets_sold - e.tickets_held > (SELECT count(*) FROM waitlist w WHERE w.event_id = e.id AND w.offered_at IS NOT NULL))
            LIMIT 100`),
      ) as { id: number }[]
      let expired = 0
      let offered = 0
      for (const { id } of due) {
        await db.transaction(async (tx) => {
          const [locked] = rowsOf(await tx.execute(sql`SELECT id FROM events WHERE id = ${id} FOR UPDATE SKIP LOCKED`))
          if (!locked) return
          expired += rowsOf(await tx.execute(sql`DELETE FROM waitlist WHERE event_id = ${id} AND offer_expires_at <= now() RETURNING id`)).length
          offered += (await offer(tx, id, hold)).length
        })
      }
      return { expired, offered }
    },
  }
}

export type WaitlistRepository = ReturnType<typeof waitlistRepository>
