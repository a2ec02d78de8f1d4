// The money side of a paid event for the people who hold it (issue 35 items 3, 4, 6): the organiser's list and totals
// of an event's payments and their CSV, a UPI payment confirmed or sent back, a bank statement imported, the desk
// at the door, and a PAID payment's receipt. Declared the way contract/api.ts declares Part 1 (docs/architecture.md):
// built from define.ts and entities.ts only. Amounts are whole paise.
import * as z from 'zod/mini'
import { bearer, type CallSpec, doc, fields, ok, positiveId } from './define.ts'
import { csvPathId } from './org.ts'
import { DESK_MODES, PAYMENT_METHODS, PAYMENT_STATUSES } from './payment-rules.ts'

/** The largest statement file the import reads (a year of a busy account's credits is well under it). */
export const STATEMENT_MAX_BYTES = 1024 * 1024

const eventId = { event_id: positiveId('event_id') }

/** One payment as the console lists it. */
export const orgPayment = doc(
  z.object({
    id: z.int(),
    student: z.nullable(z.object({ id: z.int(), name: z.string(), email: z.string(), roll_number: z.nullable(z.string()) })),
    kind: z.enum(['TICKET', 'REGISTRATION']),
    status: z.enum(PAYMENT_STATUSES),
    method: z.nullable(z.enum(PAYMENT_METHODS)),
    desk_mode: z.nullable(z.enum(DESK_MODES)),
    amount: z.int(),
    reference: z.string(),
    utr: z.nullable(z.string()),
    razorpay_order_id: z.nullable(z.string()),
    razorpay_payment_id: z.nullable(z.string()),
    receipt: z.nullable(z.string()),
    /** A second payment for a place already paid (refunded automatically): the id of the first. */
    double_of: z.nullable(z.int()),
    created_at: z.string(),
    pay_by: z.string(),
    utr_at: z.nullable(z.string()),
    paid_at: z.nullable(z.string()),
    refunded_at: z.nullable(z.string()),
  }),
  { id: 'OrgPayment' },
)

const methodTotals = z.object({ paid: z.int(), pending: z.int(), refund_pending: z.int(), refunded: z.int(), paid_count: z.int() })

/** An event's money: captured − refunded = net = paid + refund pending; fee × paid places beside it. */
export const paymentTotals = doc(
  z.object({
    fee: z.int(),
    paid: z.int(),
    paid_places: z.int(),
    pending: z.int(),
    refund_pending: z.int(),
    refunded: z.int(),
    captured: z.int(),
    net: z.int(),
    fee_times_paid_places: z.int(),
    /** net = paid + refund_pending, and paid = fee × paid places (the ledger agrees with the payments). */
    adds_up: z.boolean(),
    by_method: z.object({ RAZORPAY: methodTotals, UPI: methodTotals, DESK: methodTotals }),
  }),
  { id: 'PaymentTotals' },
)

const paymentRef = { ...eventId, payment_id: positiveId('payment_id') }

/** A statement's row that confirmed nothing, and why. */
export const STATEMENT_REASONS = ['NO_UTR', 'NOT_A_CREDIT', 'BAD_AMOUNT', 'NO_PAYMENT', 'AMOUNT_DIFFERS', 'ALREADY_CONFIRMED', 'NOT_CONFIRMABLE'] as const

const deskPaymentMode = z.enum(DESK_MODES, { error: 'method must be CASH or UPI' })

/** The desk's look-up: ticket code, e-mail or student ID. */
const deskQuery = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'query is a required field' : 'query must be text') })
  .check(z.trim(), z.minLength(1, 'query is a required field'), z.maxLength(200, 'query must be at most 200 characters'))

const clientKey = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'key is a required field' : 'key must be 8 to 64 letters, digits or -') })
  .check(z.regex(/^[A-Za-z0-9-]{8,64}$/, 'key must be 8 to 64 letters, digits or -'))

/** A student as the desk finds them: their place at the event and what they owe. */
export const deskStudent = z.object({
  user_id: z.int(),
  name: z.string(),
  email: z.string(),
  roll_number: z.nullable(z.string()),
  registered: z.boolean(),
  ticket_collected: z.boolean(),
  payment: z.nullable(z.object({ id: z.int(), status: z.enum(PAYMENT_STATUSES), amount: z.int(), method: z.nullable(z.enum(PAYMENT_METHODS)) })),
  /** Paise the desk may take now: 0 when paid, or when the place cannot be paid at the desk. */
  owes: z.int(),
})

