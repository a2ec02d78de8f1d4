// The organiser's refunds and cancel (issue 35 items 5-6): refund one payment (PAID -> REFUND_PENDING, its place
// released), mark a UPI or desk refund paid back by hand (REFUND_PENDING -> REFUNDED, a ledger row naming who), list
// the refunds due, and cancel a paid event. Every change is one transaction with the place it pays for, the event's
// row locked first (the lock order of claims, give-backs and transfers), then the payments, then the places; every
// organiser write is audited in its transaction. The gateway's refunds are the refund job's (server/plugins/payments.ts).
//
// A cancel is a state first, then a job: the call sets events.cancelled_at and expires every hold in one transaction
// (from then on nothing is claimed, paid or settled onto a place: claim_tickets() and settleIn() read cancelled_at);
// the job (cancelStep) moves the PAID payments of cancelled events to REFUND_PENDING and takes their tickets back, a
// batch at a time, each batch one transaction under the event's row lock taken with SKIP LOCKED. The work left is read
// from the data each time (a PAID payment of a cancelled event), so a job stopped half way (the server died) is taken
// up by the next run on any instance, and each payment moves once: its move is conditional on it still being PAID.
import { sql } from 'drizzle-orm'
import { recordAudit } from '../audit.ts'
import type { Db } from '../index.ts'
import { type Outcome, outcomeOf, Refused, rowsOf } from '../outcomes.ts'
import { COLUMNS, COLUMNS_OF_PAYMENTS, type PaymentRow, refundedIn, refundRequestedIn, rowsAs } from './payments.ts'
import { pushRepository } from '../people/push.ts'
import { rolesRepository } from '../people/roles.ts'
import { WAITLIST_HOLD_MINUTES } from '../tickets/waitlist.ts'

/** A payment as the organiser's refund calls answer it: who paid, for which place, how, and where it stands. */
export interface AdminPayment {
  id: number
  event_id: number
  user_id: number | null
  name: string | null
  status: PaymentRow['status']
  method: PaymentRow['method']
  amount: number
  reference: string
  utr: string | null
  paid_at: string | null
  refund_requested_at: string | null
  refunded_at: string | null
}

export interface CancelStarted {
  cancelled_at: string
  /** Holds expired by this call (0 when the event was already cancelled). */
  holds_expired: number
  /** PAID payments still to move to REFUND_PENDING (the job's work). */
  refunds_to_request: number
}

/** How many PAID payments one step of the cancel job moves (one transaction). */
export const CANCEL_BATCH = 50

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString())

async function adminPayments(tx: Db, where: ReturnType<typeof sql>): Promise<AdminPayment[]> {
  const rows = rowsOf(
    await tx.execute(sql`
      SELECT y.id, y.event_id, y.user_id, u.name, y.status, y.method, y.amount, y.reference, y.utr, y.paid_at, y.refund_requested_at, y.refunded_at
        FROM payments y LEFT JOIN users u ON u.id = y.user_id WHERE ${where} ORDER BY y.refund_requested_at NULLS LAST, y.id`),
  ) as Record<string, unknown>[]
  return rows.map((r) => ({
    id: Number(r.id),
    event_id: Number(r.event_id),
    user_id: r.user_id === null ? null : Number(r.user_id),
    name: (r.name as string | null) ?? null,
    status: r.status as PaymentRow['status'],
    method: (r.method as PaymentRow['method']) ?? null,
    amount: Number(r.amount),
    reference: String(r.reference),
    utr: (r.utr as string | null) ?? null,
    paid_at: iso(r.paid_at),
    refund_requested_at: iso(r.refund_requested_at),
    refunded_at: iso(r.refunded_at),
  }))
}

/** The event's row locked (FOR UPDATE; a read passes lock = false), when the caller manages its council; else the refusal. */
async function lockManagedEvent(tx: Db, userId: number, eventId: number, lock = true) {
  const [ev] = rowsOf(
    await tx.execute(sql`SELECT id, name, organizer_id, fee, cancelled_at FROM events WHERE id = ${eventId} ${lock ? sql`FOR UPDATE` : sql``}`),
  ) as {
    id: number
    name: string
    organizer_id: number
    fee: number
    cancelled_at: unknown
  }[]
  const roles = rolesRepository(tx)
  if (!ev) {
    const r = await roles.of(userId)
    throw new Refused(r.admin || r.councils.length > 0 ? 'eventNotFound' : 'notOrganiser')
  }
  if (!(await roles.canManageCouncil(userId, Number(ev.organizer_id)))) throw new Refused('notOrganiser')
  return { ...ev, id: Number(ev.id), organizer_id: Number(ev.organizer_id), fee: Number(ev.fee) }
}

