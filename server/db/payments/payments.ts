// Paid events (issue 35, API.md Part 4): one model of a held place for every method. A claim on a paid event holds
// the place (claim_tickets(): a PENDING payment until pay_by, counted in events.tickets_held); this repository moves a
// payment on, always in one transaction with the place it pays for, the event's row locked first (the lock order of
// claims, give-backs and transfers):
//   settle: a capture (Razorpay's checkout or webhook, the reconciliation, a UPI payment confirmed, the desk) makes
//     the held place PAID and issues its ticket; a capture for a hold that passed gets the ticket if a place is free,
//     else it is refunded; a second capture for a place already paid is refunded. Each capture is recorded once, by
//     the gateway's id, in the ledger: a repeat finds it there and changes nothing, in any order of arrival.
//   expire: a hold past pay_by (asked about at the gateway first when it has an order) releases its place to the
//     waitlist, whose order after a fair opening's draw is the draw's.
//   refunds: a refund is a state first (REFUND_PENDING), then a job makes it at the gateway once (looking for its own
//     refund by receipt before making one) and records it (REFUNDED, a ledger row).
// The ledger's identity: captured − refunded = the amounts of PAID payments + those of REFUND_PENDING ones.
import { sql } from 'drizzle-orm'
import { PAYMENT_METHODS, type PaymentMethod } from '../../../contract/payment-rules.ts'
import type { ParticipantPayment, PaymentSettings } from '../../../contract/types.ts'
import { newTicketCode } from '../tickets/claims.ts'
import type { Db } from '../index.ts'
import { type Outcome, outcomeOf, Refused, rowsOf } from '../outcomes.ts'
import { pushRepository } from '../people/push.ts'

export interface PaymentRow {
  id: number
  event_id: number
  user_id: number | null
  participant_id: number | null
  kind: 'TICKET' | 'REGISTRATION'
  amount: number
  status: ParticipantPayment['status']
  method: PaymentMethod | null
  reference: string
  pay_by: Date
  razorpay_order_id: string | null
  razorpay_payment_id: string | null
  utr: string | null
  paid_at: Date | null
  receipt_no: number | null
  razorpay_refund_id: string | null
  double_of: number | null
}

/** The columns read of a payment, with their types made plain (the drivers answer numbers and dates differently). */
const COLUMN_NAMES =
  'id, event_id, user_id, participant_id, kind, amount, status, method, reference, pay_by, razorpay_order_id, razorpay_payment_id, utr, paid_at, receipt_no, razorpay_refund_id, double_of'
export const COLUMNS = sql.raw(COLUMN_NAMES)
/** The same columns named by their table, for a statement that joins another (an UPDATE ... FROM). */
export const COLUMNS_OF_PAYMENTS = COLUMN_NAMES.split(', ')
  .map((c) => `payments.${c}`)
  .join(', ')

function plain(row: Record<string, unknown>): PaymentRow {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v))
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string))
  return {
    ...(row as unknown as PaymentRow),
    id: Number(row.id),
    event_id: Number(row.event_id),
    user_id: num(row.user_id),
    participant_id: num(row.participant_id),
    amount: Number(row.amount),
    pay_by: new Date(row.pay_by as string),
    paid_at: date(row.paid_at),
    receipt_no: num(row.receipt_no),
    double_of: num(row.double_of),
  }
}

export const rowsAs = (result: unknown) => rowsOf(result).map((r) => plain(r as Record<string, unknown>))

/** A payment on the wire (API.md Part 4: EventDetail.Participant.payment). */
export function participantPaymentOf(p: PaymentRow): ParticipantPayment {
  return {
    status: p.status,
    amount: p.amount,
    method: p.method,
    pay_by: p.pay_by.toISOString(),
    paid_at: p.paid_at ? p.paid_at.toISOString() : null,
    receipt: p.receipt_no === null ? null : receiptNumber(p.receipt_no),
    reference: p.reference,
  }
}

/**
 * An event's payment settings on the wire (API.md Part 4), null when it is free: the methods it takes that are
 * available (Razorpay where the server has its keys; UPI where the council has its UPI id and payee name).
 */
