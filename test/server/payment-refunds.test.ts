// Refunds and cancel of a paid event (issue 35 items 4-6), through the real routes against the Razorpay stand-in: a
// paid ticket given back before the cut-off (its refund on its way) and after it (REFUND_CLOSED), a paid ticket
// transferred with its payment, the organiser's refund of one payment and the treasurer's refund by hand, and the cancel
// of a paid event: resumable (a job stopped half way and run again moves each payment once) and, on PostgreSQL, exactly
// once with two runners racing. After each: captured − refunded = what PAID and REFUND_PENDING payments owe.
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import { openDatabase, schema } from '../../server/db/index.ts'
import { rowsOf } from '../../server/db/outcomes.ts'
import { type RazorpayStandin, startRazorpayStandin } from '../support/razorpay-standin.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

type Student = Awaited<ReturnType<TestApp['student']>>

describe.each(DB_KINDS)('paid events: refunds and cancel on %s', (kind) => {
  let t: TestApp
  let standin: RazorpayStandin
  let serial = 0
  beforeAll(async () => {
    standin = await startRazorpayStandin()
    t = await testApp({
      kind,
      env: {
        RAZORPAY_KEY_ID: standin.keyId,
        RAZORPAY_KEY_SECRET: standin.keySecret,
        RAZORPAY_WEBHOOK_SECRET: standin.webhookSecret,
        RAZORPAY_API_URL: standin.url,
      },
      app: { paymentsIntervalMs: false, aroundIntervalMs: false, scheduler: false, gatewayTimeoutMs: 10_000 },
    })
    standin.webhookUrl = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1/payments/razorpay/webhook`
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await standin?.close()
  })

  async function call(path: string, body: unknown, auth: Record<string, string> = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1${path}`,
      headers: { 'content-type': 'application/json', ...auth },
      payload: JSON.stringify(body),
    })
    return { status: res.statusCode, body: res.json() }
  }

  /** A TICKET_OPEN paid event starting in `startsInHours`, its council's organiser, and `n` registered students. */
  async function paidEvent(options: { tickets?: number; students?: number; startsInHours?: number; refundUntilHours?: number } = {}) {
    serial += 1
    const db = t.database.db
    const [council] = await db
      .insert(schema.councils)
      .values({ slug: `refund-${kind}-${serial}`, name: `Refund council ${serial}`, upiVpa: 'treasurer@okaxis', upiName: 'CSI KJSCE' })
      .returning({ id: schema.councils.id })
    const start = new Date(Date.now() + (options.startsInHours ?? 72) * 3_600_000).toISOString()
    const [event] = await db
      .insert(schema.events)
      .values({
        slug: `refund-${kind}-${serial}`,
        name: `Workshop ${serial}`,
        organizerId: council.id,
        state: 'TICKET_OPEN',
        fee: 200,
        isTicketFeatureEnabled: true,
        ticketCount: options.tickets ?? 10,
        dates: [start],
        refundUntilHours: options.refundUntilHours ?? 24,
      })
      .returning({ id: schema.events.id })
    const organiser = await t.student()
    await db.insert(schema.councilOrganizers).values({ councilId: council.id, userId: organiser.id })
    const students: Student[] = []
    for (let i = 0; i < (options.students ?? 1); i++) students.push(await t.student())
    if (students.length) await db.insert(schema.participants).values(students.map((s) => ({ eventId: event.id, userId: s.id })))
    return { eventId: event.id, councilId: council.id, organiser, students }
  }

  /** The student claims and pays through the stand-in's checkout (its webhook settles it): a PAID Razorpay ticket. */
  async function payRazorpay(eventId: number, s: Student) {
    expect((await call('/event/p/claim-ticket', { event_id: eventId }, s.auth)).body.result).toBe('PAYMENT_PENDING')
    const order = (await call('/event/p/pay', { event_id: eventId, method: 'RAZORPAY' }, s.auth)).body.order_id
    const { response } = await standin.pay(order)
    expect((await call('/event/p/pay/verify', { event_id: eventId, ...response }, s.auth)).body.payment.status).toBe('PAID')
    return { razorpayPaymentId: response.razorpay_payment_id, id: await paymentIdOf(eventId, s) }
  }

  /** The student claims, pays by UPI and gives a UTR; the council's confirmation settles it: a PAID UPI ticket. */
  async function payUpi(eventId: number, s: Student) {
    expect((await call('/event/p/claim-ticket', { event_id: eventId }, s.auth)).body.result).toBe('PAYMENT_PENDING')
    await call('/event/p/pay', { event_id: eventId, method: 'UPI' }, s.auth)
    const utr = String(100_000_000_000 + serial * 1000 + s.id)
    expect((await call('/event/p/pay/utr', { event_id: eventId, utr }, s.auth)).status).toBe(200)
    const id = await paymentIdOf(eventId, s)
    const settled = await t.app.paymentsRepository.settle(id, { method: 'UPI', amount: 20_000, ref: `utr:${utr}`, utr })
    expect(settled).toMatchObject({ ok: true, value: { result: 'paid' } })
    return { id }
  }

  async function paymentIdOf(eventId: number, s: Student): Promise<number> {
    const [row] = rowsOf(
      await t.database.db.execute(sql`SELECT id FROM payments WHERE event_id = ${eventId} AND user_id = ${s.id} ORDER BY id DESC LIMIT 1`),
    ) as {
      id: number
    }[]
    return Number(row.id)
  }

  const statusOf = async (paymentId: number) =>
    (rowsOf(await t.database.db.execute(sql`SELECT status FROM payments WHERE id = ${paymentId}`)) as { status: string }[])[0].status

  /** The ledger's identity, the counters, and no paid place without its ticket. */
  async function moneyAddsUp(eventId: number) {
    const [m] = rowsOf(
      await t.database.db.execute(sql`
        SELECT
          coalesce((SELECT sum(amount) FROM payment_ledger WHERE event_id = ${eventId} AND kind = 'CAPTURE'), 0)::int AS captured,
          coalesce((SELECT sum(amount) FROM payment_ledger WHERE event_id = ${eventId} AND kind = 'REFUND'), 0)::int AS refunded,
          coalesce((SELECT sum(amount) FROM payments WHERE event_id = ${eventId} AND status IN ('PAID', 'REFUND_PENDING')), 0)::int AS owed,
          (SELECT count(*) FROM payments WHERE event_id = ${eventId} AND status = 'PAID')::int AS paid,
          (SELECT count(*) FROM payments y JOIN participants p ON p.id = y.participant_id
             WHERE y.event_id = ${eventId} AND y.status = 'PAID' AND y.kind = 'TICKET' AND NOT p.ticket_collected)::int AS paid_without_ticket,
          (SELECT count(*) FROM participants p WHERE p.event_id = ${eventId} AND p.ticket_collected
             AND NOT EXISTS (SELECT 1 FROM payments y WHERE y.participant_id = p.id AND y.status = 'PAID'))::int AS ticket_without_payment,
          (SELECT tickets_sold FROM events WHERE id = ${eventId})::int AS sold,
          (SELECT count(*) FROM participants WHERE event_id = ${eventId} AND ticket_collected)::int AS holders`),
    ) as Record<string, number>[]
    expect(Number(m.captured) - Number(m.refunded)).toBe(Number(m.owed))
    expect(Number(m.paid_without_ticket)).toBe(0)
    expect(Number(m.ticket_without_payment)).toBe(0)
    expect(Number(m.sold)).toBe(Number(m.holders))
    return m
  }

  it('a paid ticket given back before the cut-off: the place goes to the waitlist, the refund is on its way and made once', async () => {
    const { eventId, students } = await paidEvent({ tickets: 1, students: 2 })
    const [a, b] = students
    const paid = await payRazorpay(eventId, a)
    expect((await call('/event/p/waitlist', { event_id: eventId, join: true }, b.auth)).status).toBe(200)
    const back = await call('/event/p/release-ticket', { event_id: eventId }, a.auth)
    expect(back.status).toBe(200)
    expect(back.body.message).toBe('Ticket given back: your ₹200 is on its way back to you. Thank you: the place goes to the next student on the waitlist.')
    expect(await statusOf(paid.id)).toBe('REFUND_PENDING')
    const offer = (await call(`/event/p/get/${eventId}`, {}, b.auth)).body.event.Participant.waitlist
    expect(offer.offer_expires_at).toEqual(expect.any(String))
    await moneyAddsUp(eventId)
    await t.app.paymentJobs.tick()
    await t.app.paymentJobs.tick()
    expect(await statusOf(paid.id)).toBe('REFUNDED')
    expect([...standin.refunds.values()].filter((r) => r.payment_id === paid.razorpayPaymentId)).toHaveLength(1)
    expect(await moneyAddsUp(eventId)).toMatchObject({ captured: 20_000, refunded: 20_000, paid: 0 })
  })

  it('after the refund cut-off a paid ticket cannot be given back (REFUND_CLOSED, nothing written), and a free one still can', async () => {
    const { eventId, students } = await paidEvent({ startsInHours: 10, refundUntilHours: 24 })
    const [a] = students
    const paid = await payUpi(eventId, a)
    const before = rowsOf(
      await t.database.db.execute(
        sql`SELECT status, ticket_collected, ticket_code FROM payments y JOIN participants p ON p.id = y.participant_id WHERE y.id = ${paid.id}`,
      ),
    )
    const back = await call('/event/p/release-ticket', { event_id: eventId }, a.auth)
    expect(back.status).toBe(403)
    expect(back.body).toEqual({
      error: true,
      code: 'REFUND_CLOSED',
      message: 'Paid tickets of this event can no longer be given back for a refund: you can still transfer yours to a friend.',
    })
    expect(
      rowsOf(
        await t.database.db.execute(
          sql`SELECT status, ticket_collected, ticket_code FROM payments y JOIN participants p ON p.id = y.participant_id WHERE y.id = ${paid.id}`,
        ),
      ),
    ).toEqual(before)
    await moneyAddsUp(eventId)
  })

  it('a paid ticket transferred to a friend takes its payment along: nothing refunded, nothing charged', async () => {
    const { eventId, students } = await paidEvent({ students: 3 })
    const [a, friend, other] = students
    const paid = await payUpi(eventId, a)
    const ledger = async () =>
      rowsOf(await t.database.db.execute(sql`SELECT kind, amount, gateway_ref FROM payment_ledger WHERE event_id = ${eventId} ORDER BY id`))
    const before = await ledger()
    const [{ email }] = rowsOf(await t.database.db.execute(sql`SELECT email FROM users WHERE id = ${friend.id}`)) as { email: string }[]
    const moved = await call('/event/p/transfer-ticket', { event_id: eventId, email }, a.auth)
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    const [row] = rowsOf(
      await t.database.db.execute(
        sql`SELECT y.status, y.user_id, p.user_id AS holder, p.ticket_collected FROM payments y JOIN participants p ON p.id = y.participant_id WHERE y.id = ${paid.id}`,
      ),
    ) as Record<string, unknown>[]
    expect({ ...row, user_id: Number(row.user_id), holder: Number(row.holder) }).toEqual({
      status: 'PAID',
      user_id: friend.id,
      holder: friend.id,
      ticket_collected: true,
    })
    expect((await call(`/event/p/get/${eventId}`, {}, friend.auth)).body.event.Participant.payment).toMatchObject({ status: 'PAID', amount: 20_000 })
    expect((await call(`/event/p/get/${eventId}`, {}, a.auth)).body.event.Participant.payment).toBeNull()
    expect(await ledger()).toEqual(before)
    await moneyAddsUp(eventId)
    // A friend already paying for a place of their own cannot receive one (the same answer as every other reason).
    await call('/event/p/claim-ticket', { event_id: eventId }, other.auth)
    const [{ email: otherEmail }] = rowsOf(await t.database.db.execute(sql`SELECT email FROM users WHERE id = ${other.id}`)) as { email: string }[]
    expect((await call('/event/p/transfer-ticket', { event_id: eventId, email: otherEmail }, friend.auth)).status).toBe(409)
    await moneyAddsUp(eventId)
  })

  it('the organiser refunds one payment (its place released), and the treasurer marks a UPI refund paid back by hand, once, with a ledger row naming who', async () => {
    const { eventId, organiser, students } = await paidEvent({ students: 3 })
    const [a, b, c] = students
    const upi = await payUpi(eventId, a)
    const card = await payRazorpay(eventId, b)
    const stranger = await t.student()
    // Only the event's organisers (and admins).
    expect((await call('/org/p/payment/refund', { payment_id: upi.id }, c.auth)).status).toBe(403)
    expect((await call('/org/p/payment/refund', { payment_id: upi.id }, stranger.auth)).body.code).toBe('NOT_ORGANISER')
    expect(await statusOf(upi.id)).toBe('PAID')
    const refunded = await call('/org/p/payment/refund', { payment_id: upi.id }, organiser.auth)
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200)
    expect(refunded.body).toMatchObject({
      message: 'Refund of ₹200 is due: pay it back to the student by hand, then mark it refunded. The place is released.',
      payment: { id: upi.id, status: 'REFUND_PENDING', method: 'UPI', amount: 20_000, name: expect.any(String) },
    })
    expect((await call(`/event/p/get/${eventId}`, {}, a.auth)).body.event.Participant).toMatchObject({ ticket_collected: false, ticket_code: null })
    expect((await call('/org/p/payment/refund', { payment_id: upi.id }, organiser.auth)).body.code).toBe('NOT_REFUNDABLE')
    const due = await call('/org/p/payment/refunds', { event_id: eventId }, organiser.auth)
    expect(due.body.payments.map((p: { id: number }) => p.id)).toEqual([upi.id])
    await moneyAddsUp(eventId)

    const done = await call('/org/p/payment/refunded', { payment_id: upi.id }, organiser.auth)
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ message: 'Marked refunded: ₹200 paid back by hand.', payment: { status: 'REFUNDED', refunded_at: expect.any(String) } })
    expect(
      rowsOf(await t.database.db.execute(sql`SELECT kind, amount, gateway_ref FROM payment_ledger WHERE payment_id = ${upi.id} AND kind = 'REFUND'`)),
    ).toEqual([{ kind: 'REFUND', amount: 20_000, gateway_ref: `hand:${upi.id}:${organiser.id}` }])
    expect((await call('/org/p/payment/refunded', { payment_id: upi.id }, organiser.auth)).body.code).toBe('NOT_REFUND_PENDING')
    // A Razorpay payment's refund is the gateway's, never marked by hand.
    await call('/org/p/payment/refund', { payment_id: card.id }, organiser.auth)
    expect((await call('/org/p/payment/refunded', { payment_id: card.id }, organiser.auth)).body.code).toBe('REFUND_AT_GATEWAY')
    await t.app.paymentJobs.tick()
    expect(await statusOf(card.id)).toBe('REFUNDED')
    expect((await call('/org/p/payment/refunded', { payment_id: 99_999_999 }, organiser.auth)).body.code).toBe('PAYMENT_NOT_FOUND')
    expect(await moneyAddsUp(eventId)).toMatchObject({ captured: 40_000, refunded: 40_000, paid: 0 })
  })

  it('cancels a paid event: holds expire at once, no claim after; a cancel job stopped half way and run again moves each paid place once; the refunds are made once', async () => {
    const { eventId, organiser, students } = await paidEvent({ students: 7 })
    const paid: { id: number; razorpayPaymentId?: string }[] = []
    for (const s of students.slice(0, 3)) paid.push(await payRazorpay(eventId, s))
    for (const s of students.slice(3, 5)) paid.push(await payUpi(eventId, s))
    await call('/event/p/claim-ticket', { event_id: eventId }, students[5].auth)
    const held = await paymentIdOf(eventId, students[5])
    // The call's part alone (the repository's cancel), so the job can be stopped half way as a server dying would.
    const started = await t.app.paymentRefunds.cancel(organiser.id, eventId)
    expect(started).toMatchObject({ ok: true, value: { holds_expired: 1, refunds_to_request: 5 } })
    expect(await statusOf(held)).toBe('EXPIRED')
    const late = await call('/event/p/claim-ticket', { event_id: eventId }, students[6].auth)
    expect(late.body).toMatchObject({ error: true, code: 'EVENT_CANCELLED' })
    await moneyAddsUp(eventId)
    // Two places moved, then the job stops.
    expect(await t.app.paymentRefunds.cancelStep(2, 1)).toBe(2)
    const statuses = async () => Promise.all(paid.map((p) => statusOf(p.id)))
    expect((await statuses()).filter((s) => s === 'REFUND_PENDING')).toHaveLength(2)
    await moneyAddsUp(eventId)
    // Run again (another instance, after a restart): the rest, and nothing twice.
    expect(await t.app.paymentRefunds.cancelStep(2)).toBe(3)
    expect(await t.app.paymentRefunds.cancelStep(2)).toBe(0)
    expect(await statuses()).toEqual(Array(5).fill('REFUND_PENDING'))
    await moneyAddsUp(eventId)
    // The route answers the same cancellation again; the refund job pays Razorpay's back once each.
    const again = await call('/org/p/event/cancel', { event_id: eventId }, organiser.auth)
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({
      cancelled_at: (started as { value: { cancelled_at: string } }).value.cancelled_at,
      holds_expired: 0,
      refunds_to_request: 0,
    })
    await t.app.paymentJobs.tick()
    await t.app.paymentJobs.tick()
    for (const p of paid.slice(0, 3)) {
      expect(await statusOf(p.id)).toBe('REFUNDED')
      expect([...standin.refunds.values()].filter((r) => r.payment_id === p.razorpayPaymentId)).toHaveLength(1)
    }
    const due = await call('/org/p/payment/refunds', { event_id: eventId }, organiser.auth)
    expect(due.body.payments.map((p: { method: string }) => p.method)).toEqual(['UPI', 'UPI'])
    expect(await moneyAddsUp(eventId)).toMatchObject({ captured: 100_000, refunded: 60_000, paid: 0 })
    expect((await call('/org/p/event/cancel', { event_id: eventId }, students[0].auth)).status).toBe(403)
  })

  it('the organiser refunds a paid registration (an event without tickets): the registration is dropped, the payment waits for its refund', async () => {
    const { eventId, organiser } = await paidEvent({ students: 0 })
    await t.database.db.execute(sql`UPDATE events SET state = 'REGISTRATION_OPEN', is_ticket_feature_enabled = false WHERE id = ${eventId}`)
    const s = await t.student()
    const held = await call('/event/p/register-for-event', { event_id: eventId }, s.auth)
    expect(held.body.result, JSON.stringify(held.body)).toBe('PAYMENT_PENDING')
    const id = await paymentIdOf(eventId, s)
    expect(await t.app.paymentsRepository.settle(id, { method: 'DESK', amount: 20_000, ref: `desk:${id}`, deskMode: 'CASH' })).toMatchObject({ ok: true })
    const res = await call('/org/p/payment/refund', { payment_id: id }, organiser.auth)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.payment).toMatchObject({ status: 'REFUND_PENDING', method: 'DESK' })
    expect(rowsOf(await t.database.db.execute(sql`SELECT count(*)::int AS n FROM participants WHERE event_id = ${eventId} AND user_id = ${s.id}`))).toEqual([
      { n: 0 },
    ])
    expect((await call('/org/p/payment/refunded', { payment_id: id }, organiser.auth)).body.payment.status).toBe('REFUNDED')
    expect(await moneyAddsUp(eventId)).toMatchObject({ captured: 20_000, refunded: 20_000, paid: 0 })
  })

  it('a free event cannot be cancelled for refunds (NOT_PAID_EVENT)', async () => {
    const { eventId, organiser } = await paidEvent({ students: 0 })
    await t.database.db.execute(sql`UPDATE events SET fee = 0 WHERE id = ${eventId}`)
    expect((await call('/org/p/event/cancel', { event_id: eventId }, organiser.auth)).body).toMatchObject({ code: 'NOT_PAID_EVENT' })
  })

  it.runIf(kind === 'postgres')('on PostgreSQL two cancel runners racing move each paid place exactly once, and two refund jobs refund each once', async () => {
    const { eventId, organiser, students } = await paidEvent({ students: 12, tickets: 12 })
    const paid = []
    for (const s of students) paid.push(await payRazorpay(eventId, s))
    expect((await t.app.paymentRefunds.cancel(organiser.id, eventId)).ok).toBe(true)
    const moved = await Promise.all([t.app.paymentRefunds.cancelStep(1), t.app.paymentRefunds.cancelStep(1), t.app.paymentRefunds.cancelStep(2)])
    const rest = await t.app.paymentRefunds.cancelStep(1)
    expect(moved.reduce((x, y) => x + y, 0) + rest).toBe(12)
    const requested = rowsOf(
      await t.database.db.execute(sql`SELECT count(*)::int AS n FROM payments WHERE event_id = ${eventId} AND status = 'REFUND_PENDING'`),
    )
    expect(requested).toEqual([{ n: 12 }])
    await moneyAddsUp(eventId)
    // A second instance's refund job racing this one's: each refund made once at the gateway.
    const database = await openDatabase({ url: (t.database as { url?: string }).url!, max: 5 })
    const other = await buildApp({
      config: t.config,
      database,
      rateLimits: false,
      processMetrics: false,
      paymentsIntervalMs: false,
      aroundIntervalMs: false,
      scheduler: false,
      gatewayTimeoutMs: 10_000,
    })
    await other.ready()
    try {
      await Promise.all([t.app.paymentJobs.tick(), other.paymentJobs.tick()])
      await Promise.all([t.app.paymentJobs.tick(), other.paymentJobs.tick()])
    } finally {
      await other.close()
      await database.close()
    }
    for (const p of paid) expect([...standin.refunds.values()].filter((r) => r.payment_id === p.razorpayPaymentId)).toHaveLength(1)
    expect(await moneyAddsUp(eventId)).toMatchObject({ captured: 240_000, refunded: 240_000, paid: 0 })
  })
})