/** The payment's event locked first, then the payment (FOR UPDATE), when the caller manages the event's council. */
async function lockManagedPayment(tx: Db, userId: number, paymentId: number) {
  const [head] = rowsOf(await tx.execute(sql`SELECT event_id FROM payments WHERE id = ${paymentId}`)) as { event_id: number }[]
  if (!head) {
    const r = await rolesRepository(tx).of(userId)
    throw new Refused(r.admin || r.councils.length > 0 ? 'paymentNotFound' : 'notOrganiser')
  }
  const ev = await lockManagedEvent(tx, userId, Number(head.event_id))
  const [pay] = rowsAs(await tx.execute(sql`SELECT ${COLUMNS} FROM payments WHERE id = ${paymentId} FOR UPDATE`))
  return { ev, pay }
}

/**
 * Takes the tickets of these places back (the code kept, so the door answers that it was given back); the counters'
 * triggers release the places. Answers how many tickets went.
 */
async function takeTicketsBack(tx: Db, eventId: number, participantIds: number[]): Promise<number> {
  if (participantIds.length === 0) return 0
  const ids = sql.join(
    participantIds.map((id) => sql`${id}`),
    sql`, `,
  )
  const gone = rowsOf(
    await tx.execute(sql`
      UPDATE participants p SET ticket_collected = false, ticket_code = NULL, ticket_collected_at = NULL, ticket_transfers = 0
        FROM (SELECT id, ticket_code FROM participants WHERE id IN (${ids}) AND ticket_collected AND checked_in_at IS NULL FOR UPDATE) old
        WHERE p.id = old.id RETURNING old.ticket_code AS code`),
  ) as { code: string | null }[]
  for (const { code } of gone)
    if (code)
      await tx.execute(sql`
        INSERT INTO released_tickets (ticket_code, event_id) VALUES (${code}, ${eventId})
          ON CONFLICT (ticket_code) DO UPDATE SET event_id = EXCLUDED.event_id, released_at = now()`)
  return gone.length
}