export function paymentSettingsOf(
  e: { fee: number; payWithinMinutes: number; refundUntilHours: number; paymentMethods: string[] },
  available: { razorpay: boolean; upi: boolean },
): PaymentSettings | null {
  if (e.fee <= 0) return null
  const methods = PAYMENT_METHODS.filter((m) => e.paymentMethods.includes(m) && (m === 'RAZORPAY' ? available.razorpay : m === 'UPI' ? available.upi : true))
  return { pay_within_minutes: e.payWithinMinutes, refund_until_hours: e.refundUntilHours, methods }
}

/** A receipt's number as printed: R-001001. */
export const receiptNumber = (n: number) => `R-${String(n).padStart(6, '0')}`

/** What a capture is: how it was paid, which gateway id records it (once), and by whom where a person confirmed it. */
export interface Capture {
  method: PaymentMethod
  /** Paise, as the gateway or the person says it arrived. */
  amount: number
  /** The ledger's once-only key: a Razorpay payment id, `utr:<UTR>`, `desk:<payment id>`. */
  ref: string
  razorpayPaymentId?: string
  utr?: string
  confirmedBy?: number
  deskMode?: 'CASH' | 'UPI'
}

/** What a capture did to its place. */
export type Settled =
  | { result: 'paid'; payment: PaymentRow; ticketCode: string | null }
  /** Already recorded (a repeated webhook, the checkout and the webhook of one payment): nothing changed. */
  | { result: 'repeat'; payment: PaymentRow; ticketCode: string | null }
  /** The money arrived but no place could be given (the hold passed and the places are gone, or the place went): refunded. */
  | { result: 'refunding'; payment: PaymentRow }

/** States in which the door may admit, so a late payment may still get its ticket. */
const TICKET_STATES = new Set(['TICKET_OPEN', 'TICKET_CLOSED', 'ONGOING'])

interface LockedEvent {
  id: number
  name: string
  state: string
  ticket_count: number
  tickets_sold: number
  tickets_held: number
  cancelled_at: unknown
  is_ticket_feature_enabled: boolean
  offers: number
}

async function lockEvent(tx: Db, eventId: number, skipLocked = false): Promise<LockedEvent | null> {
  const [ev] = rowsOf(
    await tx.execute(sql`
      SELECT id, name, state, ticket_count, tickets_sold, tickets_held, cancelled_at, is_ticket_feature_enabled,
             (SELECT count(*) FROM waitlist w WHERE w.event_id = events.id AND w.offered_at IS NOT NULL)::int AS offers
        FROM events WHERE id = ${eventId} FOR UPDATE ${skipLocked ? sql`SKIP LOCKED` : sql``}`),
  ) as LockedEvent[]
  return ev
    ? { ...ev, ticket_count: Number(ev.ticket_count), tickets_sold: Number(ev.tickets_sold), tickets_held: Number(ev.tickets_held), offers: Number(ev.offers) }
    : null
}

async function ledger(tx: Db, p: { paymentId: number; eventId: number; kind: 'CAPTURE' | 'REFUND'; method: string; amount: number; ref: string }) {
  const rows = rowsOf(
    await tx.execute(sql`
      INSERT INTO payment_ledger (payment_id, event_id, kind, method, amount, gateway_ref)
        VALUES (${p.paymentId}, ${p.eventId}, ${p.kind}, ${p.method}, ${p.amount}, ${p.ref})
        ON CONFLICT (kind, gateway_ref) DO NOTHING RETURNING id`),
  )
  return rows.length > 0
}

/**
 * Settles one capture in `tx` (the caller's transaction: a webhook records its event id in the same one). The event's
 * row is locked first, then the payment's.
 */
