// The console's payments (issue 35 items 3 and 6, contract/payments-org.ts) through the real routes on every database
// kind: the list and totals (captured − refunded = net = paid + refund pending, paid = fee × paid places), the CSV,
// a UPI payment confirmed by its UTR (once: a UTR confirms one payment) or sent back to PENDING, a confirmation after
// the hold passed, and a bank statement imported (matched by UTR and exact amount, the misses listed with their
// reason, a second import changing nothing, a bad file refused with nothing written). Who may: organisers of the
// event's council and admins.
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { rowsOf } from '../../server/db/outcomes.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'
import { post } from './teams-fixtures.ts'

type User = Awaited<ReturnType<TestApp['student']>>

describe.each(DB_KINDS)('the console’s payments on %s', (kind) => {
  let t: TestApp
  let serial = 0
  beforeAll(async () => {
    t = await testApp({ kind, app: { paymentsIntervalMs: false, aroundIntervalMs: false, scheduler: false } })
  }, 60_000)
  afterAll(() => t?.close())

  /** A TICKET_OPEN event with a fee of ₹300 taking UPI, its organiser, another council's, and `n` registered students. */
  async function paidEvent(options: { tickets?: number; students?: number } = {}) {
    serial += 1
    const db = t.database.db
    const [council] = await db
      .insert(schema.councils)
      .values({ slug: `money-${kind}-${serial}`, name: `Money council ${serial}`, upiVpa: 'treasurer@okaxis', upiName: 'CSI KJSCE' })
      .returning({ id: schema.councils.id })
    const [other] = await db
      .insert(schema.councils)
      .values({ slug: `other-${kind}-${serial}`, name: `Other council ${serial}` })
      .returning({ id: schema.councils.id })
    const [event] = await db
      .insert(schema.events)
      .values({
        slug: `money-${kind}-${serial}`,
        name: `Workshop ${serial}`,
        organizerId: council.id,
        state: 'TICKET_OPEN',
        fee: 300,
        isTicketFeatureEnabled: true,
        ticketCount: options.tickets ?? 10,
        dates: ['2027-01-20T18:00:00+05:30'],
        paymentMethods: ['UPI', 'DESK'],
      })
      .returning({ id: schema.events.id })
    const organiser = await t.student()
    const stranger = await t.student()
    await db.insert(schema.councilOrganizers).values([
      { councilId: council.id, userId: organiser.id },
      { councilId: other.id, userId: stranger.id },
    ])
    const students: User[] = []
    for (let i = 0; i < (options.students ?? 1); i++) students.push(await t.student())
    if (students.length) await db.insert(schema.participants).values(students.map((s) => ({ eventId: event.id, userId: s.id })))
    return { eventId: event.id, organiser, stranger, students }
  }

  const org = async (path: string, body: unknown, u: User) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/org/p/event/${path}`,
      headers: { 'content-type': 'application/json', ...u.auth },
      payload: JSON.stringify(body),
    })
    return { status: res.statusCode, body: res.json() }
  }
  const statement = async (eventId: number, csv: string, u: User, contentType = 'text/csv') => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/org/p/event/${eventId}/statement`,
      headers: { 'content-type': contentType, ...u.auth },
      payload: csv,
    })
    return { status: res.statusCode, body: res.json() }
  }
  /** A student's place held and a UTR given for it; answers the payment's id. */
  async function awaiting(eventId: number, s: User, utr: string): Promise<number> {
    expect((await post(t, 'claim-ticket', { event_id: eventId }, s.auth)).body.result).toBe('PAYMENT_PENDING')
    expect((await post(t, 'pay', { event_id: eventId, method: 'UPI' }, s.auth)).status).toBe(200)
    expect((await post(t, 'pay/utr', { event_id: eventId, utr }, s.auth)).status).toBe(200)
    const [row] = rowsOf(await t.database.db.execute(sql`SELECT id FROM payments WHERE event_id = ${eventId} AND user_id = ${s.id}`)) as { id: number }[]
    return Number(row.id)
  }
  /** Every row of the tables a confirmation can write, to prove a refusal wrote none. */
  const state = async (eventId: number) =>
    JSON.stringify(
      rowsOf(
        await t.database.db.execute(sql`
          SELECT (SELECT json_agg(y ORDER BY id) FROM payments y WHERE event_id = ${eventId}) AS payments,
                 (SELECT json_agg(l ORDER BY id) FROM payment_ledger l WHERE event_id = ${eventId}) AS ledger,
                 (SELECT json_agg(p ORDER BY id) FROM participants p WHERE event_id = ${eventId}) AS participants,
                 (SELECT count(*) FROM audit_log WHERE event_id = ${eventId}) AS audits,
                 (SELECT row_to_json(e) FROM (SELECT tickets_sold, tickets_held FROM events WHERE id = ${eventId}) e) AS counters`),
      ),
    )

  it('lists the payments and totals: UTR confirmed one by one, the money adds up; a UTR confirms one payment only', async () => {
    const { eventId, organiser, students } = await paidEvent({ students: 3 })
    const [a, b, c] = students
    const pa = await awaiting(eventId, a, '412345678901')
    const pb = await awaiting(eventId, b, '412345678902')
    expect((await post(t, 'claim-ticket', { event_id: eventId }, c.auth)).body.result).toBe('PAYMENT_PENDING')

    const before = await org('payments', { event_id: eventId }, organiser)
    expect(before.status).toBe(200)
    expect(before.body.payments).toHaveLength(3)
    expect(before.body.payments.find((p: { id: number }) => p.id === pa)).toMatchObject({
      status: 'AWAITING_CONFIRMATION',
      method: 'UPI',
      amount: 30_000,
      utr: '412345678901',
      student: { id: a.id, email: expect.any(String) },
      receipt: null,
    })
    expect(before.body.totals).toMatchObject({ fee: 30_000, paid: 0, pending: 90_000, captured: 0, net: 0, adds_up: true })

    const confirmed = await org('payment/confirm', { event_id: eventId, payment_id: pa }, organiser)
    expect(confirmed).toMatchObject({
      status: 200,
      body: { result: 'paid', payment: { status: 'PAID', method: 'UPI', receipt: expect.stringMatching(/^R-\d{6}$/) } },
    })
    const ticket = (await post(t, `get/${eventId}`, {}, a.auth)).body.event.Participant
    expect(ticket.ticket_collected).toBe(true)
    expect(ticket.payment).toMatchObject({ status: 'PAID', receipt: confirmed.body.payment.receipt })
    // Again: the same answer, nothing new.
    const snap = await state(eventId)
    expect((await org('payment/confirm', { event_id: eventId, payment_id: pa }, organiser)).body.result).toBe('repeat')
    expect(await state(eventId)).toBe(snap)

    const totals = (await org('payments', { event_id: eventId }, organiser)).body.totals
    expect(totals).toMatchObject({
      paid: 30_000,
      paid_places: 1,
      pending: 60_000,
      captured: 30_000,
      refunded: 0,
      net: 30_000,
      fee_times_paid_places: 30_000,
      adds_up: true,
    })
    // c has not chosen a way to pay yet: pending in the total, under no method.
    expect(totals.by_method.UPI).toMatchObject({ paid: 30_000, paid_count: 1, pending: 30_000 })

    // A payment without a UTR (c chose nothing yet) cannot be confirmed; nothing written.
    const pc = (await org('payments', { event_id: eventId }, organiser)).body.payments.find((p: { student: { id: number } }) => p.student.id === c.id).id
    expect(await org('payment/confirm', { event_id: eventId, payment_id: pc }, organiser)).toMatchObject({
      status: 409,
      body: { error: true, code: 'PAYMENT_NOT_CONFIRMABLE' },
    })
    // A payment of another event: not found.
    const elsewhere = await paidEvent()
    expect(await org('payment/confirm', { event_id: elsewhere.eventId, payment_id: pb }, elsewhere.organiser)).toMatchObject({
      status: 404,
      body: { code: 'PAYMENT_NOT_FOUND' },
    })
    expect(await state(eventId)).toBe(snap)

    // The ledger already holds a capture by b's UTR for another payment (as if a's had been confirmed with it): refused.
    await t.database.db.execute(
      sql`INSERT INTO payment_ledger (payment_id, event_id, kind, method, amount, gateway_ref) VALUES (${pa}, ${eventId}, 'CAPTURE', 'UPI', 1, 'utr:412345678902')`,
    )
    expect(await org('payment/confirm', { event_id: eventId, payment_id: pb }, organiser)).toMatchObject({ status: 409, body: { code: 'UTR_USED' } })
    await t.database.db.execute(sql`DELETE FROM payment_ledger WHERE gateway_ref = 'utr:412345678902'`)
  })

  it('sends a UTR back: PENDING again, the UTR cleared, the student told; they may give the right one', async () => {
    const { eventId, organiser, students } = await paidEvent()
    const [a] = students
    const pa = await awaiting(eventId, a, '512345678901')
    await t.database.db
      .insert(schema.pushSubscriptions)
      .values({ userId: a.id, endpoint: `https://push.example.com/${kind}-${a.id}`, p256dh: 'BP' + 'A'.repeat(85), auth: 'A'.repeat(22) })
    const rejected = await org('payment/reject', { event_id: eventId, payment_id: pa }, organiser)
    expect(rejected).toMatchObject({ status: 200, body: { payment: { status: 'PENDING', utr: null } } })
    const pushed = rowsOf(await t.database.db.execute(sql`SELECT title, body FROM push_outbox WHERE user_id = ${a.id}`)) as unknown[]
    expect(JSON.stringify(pushed)).toContain('not found')
    // And in the student's inbox, where it stays after the push is sent (issue 37 item 2).
    const kept = rowsOf(await t.database.db.execute(sql`SELECT title FROM inbox_messages WHERE user_id = ${a.id}`)) as unknown[]
    expect(kept).toEqual([{ title: 'Your UPI payment was not found' }])
    // Sent back twice: refused, nothing written.
    const snap = await state(eventId)
    expect(await org('payment/reject', { event_id: eventId, payment_id: pa }, organiser)).toMatchObject({
      status: 409,
      body: { code: 'PAYMENT_NOT_CONFIRMABLE' },
    })
    expect(await state(eventId)).toBe(snap)
    // The same UTR again, or another: taken.
    expect((await post(t, 'pay/utr', { event_id: eventId, utr: '512345678909' }, a.auth)).status).toBe(200)
    expect((await org('payment/confirm', { event_id: eventId, payment_id: pa }, organiser)).body.result).toBe('paid')
  })

  it('confirms after the hold passed: a ticket where a place is free, else listed for refund', async () => {
    const { eventId, organiser, students } = await paidEvent({ tickets: 1, students: 2 })
    const [a, b] = students
    const pa = await awaiting(eventId, a, '612345678901')
    // a's hold passes and is expired; b takes the only place and pays.
    await t.database.db.execute(sql`UPDATE payments SET pay_by = now() - interval '1 second' WHERE id = ${pa}`)
    await t.database.db.execute(sql`UPDATE payments SET status = 'EXPIRED', expired_at = now() WHERE id = ${pa}`)
    const pb = await awaiting(eventId, b, '612345678902')
    expect((await org('payment/confirm', { event_id: eventId, payment_id: pb }, organiser)).body.result).toBe('paid')
    const late = await org('payment/confirm', { event_id: eventId, payment_id: pa }, organiser)
    expect(late).toMatchObject({ status: 200, body: { result: 'refunding', payment: { status: 'REFUND_PENDING' } } })
    const totals = (await org('payments', { event_id: eventId }, organiser)).body.totals
    expect(totals).toMatchObject({ paid: 30_000, refund_pending: 30_000, captured: 60_000, net: 60_000, paid_places: 1, adds_up: true })
  })

  it('imports a bank statement: matched by UTR and exact amount, misses listed with their reason; again changes nothing', async () => {
    const { eventId, organiser, students } = await paidEvent({ students: 4 })
    const [a, b, c] = students
    const pa = await awaiting(eventId, a, '712345678901')
    const pb = await awaiting(eventId, b, '712345678902')
    await awaiting(eventId, c, '712345678903')
    const csv = [
      'Account Statement for A/c XXXX1234,,,,',
      'Period,01-11-2026 to 30-11-2026,,,',
      '',
      'Txn Date,Description,UPI Ref No,Debit,Credit Amount',
      '27-11-2026,"UPI/712345678901/Student A",712345678901,,300.00',
      '27-11-2026,UPI/712345678902/B,UPI/712345678902/B,,"1,300"',
      '27-11-2026,UPI/712345678903,712345678903,,250',
      '27-11-2026,UPI/799999999999,799999999999,,300',
      '28-11-2026,ATM withdrawal,,2000,',
      '28-11-2026,UPI fee,712345678900,5.00,',
      '',
    ].join('\r\n')
    // b's row says ₹1,300: wrong amount. Fix it and the row matches.
    const first = await statement(eventId, csv, organiser)
    expect(first.status).toBe(200)
    expect(first.body.confirmed).toEqual([{ line: 5, utr: '712345678901', amount: 30_000, payment_id: pa, result: 'paid' }])
    expect(first.body.unmatched).toEqual([
      { line: 6, utr: '712345678902', amount: 130_000, reason: 'AMOUNT_DIFFERS' },
      { line: 7, utr: '712345678903', amount: 25_000, reason: 'AMOUNT_DIFFERS' },
      { line: 8, utr: '799999999999', amount: 30_000, reason: 'NO_PAYMENT' },
      { line: 9, utr: null, amount: null, reason: 'NO_UTR' },
      { line: 10, utr: '712345678900', amount: null, reason: 'NOT_A_CREDIT' },
    ])
    const snap = await state(eventId)
    const again = await statement(eventId, csv, organiser)
    expect(again.body.confirmed).toEqual([])
    expect(again.body.unmatched[0]).toEqual({ line: 5, utr: '712345678901', amount: 30_000, reason: 'ALREADY_CONFIRMED' })
    expect(await state(eventId)).toBe(snap)
    const fixed = await statement(eventId, 'UTR,Amount\n712345678902,300\n712345678901,300.00\n', organiser)
    expect(fixed.body.confirmed).toEqual([{ line: 2, utr: '712345678902', amount: 30_000, payment_id: pb, result: 'paid' }])
    expect(fixed.body.unmatched).toEqual([{ line: 3, utr: '712345678901', amount: 30_000, reason: 'ALREADY_CONFIRMED' }])
    expect((await org('payments', { event_id: eventId }, organiser)).body.totals).toMatchObject({ paid: 60_000, paid_places: 2, adds_up: true })
  })

  it('refuses a statement it cannot read with a clear message, 400, nothing written; and the roles', async () => {
    const { eventId, organiser, stranger, students } = await paidEvent()
    await awaiting(eventId, students[0], '812345678901')
    const snap = await state(eventId)
    for (const [csv, words] of [
      ['', /empty/],
      ['Date,Narration,Balance\n1,2,3\n', /No header row names a UTR column/],
      ['UTR,Amount\n', /no transactions/],
      ['UTR,Amount\n"812345678901,300\n', /never closed/],
      ['\u0000\u0001PK', /not a CSV/],
    ] as const) {
      const res = await statement(eventId, csv, organiser)
      expect(res.status, csv).toBe(400)
      expect(res.body).toMatchObject({ error: true, code: 'STATEMENT_UNREADABLE', message: expect.stringMatching(words) })
    }
    expect((await statement(eventId, '{"utr":1}', organiser, 'application/json')).status).toBe(415)
    const big = `UTR,Amount\n${'812345678901,300\n'.repeat(70_000)}`
    expect((await statement(eventId, big, organiser)).status).toBe(413)
    // Another council's organiser and a student: 403, nothing written.
    expect((await statement(eventId, 'UTR,Amount\n812345678901,300\n', stranger)).status).toBe(403)
    expect((await statement(eventId, 'UTR,Amount\n812345678901,300\n', students[0])).status).toBe(403)
    expect((await org('payments', { event_id: eventId }, stranger)).status).toBe(403)
    expect((await org('payment/confirm', { event_id: eventId, payment_id: 1 }, stranger)).status).toBe(403)
    expect(await state(eventId)).toBe(snap)
    // An admin may.
    const admin = await t.student({ isAdmin: true })
    expect((await org('payments', { event_id: eventId }, admin)).status).toBe(200)
  })

  it('exports the payments as CSV with the participants export’s rules', async () => {
    const { eventId, organiser, students } = await paidEvent()
    await t.database.db.update(schema.users).set({ name: '=HYPERLINK("http://evil")' }).where(sql`${schema.users.id} = ${students[0].id}`)
    const pa = await awaiting(eventId, students[0], '912345678901')
    await org('payment/confirm', { event_id: eventId, payment_id: pa }, organiser)
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/org/p/event/${eventId}/payments.csv`, headers: organiser.auth })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    const [head, row] = res.body.replace(/^\uFEFF/, '').split('\r\n')
    expect(head.startsWith('Payment,Student,E-mail,Student ID,Kind,Status,Method,Desk,Amount (₹),Amount (paise)')).toBe(true)
    expect(row).toContain(`"'=HYPERLINK(""http://evil"")"`)
    expect(row).toContain(',PAID,UPI,,300.00,30000,')
    expect(row).toContain('"=""912345678901"""')
    expect(row).toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30/)
    const other = await paidEvent()
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/org/p/event/${eventId}/payments.csv`, headers: other.organiser.auth })).statusCode).toBe(403)
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/org/p/event/abc/payments.csv', headers: organiser.auth })).statusCode).toBe(404)
  })
  const door = async (path: string, body: unknown, u: User) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/door/p/desk/${path}`,
      headers: { 'content-type': 'application/json', ...u.auth },
      payload: JSON.stringify(body),
    })
    return { status: res.statusCode, body: res.json() }
  }

  it('the desk: finds a student, takes the fee for a held or unpaid place, issues the ticket and checks it in; a retry pays and admits once', async () => {
    const { eventId, organiser, students } = await paidEvent({ students: 3 })
    const [a, b, c] = students
    const volunteer = await t.student({ name: 'Vee Volunteer' })
    const student = await t.student()
    await t.database.db.insert(schema.eventStaff).values({ eventId, userId: volunteer.id })
    // a holds a place (claimed, unpaid); b is registered and never claimed.
    expect((await post(t, 'claim-ticket', { event_id: eventId }, a.auth)).body.result).toBe('PAYMENT_PENDING')
    const [aRow] = rowsOf(await t.database.db.execute(sql`SELECT email, roll_number FROM users WHERE id = ${a.id}`)) as Record<string, string>[]
    const [outsider] = rowsOf(await t.database.db.execute(sql`SELECT email FROM users WHERE id = ${student.id}`)) as Record<string, string>[]
    expect((await door('find', { event_id: eventId, query: outsider.email }, volunteer)).body.students).toEqual([])
    const found = await door('find', { event_id: eventId, query: aRow.email.toUpperCase() }, volunteer)
    expect(found).toMatchObject({ status: 200, body: { students: [{ user_id: a.id, registered: true, owes: 30_000, payment: { status: 'PENDING' } }] } })
    expect((await door('find', { event_id: eventId, query: aRow.roll_number }, volunteer)).body.students[0].user_id).toBe(a.id)

    const key = 'desk-key-0001'
    const paid = await door('pay', { event_id: eventId, user_id: a.id, method: 'CASH', key }, volunteer)
    expect(paid).toMatchObject({
      status: 200,
      body: { amount: 30_000, admitted: true, ticket_code: expect.stringMatching(/^\d{16}$/), receipt: expect.stringMatching(/^R-/) },
    })
    const snap = await state(eventId)
    const again = await door('pay', { event_id: eventId, user_id: a.id, method: 'CASH', key }, volunteer)
    expect(again.body).toMatchObject({ amount: 30_000, admitted: true, ticket_code: paid.body.ticket_code, receipt: paid.body.receipt })
    expect(await state(eventId)).toBe(snap)
    // Another key for the same student: already paid, nothing written; the key for another student: refused.
    expect(await door('pay', { event_id: eventId, user_id: a.id, method: 'UPI', key: 'desk-key-0002' }, volunteer)).toMatchObject({
      status: 409,
      body: { code: 'ALREADY_PAID' },
    })
    expect(await door('pay', { event_id: eventId, user_id: b.id, method: 'CASH', key }, volunteer)).toMatchObject({
      status: 409,
      body: { code: 'DESK_KEY_REUSED' },
    })
    expect(await state(eventId)).toBe(snap)
    const [inside] = rowsOf(
      await t.database.db.execute(sql`SELECT checked_in_at, ticket_collected FROM participants WHERE event_id = ${eventId} AND user_id = ${a.id}`),
    ) as Record<string, unknown>[]
    expect(inside.ticket_collected).toBe(true)
    expect(inside.checked_in_at).not.toBeNull()
    expect((await door('find', { event_id: eventId, query: paid.body.ticket_code }, volunteer)).body.students[0]).toMatchObject({ user_id: a.id, owes: 0 })

    // b: registered, no hold: held and paid at once, by UPI at the desk, by the organiser.
    expect((await door('pay', { event_id: eventId, user_id: b.id, method: 'UPI', key: 'desk-key-0003' }, organiser)).body).toMatchObject({ admitted: true })
    // Not registered, or not a door person: refused, nothing written.
    const snap2 = await state(eventId)
    expect(await door('pay', { event_id: eventId, user_id: student.id, method: 'CASH', key: 'desk-key-0004' }, volunteer)).toMatchObject({
      status: 403,
      body: { code: 'NOT_REGISTERED' },
    })
    expect(await door('pay', { event_id: eventId, user_id: c.id, method: 'CASH', key: 'desk-key-0005' }, student)).toMatchObject({
      status: 403,
      body: { code: 'NOT_DOOR' },
    })
    expect(await door('pay', { event_id: eventId, user_id: c.id, method: 'CHEQUE', key: 'desk-key-0006' }, volunteer)).toMatchObject({ status: 400 })
    expect(await state(eventId)).toBe(snap2)

    const totals = await door('totals', { event_id: eventId }, volunteer)
    expect(totals.body.total).toEqual({ CASH: 30_000, UPI: 30_000, count: 2 })
    expect(totals.body.volunteers).toContainEqual({ user_id: volunteer.id, name: 'Vee Volunteer', CASH: 30_000, UPI: 0, count: 1 })
    expect((await door('totals', { event_id: eventId }, student)).status).toBe(403)
    const money = (await org('payments', { event_id: eventId }, organiser)).body.totals
    expect(money).toMatchObject({ paid: 60_000, paid_places: 2, adds_up: true })
    expect(money.by_method.DESK).toMatchObject({ paid: 60_000, paid_count: 2 })
  })

  it('the desk refuses an event that does not take DESK, and a sold-out event’s unheld place', async () => {
    const { eventId, students } = await paidEvent({ tickets: 1, students: 2 })
    const [a, b] = students
    const volunteer = await t.student()
    await t.database.db.insert(schema.eventStaff).values({ eventId, userId: volunteer.id })
    // The door's list says the desk takes the fee here (the door shows its Payment desk), and not once DESK is dropped.
    const doorEvents = async () =>
      (
        await t.app.inject({ method: 'POST', url: '/api/v1/door/p/events', headers: { 'content-type': 'application/json', ...volunteer.auth }, payload: '{}' })
      ).json().events as { id: number; desk_fee?: number }[]
    expect((await doorEvents()).find((e) => e.id === eventId)).toMatchObject({ desk_fee: 30_000 })
    expect((await post(t, 'claim-ticket', { event_id: eventId }, a.auth)).body.result).toBe('PAYMENT_PENDING')
    expect(await door('pay', { event_id: eventId, user_id: b.id, method: 'CASH', key: 'sold-out-key-1' }, volunteer)).toMatchObject({
      status: 409,
      body: { code: 'SOLD_OUT' },
    })
    await t.database.db
      .update(schema.events)
      .set({ paymentMethods: ['UPI'] })
      .where(sql`${schema.events.id} = ${eventId}`)
    expect(await door('pay', { event_id: eventId, user_id: a.id, method: 'CASH', key: 'no-desk-key-1' }, volunteer)).toMatchObject({
      status: 403,
      body: { code: 'METHOD_NOT_OFFERED' },
    })
    expect((await doorEvents()).find((e) => e.id === eventId)).not.toHaveProperty('desk_fee')
  })

  it('a receipt PDF for a paid payment: its student and the event’s organisers, no one else; My Events’ link is the receipt number', async () => {
    const { eventId, organiser, stranger, students } = await paidEvent({ students: 2 })
    const [a, b] = students
    await t.database.db.update(schema.users).set({ name: 'अनन्या Rao' }).where(sql`${schema.users.id} = ${a.id}`)
    const pa = await awaiting(eventId, a, '112345678901')
    const receipt = (await org('payment/confirm', { event_id: eventId, payment_id: pa }, organiser)).body.payment.receipt as string
    const get = (r: string, u: User) => t.app.inject({ method: 'GET', url: `/api/v1/payments/p/receipt/${r}`, headers: u.auth })
    for (const who of [a, organiser]) {
      const res = await get(receipt, who)
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-type']).toBe('application/pdf')
      expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-')
    }
    expect((await get(`${receipt}.pdf`, a)).statusCode).toBe(200)
    for (const who of [b, stranger]) expect(await get(receipt, who).then((r) => [r.statusCode, r.json().code])).toEqual([404, 'PAYMENT_NOT_FOUND'])
    expect((await get('R-999999', a)).statusCode).toBe(404)
    expect((await get('nonsense', a)).statusCode).toBe(404)
    const mine = (await post(t, `get/${eventId}`, {}, a.auth)).body.event.Participant.payment
    expect(mine.receipt).toBe(receipt)
    const my = (await post(t, 'get/me', {}, a.auth)).body.events
    expect(my.find((m: { event: { id: number } }) => m.event.id === eventId).receipt).toBe(receipt)
    expect((await post(t, 'get/me', {}, b.auth)).body.events.find((m: { event: { id: number } }) => m.event.id === eventId).receipt).toBeUndefined()
  })
  it('the desk at two counters at once: one payment, one admission, whatever the keys', async () => {
    const { eventId, organiser, students } = await paidEvent({ students: 2 })
    const [a, b] = students
    const volunteers = [await t.student(), await t.student()]
    await t.database.db.insert(schema.eventStaff).values(volunteers.map((v) => ({ eventId, userId: v.id })))
    const two = await Promise.all(volunteers.map((v, i) => door('pay', { event_id: eventId, user_id: a.id, method: 'CASH', key: `race-key-a${i}` }, v)))
    expect(two.map((r) => r.status).sort()).toEqual([200, 409])
    const same = await Promise.all(volunteers.map((v) => door('pay', { event_id: eventId, user_id: b.id, method: 'CASH', key: 'race-key-b0' }, v)))
    expect(same.map((r) => r.status)).toEqual([200, 200])
    expect(same[0].body.ticket_code).toBe(same[1].body.ticket_code)
    const money = (await org('payments', { event_id: eventId }, organiser)).body.totals
    expect(money).toMatchObject({ paid: 60_000, paid_places: 2, captured: 60_000, adds_up: true })
    const scans = rowsOf(await t.database.db.execute(sql`SELECT count(*)::int AS n FROM door_scans WHERE event_id = ${eventId}`)) as { n: number }[]
    expect(Number(scans[0].n)).toBe(2)
  })
  it('two confirmations and a statement at once capture the money once', async () => {
    const { eventId, organiser, students } = await paidEvent({ students: 1 })
    const admin = await t.student({ isAdmin: true })
    const pa = await awaiting(eventId, students[0], '212345678901')
    const [one, two, file] = await Promise.all([
      org('payment/confirm', { event_id: eventId, payment_id: pa }, organiser),
      org('payment/confirm', { event_id: eventId, payment_id: pa }, admin),
      statement(eventId, 'UTR,Amount\n212345678901,300\n', organiser),
    ])
    expect([one.status, two.status, file.status]).toEqual([200, 200, 200])
    const results = [one.body.result, two.body.result, file.body.confirmed.length ? 'paid' : file.body.unmatched[0].reason]
    expect(results.filter((r) => r === 'paid')).toHaveLength(1)
    const [ledger] = rowsOf(await t.database.db.execute(sql`SELECT count(*)::int AS n FROM payment_ledger WHERE event_id = ${eventId}`)) as { n: number }[]
    expect(Number(ledger.n)).toBe(1)
    expect((await org('payments', { event_id: eventId }, organiser)).body.totals).toMatchObject({ paid: 30_000, captured: 30_000, adds_up: true })
  })
})
