// The organiser's side of a paid event's settings (issue 35 items 1-3): EventInput.payment saved, checked and read
// back (the console's save and the import), a council's UPI id and payee name, and the fee lock once a payment exists.
// Each refusal writes nothing.
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importCatalogue } from '../../server/db/events/catalogue.ts'
import { schema } from '../../server/db/index.ts'
import { rowsOf } from '../../server/db/outcomes.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

const RAZORPAY_ENV = {
  RAZORPAY_KEY_ID: 'rzp_test_settings',
  RAZORPAY_KEY_SECRET: 'settings-secret',
  RAZORPAY_WEBHOOK_SECRET: 'settings-webhook',
  RAZORPAY_API_URL: 'http://127.0.0.1:9',
}

describe.each(DB_KINDS)('paid events: the organiser’s settings on %s', (kind) => {
  let t: TestApp
  /** The same database kind, a server without Razorpay's keys. */
  let bare: TestApp
  let serial = 0
  beforeAll(async () => {
    t = await testApp({ kind, env: RAZORPAY_ENV, app: { paymentsIntervalMs: false, aroundIntervalMs: false, scheduler: false } })
    bare = await testApp({ kind, app: { paymentsIntervalMs: false, aroundIntervalMs: false, scheduler: false } })
  }, 120_000)
  afterAll(async () => {
    await t?.close()
    await bare?.close()
  })

  async function call(app: TestApp, path: string, body: unknown, auth: Record<string, string>) {
    const res = await app.app.inject({
      method: 'POST',
      url: `/api/v1${path}`,
      headers: { 'content-type': 'application/json', ...auth },
      payload: JSON.stringify(body),
    })
    return { status: res.statusCode, body: res.json() }
  }

  /** A council (with UPI or not), its organiser, and an admin, on `app`. */
  async function world(app: TestApp, upi: boolean) {
    serial += 1
    const [council] = await app.database.db
      .insert(schema.councils)
      .values({ slug: `set-${kind}-${serial}`, name: `Settings ${serial}`, ...(upi ? { upiVpa: 'csi.treasurer@okaxis', upiName: 'CSI KJSCE' } : {}) })
      .returning({ id: schema.councils.id })
    const organiser = await app.student()
    const admin = await app.student({ isAdmin: true })
    await app.database.db.insert(schema.councilOrganizers).values({ councilId: council.id, userId: organiser.id })
    return { councilId: council.id, organiser, admin }
  }

  const stored = async (app: TestApp, id: number) =>
    (
      rowsOf(await app.database.db.execute(sql`SELECT fee, pay_within_minutes, refund_until_hours, payment_methods FROM events WHERE id = ${id}`)) as Record<
        string,
        unknown
      >[]
    )[0]

  it('saves payment {pay_within_minutes, refund_until_hours, methods} on a paid event and reads it back in the console and the details', async () => {
    const w = await world(t, true)
    const created = await call(
      t,
      '/org/p/event/save',
      { name: 'Paid workshop', organizer_id: w.councilId, fee: 300, payment: { pay_within_minutes: 10, refund_until_hours: 48, methods: ['UPI', 'RAZORPAY'] } },
      w.organiser.auth,
    )
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    // Stored in the method order of the contract, whatever order was sent.
    expect(created.body.event.payment).toEqual({ pay_within_minutes: 10, refund_until_hours: 48, methods: ['RAZORPAY', 'UPI'] })
    const id = created.body.event.id
    const partial = await call(t, '/org/p/event/save', { id, payment: { refund_until_hours: 0 } }, w.organiser.auth)
    expect(partial.body.event.payment).toEqual({ pay_within_minutes: 10, refund_until_hours: 0, methods: ['RAZORPAY', 'UPI'] })
    await t.database.db.execute(sql`UPDATE events SET state = 'TICKET_OPEN' WHERE id = ${id}`)
    const detail = await call(t, `/event/p/get/${id}`, {}, w.organiser.auth)
    expect(detail.body.event.payment).toEqual({ pay_within_minutes: 10, refund_until_hours: 0, methods: ['RAZORPAY', 'UPI'] })
  })

  it('ignores payment on a free event; a free event reads payment null', async () => {
    const w = await world(t, false)
    const res = await call(
      t,
      '/org/p/event/save',
      { name: 'Free talk', organizer_id: w.councilId, payment: { pay_within_minutes: 5, methods: ['UPI'] } },
      w.organiser.auth,
    )
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.event.payment).toBeNull()
    expect(await stored(t, res.body.event.id)).toMatchObject({ pay_within_minutes: 15 })
  })

  it.each([
    [{ pay_within_minutes: 0 }, 'payment.pay_within_minutes must be a whole number from 1 to 60'],
    [{ pay_within_minutes: 61 }, 'payment.pay_within_minutes must be a whole number from 1 to 60'],
    [{ refund_until_hours: 721 }, 'payment.refund_until_hours must be a whole number from 0 to 720'],
    [{ refund_until_hours: 1.5 }, 'payment.refund_until_hours must be a whole number from 0 to 720'],
    [{ methods: [] }, 'payment.methods must name at least one way to pay: RAZORPAY, UPI or DESK'],
    [{ methods: ['DESK', 'DESK'] }, 'payment.methods must name each way to pay once'],
    [{ methods: ['CARD'] }, 'payment.methods may only contain RAZORPAY, UPI and DESK'],
    [{ methods: 'DESK' }, 'payment.methods must be a list of RAZORPAY, UPI and DESK'],
  ])('refuses payment %j with its message, writing nothing', async (payment, message) => {
    const w = await world(t, true)
    const before = rowsOf(await t.database.db.execute(sql`SELECT count(*)::int AS n FROM events`))
    const res = await call(t, '/org/p/event/save', { name: 'Bad', organizer_id: w.councilId, fee: 100, payment }, w.organiser.auth)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: true, code: 'INVALID_INPUT', message })
    expect(rowsOf(await t.database.db.execute(sql`SELECT count(*)::int AS n FROM events`))).toEqual(before)
  })

  it('refuses RAZORPAY on a server without Razorpay keys, and UPI for a council without its UPI id (codes RAZORPAY_NOT_CONFIGURED, UPI_NOT_SET)', async () => {
    const w = await world(bare, true)
    const noKeys = await call(
      bare,
      '/org/p/event/save',
      { name: 'Card', organizer_id: w.councilId, fee: 100, payment: { methods: ['RAZORPAY'] } },
      w.organiser.auth,
    )
    expect(noKeys.status).toBe(400)
    expect(noKeys.body).toMatchObject({ error: true, code: 'RAZORPAY_NOT_CONFIGURED', message: expect.stringContaining('no Razorpay keys') })
    const desk = await call(
      bare,
      '/org/p/event/save',
      { name: 'Desk', organizer_id: w.councilId, fee: 100, payment: { methods: ['DESK', 'UPI'] } },
      w.organiser.auth,
    )
    expect(desk.status, JSON.stringify(desk.body)).toBe(200)

    const v = await world(t, false)
    const noUpi = await call(t, '/org/p/event/save', { name: 'UPI', organizer_id: v.councilId, fee: 100, payment: { methods: ['UPI'] } }, v.organiser.auth)
    expect(noUpi.status).toBe(400)
    expect(noUpi.body).toMatchObject({ error: true, code: 'UPI_NOT_SET', message: expect.stringContaining('UPI id and payee name') })
    // The admin sets the council's UPI id and payee name; UPI is then accepted.
    const set = await call(t, '/org/p/council/save', { id: v.councilId, upi_vpa: ' csi_kjsce-1.pay@okhdfcbank ', upi_name: 'CSI KJSCE' }, v.admin.auth)
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    expect(set.body.council).toMatchObject({ upi_vpa: 'csi_kjsce-1.pay@okhdfcbank', upi_name: 'CSI KJSCE' })
    const listed = await call(t, '/org/p/councils', {}, v.organiser.auth)
    expect(listed.body.councils.find((c: { id: number }) => c.id === v.councilId)).toMatchObject({
      upi_vpa: 'csi_kjsce-1.pay@okhdfcbank',
      upi_name: 'CSI KJSCE',
    })
    const upi = await call(t, '/org/p/event/save', { name: 'UPI', organizer_id: v.councilId, fee: 100, payment: { methods: ['UPI'] } }, v.organiser.auth)
    expect(upi.status).toBe(200)
  })

  it.each([
    [{ upi_vpa: 'no-at-sign' }, 'upi_vpa', 'upi_vpa must be a UPI id like name@bank: letters, digits, dots, hyphens or underscores, then @ and letters'],
    [
      { upi_vpa: 'name@bank1', upi_name: 'X' },
      'upi_vpa',
      'upi_vpa must be a UPI id like name@bank: letters, digits, dots, hyphens or underscores, then @ and letters',
    ],
    [
      { upi_vpa: 'na me@bank', upi_name: 'X' },
      'upi_vpa',
      'upi_vpa must be a UPI id like name@bank: letters, digits, dots, hyphens or underscores, then @ and letters',
    ],
    [{ upi_vpa: 'name@bank', upi_name: '' }, 'upi_name', 'upi_name must be the payee’s name, 1 to 60 characters'],
    [{ upi_vpa: 'name@bank', upi_name: 'x'.repeat(61) }, 'upi_name', 'upi_name must be the payee’s name, 1 to 60 characters'],
    [{ upi_vpa: 'name@bank' }, 'upi_name', 'upi_vpa and upi_name go together: give both, or neither'],
    [{ upi_vpa: null, upi_name: 'CSI' }, 'upi_vpa', 'upi_vpa and upi_name go together: give both, or neither'],
  ])('refuses the council’s UPI %j with a message naming the field, writing nothing', async (body, _field, message) => {
    const w = await world(t, false)
    const res = await call(t, '/org/p/council/save', { id: w.councilId, ...body }, w.admin.auth)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: true, code: 'INVALID_INPUT', message })
    expect(rowsOf(await t.database.db.execute(sql`SELECT upi_vpa, upi_name FROM councils WHERE id = ${w.councilId}`))).toEqual([
      { upi_vpa: null, upi_name: null },
    ])
  })

  it('only an admin sets a council’s UPI id; null clears both', async () => {
    const w = await world(t, true)
    const organiser = await call(t, '/org/p/council/save', { id: w.councilId, upi_vpa: 'mine@okaxis', upi_name: 'Me' }, w.organiser.auth)
    expect(organiser.status).toBe(403)
    const cleared = await call(t, '/org/p/council/save', { id: w.councilId, upi_vpa: null, upi_name: null }, w.admin.auth)
    expect(cleared.body.council).toMatchObject({ upi_vpa: null, upi_name: null })
  })

  it('locks the fee once a payment exists (FEE_LOCKED), and a way to pay that a live payment uses', async () => {
    const w = await world(t, true)
    const created = await call(
      t,
      '/org/p/event/save',
      { name: 'Locked', organizer_id: w.councilId, fee: 200, ticket_count: 5, is_ticket_feature_enabled: true, fair_start: null },
      w.organiser.auth,
    )
    const id = created.body.event.id
    // No payment yet: the fee may change.
    expect((await call(t, '/org/p/event/save', { id, fee: 250 }, w.organiser.auth)).status).toBe(200)
    await t.database.db.execute(sql`UPDATE events SET state = 'TICKET_OPEN' WHERE id = ${id}`)
    const s = await t.student()
    await t.database.db.insert(schema.participants).values({ eventId: id, userId: s.id })
    const claim = await call(t, '/event/p/claim-ticket', { event_id: id }, s.auth)
    expect(claim.body.result).toBe('PAYMENT_PENDING')
    await call(t, '/event/p/pay', { event_id: id, method: 'UPI' }, s.auth)
    const before = await stored(t, id)
    const fee = await call(t, '/org/p/event/save', { id, fee: 300 }, w.organiser.auth)
    expect(fee.status).toBe(409)
    expect(fee.body).toMatchObject({ error: true, code: 'FEE_LOCKED', message: expect.stringContaining('The fee cannot change') })
    const method = await call(t, '/org/p/event/save', { id, payment: { methods: ['RAZORPAY', 'DESK'] } }, w.organiser.auth)
    expect(method.status).toBe(409)
    expect(method.body).toMatchObject({ code: 'FEE_LOCKED', message: expect.stringContaining('cannot drop UPI') })
    expect(await stored(t, id)).toEqual(before)
    // The same fee, and a method no live payment uses, are fine.
    expect((await call(t, '/org/p/event/save', { id, fee: 250, payment: { methods: ['UPI', 'DESK'] } }, w.organiser.auth)).status).toBe(200)
  })

  it('the import takes payment with defaults, checks it, and locks the fee once paid', async () => {
    const w = await world(t, true)
    const slug = `imp-${kind}-${serial}`
    const council = (await t.database.db.select({ slug: schema.councils.slug }).from(schema.councils).where(sql`id = ${w.councilId}`))[0].slug
    const event = (extra: object) => ({ events: [{ slug, name: 'Imported', dates: ['2027-03-01T10:00:00+05:30'], organizer: council, fee: 100, ...extra }] })
    const r = await importCatalogue(t.database.db, event({}), { razorpay: true })
    expect(await stored(t, r.events[slug])).toMatchObject({ pay_within_minutes: 15, refund_until_hours: 24 })
    await importCatalogue(t.database.db, event({ payment: { pay_within_minutes: 30, refund_until_hours: 6, methods: ['DESK'] } }), { razorpay: true })
    expect(await stored(t, r.events[slug])).toMatchObject({ pay_within_minutes: 30, refund_until_hours: 6, payment_methods: ['DESK'] })
    await expect(importCatalogue(t.database.db, event({ payment: { methods: ['RAZORPAY'] } }), { razorpay: false })).rejects.toThrow(
      /payment\.methods: RAZORPAY is not available/,
    )
    await expect(importCatalogue(t.database.db, event({ payment: { pay_within_minutes: 90, methods: ['UPI', 'UPI'] } }))).rejects.toThrow(
      /payment\.pay_within_minutes: must be a whole number from 1 to 60[\s\S]*payment\.methods: must name each way to pay once/,
    )
    await t.database.db.execute(sql`
      INSERT INTO payments (event_id, kind, amount, reference, pay_by) VALUES (${r.events[slug]}, 'REGISTRATION', 10000, ${`IMP${serial}${kind}`}, now() + interval '5 minutes')`)
    await expect(importCatalogue(t.database.db, event({ fee: 150 }))).rejects.toThrow(/\.fee: cannot change from 100/)
  })
})