export async function settleIn(tx: Db, paymentId: number, capture: Capture): Promise<Settled> {
  const [head] = rowsOf(await tx.execute(sql`SELECT event_id FROM payments WHERE id = ${paymentId}`)) as { event_id: number }[]
  if (!head) throw new Refused('paymentNotFound')
  const ev = (await lockEvent(tx, Number(head.event_id)))!
  const [pay] = rowsAs(await tx.execute(sql`SELECT ${COLUMNS} FROM payments WHERE id = ${paymentId} FOR UPDATE`))
  // Recorded before (the same capture by another path): nothing changes.
  const [seen] = rowsOf(await tx.execute(sql`SELECT payment_id FROM payment_ledger WHERE kind = 'CAPTURE' AND gateway_ref = ${capture.ref}`)) as {
    payment_id: number
  }[]
  if (seen) {
    const [mine] = rowsAs(await tx.execute(sql`SELECT ${COLUMNS} FROM payments WHERE id = ${Number(seen.payment_id)}`))
    const [ticket] =
      mine.status === 'PAID' && mine.participant_id !== null
        ? (rowsOf(await tx.execute(sql`SELECT ticket_code FROM participants WHERE id = ${mine.participant_id}`)) as { ticket_code: string | null }[])
        : []
    return { result: 'repeat', payment: mine, ticketCode: ticket?.ticket_code ?? null }
  }
  // The amount a place costs is fixed when it is held: any other amount pays nothing and is refused, nothing written.
  if (capture.amount !== pay.amount) throw new Refused('amountMismatch')
  if (pay.status === 'PAID' || pay.status === 'REFUND_PENDING' || pay.status === 'REFUNDED') return refundDouble(tx, pay, capture)

  const free = ev.tickets_sold + ev.tickets_held + ev.offers < ev.ticket_count
  const held = pay.status === 'PENDING' || pay.status === 'AWAITING_CONFIRMATION'
  // A hold that passed gets its place back only where one is free and the event still admits.
  const placeable =
    ev.cancelled_at === null &&
    (held || (pay.kind === 'TICKET' ? TICKET_STATES.has(ev.state) && ev.is_ticket_feature_enabled && free : ev.state === 'REGISTRATION_OPEN'))
  const [place] = pay.participant_id
    ? (rowsOf(await tx.execute(sql`SELECT id, ticket_collected FROM participants WHERE id = ${pay.participant_id} FOR UPDATE`)) as {
        id: number
        ticket_collected: boolean
      }[])
    : []
  let participantId = place ? Number(place.id) : null
  if (placeable && !place && pay.kind === 'REGISTRATION' && pay.user_id !== null) {
    // A registration dropped when its hold passed, paid late while registration is open: the student registered again.
    const [again] = rowsOf(
      await tx.execute(sql`
        INSERT INTO participants (event_id, user_id) VALUES (${pay.event_id}, ${pay.user_id}) ON CONFLICT (event_id, user_id) DO NOTHING RETURNING id`),
    ) as { id: number }[]
    participantId = again ? Number(again.id) : null
  }
  const ticketNeeded = pay.kind === 'TICKET'
  if (!placeable || participantId === null || (ticketNeeded && place?.ticket_collected)) {
    // The money came, and no place can be given: recorded, and refunded by the refund job.
    await tx.execute(sql`
      UPDATE payments SET status = 'REFUND_PENDING', method = ${capture.method}, paid_at = now(), refund_requested_at = now(),
             razorpay_payment_id = coalesce(${capture.razorpayPaymentId ?? null}::text, razorpay_payment_id),
             utr = coalesce(${capture.utr ?? null}::text, utr), confirmed_by = ${capture.confirmedBy ?? null}, desk_mode = ${capture.deskMode ?? null}
        WHERE id = ${pay.id}`)
    await ledger(tx, { paymentId: pay.id, eventId: pay.event_id, kind: 'CAPTURE', method: capture.method, amount: capture.amount, ref: capture.ref })
    const [now] = rowsAs(await tx.execute(sql`SELECT ${COLUMNS} FROM payments WHERE id = ${pay.id}`))
    return { result: 'refunding', payment: now }
  }
  // The hold is left first (tickets_held − 1), then the ticket collected (tickets_sold + 1): the CHECK holds between.
  await tx.execute(sql`
    UPDATE payments SET status = 'PAID', method = ${capture.method}, paid_at = now(), receipt_no = nextval('payment_receipt_no'),
           participant_id = ${participantId},
           razorpay_payment_id = coalesce(${capture.razorpayPaymentId ?? null}::text, razorpay_payment_id),
           utr = coalesce(${capture.utr ?? null}::text, utr), confirmed_by = ${capture.confirmedBy ?? null}, desk_mode = ${capture.deskMode ?? null}
      WHERE id = ${pay.id}`)
  let ticketCode: string | null = null
  if (ticketNeeded) {
    ticketCode = newTicketCode()
    await tx.execute(sql`
      UPDATE participants SET ticket_collected = true, ticket_code = ${ticketCode}, ticket_collected_at = now()
        WHERE id = ${participantId} AND NOT ticket_collected`)
    await tx.execute(sql`DELETE FROM waitlist WHERE event_id = ${pay.event_id} AND user_id = ${pay.user_id}`)
  }
  await ledger(tx, { paymentId: pay.id, eventId: pay.event_id, kind: 'CAPTURE', method: capture.method, amount: capture.amount, ref: capture.ref })
  if (pay.user_id !== null)
    await pushRepository(tx).queue(
      [pay.user_id],
      {
        title: ticketNeeded ? 'Your ticket is ready' : 'Payment received',
        body: ticketNeeded ? `Paid for ${ev.name}: your ticket is in the app.` : `Paid for ${ev.name}: you are registered.`,
        url: ticketNeeded ? `/ticket/${pay.event_id}` : `/event-details/${pay.event_id}`,
        tag: `paid-${pay.event_id}`,
      },
      tx,
    )
  const [now] = rowsAs(await tx.execute(sql`SELECT ${COLUMNS} FROM payments WHERE id = ${pay.id}`))
  return { result: 'paid', payment: now, ticketCode }
}

