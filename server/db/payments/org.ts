// The money of a paid event as its organisers hold it (issue 35 items 3 and 6): the payments with their totals, a
// UPI payment confirmed (a capture through settleIn, the one way a place becomes PAID) or sent back to PENDING, the
// statement's rows matched by UTR and amount, and a receipt's facts. Every change takes the event's row first, then
// the payment's, in one transaction (the lock order of claims, give-backs and transfers), and is audited.
import { sql } from 'drizzle-orm'
import type { PaymentMethod, PaymentStatus } from '../../../contract/payment-rules.ts'
import type { OrgPayment, PaymentTotals } from '../../../contract/types.ts'
import type { Receipt } from '../../feeds/receipt-pdf.ts'
import { recordAudit } from '../audit.ts'
import type { Db } from '../index.ts'
import { unknownEvent } from '../org/common.ts'
import { done, type Outcome, outcomeOf, Refused, refused, rowsOf } from '../outcomes.ts'
import { receiptNumber, settleIn } from './payments.ts'
import { pushRepository } from '../people/push.ts'
import { rolesRepository } from '../people/roles.ts'

/** The event an organiser may see the money of. */
export interface MoneyEvent {
  id: number
  name: string
  fee: number
  councilId: number
  councilName: string
}

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString())
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v))

/** The FROM of every payment the console reads: the payment and its student. */
const LISTED = sql`
  SELECT y.id, y.kind, y.status, y.method, y.desk_mode, y.amount, y.reference, y.utr, y.razorpay_order_id, y.razorpay_payment_id,
         y.receipt_no, y.double_of, y.created_at, y.pay_by, y.utr_at, y.paid_at, y.refunded_at, y.event_id,
         u.id AS user_id, u.name AS user_name, u.email AS user_email, u.roll_number AS user_roll
    FROM payments y LEFT JOIN users u ON u.id = y.user_id`

function orgPaymentOf(r: Record<string, unknown>): OrgPayment {
  return {
    id: Number(r.id),
    student:
      r.user_id === null || r.user_id === undefined
        ? null
        : { id: Number(r.user_id), name: String(r.user_name ?? ''), email: String(r.user_email ?? ''), roll_number: (r.user_roll as string | null) ?? null },
    kind: r.kind as OrgPayment['kind'],
    status: r.status as PaymentStatus,
    method: (r.method as PaymentMethod | null) ?? null,
    desk_mode: (r.desk_mode as OrgPayment['desk_mode']) ?? null,
    amount: Number(r.amount),
    reference: String(r.reference),
    utr: (r.utr as string | null) ?? null,
    razorpay_order_id: (r.razorpay_order_id as string | null) ?? null,
    razorpay_payment_id: (r.razorpay_payment_id as string | null) ?? null,
    receipt: r.receipt_no === null || r.receipt_no === undefined ? null : receiptNumber(Number(r.receipt_no)),
    double_of: num(r.double_of),
    created_at: iso(r.created_at)!,
    pay_by: iso(r.pay_by)!,
    utr_at: iso(r.utr_at),
    paid_at: iso(r.paid_at),
    refunded_at: iso(r.refunded_at),
  }
}

async function onePayment(db: Db, paymentId: number): Promise<OrgPayment> {
  const [row] = rowsOf(await db.execute(sql`${LISTED} WHERE y.id = ${paymentId}`)) as Record<string, unknown>[]
  return orgPaymentOf(row)
}

/** What a statement's row did. */
export type StatementMatch =
  | { result: 'paid' | 'refunding'; paymentId: number }
  | { result: 'NO_PAYMENT' | 'AMOUNT_DIFFERS' | 'ALREADY_CONFIRMED' | 'NOT_CONFIRMABLE' }

const CONFIRMABLE = new Set(['AWAITING_CONFIRMATION', 'PENDING', 'EXPIRED'])