export const PAYMENT_ORG_CALLS = {
  orgPayments: {
    method: 'POST',
    path: '/org/p/event/payments',
    auth: 'bearer',
    tag: 'organiser',
    summary:
      'Every payment of the event (student, method, status, amount in paise, UTR, Razorpay ids, receipt, times), newest first, and its totals: paid, pending, refund pending, refunded, captured and net, by method; net = paid + refund pending and paid = fee × paid places hold (`adds_up`).',
    body: fields(eventId),
    answers: { 200: ok({ payments: z.array(orgPayment), totals: paymentTotals }), ...bearer(403, 404) },
  },
  orgPaymentsCsv: {
    method: 'GET',
    path: '/org/p/event/:id/payments.csv',
    auth: 'bearer',
    tag: 'organiser',
    summary:
      'The payments as CSV with the participants export’s rules (UTF-8 with BOM, formula-safe cells, times in IST), amounts in rupees with two decimals and in paise.',
    params: z.object({ id: csvPathId }),
    answers: { 200: { description: 'The payments as CSV.', content: { 'text/csv': { schema: z.string() } } }, ...bearer(403, 404) },
  },
  orgPaymentConfirm: {
    method: 'POST',
    path: '/org/p/event/payment/confirm',
    auth: 'bearer',
    tag: 'organiser',
    summary:
      'Confirms a UPI payment by its UTR (the money is in the council’s account): the place is PAID and the ticket issued; a hold that passed gets a place if one is free, else the payment is listed for refund. A UTR confirms one payment only; confirming again answers the same.',
    body: fields(paymentRef),
    answers: { 200: ok({ result: z.enum(['paid', 'repeat', 'refunding']), payment: orgPayment }), ...bearer(403, 404, 409) },
  },
  orgPaymentReject: {
    method: 'POST',
    path: '/org/p/event/payment/reject',
    auth: 'bearer',
    tag: 'organiser',
    summary:
      'Sends a UPI payment’s UTR back (no such money arrived): the payment is PENDING again with its UTR cleared, and the student is told, so they may give the right one before pay_by.',
    body: fields(paymentRef),
    answers: { 200: ok({ payment: orgPayment }), ...bearer(403, 404, 409) },
  },
  orgPaymentsStatement: {
    method: 'POST',
    path: '/org/p/event/:id/statement',
    auth: 'bearer',
    tag: 'organiser',
    summary:
      'A bank statement’s CSV as the body (text/csv, at most 1 MB): the header row is found by the names banks use (UTR, UPI Ref No, Reference, Transaction ID; Amount, Credit, Deposit), amounts in rupees with or without decimals and commas. Each credit whose UTR and exact amount match a payment of the event awaiting confirmation (or pending or expired with that UTR) confirms it; the answer lists what was confirmed and what did not match, with the reason. Importing the same file again changes nothing. A file that cannot be read answers 400 and writes nothing.',
    params: z.object({ id: csvPathId }),
    answers: {
      200: ok({
        confirmed: z.array(z.object({ line: z.int(), utr: z.string(), amount: z.int(), payment_id: z.int(), result: z.enum(['paid', 'refunding']) })),
        unmatched: z.array(z.object({ line: z.int(), utr: z.nullable(z.string()), amount: z.nullable(z.int()), reason: z.enum(STATEMENT_REASONS) })),
      }),
      ...bearer(403, 404),
    },
  },
} as const satisfies Record<string, CallSpec>

/** The desk at the door and the receipts (issue 35 items 4, 5). */
export const DESK_RECEIPT_CALLS = {
  paymentReceipt: {
    method: 'GET',
    path: '/payments/p/receipt/:receipt',
    auth: 'bearer',
    tag: 'payments',
    summary:
      'A PAID payment’s receipt (PDF): receipt number, event, student, amount, method, paid time, council. The student fetches their own (EventDetail.Participant.payment.receipt names it), organisers any of their events’.',
    params: z.object({
      receipt: doc(z.string(), { description: 'The receipt number, R-001001, as EventDetail.Participant.payment.receipt gives it (with or without .pdf).' }),
    }),
    answers: { 200: { description: 'The receipt.', content: { 'application/pdf': { schema: z.string() } } }, ...bearer(403, 404) },
  },
  deskFind: {
    method: 'POST',
    path: '/door/p/desk/find',
    auth: 'bearer',
    tag: 'door',
    summary: 'The desk at the door: a student found by ticket code, e-mail or student ID, with their place at the event and what they owe in paise.',
    body: fields({ ...eventId, query: deskQuery }),
    answers: { 200: ok({ students: z.array(deskStudent) }), ...bearer(403, 404) },
  },
  deskPay: {
    method: 'POST',
    path: '/door/p/desk/pay',
    auth: 'bearer',
    tag: 'door',
    summary:
      'The desk takes the fee (CASH, or UPI shown on the student’s phone) for a held or unpaid place of an event that takes DESK: PAID, the ticket issued and the student admitted at once, audited with the volunteer. `key` is the client’s: a retry with it answers the same, never a second payment or admission.',
    body: fields({ ...eventId, user_id: positiveId('user_id'), method: deskPaymentMode, key: clientKey }),
    answers: {
      200: ok({ message: z.string(), amount: z.int(), ticket_code: z.nullable(z.string()), receipt: z.nullable(z.string()), admitted: z.boolean() }),
      ...bearer(403, 404, 409),
    },
  },
  deskTotals: {
    method: 'POST',
    path: '/door/p/desk/totals',
    auth: 'bearer',
    tag: 'door',
    summary: 'What the desk took at the event, per volunteer and per method (CASH, UPI), in paise: for handing over the cash.',
    body: fields(eventId),
    answers: {
      200: ok({
        volunteers: z.array(z.object({ user_id: z.nullable(z.int()), name: z.string(), CASH: z.int(), UPI: z.int(), count: z.int() })),
        total: z.object({ CASH: z.int(), UPI: z.int(), count: z.int() }),
      }),
      ...bearer(403, 404),
    },
  },
} as const satisfies Record<string, CallSpec>