/** A second capture for a place already paid: its own row (never live), recorded and refunded. */
async function refundDouble(tx: Db, place: PaymentRow, capture: Capture): Promise<Settled> {
  const [row] = rowsAs(
    await tx.execute(sql`
      INSERT INTO payments (event_id, user_id, participant_id, kind, amount, status, method, reference, pay_by, paid_at, refund_requested_at,
                            razorpay_order_id, razorpay_payment_id, utr, confirmed_by, desk_mode, double_of)
        VALUES (${place.event_id}, ${place.user_id}, ${place.participant_id}, ${place.kind}, ${capture.amount}, 'REFUND_PENDING', ${capture.method},
                ${`${place.reference}-D${Date.now().toString(36)}`}, ${place.pay_by.toISOString()}::timestamptz, now(), now(), NULL,
                ${capture.razorpayPaymentId ?? null}, NULL, ${capture.confirmedBy ?? null}, ${capture.deskMode ?? null}, ${place.id})
        RETURNING ${COLUMNS}`),
  )
  await ledger(tx, { paymentId: row.id, eventId: row.event_id, kind: 'CAPTURE', method: capture.method, amount: capture.amount, ref: capture.ref })
  return { result: 'refunding', payment: row }
}

/** Marks a refund done (the gateway's processed refund, or the treasurer's by hand) and records it in the ledger, once. */
export async function refundedIn(tx: Db, paymentId: number, ref: string, by: number | null): Promise<boolean> {
  const [row] = rowsAs(
    await tx.execute(sql`
      UPDATE payments SET status = 'REFUNDED', refunded_at = now(), refunded_by = ${by}
        WHERE id = ${paymentId} AND status = 'REFUND_PENDING' RETURNING ${COLUMNS}`),
  )
  if (!row) return false
  await ledger(tx, { paymentId: row.id, eventId: row.event_id, kind: 'REFUND', method: row.method ?? 'RAZORPAY', amount: row.amount, ref })
  return true
}

/** A paid place given back or cancelled: it waits for its refund (the job, or the treasurer by hand). */
export async function refundRequestedIn(tx: Db, paymentId: number): Promise<void> {
  await tx.execute(sql`UPDATE payments SET status = 'REFUND_PENDING', refund_requested_at = now() WHERE id = ${paymentId} AND status = 'PAID'`)
}

/** Razorpay's webhook payload (API.md Part 4), the parts read here. */
export interface RazorpayEvent {
  event?: unknown
  payload?: {
    payment?: { entity?: { id?: unknown; order_id?: unknown; amount?: unknown; currency?: unknown; status?: unknown; notes?: unknown } }
    order?: { entity?: { id?: unknown; notes?: unknown } }
    refund?: { entity?: { id?: unknown; payment_id?: unknown; status?: unknown } }
  }
}

