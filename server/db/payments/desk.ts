// The desk at the door (issue 35 item 4): a volunteer finds a student (ticket code, e-mail or student ID), takes the
// fee in cash or by UPI shown on the student's phone for a held or unpaid place, and the place is PAID through
// settleIn (method DESK) in one transaction with the event's row locked first; the route then admits the ticket
// through the door's own scan (its rules, its one admission a day). The client's key makes a retry answer the same:
// it is the ledger's once-only reference (`desk:<key>`) and the scan's id, so there is never a second payment nor a
// second admission. Who may: the door's people (door volunteers of the event, its council's organisers, admins).
import { createHash, randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { DOOR_STATES } from '../../../contract/door.ts'
import type { DeskMode, PaymentMethod, PaymentStatus } from '../../../contract/payment-rules.ts'
import { splitScan } from '../../../contract/scan-text.ts'
import type { DeskStudent } from '../../../contract/types.ts'
import { recordAudit } from '../audit.ts'
import { doorAccess } from '../door/tickets.ts'
import type { Db } from '../index.ts'
import { done, type Outcome, outcomeOf, Refused, refused, rowsOf } from '../outcomes.ts'
import { receiptNumber, settleIn } from './payments.ts'

const DOOR_STATE_SET = new Set<string>(DOOR_STATES)

/** What a desk payment did: the place paid (or paid before by the same key), its ticket to admit. */
export interface DeskPaid {
  amount: number
  ticketCode: string | null
  ticketSecret: string | null
  rotating: boolean
  receipt: string | null
  repeat: boolean
}

/** The door scan's id for a desk key: a UUID made from it, so the admission of a retried payment is the same scan. */
export function deskScanId(key: string): string {
  const h = createHash('sha256').update(`desk:${key}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

const LIVE = sql.raw(`('PENDING', 'AWAITING_CONFIRMATION', 'PAID')`)

export function deskRepository(db: Db) {
  /** The paid place's facts for the answer and the admission. */
  async function paidPlace(tx: Db, paymentId: number, repeat: boolean): Promise<DeskPaid> {
    const [row] = rowsOf(
      await tx.execute(sql`
        SELECT y.amount, y.receipt_no, p.ticket_code, p.ticket_secret, e.rotating_codes
          FROM payments y JOIN events e ON e.id = y.event_id LEFT JOIN participants p ON p.id = y.participant_id
          WHERE y.id = ${paymentId}`),
    ) as Record<string, unknown>[]
    return {
      amount: Number(row.amount),
      ticketCode: (row.ticket_code as string | null) ?? null,
      ticketSecret: (row.ticket_secret as string | null) ?? null,
      rotating: Boolean(row.rotating_codes),
      receipt: row.receipt_no === null || row.receipt_no === undefined ? null : receiptNumber(Number(row.receipt_no)),
      repeat,
    }
  }

  return {
    /**
     * The event's students (registered, or with a payment there) matching a ticket code, an e-mail or a student ID,
     * with their place and what they owe; nobody else is shown to the desk.
     */
    async find(userId: number, eventId: number, query: string): Promise<Outcome<DeskStudent[]>> {
      const denied = await doorAccess(db, userId, eventId)
      if (denied) return refused(denied)
      const q = query.trim()
      const code = splitScan(q).code
      const where = q.includes('@')
        ? sql`lower(u.email) = lower(${q})`
        : /^\d{16}$/.test(code)
          ? sql`u.id IN (SELECT user_id FROM participants WHERE event_id = ${eventId} AND ticket_code = ${code})`
          : sql`lower(u.roll_number) = lower(${q})`
      const rows = rowsOf(
        await db.execute(sql`
          SELECT u.id, u.name, u.email, u.roll_number, p.id AS participant_id, coalesce(p.ticket_collected, false) AS ticket_collected,
                 y.id AS payment_id, y.status, y.amount, y.method,
                 e.fee, e.payment_methods, e.is_ticket_feature_enabled, e.ticket_count, e.tickets_sold, e.tickets_held
            FROM users u
            JOIN events e ON e.id = ${eventId}
            LEFT JOIN participants p ON p.event_id = e.id AND p.user_id = u.id
            LEFT JOIN LATERAL (
              SELECT id, status, amount, method FROM payments WHERE event_id = e.id AND user_id = u.id AND double_of IS NULL
                ORDER BY (status IN ${LIVE}) DESC, id DESC LIMIT 1) y ON true
            WHERE ${where} AND (p.id IS NOT NULL OR y.id IS NOT NULL)
            ORDER BY u.id LIMIT 10`),
      ) as Record<string, unknown>[]
      return done(
        rows.map((r) => {
          const methods = (typeof r.payment_methods === 'string' ? JSON.parse(r.payment_methods) : r.payment_methods) as string[]
          const registered = r.participant_id !== null && r.participant_id !== undefined
          const status = (r.status as PaymentStatus | null) ?? null
          const live = status === 'PENDING' || status === 'AWAITING_CONFIRMATION'
          const desk = Number(r.fee) > 0 && methods.includes('DESK')
          const owes = !desk || !registered || r.ticket_collected || status === 'PAID' ? 0 : live ? Number(r.amount) : Number(r.fee) * 100
          return {
            user_id: Number(r.id),
            name: String(r.name),
            email: String(r.email),
            roll_number: (r.roll_number as string | null) ?? null,
            registered,
            ticket_collected: Boolean(r.ticket_collected),
            payment:
              r.payment_id === null || r.payment_id === undefined
                ? null
                : { id: Number(r.payment_id), status: status!, amount: Number(r.amount), method: (r.method as PaymentMethod | null) ?? null },
            owes,
          }
        }),
      )
    },

    /**
     * Takes the fee at the desk for the student's held or unpaid place: PAID through settleIn (method DESK, the key
     * the ledger's reference), audited with the volunteer. A retry with the key answers the same; a place already
     * paid is refused (never a second payment).
     */
    pay(volunteerId: number, input: { eventId: number; userId: number; mode: DeskMode; key: string }): Promise<Outcome<DeskPaid>> {
      const ref = `desk:${input.key}`
      return outcomeOf(async () => {
        const denied = await doorAccess(db, volunteerId, input.eventId)
        if (denied) throw new Refused(denied)
        return db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          const [ev] = rowsOf(
            await tx.execute(sql`
              SELECT id, state, fee, payment_methods, organizer_id, cancelled_at, is_ticket_feature_enabled, ticket_count, tickets_sold, tickets_held,
                     (SELECT count(*) FROM waitlist w WHERE w.event_id = events.id AND w.offered_at IS NOT NULL)::int AS offers
                FROM events WHERE id = ${input.eventId} FOR UPDATE`),
          ) as Record<string, unknown>[]
          if (!ev) throw new Refused('eventNotFound')
          // Paid before with this key: the same answer (a retry), or a key reused for someone else.
          const [seen] = rowsOf(
            await tx.execute(sql`
              SELECT l.payment_id, y.user_id FROM payment_ledger l JOIN payments y ON y.id = l.payment_id WHERE l.kind = 'CAPTURE' AND l.gateway_ref = ${ref}`),
          ) as Record<string, unknown>[]
          if (seen) {
            if (Number(seen.user_id) !== input.userId || Number(ev.id) !== input.eventId) throw new Refused('deskKeyReused')
            return paidPlace(tx, Number(seen.payment_id), true)
          }
          if (!DOOR_STATE_SET.has(String(ev.state))) throw new Refused('doorClosed')
          if (ev.cancelled_at !== null && ev.cancelled_at !== undefined) throw new Refused('eventCancelled')
          const methods = (typeof ev.payment_methods === 'string' ? JSON.parse(ev.payment_methods) : ev.payment_methods) as string[]
          if (Number(ev.fee) <= 0 || !methods.includes('DESK')) throw new Refused('methodNotOffered')
          const [place] = rowsOf(
            await tx.execute(sql`
              SELECT id, ticket_collected FROM participants WHERE event_id = ${input.eventId} AND user_id = ${input.userId} FOR UPDATE`),
          ) as Record<string, unknown>[]
          if (!place) throw new Refused('notRegistered')
          const [live] = rowsOf(
            await tx.execute(sql`
              SELECT id, status, amount FROM payments
                WHERE event_id = ${input.eventId} AND user_id = ${input.userId} AND double_of IS NULL AND status IN ${LIVE} FOR UPDATE`),
          ) as Record<string, unknown>[]
          if (live?.status === 'PAID' || place.ticket_collected) throw new Refused('alreadyPaid')
          let paymentId = live ? Number(live.id) : null
          let amount = live ? Number(live.amount) : Number(ev.fee) * 100
          if (paymentId === null) {
            // An unpaid place with no hold (registered, never claimed, or its hold passed): held now, if a place is free.
            const ticket = Boolean(ev.is_ticket_feature_enabled)
            if (ticket && Number(ev.tickets_sold) + Number(ev.tickets_held) + Number(ev.offers) >= Number(ev.ticket_count)) throw new Refused('soldOut')
            const [held] = rowsOf(
              await tx.execute(sql`
                INSERT INTO payments (event_id, user_id, participant_id, kind, amount, reference, pay_by, method)
                  VALUES (${input.eventId}, ${input.userId}, ${Number(place.id)}, ${ticket ? 'TICKET' : 'REGISTRATION'}, ${amount},
                          ${`D${randomBytes(6).toString('hex').toUpperCase()}`}, now() + interval '15 minutes', 'DESK')
                  RETURNING id`),
            ) as { id: unknown }[]
            paymentId = Number(held.id)
          }
          const settled = await settleIn(tx, paymentId, { method: 'DESK', amount, ref, confirmedBy: volunteerId, deskMode: input.mode })
          amount = settled.payment.amount
          await recordAudit(tx, {
            actorId: volunteerId,
            actorKind: 'user',
            action: 'desk.pay',
            councilId: Number(ev.organizer_id),
            eventId: input.eventId,
            before: { payment_id: paymentId, user_id: input.userId, status: live?.status ?? null },
            after: { payment_id: paymentId, user_id: input.userId, status: settled.payment.status, method: 'DESK', desk_mode: input.mode, amount },
          })
          return paidPlace(tx, paymentId, false)
        })
      })
    },

    /** What the desk took at the event, per volunteer and mode, in paise (refunds are the treasurer's, by hand). */
    async totals(userId: number, eventId: number) {
      const denied = await doorAccess(db, userId, eventId)
      if (denied) return refused(denied)
      const rows = rowsOf(
        await db.execute(sql`
          SELECT y.confirmed_by, u.name, y.desk_mode, count(*)::int AS n, coalesce(sum(y.amount), 0)::bigint AS amount
            FROM payments y LEFT JOIN users u ON u.id = y.confirmed_by
            WHERE y.event_id = ${eventId} AND y.method = 'DESK' AND y.status IN ('PAID', 'REFUND_PENDING', 'REFUNDED')
            GROUP BY y.confirmed_by, u.name, y.desk_mode ORDER BY u.name, y.confirmed_by`),
      ) as Record<string, unknown>[]
      const volunteers = new Map<string, { user_id: number | null; name: string; CASH: number; UPI: number; count: number }>()
      const total = { CASH: 0, UPI: 0, count: 0 }
      for (const r of rows) {
        const id = r.confirmed_by === null || r.confirmed_by === undefined ? null : Number(r.confirmed_by)
        const v = volunteers.get(String(id)) ?? { user_id: id, name: String(r.name ?? 'Someone no longer signed up'), CASH: 0, UPI: 0, count: 0 }
        const mode = r.desk_mode === 'UPI' ? 'UPI' : 'CASH'
        v[mode] += Number(r.amount)
        v.count += Number(r.n)
        total[mode] += Number(r.amount)
        total.count += Number(r.n)
        volunteers.set(String(id), v)
      }
      return done({ volunteers: [...volunteers.values()], total })
    },
  }
}

export type DeskRepository = ReturnType<typeof deskRepository>
