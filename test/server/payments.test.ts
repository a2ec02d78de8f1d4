// Paid events (issue 35, API.md Part 4) through the real routes on every database kind, against a stand-in for Razorpay
// that speaks its wire (test/support/razorpay-standin.ts): the held place, the pay step, the checkout's signed answer,
// the webhooks (duplicated, reordered, lost: the reconciliation finds the payment; late: a refund), UPI's UTR, a
// registration held for its fee, the refusals an attacker meets (each writing nothing), and the ledger's identity
// after every step: captured − refunded = the PAID amounts + the REFUND_PENDING ones.
import { createHmac } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { rowsOf } from '../../server/db/outcomes.ts'
import { type RazorpayStandin, startRazorpayStandin } from '../support/razorpay-standin.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'
import { post } from './teams-fixtures.ts'

type Student = Awaited<ReturnType<TestApp['student']>>

describe.each(DB_KINDS)('paid events on %s', (kind) => {
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
        RAZORPAY_CHECKOUT_URL: standin.checkoutUrl,
      },
      app: { paymentsIntervalMs: false, aroundIntervalMs: false, scheduler: false, gatewayTimeoutMs: 1_000 },
    })
    // The webhooks come over HTTP, as Razorpay's do.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' })
    standin.webhookUrl = `${address}/api/v1/payments/razorpay/webhook`
  }, 60_000)
  afterAll(async () => {
    await t?.close()
    await standin?.close()
  })

  /** A TICKET_OPEN event with a fee, tickets and `n` registered students; the council takes UPI too. */
  async function paidEvent(options: { fee?: number; tickets?: number; students?: number; ticketed?: boolean; state?: string } = {}) {
    serial += 1
    const db = t.database.db
    const [council] = await db
      .insert(schema.councils)
      .values({ slug: `paid-${kind}-${serial}`, name: `Paid council ${serial}`, upiVpa: 'treasurer@okaxis', upiName: 'CSI KJSCE' })
      .returning({ id: schema.councils.id })
    const [event] = await db
      .insert(schema.events)
      .values({
        slug: `paid-${kind}-${serial}`,
        name: `Workshop ${serial}`,
        organizerId: council.id,
        state: (options.state ?? 'TICKET_OPEN') as 'TICKET_OPEN',
        fee: options.fee ?? 300,
        isTicketFeatureEnabled: options.ticketed ?? true,
        ticketCount: options.tickets ?? 10,
        dates: ['2027-01-20T18:00:00+05:30'],
      })
      .returning({ id: schema.events.id })
    const students: Student[] = []
    for (let i = 0; i < (options.students ?? 1); i++) students.push(await t.student())
    if (options.state !== 'REGISTRATION_OPEN' && students.length)
      await db.insert(schema.participants).values(students.map((s) => ({ eventId: event.id, userId: s.id })))
    return { eventId: event.id, students }
  }

  const claim = (eventId: number, s: Student) => post(t, 'claim-ticket', { event_id: eventId }, s.auth)
  const pay = (eventId: number, s: Student, method: string) => post(t, 'pay', { event_id: eventId, method }, s.auth)
  const verify = (eventId: number, s: Student, r: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string }) =>
    post(t, 'pay/verify', { event_id: eventId, ...r }, s.auth)
  const detail = async (eventId: number, s: Student) => (await post(t, `get/${eventId}`, {}, s.auth)).body.event
  const counters = async (eventId: number) => {
    const [e] = rowsOf(await t.database.db.execute(sql`SELECT tickets_sold, tickets_held FROM events WHERE id = ${eventId}`)) as Record<string, number>[]
    return { sold: Number(e.tickets_sold), held: Number(e.tickets_held) }
  }
  /** The ledger's identity for an event (issue 35 item 6), and the counters equal to the rows they count. */
  async function moneyAddsUp(eventId: number) {
    const [m] = rowsOf(
      await t.database.db.execute(sql`
        SELECT
          coalesce((SELECT sum(amount) FROM payment_ledger WHERE event_id = ${eventId} AND kind = 'CAPTURE'), 0)::int AS captured,
          coalesce((SELECT sum(amount) FROM payment_ledger WHERE event_id = ${eventId} AND kind = 'REFUND'), 0)::int AS refunded,
          coalesce((SELECT sum(amount) FROM payments WHERE event_id = ${eventId} AND status IN ('PAID', 'REFUND_PENDING')), 0)::int AS owed,
          (SELECT count(*) FROM payments WHERE event_id = ${eventId} AND status = 'PAID')::int AS paid,
          (SELECT count(*) FROM payments WHERE event_id = ${eventId} AND status IN ('PENDING', 'AWAITING_CONFIRMATION') AND kind = 'TICKET')::int AS holds,
          (SELECT count(*) FROM participants WHERE event_id = ${eventId} AND ticket_collected)::int AS holders,
          (SELECT count(*) FROM payments y JOIN participants p ON p.id = y.participant_id
             WHERE y.event_id = ${eventId} AND y.status = 'PAID' AND y.kind = 'TICKET' AND NOT p.ticket_collected)::int AS paid_without_ticket`),
    ) as Record<string, number>[]
    expect(Number(m.captured) - Number(m.refunded)).toBe(Number(m.owed))
    expect(Number(m.paid_without_ticket)).toBe(0)
    const c = await counters(eventId)
    expect(c.held).toBe(Number(m.holds))
    expect(c.sold).toBe(Number(m.holders))
    return m
  }
  const expireNow = (eventId: number) =>
    t.database.db.execute(sql`UPDATE payments SET pay_by = now() - interval '1 second' WHERE event_id = ${eventId} AND status = 'PENDING'`)

  it('a claim holds the place (PAYMENT_PENDING, pay_by), counted against ticket_count; no ticket code until paid; a retried claim gets the same hold', async () => {
    const { eventId, students } = await paidEvent({ tickets: 2, students: 3 })
    const [a, b, c] = students
    const first = await claim(eventId, a)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      error: false,
      result: 'PAYMENT_PENDING',
      pay_by: expect.any(String),
      message: expect.stringMatching(/^Your place is held: pay by \d{1,2}:\d{2} [AP]M to get your ticket\.$/),
    })
    const payBy = Date.parse(first.body.pay_by)
    expect(payBy - Date.now()).toBeGreaterThan(14 * 60_000)
    expect(payBy - Date.now()).toBeLessThanOrEqual(15 * 60_000)
    expect((await claim(eventId, a)).body).toMatchObject({ result: 'PAYMENT_PENDING', pay_by: first.body.pay_by })
    expect((await claim(eventId, b)).body.result).toBe('PAYMENT_PENDING')
    // Both places held: the third student finds it sold out, though no ticket is sold yet.
    expect(await claim(eventId, c)).toMatchObject({ status: 409, body: { message: 'Tickets are sold out.' } })
    // A holder's retry once the event is full still gets their hold (two taps, one at each side of the last place).
    expect((await claim(eventId, b)).body.result).toBe('PAYMENT_PENDING')
    expect(await counters(eventId)).toEqual({ sold: 0, held: 2 })
    const mine = await detail(eventId, a)
    expect(mine.payment).toEqual({ pay_within_minutes: 15, refund_until_hours: 24, methods: ['RAZORPAY', 'UPI', 'DESK'] })
    expect(mine.Participant).toMatchObject({ ticket_collected: false, ticket_code: null, ticket_secret: null })
    expect(mine.Participant.payment).toMatchObject({ status: 'PENDING', amount: 30_000, method: null, pay_by: first.body.pay_by, paid_at: null, receipt: null })
    await moneyAddsUp(eventId)
  })

  it('Razorpay: the order is made when Pay is tapped, once; the checkout’s signed answer makes the place PAID with its ticket; the webhooks repeat nothing', async () => {
    const { eventId, students } = await paidEvent({ fee: 300 })
    const [a] = students
    await claim(eventId, a)
    const before = standin.orders.size
    const tap = await pay(eventId, a, 'RAZORPAY')
    expect(tap.status).toBe(200)
    expect(tap.body).toMatchObject({
      method: 'RAZORPAY',
      key_id: standin.keyId,
      amount: 30_000,
      currency: 'INR',
      name: expect.stringMatching(/^Paid council/),
      description: expect.stringMatching(/^Workshop/),
      checkout_url: standin.checkoutUrl,
    })
    expect((await pay(eventId, a, 'RAZORPAY')).body.order_id).toBe(tap.body.order_id)
    expect(standin.orders.size).toBe(before + 1)
    const order = standin.orders.get(tap.body.order_id)!
    expect(order).toMatchObject({ amount: 30_000, currency: 'INR', receipt: expect.stringMatching(/^CE\d{16}$/) })

    const { response } = await standin.pay(order.id)
    const paid = await verify(eventId, a, response)
    expect(paid.status).toBe(200)
    expect(paid.body).toMatchObject({
      message: 'Payment received: your ticket is ready.',
      payment: { status: 'PAID', method: 'RAZORPAY', receipt: expect.stringMatching(/^R-\d{6}$/) },
      ticket_code: expect.stringMatching(/^\d{16}$/),
    })
    // The checkout answer again, and the webhooks (sent by the stand-in as it paid): the same place, nothing doubled.
    expect((await verify(eventId, a, response)).body.payment.status).toBe('PAID')
    const e = await detail(eventId, a)
    expect(e.Participant).toMatchObject({ ticket_collected: true, ticket_code: paid.body.ticket_code })
    expect(e.Participant.ticket_secret).toMatch(/^[0-9a-f]{40}$/)
    const m = await moneyAddsUp(eventId)
    expect(m).toMatchObject({ captured: 30_000, refunded: 0, paid: 1 })
    expect(await counters(eventId)).toEqual({ sold: 1, held: 0 })
  })

  it('refuses what an attacker tries, writing nothing: a forged signature, another student’s order, a webhook unsigned, mismatched or for another event', async () => {
    const { eventId, students } = await paidEvent({ students: 2 })
    const [a, b] = students
    await claim(eventId, a)
    const order = standin.orders.get((await pay(eventId, a, 'RAZORPAY')).body.order_id)!
    const snapshot = async () =>
      rowsOf(await t.database.db.execute(sql`SELECT status, razorpay_payment_id FROM payments WHERE event_id = ${eventId} ORDER BY id`))
    const before = await snapshot()
    const forged = { razorpay_order_id: order.id, razorpay_payment_id: 'pay_AAAAAAAAAAAAAA', razorpay_signature: 'ab'.repeat(32) }
    expect(await verify(eventId, a, forged)).toMatchObject({ status: 400 })
    // A real payment of a's order, verified by b: b cannot make a's place theirs (nor theirs paid).
    standin.faults.loseWebhooks = true
    const { response } = await standin.pay(order.id)
    standin.faults.loseWebhooks = false
    expect(await verify(eventId, b, response)).toMatchObject({ status: 403, body: { message: 'This payment belongs to another student’s place.' } })
    expect(await snapshot()).toEqual(before)

    const webhook = (event: string, payload: Record<string, unknown>, opts?: { signature?: string; eventId?: string }) =>
      standin.sendWebhook(event, payload, opts)
    const entity = { id: response.razorpay_payment_id, entity: 'payment', amount: 30_000, currency: 'INR', status: 'captured', order_id: order.id, notes: {} }
    expect(await webhook('payment.captured', { payment: { entity } }, { signature: 'f'.repeat(64) })).toBe(400)
    expect(await webhook('payment.captured', { payment: { entity: { ...entity, amount: 100 } } })).toBe(400)
    expect(await webhook('payment.captured', { payment: { entity: { ...entity, currency: 'USD' } } })).toBe(400)
    expect(await webhook('payment.captured', { payment: { entity: { ...entity, notes: { event_id: String(eventId + 1000) } } } })).toBe(400)
    expect(await snapshot()).toEqual(before)
    const recorded = rowsOf(await t.database.db.execute(sql`SELECT count(*)::int AS n FROM gateway_events WHERE payload::text LIKE ${`%${order.id}%`}`))
    expect(recorded).toEqual([{ n: 0 }])
    // Not ours (another integration's order on the account): recorded, nothing done.
    expect(await webhook('payment.captured', { payment: { entity: { ...entity, order_id: 'order_ZZZZZZZZZZZZZZ' } } })).toBe(200)
    // The real one, twice with one event id: PAID once.
    const replayed = `evt_${Date.now()}`
    expect(await webhook('payment.captured', { payment: { entity } }, { eventId: replayed })).toBe(200)
    expect(await webhook('payment.captured', { payment: { entity } }, { eventId: replayed })).toBe(200)
    expect((await detail(eventId, a)).Participant.payment.status).toBe('PAID')
    expect((await detail(eventId, b)).Participant.payment).toBeNull()
    await moneyAddsUp(eventId)
  })

  it('webhooks duplicated and in reverse order, with no checkout answer: PAID once', async () => {
    const { eventId, students } = await paidEvent()
    const [a] = students
    await claim(eventId, a)
    const order = standin.orders.get((await pay(eventId, a, 'RAZORPAY')).body.order_id)!
    Object.assign(standin.faults, { duplicateWebhooks: true, reorderWebhooks: true })
    await standin.pay(order.id)
    Object.assign(standin.faults, { duplicateWebhooks: false, reorderWebhooks: false })
    expect(
      standin.deliveries
        .filter((d) => d.event === 'order.paid' || d.event === 'payment.captured')
        .slice(-4)
        .every((d) => d.status === 200),
    ).toBe(true)
    expect((await detail(eventId, a)).Participant).toMatchObject({ ticket_collected: true, payment: { status: 'PAID' } })
    expect(await moneyAddsUp(eventId)).toMatchObject({ captured: 30_000, paid: 1 })
  })

  it('webhooks lost: the reconciliation at pay_by asks Razorpay and finds the payment; an authorised one is captured first', async () => {
    const { eventId, students } = await paidEvent({ students: 2 })
    const [a, b] = students
    standin.faults.loseWebhooks = true
    for (const s of [a, b]) await claim(eventId, s)
    const orderA = (await pay(eventId, a, 'RAZORPAY')).body.order_id
    const orderB = (await pay(eventId, b, 'RAZORPAY')).body.order_id
    await standin.pay(orderA)
    await standin.pay(orderB, { capture: false })
    standin.faults.loseWebhooks = false
    await expireNow(eventId)
    await t.app.paymentJobs.tick()
    for (const s of [a, b]) expect((await detail(eventId, s)).Participant).toMatchObject({ ticket_collected: true, payment: { status: 'PAID' } })
    expect(standin.calls).toContain(`POST /v1/payments/${[...standin.payments.values()].find((p) => p.order_id === orderB)!.id}/capture`)
    expect(await moneyAddsUp(eventId)).toMatchObject({ captured: 60_000, paid: 2 })
  })

  it('a hold that passes unpaid releases its place to the waitlist; a payment after it gets the ticket if a place is free, else a refund', async () => {
    const { eventId, students } = await paidEvent({ tickets: 1, students: 3 })
    const [a, b, c] = students
    await claim(eventId, a)
    const order = (await pay(eventId, a, 'RAZORPAY')).body.order_id
    expect((await post(t, 'waitlist', { event_id: eventId, join: true }, b.auth)).status).toBe(200)
    // The gateway knows of no payment yet: the hold expires, its place is offered to b, who claims it (a new hold).
    await expireNow(eventId)
    await t.app.paymentJobs.tick()
    await t.app.paymentJobs.tick()
    expect((await detail(eventId, a)).Participant.payment.status).toBe('EXPIRED')
    expect(await counters(eventId)).toEqual({ sold: 0, held: 0 })
    expect((await claim(eventId, c)).status).toBe(409) // held for b on the waitlist
    expect((await claim(eventId, b)).body.result).toBe('PAYMENT_PENDING')
    // a pays late (the checkout was still open): no place is left, so the money goes back, all of it.
    standin.faults.holdWebhooks = true
    const { response } = await standin.pay(order)
    const late = await verify(eventId, a, response)
    expect(late.body).toMatchObject({ payment: { status: 'REFUND_PENDING' }, ticket_code: null })
    await standin.releaseWebhooks()
    standin.faults.holdWebhooks = false
    await t.app.paymentJobs.tick()
    expect((await detail(eventId, a)).Participant.payment.status).toBe('REFUNDED')
    expect([...standin.refunds.values()].filter((r) => r.payment_id === response.razorpay_payment_id)).toHaveLength(1)
    const m = await moneyAddsUp(eventId)
    expect(m).toMatchObject({ captured: 30_000, refunded: 30_000, paid: 0 })
  })

  it('UPI straight to the council: the link with the exact amount and our reference; the UTR keeps the place held; a UTR names one payment only', async () => {
    const { eventId, students } = await paidEvent({ fee: 50, students: 2 })
    const [a, b] = students
    for (const s of students) await claim(eventId, s)
    const upi = await pay(eventId, a, 'UPI')
    expect(upi.body).toMatchObject({ method: 'UPI', amount: 5_000, reference: expect.stringMatching(/^CE\d{16}$/), payee: 'CSI KJSCE' })
    expect(upi.body.upi_url).toBe(`upi://pay?pa=treasurer%40okaxis&pn=CSI%20KJSCE&am=50.00&cu=INR&tn=${upi.body.reference}`)
    expect(await post(t, 'pay/utr', { event_id: eventId, utr: '12345' }, a.auth)).toMatchObject({
      status: 400,
      body: { message: 'utr must be the 12 digits your UPI app shows' },
    })
    const given = await post(t, 'pay/utr', { event_id: eventId, utr: '412345678901' }, a.auth)
    expect(given.body.payment).toMatchObject({ status: 'AWAITING_CONFIRMATION', method: 'UPI' })
    expect(await post(t, 'pay/utr', { event_id: eventId, utr: '412345678901' }, b.auth)).toMatchObject({ status: 409 })
    // Not expired by time: the council has the money's proof to check.
    await expireNow(eventId)
    await t.app.paymentJobs.tick()
    expect((await detail(eventId, a)).Participant.payment.status).toBe('AWAITING_CONFIRMATION')
    expect((await detail(eventId, b)).Participant.payment.status).toBe('EXPIRED')
    await moneyAddsUp(eventId)
  })

  it('Razorpay down: Pay answers 503 with Retry-After and keeps no order; the next tap makes it', async () => {
    const { eventId, students } = await paidEvent()
    const [a] = students
    await claim(eventId, a)
    for (const fault of ['500', 'timeout'] as const) {
      standin.faults.api = fault
      const down = await pay(eventId, a, 'RAZORPAY')
      expect(down.status).toBe(503)
      expect(down.headers['retry-after']).toBe('30')
    }
    standin.faults.api = 'ok'
    expect(rowsOf(await t.database.db.execute(sql`SELECT razorpay_order_id FROM payments WHERE event_id = ${eventId}`))).toEqual([{ razorpay_order_id: null }])
    expect((await pay(eventId, a, 'RAZORPAY')).status).toBe(200)
  })

  it('an event with a fee and no tickets holds the registration for its payment; unpaid, the registration is dropped', async () => {
    const { eventId, students } = await paidEvent({ ticketed: false, state: 'REGISTRATION_OPEN', students: 1 })
    const [a] = students
    const reg = await post(t, 'register-for-event', { event_id: eventId }, a.auth)
    expect(reg.body).toMatchObject({ error: false, result: 'PAYMENT_PENDING', pay_by: expect.any(String) })
    expect((await detail(eventId, a)).Participant.payment).toMatchObject({ status: 'PENDING', amount: 30_000 })
    await expireNow(eventId)
    await t.app.paymentJobs.tick()
    expect((await detail(eventId, a)).Participant).toBe(false)
    await moneyAddsUp(eventId)
  })

  it('the webhook is refused without Razorpay’s event id, and a refund.processed completes a refund once', async () => {
    const body = '{"event":"payment.captured"}'
    const res = await fetch(standin.webhookUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-razorpay-signature': createHmac('sha256', standin.webhookSecret).update(body).digest('hex') },
      body,
    })
    expect(res.status).toBe(400)
  })

  it('the jobs take at most their batch: refunds to make and orders to reconcile, each leased once', async () => {
    const { eventId, students } = await paidEvent({ students: 5 })
    const db = t.database.db
    for (const [i, s] of students.entries()) {
      await db.execute(sql`
        INSERT INTO payments (event_id, user_id, kind, amount, reference, pay_by, status, method, paid_at, refund_requested_at, razorpay_payment_id)
        VALUES (${eventId}, ${s.id}, 'TICKET', 30000, ${`CEBATCH${serial}R${i}`}, now(), 'REFUND_PENDING', 'RAZORPAY', now(), now(), ${`pay_BATCH${serial}R${i}`})`)
      await db.execute(sql`
        INSERT INTO payments (event_id, user_id, kind, amount, reference, pay_by, razorpay_order_id)
        VALUES (${eventId}, ${s.id}, 'TICKET', 30000, ${`CEBATCH${serial}O${i}`}, now() - interval '1 minute', ${`order_BATCH${serial}O${i}`})`)
    }
    const repo = t.app.paymentsRepository
    const taken: number[] = []
    for (const expected of [2, 2]) {
      const refunds = await repo.refundsToMake(2)
      const orders = await repo.ordersToReconcile(2)
      expect([refunds.length, orders.length]).toEqual([expected, expected])
      taken.push(...refunds.map((r) => r.id), ...orders.map((r) => r.id))
    }
    // Leased: never taken twice while the lease lasts.
    expect(new Set(taken).size).toBe(taken.length)
  })
})