/**
 * What a webhook does, in the transaction that records its event id: payment.captured and order.paid settle the
 * hold their order names (amount, currency and event checked first: any other is refused, nothing written);
 * refund.processed completes a refund. Anything else, or an order not ours, is recorded and ignored.
 */
async function razorpayEventIn(tx: Db, body: RazorpayEvent): Promise<string> {
  const type = String(body.event)
  if (type === 'payment.captured' || type === 'order.paid') {
    const p = body.payload?.payment?.entity
    if (!p || typeof p.order_id !== 'string' || typeof p.id !== 'string') return 'ignored'
    const [row] = rowsOf(await tx.execute(sqlPaymentByOrder(p.order_id))) as { id: number; event_id: number; amount: number }[]
    // An order of another integration on the same Razorpay account: not ours, nothing to do.
    if (!row) return 'ignored'
    if (p.status !== 'captured') return 'ignored'
    const notes = (body.payload?.order?.entity?.notes ?? p.notes) as Record<string, unknown> | undefined
    const eventNote = notes && typeof notes === 'object' && !Array.isArray(notes) ? notes.event_id : undefined
    // A different amount or currency, or a note naming another event: refused, nothing written (not even the event id).
    if (p.currency !== 'INR' || p.amount !== Number(row.amount) || (eventNote !== undefined && String(eventNote) !== String(row.event_id)))
      throw new Refused('webhookMismatch')
    const capture: Capture = { method: 'RAZORPAY', amount: Number(row.amount), ref: p.id, razorpayPaymentId: p.id }
    return (await settleIn(tx, Number(row.id), capture)).result
  }
  if (type === 'refund.processed') {
    const r = body.payload?.refund?.entity
    if (!r || typeof r.id !== 'string' || typeof r.payment_id !== 'string') return 'ignored'
    const [row] = rowsOf(await tx.execute(sqlRefundTarget(r.id, r.payment_id))) as { id: number }[]
    if (!row) return 'ignored'
    await tx.execute(sqlKeepRefund(Number(row.id), r.id))
    return (await refundedIn(tx, Number(row.id), r.id, null)) ? 'refunded' : 'repeat'
  }
  return 'ignored'
}

const sqlPaymentByOrder = (orderId: string) => sql`SELECT id, event_id, amount FROM payments WHERE razorpay_order_id = ${orderId} AND double_of IS NULL`
const sqlRefundTarget = (refundId: string, paymentId: string) =>
  sql`SELECT id FROM payments WHERE razorpay_refund_id = ${refundId} OR (razorpay_payment_id = ${paymentId} AND status = 'REFUND_PENDING' AND razorpay_refund_id IS NULL) ORDER BY id LIMIT 1`
const sqlKeepRefund = (id: number, refundId: string) =>
  sql`UPDATE payments SET razorpay_refund_id = ${refundId} WHERE id = ${id} AND razorpay_refund_id IS NULL`