export function paymentsOrgRepository(db: Db) {
  const roles = rolesRepository(db)

  /** The event's row locked (the first lock of every change), and the payment's after it; refusals as the routes answer them. */
  async function lockPayment(tx: Db, eventId: number, paymentId: number) {
    await tx.execute(sql`SELECT id FROM events WHERE id = ${eventId} FOR UPDATE`)
    const [pay] = rowsOf(
      await tx.execute(sql`
        SELECT id, status, utr, amount, user_id, pay_by, double_of FROM payments WHERE id = ${paymentId} AND event_id = ${eventId} FOR UPDATE`),
    ) as Record<string, unknown>[]
    if (!pay) throw new Refused('paymentNotFound')
    return { id: Number(pay.id), status: String(pay.status), utr: (pay.utr as string | null) ?? null, amount: Number(pay.amount), userId: num(pay.user_id) }
  }

  /** The ledger's record of a UTR's capture: the payment it confirmed, or null. */
  async function utrConfirmed(tx: Db, utr: string): Promise<number | null> {
    const [row] = rowsOf(await tx.execute(sql`SELECT payment_id FROM payment_ledger WHERE kind = 'CAPTURE' AND gateway_ref = ${`utr:${utr}`}`)) as {
      payment_id: unknown
    }[]
    return row ? Number(row.payment_id) : null
  }

  /** A UTR's capture for a payment locked by the caller: settleIn decides the place (paid, or refunded when none is left). */
  async function confirmIn(tx: Db, userId: number, eventId: number, pay: { id: number; utr: string; amount: number }) {
    const settled = await settleIn(tx, pay.id, { method: 'UPI', amount: pay.amount, ref: `utr:${pay.utr}`, utr: pay.utr, confirmedBy: userId })
    const [ev] = rowsOf(await tx.execute(sql`SELECT organizer_id FROM events WHERE id = ${eventId}`)) as { organizer_id: unknown }[]
    await recordAudit(tx, {
      actorId: userId,
      actorKind: 'user',
      action: 'payment.confirm',
      councilId: Number(ev.organizer_id),
      eventId,
      before: { payment_id: pay.id, utr: pay.utr, amount: pay.amount },
      after: { payment_id: pay.id, status: settled.payment.status, result: settled.result },
    })
    return settled
  }

  return {
    /** The event, if the caller may see its money (its council's organisers, admins). */
    async manage(userId: number, eventId: number): Promise<Outcome<MoneyEvent>> {
      const [row] = rowsOf(
        await db.execute(sql`
          SELECT e.id, e.name, e.fee, e.organizer_id, c.name AS council_name FROM events e JOIN councils c ON c.id = e.organizer_id WHERE e.id = ${eventId}`),
      ) as Record<string, unknown>[]
      if (!row) return refused(await unknownEvent(roles, userId))
      if (!(await roles.canManageCouncil(userId, Number(row.organizer_id)))) return refused('notOrganiser')
      return done({
        id: Number(row.id),
        name: String(row.name),
        fee: Number(row.fee),
        councilId: Number(row.organizer_id),
        councilName: String(row.council_name),
      })
    },

    /** Every payment of the event, newest first. */
    async list(eventId: number): Promise<OrgPayment[]> {
      return (rowsOf(await db.execute(sql`${LISTED} WHERE y.event_id = ${eventId} ORDER BY y.id DESC`)) as Record<string, unknown>[]).map(orgPaymentOf)
    },

    /** The event's money from its payments and its ledger, by method (issue 35 item 6). */
    async totals(event: { id: number; fee: number }): Promise<PaymentTotals> {
      const byStatus = rowsOf(
        await db.execute(sql`
          SELECT method, status, count(*)::int AS n, coalesce(sum(amount), 0)::bigint AS amount FROM payments
            WHERE event_id = ${event.id} GROUP BY method, status`),
      ) as Record<string, unknown>[]
      const ledger = rowsOf(
        await db.execute(sql`
          SELECT kind, method, coalesce(sum(amount), 0)::bigint AS amount FROM payment_ledger WHERE event_id = ${event.id} GROUP BY kind, method`),
      ) as Record<string, unknown>[]
      const blank = () => ({ paid: 0, pending: 0, refund_pending: 0, refunded: 0, paid_count: 0 })
      const by_method = { RAZORPAY: blank(), UPI: blank(), DESK: blank() }
      const t = { paid: 0, paid_places: 0, pending: 0, refund_pending: 0, refunded: 0, captured: 0 }
      for (const r of byStatus) {
        const amount = Number(r.amount)
        const m = by_method[r.method as PaymentMethod] as ReturnType<typeof blank> | undefined
        if (r.status === 'PAID') {
          t.paid += amount
          t.paid_places += Number(r.n)
          if (m) {
            m.paid += amount
            m.paid_count += Number(r.n)
          }
        } else if (r.status === 'PENDING' || r.status === 'AWAITING_CONFIRMATION') {
          t.pending += amount
          if (m) m.pending += amount
        } else if (r.status === 'REFUND_PENDING') {
          t.refund_pending += amount
          if (m) m.refund_pending += amount
        }
      }
      for (const r of ledger) {
        const amount = Number(r.amount)
        if (r.kind === 'CAPTURE') t.captured += amount
        else {
          t.refunded += amount
          const m = by_method[r.method as PaymentMethod] as ReturnType<typeof blank> | undefined
          if (m) m.refunded += amount
        }
      }
      const net = t.captured - t.refunded
      const feeTimes = event.fee * 100 * t.paid_places
      return {
        fee: event.fee * 100,
        ...t,
        net,
        fee_times_paid_places: feeTimes,
        adds_up: net === t.paid + t.refund_pending && t.paid === feeTimes,
        by_method,
      }
    },

    /**
     * Confirms a UPI payment by its UTR: a capture through settleIn (a hold that passed gets a place if one is free,
     * else it is refunded). Confirmed before by this UTR: answered again, nothing changes; a UTR that confirmed
     * another payment: refused.
     */
    confirm(userId: number, eventId: number, paymentId: number): Promise<Outcome<{ result: 'paid' | 'repeat' | 'refunding'; payment: OrgPayment }>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          const pay = await lockPayment(tx, eventId, paymentId)
          if (!pay.utr) throw new Refused('notConfirmable')
          const confirmedFor = await utrConfirmed(tx, pay.utr)
          if (confirmedFor === pay.id) return { result: 'repeat' as const, payment: await onePayment(tx, pay.id) }
          if (confirmedFor !== null) throw new Refused('utrUsed')
          if (!CONFIRMABLE.has(pay.status)) throw new Refused('notConfirmable')
          const settled = await confirmIn(tx, userId, eventId, { id: pay.id, utr: pay.utr, amount: pay.amount })
          return { result: settled.result, payment: await onePayment(tx, pay.id) }
        }),
      )
    },

    /** Sends a UTR back: PENDING again with the UTR cleared (the student may give the right one before pay_by), told by push. */
    reject(userId: number, eventId: number, paymentId: number): Promise<Outcome<OrgPayment>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          const pay = await lockPayment(tx, eventId, paymentId)
          if (pay.status !== 'AWAITING_CONFIRMATION') throw new Refused('notConfirmable')
          await tx.execute(sql`UPDATE payments SET status = 'PENDING', utr = NULL, utr_at = NULL WHERE id = ${pay.id}`)
          const [ev] = rowsOf(await tx.execute(sql`SELECT name, organizer_id FROM events WHERE id = ${eventId}`)) as Record<string, unknown>[]
          if (pay.userId !== null)
            await pushRepository(tx).queue(
              [pay.userId],
              {
                title: 'Your UPI payment was not found',
                body: `The council found no payment with the UTR you gave for ${String(ev.name)}: check it in your UPI app and enter it again before your hold ends.`,
                url: `/event-details/${eventId}`,
                tag: `utr-${eventId}`,
              },
              tx,
            )
          await recordAudit(tx, {
            actorId: userId,
            actorKind: 'user',
            action: 'payment.reject',
            councilId: Number(ev.organizer_id),
            eventId,
            before: { payment_id: pay.id, status: pay.status, utr: pay.utr },
            after: { payment_id: pay.id, status: 'PENDING', utr: null },
          })
          return onePayment(tx, pay.id)
        }),
      )
    },

    /**
     * The UTRs of a statement that may confirm something at the event: those of its payments, and those the ledger
     * holds (answered ALREADY_CONFIRMED). Read once for the whole file, so a statement of thousands of other credits
     * costs one query, not a transaction a row; each candidate is still decided in its own transaction.
     */
    async statementCandidates(eventId: number, utrs: string[]): Promise<Set<string>> {
      if (utrs.length === 0) return new Set()
      const list = `{${[...new Set(utrs)].join(',')}}`
      const rows = rowsOf(
        await db.execute(sql`
          SELECT utr FROM payments WHERE event_id = ${eventId} AND utr = ANY(${list}::text[])
          UNION SELECT substr(gateway_ref, 5) FROM payment_ledger
            WHERE kind = 'CAPTURE' AND gateway_ref = ANY(SELECT 'utr:' || u FROM unnest(${list}::text[]) u)`),
      ) as { utr: string }[]
      return new Set(rows.map((r) => String(r.utr)))
    },

    /**
     * One statement row: the event's payment with this UTR, confirmed when the amount is exactly its own. Each row in
     * a transaction of its own (one row's refusal leaves the others); a row confirmed before changes nothing.
     */
    matchStatementRow(userId: number, eventId: number, utr: string, amount: number): Promise<StatementMatch> {
      return db.transaction(async (txn) => {
        const tx = txn as unknown as Db
        await tx.execute(sql`SELECT id FROM events WHERE id = ${eventId} FOR UPDATE`)
        const [pay] = rowsOf(await tx.execute(sql`SELECT id, status, amount FROM payments WHERE event_id = ${eventId} AND utr = ${utr} FOR UPDATE`)) as Record<
          string,
          unknown
        >[]
        const confirmedFor = await utrConfirmed(tx, utr)
        if (confirmedFor !== null) return { result: 'ALREADY_CONFIRMED' as const }
        if (!pay) return { result: 'NO_PAYMENT' as const }
        if (Number(pay.amount) !== amount) return { result: 'AMOUNT_DIFFERS' as const }
        if (!CONFIRMABLE.has(String(pay.status))) return { result: 'NOT_CONFIRMABLE' as const }
        const settled = await confirmIn(tx, userId, eventId, { id: Number(pay.id), utr, amount })
        return settled.result === 'repeat' ? { result: 'ALREADY_CONFIRMED' as const } : { result: settled.result, paymentId: Number(pay.id) }
      })
    },

    /**
     * A receipt's facts, for its student or an organiser of its event (admins too); anyone else is told there is no
     * such receipt (404), so receipt numbers cannot be probed for another student's payment.
     */
    async receipt(userId: number, receiptNo: number): Promise<Outcome<Receipt>> {
      const [r] = rowsOf(
        await db.execute(sql`
          SELECT y.receipt_no, y.user_id, y.amount, y.method, y.desk_mode, y.utr, y.razorpay_payment_id, y.paid_at, y.status,
                 e.name AS event_name, e.organizer_id, c.name AS council_name, u.name AS user_name, u.email, u.roll_number
            FROM payments y JOIN events e ON e.id = y.event_id JOIN councils c ON c.id = e.organizer_id LEFT JOIN users u ON u.id = y.user_id
            WHERE y.receipt_no = ${receiptNo} AND y.paid_at IS NOT NULL AND y.method IS NOT NULL`),
      ) as Record<string, unknown>[]
      if (!r) return refused('paymentNotFound')
      if (num(r.user_id) !== userId && !(await roles.canManageCouncil(userId, Number(r.organizer_id)))) return refused('paymentNotFound')
      return done({
        receipt: receiptNumber(Number(r.receipt_no)),
        event: String(r.event_name),
        council: String(r.council_name),
        student: String(r.user_name ?? ''),
        email: String(r.email ?? ''),
        roll: (r.roll_number as string | null) ?? null,
        amount: Number(r.amount),
        method: r.method as Receipt['method'],
        deskMode: (r.desk_mode as Receipt['deskMode']) ?? null,
        reference: (r.utr as string | null) ?? (r.razorpay_payment_id as string | null) ?? null,
        paidAt: new Date(r.paid_at as string),
        status: String(r.status),
      })
    },
  }
}

export type PaymentsOrgRepository = ReturnType<typeof paymentsOrgRepository>