export function paymentRefundsRepository(db: Db, options: { holdMinutes?: number } = {}) {
  const hold = options.holdMinutes ?? WAITLIST_HOLD_MINUTES

  /** One batch of the cancel job for one event, under its row lock (SKIP LOCKED: another runner has it). */
  async function cancelBatch(eventId: number, limit: number): Promise<number> {
    return db.transaction(async (txn) => {
      const tx = txn as unknown as Db
      const [ev] = rowsOf(await tx.execute(sql`SELECT id, name FROM events WHERE id = ${eventId} AND cancelled_at IS NOT NULL FOR UPDATE SKIP LOCKED`)) as {
        id: number
        name: string
      }[]
      if (!ev) return 0
      const moved = rowsAs(
        await tx.execute(sql`
          WITH picked AS MATERIALIZED (SELECT id FROM payments WHERE event_id = ${eventId} AND status = 'PAID' ORDER BY id LIMIT ${limit} FOR UPDATE)
          UPDATE payments SET status = 'REFUND_PENDING', refund_requested_at = now()
            FROM picked WHERE payments.id = picked.id AND payments.status = 'PAID'
            RETURNING ${sql.raw(COLUMNS_OF_PAYMENTS)}`),
      )
      await takeTicketsBack(
        tx,
        eventId,
        moved.filter((p) => p.kind === 'TICKET' && p.participant_id !== null).map((p) => p.participant_id as number),
      )
      const students = moved.map((p) => p.user_id).filter((id): id is number => id !== null)
      if (students.length)
        await pushRepository(tx).queue(
          students,
          {
            title: `${ev.name} is cancelled`,
            body: 'The organisers cancelled it: your payment is being refunded in full.',
            url: `/event-details/${eventId}`,
            tag: `cancel-${eventId}`,
          },
          tx,
        )
      return moved.length
    })
  }

  return {
    /** The refunds due for the event (REFUND_PENDING): Razorpay's the job makes; UPI and desk ones the treasurer pays back by hand. */
    async refundsDue(userId: number, eventId: number): Promise<Outcome<AdminPayment[]>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          await lockManagedEvent(tx, userId, eventId, false)
          return adminPayments(tx, sql`y.event_id = ${eventId} AND y.status = 'REFUND_PENDING'`)
        }),
      )
    },

    /**
     * Refunds one PAID payment: REFUND_PENDING (Razorpay: the job pays it back; UPI and desk: listed for the treasurer),
     * and its place released: a ticket taken back (its place offered to the waitlist), a registration dropped.
     */
    async refund(userId: number, paymentId: number): Promise<Outcome<AdminPayment>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          const { ev, pay } = await lockManagedPayment(tx, userId, paymentId)
          if (pay.status !== 'PAID') throw new Refused('notRefundable')
          if (pay.participant_id !== null) {
            if (pay.kind === 'TICKET') await takeTicketsBack(tx, ev.id, [pay.participant_id])
            // A registration's place is the participant itself (its trigger would move the payment just the same).
            else await tx.execute(sql`DELETE FROM participants WHERE id = ${pay.participant_id}`)
          }
          await refundRequestedIn(tx, pay.id)
          if (pay.kind === 'TICKET') await tx.execute(sql`SELECT waitlist_offer(${ev.id}::int, ${hold}::int)`)
          if (pay.user_id !== null)
            await pushRepository(tx).queue(
              [pay.user_id],
              {
                title: 'Your payment is being refunded',
                body: `The organisers of ${ev.name} refunded your place: the money is on its way back.`,
                url: `/event-details/${ev.id}`,
                tag: `refund-${ev.id}`,
              },
              tx,
            )
          await recordAudit(tx, {
            actorId: userId,
            actorKind: 'user',
            action: 'payment.refund',
            councilId: ev.organizer_id,
            eventId: ev.id,
            before: { payment: pay.id, status: 'PAID' },
            after: { payment: pay.id, status: 'REFUND_PENDING' },
          })
          const [row] = await adminPayments(tx, sql`y.id = ${pay.id}`)
          return row
        }),
      )
    },

    /**
     * A UPI or desk refund paid back by hand by the treasurer: REFUNDED, with a ledger row whose reference names who
     * (`hand:<payment id>:<user id>`), once (a second call finds it no longer REFUND_PENDING). Razorpay's are the job's.
     */
    async markRefunded(userId: number, paymentId: number): Promise<Outcome<AdminPayment>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          const { ev, pay } = await lockManagedPayment(tx, userId, paymentId)
          if (pay.status !== 'REFUND_PENDING') throw new Refused('notRefundPending')
          if (pay.method === 'RAZORPAY') throw new Refused('refundAtGateway')
          await refundedIn(tx, pay.id, `hand:${pay.id}:${userId}`, userId)
          await recordAudit(tx, {
            actorId: userId,
            actorKind: 'user',
            action: 'payment.refunded',
            councilId: ev.organizer_id,
            eventId: ev.id,
            before: { payment: pay.id, status: 'REFUND_PENDING' },
            after: { payment: pay.id, status: 'REFUNDED', method: pay.method, amount: pay.amount },
          })
          const [row] = await adminPayments(tx, sql`y.id = ${pay.id}`)
          return row
        }),
      )
    },

    /**
     * Cancels a paid event: cancelled_at set (once: a repeat answers the same time) and every hold expired, in one
     * transaction under the event's row lock; the PAID payments are the cancel job's (cancelStep), started at once.
     */
    async cancel(userId: number, eventId: number): Promise<Outcome<CancelStarted>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          const ev = await lockManagedEvent(tx, userId, eventId)
          if (ev.fee <= 0) throw new Refused('notPaidEvent')
          let expired = 0
          if (ev.cancelled_at === null) {
            await tx.execute(sql`UPDATE events SET cancelled_at = now() WHERE id = ${eventId}`)
            const gone = rowsAs(
              await tx.execute(sql`
                UPDATE payments SET status = 'EXPIRED', expired_at = now()
                  WHERE event_id = ${eventId} AND status IN ('PENDING', 'AWAITING_CONFIRMATION') RETURNING ${COLUMNS}`),
            )
            expired = gone.length
            // Nothing is offered any more: the waitlist of a cancelled event is empty.
            await tx.execute(sql`DELETE FROM waitlist WHERE event_id = ${eventId}`)
            await recordAudit(tx, {
              actorId: userId,
              actorKind: 'user',
              action: 'event.cancel',
              councilId: ev.organizer_id,
              eventId,
              before: { cancelled_at: null },
              after: { cancelled: true, holds_expired: expired },
            })
          }
          const [state] = rowsOf(
            await tx.execute(sql`
              SELECT e.cancelled_at, (SELECT count(*) FROM payments y WHERE y.event_id = e.id AND y.status = 'PAID')::int AS paid
                FROM events e WHERE e.id = ${eventId}`),
          ) as { cancelled_at: unknown; paid: number }[]
          return { cancelled_at: iso(state.cancelled_at)!, holds_expired: expired, refunds_to_request: Number(state.paid) }
        }),
      )
    },

    /**
     * One run of the cancel job: for each cancelled event with PAID payments left, batches of `batch` until none is
     * left or `maxBatches` ran (a test stops it there, as a server dying would). Answers the payments moved.
     */
    async cancelStep(batch = CANCEL_BATCH, maxBatches = Number.POSITIVE_INFINITY): Promise<number> {
      const due = rowsOf(
        await db.execute(sql`
          SELECT DISTINCT y.event_id FROM payments y JOIN events e ON e.id = y.event_id
            WHERE y.status = 'PAID' AND e.cancelled_at IS NOT NULL ORDER BY y.event_id LIMIT 20`),
      ) as { event_id: number }[]
      let moved = 0
      let batches = 0
      for (const { event_id } of due) {
        while (batches < maxBatches) {
          batches += 1
          const n = await cancelBatch(Number(event_id), batch)
          moved += n
          if (n < batch) break
        }
      }
      return moved
    },
  }
}

export type PaymentRefundsRepository = ReturnType<typeof paymentRefundsRepository>