export function paymentsRepository(db: Db, options: { holdMinutes?: number } = {}) {
  const offerMinutes = options.holdMinutes ?? 30

  return {
    /** The caller's payment for the event's place: the live one, else the latest; null on a free event or without one. */
    async ofStudent(eventId: number, userId: number): Promise<PaymentRow | null> {
      const [row] = rowsAs(
        await db.execute(sql`
          SELECT ${COLUMNS} FROM payments WHERE event_id = ${eventId} AND user_id = ${userId} AND double_of IS NULL
            ORDER BY (status IN ('PENDING', 'AWAITING_CONFIRMATION', 'PAID')) DESC, id DESC LIMIT 1`),
      )
      return row ?? null
    },

    /** The caller's live held place with its event and council, for the pay step; refused when there is none to pay. */
    async heldPlace(userId: number, eventId: number) {
      const [row] = rowsOf(
        await db.execute(sql`
          SELECT y.id, y.amount, y.status, y.pay_by, y.reference, y.razorpay_order_id, e.name AS event_name, e.payment_methods,
                 e.cancelled_at, c.name AS council_name, c.upi_vpa, c.upi_name
            FROM payments y JOIN events e ON e.id = y.event_id JOIN councils c ON c.id = e.organizer_id
            WHERE y.event_id = ${eventId} AND y.user_id = ${userId} AND y.double_of IS NULL
            ORDER BY (y.status IN ('PENDING', 'AWAITING_CONFIRMATION', 'PAID')) DESC, y.id DESC LIMIT 1`),
      ) as Record<string, unknown>[]
      if (!row) throw new Refused('noHeldPlace')
      if (row.status === 'PAID') throw new Refused('alreadyPaid')
      if (row.status === 'AWAITING_CONFIRMATION') throw new Refused('awaitingConfirmation')
      if (row.status !== 'PENDING' || new Date(row.pay_by as string).getTime() <= Date.now()) throw new Refused('holdExpired')
      return {
        id: Number(row.id),
        amount: Number(row.amount),
        payBy: new Date(row.pay_by as string),
        reference: String(row.reference),
        orderId: (row.razorpay_order_id as string | null) ?? null,
        eventName: String(row.event_name),
        councilName: String(row.council_name),
        methods: (typeof row.payment_methods === 'string' ? JSON.parse(row.payment_methods) : row.payment_methods) as string[],
        upi: row.upi_vpa && row.upi_name ? { vpa: String(row.upi_vpa), name: String(row.upi_name) } : null,
      }
    },

    /** Keeps the order made for a hold, unless another tap kept one first: answers the order the hold has now. */
    async keepOrder(paymentId: number, orderId: string): Promise<string | null> {
      const [row] = rowsOf(
        await db.execute(sql`
          UPDATE payments SET razorpay_order_id = ${orderId}, method = 'RAZORPAY'
            WHERE id = ${paymentId} AND razorpay_order_id IS NULL AND status = 'PENDING' RETURNING razorpay_order_id`),
      ) as { razorpay_order_id: string }[]
      if (row) return row.razorpay_order_id
      const [kept] = rowsOf(await db.execute(sql`SELECT razorpay_order_id FROM payments WHERE id = ${paymentId}`)) as { razorpay_order_id: string | null }[]
      return kept?.razorpay_order_id ?? null
    },

    /** The student chose UPI straight to the council. */
    async chooseUpi(paymentId: number): Promise<void> {
      await db.execute(sql`UPDATE payments SET method = 'UPI' WHERE id = ${paymentId} AND status = 'PENDING'`)
    },

    /** The payment a Razorpay order belongs to, or null. */
    async byOrder(orderId: string): Promise<PaymentRow | null> {
      const [row] = rowsAs(await db.execute(sql`SELECT ${COLUMNS} FROM payments WHERE razorpay_order_id = ${orderId} AND double_of IS NULL`))
      return row ?? null
    },

    /** A capture settled in a transaction of its own (the checkout's verified answer, the reconciliation, a confirmation). */
    settle: (paymentId: number, capture: Capture): Promise<Outcome<Settled>> =>
      outcomeOf(() => db.transaction(async (tx) => settleIn(tx as unknown as Db, paymentId, capture))),

    /**
     * The student's UTR for a UPI payment straight to the council: the hold waits for an organiser's confirmation
     * (AWAITING_CONFIRMATION); a UTR names one payment only (the unique index decides).
     */
    async submitUtr(userId: number, eventId: number, utr: string): Promise<Outcome<PaymentRow>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          await lockEvent(tx, eventId)
          const [pay] = rowsAs(
            await tx.execute(sql`
              SELECT ${COLUMNS} FROM payments WHERE event_id = ${eventId} AND user_id = ${userId} AND double_of IS NULL
                AND status IN ('PENDING', 'AWAITING_CONFIRMATION', 'PAID') FOR UPDATE`),
          )
          if (!pay) {
            const expired = rowsOf(await tx.execute(sql`SELECT 1 FROM payments WHERE event_id = ${eventId} AND user_id = ${userId} AND status = 'EXPIRED'`))
            throw new Refused(expired.length ? 'holdExpired' : 'noHeldPlace')
          }
          if (pay.status === 'PAID') throw new Refused('alreadyPaid')
          if (pay.status === 'PENDING' && pay.pay_by.getTime() <= Date.now()) throw new Refused('holdExpired')
          const [taken] = rowsOf(await tx.execute(sql`SELECT id FROM payments WHERE utr = ${utr} AND id <> ${pay.id}`))
          if (taken) throw new Refused('utrUsed')
          const [row] = rowsAs(
            await tx.execute(sql`
              UPDATE payments SET status = 'AWAITING_CONFIRMATION', method = 'UPI', utr = ${utr}, utr_at = now()
                WHERE id = ${pay.id} RETURNING ${COLUMNS}`),
          )
          return row
        }),
      )
    },

    /**
     * Records a Razorpay webhook by its event id and applies it in the same transaction: 'duplicate' when the id was
     * seen (nothing runs); a refusal (a mismatched amount, currency or event) rolls back the record too.
     */
    async webhook(eventId: string, payload: RazorpayEvent): Promise<Outcome<'recorded' | 'duplicate' | 'ignored'>> {
      const type = String(payload.event)
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          const fresh = rowsOf(
            await tx.execute(sql`
              INSERT INTO gateway_events (id, type, payload, outcome) VALUES (${eventId}, ${type}, ${JSON.stringify(payload)}::jsonb, 'received')
                ON CONFLICT (id) DO NOTHING RETURNING id`),
          )
          if (fresh.length === 0) return 'duplicate' as const
          const outcome = await razorpayEventIn(tx, payload)
          await tx.execute(sql`UPDATE gateway_events SET outcome = ${outcome} WHERE id = ${eventId}`)
          return outcome === 'ignored' ? ('ignored' as const) : ('recorded' as const)
        }),
      )
    },

    /**
     * Expires the holds past pay_by that need no question to the gateway (no Razorpay order, or the gateway already
     * asked since pay_by): each event's in one transaction under its lock (SKIP LOCKED: with several instances each
     * event is expired by one of them); an unpaid registration is dropped; the places go to the waitlist.
     */
    async expireDue(): Promise<{ expired: number; offered: number[] }> {
      const due = rowsOf(
        await db.execute(sql`
          SELECT DISTINCT event_id FROM payments
            WHERE status = 'PENDING' AND pay_by <= now() AND (razorpay_order_id IS NULL OR gateway_checked_at >= pay_by)
            LIMIT 100`),
      ) as { event_id: number }[]
      let expired = 0
      const offered: number[] = []
      for (const { event_id } of due) {
        const eventId = Number(event_id)
        await db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          if (!(await lockEvent(tx, eventId, true))) return
          const gone = rowsAs(
            await tx.execute(sql`
              UPDATE payments SET status = 'EXPIRED', expired_at = now()
                WHERE event_id = ${eventId} AND status = 'PENDING' AND pay_by <= now() AND (razorpay_order_id IS NULL OR gateway_checked_at >= pay_by)
                RETURNING ${COLUMNS}`),
          )
          expired += gone.length
          const registrations = gone.filter((g) => g.kind === 'REGISTRATION' && g.participant_id !== null).map((g) => g.participant_id as number)
          if (registrations.length)
            await tx.execute(
              sql`DELETE FROM participants WHERE id IN (${sql.join(
                registrations.map((id) => sql`${id}`),
                sql`, `,
              )}) AND NOT ticket_collected`,
            )
          const students = gone.map((g) => g.user_id).filter((id): id is number => id !== null)
          if (students.length)
            await pushRepository(tx).queue(
              students,
              {
                title: 'Your held place was released',
                body: 'It was not paid in time: claim again if places are left.',
                url: `/event-details/${eventId}`,
                tag: `hold-${eventId}`,
              },
              tx,
            )
          if (gone.some((g) => g.kind === 'TICKET')) {
            const [r] = rowsOf(await tx.execute(sql`SELECT waitlist_offer(${eventId}::int, ${offerMinutes}::int) AS offered`)) as { offered: unknown }[]
            offered.push(...parseInts(r?.offered))
          }
        })
      }
      return { expired, offered }
    },

    /**
     * Razorpay orders to ask the gateway about (a webhook can be lost), leased for a minute so one instance asks
     * (the rows picked in a MATERIALIZED CTE, evaluated once, so its LIMIT holds: the cancel job's batch, written as
     * `IN (SELECT ... LIMIT n FOR UPDATE)`, moved every row on PGlite; these two did not, but had the same form):
     * holds still PENDING at pay_by, and holds that expired in the last day (a payment may arrive late).
     */
    async ordersToReconcile(limit = 20): Promise<PaymentRow[]> {
      return rowsAs(
        await db.execute(sql`
          WITH picked AS MATERIALIZED (
            SELECT id FROM payments
              WHERE razorpay_order_id IS NOT NULL AND double_of IS NULL AND (lease_until IS NULL OR lease_until < now())
                AND ((status = 'PENDING' AND pay_by <= now() AND (gateway_checked_at IS NULL OR gateway_checked_at < pay_by))
                  OR (status = 'EXPIRED' AND expired_at > now() - interval '1 day'
                      AND (gateway_checked_at IS NULL OR gateway_checked_at < now() - interval '5 minutes')))
              ORDER BY pay_by LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          UPDATE payments SET lease_until = now() + interval '1 minute'
            FROM picked WHERE payments.id = picked.id
            RETURNING ${sql.raw(COLUMNS_OF_PAYMENTS)}`),
      )
    },

    /** The gateway was asked about the order (or could not be): the hold may now expire; the lease ends. */
    async reconciled(paymentId: number): Promise<void> {
      await db.execute(sql`UPDATE payments SET gateway_checked_at = now(), lease_until = NULL WHERE id = ${paymentId}`)
    },

    /** Refunds to make or to follow at Razorpay, leased for a minute so one instance makes each. */
    async refundsToMake(limit = 20): Promise<PaymentRow[]> {
      return rowsAs(
        await db.execute(sql`
          WITH picked AS MATERIALIZED (
            SELECT id FROM payments
              WHERE status = 'REFUND_PENDING' AND method = 'RAZORPAY' AND razorpay_payment_id IS NOT NULL
                AND (lease_until IS NULL OR lease_until < now())
              ORDER BY refund_requested_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          UPDATE payments SET lease_until = now() + interval '1 minute'
            FROM picked WHERE payments.id = picked.id
            RETURNING ${sql.raw(COLUMNS_OF_PAYMENTS)}`),
      )
    },

    /** The gateway's refund made for a payment: kept, and the payment REFUNDED when the refund is processed. */
    async refundMade(paymentId: number, refund: { id: string; status: string }): Promise<void> {
      await db.transaction(async (txn) => {
        const tx = txn as unknown as Db
        await tx.execute(sql`UPDATE payments SET razorpay_refund_id = ${refund.id}, lease_until = NULL WHERE id = ${paymentId}`)
        if (refund.status === 'processed') await refundedIn(tx, paymentId, refund.id, null)
      })
    },

    /** Leaves a row alone for `minutes` (the gateway refused the job's call: not worth asking again at once). */
    async postpone(paymentId: number, minutes: number): Promise<void> {
      await db.execute(sql`UPDATE payments SET lease_until = now() + make_interval(mins => ${minutes}) WHERE id = ${paymentId}`)
    },

    /** Every ledger total and payment count of an event: the money adds up (issue 35 item 6). */
    async totals(eventId: number) {
      const [row] = rowsOf(
        await db.execute(sql`
          SELECT
            coalesce((SELECT sum(amount) FROM payment_ledger WHERE event_id = ${eventId} AND kind = 'CAPTURE'), 0)::bigint AS captured,
            coalesce((SELECT sum(amount) FROM payment_ledger WHERE event_id = ${eventId} AND kind = 'REFUND'), 0)::bigint AS refunded,
            coalesce((SELECT sum(amount) FROM payments WHERE event_id = ${eventId} AND status = 'PAID'), 0)::bigint AS paid,
            coalesce((SELECT sum(amount) FROM payments WHERE event_id = ${eventId} AND status = 'REFUND_PENDING'), 0)::bigint AS refund_pending,
            (SELECT count(*) FROM payments WHERE event_id = ${eventId} AND status = 'PAID')::int AS paid_places`),
      ) as Record<string, unknown>[]
      return {
        captured: Number(row.captured),
        refunded: Number(row.refunded),
        paid: Number(row.paid),
        refundPending: Number(row.refund_pending),
        paidPlaces: Number(row.paid_places),
      }
    },
  }
}

export type PaymentsRepository = ReturnType<typeof paymentsRepository>

function parseInts(value: unknown): number[] {
  if (Array.isArray(value)) return value.map(Number)
  if (typeof value === 'string') return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number)
  return []
}
