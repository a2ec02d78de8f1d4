// The organiser console's calls (API.md Part 2 "Organiser calls"): the roles matrix of every call (admin, organiser
// of the event's council, organiser of another council, door volunteer, student, signed out → status, and nothing
// written by a refusal), the validation messages naming the field, the audit log of every write, and the CSV
// (BOM, formula-injection guard, a comma and a quote, Devanagari).
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { csvCell } from '../../server/routes/csv.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

type Role = 'admin' | 'organiser' | 'otherOrganiser' | 'door' | 'student' | 'signedOut'
const ROLES: Role[] = ['admin', 'organiser', 'otherOrganiser', 'door', 'student', 'signedOut']

describe.each(DB_KINDS)('organiser calls on %s', (kind) => {
  let t: TestApp
  let tables: string[]
  beforeAll(async () => {
    t = await testApp({ kind })
    const result = (await t.database.db.execute(
      sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    )) as any
    tables = (result.rows ?? result).map((r: any) => r.table_name)
  }, 120_000)
  afterAll(() => t.close())

  async function hashes(): Promise<Record<string, string>> {
    const q = tables
      .map((n) => `SELECT '${n}' AS t, count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM "${n}" x`)
      .join(' UNION ALL ')
    const result = (await t.database.db.execute(sql.raw(q))) as any
    return Object.fromEntries((result.rows ?? result).map((r: any) => [r.t, r.h]))
  }

  let serial = 0
  /** Two councils, an event of the first (DRAFT, a question), and one user per role. */
  async function world() {
    serial += 1
    const db = t.database.db
    const [a, b] = await db
      .insert(schema.councils)
      .values([
        { slug: `a-${serial}-${Date.now()}`, name: `Council A${serial}` },
        { slug: `b-${serial}-${Date.now()}`, name: `Council B${serial}` },
      ])
      .returning({ id: schema.councils.id })
    const [event] = await db
      .insert(schema.events)
      .values({
        slug: `ev-${serial}-${Date.now()}`,
        name: 'Hack Night',
        organizerId: a!.id,
        state: 'DRAFT',
        maPpt: 1,
        dates: ['2026-03-01T10:00:00+05:30'],
        questions: [{ id: 'gh', label: 'GitHub', kind: 'URL', options: [], required: false }],
      })
      .returning({ id: schema.events.id })
    const admin = await t.student({ isAdmin: true })
    const organiser = await t.student()
    const otherOrganiser = await t.student()
    const door = await t.student()
    const student = await t.student()
    await db.insert(schema.councilOrganizers).values([
      { councilId: a!.id, userId: organiser.id },
      { councilId: b!.id, userId: otherOrganiser.id },
    ])
    await db.insert(schema.eventStaff).values({ eventId: event!.id, userId: door.id })
    // A paid event of council A (issue 35): one place PAID by UPI, one waiting for its refund by hand.
    const [paidEvent] = await db
      .insert(schema.events)
      .values({
        slug: `paid-${serial}-${Date.now()}`,
        name: 'Paid',
        organizerId: a!.id,
        state: 'TICKET_OPEN',
        fee: 100,
        isTicketFeatureEnabled: true,
        ticketCount: 5,
        dates: ['2027-03-01T10:00:00+05:30'],
      })
      .returning({ id: schema.events.id })
    const [payer, refundee] = [await t.student(), await t.student()]
    const [place] = await db
      .insert(schema.participants)
      .values({ eventId: paidEvent!.id, userId: payer.id, ticketCollected: true, ticketCode: `P${serial}${Date.now()}`.slice(0, 16) })
      .returning({ id: schema.participants.id })
    const [paid, refunding] = await db
      .insert(schema.payments)
      .values([
        {
          eventId: paidEvent!.id,
          userId: payer.id,
          participantId: place!.id,
          kind: 'TICKET',
          amount: 10_000,
          status: 'PAID',
          method: 'UPI',
          reference: `M${serial}a${Date.now()}`,
          payBy: new Date(),
          paidAt: new Date(),
        },
        {
          eventId: paidEvent!.id,
          userId: refundee.id,
          kind: 'TICKET',
          amount: 10_000,
          status: 'REFUND_PENDING',
          method: 'UPI',
          reference: `M${serial}b${Date.now()}`,
          payBy: new Date(),
          paidAt: new Date(),
          refundRequestedAt: new Date(),
        },
      ])
      .returning({ id: schema.payments.id })
    await db.insert(schema.paymentLedger).values([
      { paymentId: paid!.id, eventId: paidEvent!.id, kind: 'CAPTURE', method: 'UPI', amount: 10_000, gatewayRef: `utr:m${serial}a${Date.now()}` },
      { paymentId: refunding!.id, eventId: paidEvent!.id, kind: 'CAPTURE', method: 'UPI', amount: 10_000, gatewayRef: `utr:m${serial}b${Date.now()}` },
    ])
    const users = { admin, organiser, otherOrganiser, door, student }
    const emailOf = async (id: number) => (await db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, id)))[0]!.email
    return {
      councilA: a!.id,
      councilB: b!.id,
      eventId: event!.id,
      paidEventId: paidEvent!.id,
      paidPaymentId: paid!.id,
      refundingPaymentId: refunding!.id,
      users,
      studentEmail: await emailOf(student.id),
      auth: (role: Role) => (role === 'signedOut' ? {} : users[role].auth),
    }
  }

  async function call(path: string, body: unknown, auth: Record<string, string> = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1${path}`,
      headers: { 'content-type': 'application/json', ...auth },
      payload: JSON.stringify(body),
    })
    return { status: res.statusCode, body: res.json() }
  }

  type World = Awaited<ReturnType<typeof world>>
  interface Row {
    path: (w: World) => string
    body: (w: World) => unknown
    method?: 'GET'
    expect: Record<Role, number>
    /** Whether a 200 writes (else a read changes nothing). */
    writes: boolean
  }
  const manage = { admin: 200, organiser: 200, otherOrganiser: 403, door: 403, student: 403, signedOut: 401 }
  const anyOrganiser = { admin: 200, organiser: 200, otherOrganiser: 200, door: 403, student: 403, signedOut: 401 }
  const adminOnly = { admin: 200, organiser: 403, otherOrganiser: 403, door: 403, student: 403, signedOut: 401 }
  const rows: Record<string, Row> = {
    events: { path: () => '/org/p/events', body: () => ({}), expect: anyOrganiser, writes: false },
    councils: { path: () => '/org/p/councils', body: () => ({}), expect: anyOrganiser, writes: false },
    create: { path: () => '/org/p/event/save', body: (w) => ({ name: 'New one', organizer_id: w.councilA }), expect: manage, writes: true },
    update: { path: () => '/org/p/event/save', body: (w) => ({ id: w.eventId, venue: 'Hall 2' }), expect: manage, writes: true },
    state: { path: () => '/org/p/event/state', body: (w) => ({ event_id: w.eventId, state: 'UPCOMING' }), expect: manage, writes: true },
    participants: { path: () => '/org/p/event/participants', body: (w) => ({ event_id: w.eventId }), expect: manage, writes: false },
    csv: { path: (w) => `/org/p/event/${w.eventId}/participants.csv`, method: 'GET', body: () => undefined, expect: manage, writes: false },
    staffList: { path: () => '/org/p/event/staff', body: (w) => ({ event_id: w.eventId }), expect: manage, writes: false },
    staffAdd: { path: () => '/org/p/event/staff', body: (w) => ({ event_id: w.eventId, email: w.studentEmail }), expect: manage, writes: true },
    organizersAdd: {
      path: () => '/org/p/council/organizers',
      body: (w) => ({ council_id: w.councilA, email: w.studentEmail }),
      expect: adminOnly,
      writes: true,
    },
    councilSave: { path: () => '/org/p/council/save', body: (w) => ({ id: w.councilA, name: 'Renamed' }), expect: adminOnly, writes: true },
    audit: { path: () => '/org/p/audit', body: (w) => ({ event_id: w.eventId }), expect: adminOnly, writes: false },
    // The organiser's refunds and cancel (issue 35, contract/payment-admin.ts): the event's organisers and admins.
    refundsDue: { path: () => '/org/p/payment/refunds', body: (w) => ({ event_id: w.paidEventId }), expect: manage, writes: false },
    refund: { path: () => '/org/p/payment/refund', body: (w) => ({ payment_id: w.paidPaymentId }), expect: manage, writes: true },
    refundedByHand: { path: () => '/org/p/payment/refunded', body: (w) => ({ payment_id: w.refundingPaymentId }), expect: manage, writes: true },
    cancel: { path: () => '/org/p/event/cancel', body: (w) => ({ event_id: w.paidEventId }), expect: manage, writes: true },
  }
  const cases = Object.entries(rows).flatMap(([name]) => ROLES.map((role) => [`${name} as ${role}`, name, role] as const))

  it.each(cases)('%s', async (_title, name, role) => {
    const row = rows[name]!
    const w = await world()
    const before = await hashes()
    const res =
      row.method === 'GET'
        ? await t.app.inject({ method: 'GET', url: `/api/v1${row.path(w)}`, headers: w.auth(role) })
        : await t.app.inject({
            method: 'POST',
            url: `/api/v1${row.path(w)}`,
            headers: { 'content-type': 'application/json', ...w.auth(role) },
            payload: JSON.stringify(row.body(w)),
          })
    expect(res.statusCode, res.body).toBe(row.expect[role])
    const after = await hashes()
    const changed = tables.filter((n) => before[n] !== after[n])
    if (res.statusCode !== 200 || !row.writes) expect(changed).toEqual([])
    else {
      expect(changed).toContain('audit_log')
      expect(res.json().error).toBe(false)
    }
    if (res.statusCode >= 400) expect(res.json()).toMatchObject({ error: true, message: expect.any(String) })
  })

  it('lists every state including DRAFT, with counts, only of the caller’s councils', async () => {
    const w = await world()
    const mine = await call('/org/p/events', {}, w.users.organiser.auth)
    expect(mine.status).toBe(200)
    const ev = mine.body.events.find((e: any) => e.id === w.eventId)
    expect(ev).toMatchObject({
      state: 'DRAFT',
      counts: {
        registered: 0,
        teams: 0,
        tickets_sold: 0,
        checked_in: 0,
        waitlist: 0,
        entrants: 0,
        ratings: { count: 0, average: null, by_star: [0, 0, 0, 0, 0] },
      },
    })
    expect(mine.body.events.every((e: any) => e.organizer.id === w.councilA)).toBe(true)
    const other = await call('/org/p/events', {}, w.users.otherOrganiser.auth)
    expect(other.body.events.find((e: any) => e.id === w.eventId)).toBeUndefined()
  })

  it('counts registrations, check-ins and ratings', async () => {
    const w = await world()
    const db = t.database.db
    await db.update(schema.events).set({ state: 'COMPLETED', isTicketFeatureEnabled: true, ticketCount: 10 }).where(eq(schema.events.id, w.eventId))
    const people = [await t.student(), await t.student(), await t.student()]
    await db.insert(schema.participants).values([
      { eventId: w.eventId, userId: people[0]!.id, rating: 5, ticketCollected: true, ticketCode: `T${serial}a`, checkedInAt: new Date() },
      { eventId: w.eventId, userId: people[1]!.id, rating: 4, ticketCollected: true, ticketCode: `T${serial}b` },
      { eventId: w.eventId, userId: people[2]!.id },
    ])
    const res = await call('/org/p/events', {}, w.users.organiser.auth)
    const ev = res.body.events.find((e: any) => e.id === w.eventId)
    expect(ev.counts).toEqual({
      registered: 3,
      teams: 0,
      tickets_sold: 2,
      checked_in: 1,
      waitlist: 0,
      entrants: 0,
      ratings: { count: 2, average: 4.5, by_star: [0, 0, 0, 1, 1] },
    })
  })

  it('creates a draft with every field, and the audit log records who, what, before and after', async () => {
    const w = await world()
    const body = {
      name: 'Devfest',
      description: 'Short',
      long_description: 'Long text',
      event_page_image_url: '/uploads/abc.webp',
      banner_url: 'https://example.org/b.png',
      dates: ['2026-04-02T10:00:00+05:30', '2026-04-01T10:00:00+05:30'],
      venue: 'Main hall',
      tags: ['tech', 'web'],
      organizer_id: w.councilA,
      fee: 100,
      ma_ppt: 4,
      min_ppt: 2,
      registration_type: 'ONPLATFORM',
      is_ticket_feature_enabled: true,
      ticket_count: 50,
      schedule: { registration_opens_at: '2026-03-01T18:00:00+05:30', tickets_open_at: '2026-03-05T18:00:00+05:30' },
      questions: [
        { label: 'GitHub', kind: 'URL', required: true },
        { label: 'Track', kind: 'CHOICE', options: ['Web', 'AI'], required: false },
      ],
    }
    const res = await call('/org/p/event/save', body, w.users.organiser.auth)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const ev = res.body.event
    expect(ev).toMatchObject({ name: 'Devfest', state: 'DRAFT', min_ppt: 2, ma_ppt: 4, fee: 100, ticket_count: 50, organizer: { id: w.councilA } })
    expect(ev.dates).toEqual(['2026-04-01T10:00:00+05:30', '2026-04-02T10:00:00+05:30'])
    expect(ev.schedule).toEqual({
      registration_opens_at: '2026-03-01T12:30:00.000Z',
      registration_closes_at: null,
      tickets_open_at: '2026-03-05T12:30:00.000Z',
      tickets_close_at: null,
      starts_at: null,
      ends_at: null,
    })
    expect(ev.questions).toHaveLength(2)
    expect(ev.questions[0]).toMatchObject({ label: 'GitHub', kind: 'URL', required: true, options: [] })
    expect(ev.questions[0].id).toMatch(/^[A-Za-z0-9_-]+$/)
    // Students never see a draft.
    const seen = await call(`/event/p/get/${ev.id}`, {}, w.users.student.auth)
    expect(seen.status).toBe(404)
    const audit = await call('/org/p/audit', { event_id: ev.id }, w.users.admin.auth)
    expect(audit.body.entries[0]).toMatchObject({ action: 'event.create', actor_id: w.users.organiser.id, actor_kind: 'user', event_id: ev.id, before: null })
    expect(audit.body.entries[0].after).toMatchObject({ name: 'Devfest' })
    // An update changes only the fields sent, and the log keeps before and after.
    const upd = await call('/org/p/event/save', { id: ev.id, venue: 'Hall B' }, w.users.organiser.auth)
    expect(upd.body.event).toMatchObject({ venue: 'Hall B', name: 'Devfest', fee: 100 })
    const log = (await call('/org/p/audit', { event_id: ev.id }, w.users.admin.auth)).body.entries
    expect(log[0]).toMatchObject({ action: 'event.save', before: { venue: 'Main hall' }, after: { venue: 'Hall B' } })
  })

  it.each([
    [{ name: '' }, 'name is a required field'],
    [{ name: 'x'.repeat(121) }, 'name must be at most 120 characters'],
    [{ fee: -1 }, 'fee must be a whole number from 0 to 1000000'],
    [{ fee: 1.5 }, 'fee must be a whole number from 0 to 1000000'],
    [{ ma_ppt: 0 }, 'ma_ppt must be a whole number from 1 to 100'],
    [{ dates: ['tomorrow'] }, 'dates must be a date and time with its offset, e.g. 2026-03-06T18:00:00+05:30'],
    [{ banner_url: 'javascript:alert(1)' }, 'banner_url must be an http(s) address or an uploaded image'],
    [{ external_registration_link: 'ftp://x' }, 'external_registration_link must be an http(s) address'],
    [{ registration_type: 'PAPER' }, 'registration_type must be one of EXTERNAL, ONPLATFORM'],
    [{ is_ticket_feature_enabled: 'yes' }, 'is_ticket_feature_enabled must be true or false'],
    [
      { schedule: { registration_opens_at: '2026-03-02T10:00:00+05:30', registration_closes_at: '2026-03-01T10:00:00+05:30' } },
      'schedule.registration_closes_at must be after schedule.registration_opens_at',
    ],
    [{ schedule: { starts_at: 'soon' } }, 'schedule.starts_at must be a date and time with its offset, e.g. 2026-03-06T18:00:00+05:30'],
    [{ questions: [{ label: 'Track', kind: 'CHOICE', options: ['Only'] }] }, "questions: 'Track' needs at least two options"],
    [{ questions: [{ label: 'X', kind: 'DATE' }] }, 'questions: kind must be one of TEXT, LONG_TEXT, URL, CHOICE'],
    // Checked against the stored event (its ma_ppt, its link), by the save: the refusal's own code.
    [{ min_ppt: 3 }, 'min_ppt must not be more than ma_ppt', 'MIN_ABOVE_MAX'],
    [{ registration_type: 'EXTERNAL' }, 'external_registration_link is required for an EXTERNAL registration', 'EXTERNAL_LINK_MISSING'],
    [{ organizer_id: 'abc' }, 'organizer_id must be a positive whole number'],
  ])('400 naming the field for %j, nothing written', async (patch, message, code = 'INVALID_INPUT') => {
    const w = await world()
    const before = await hashes()
    const res = await call('/org/p/event/save', { id: w.eventId, ...patch }, w.users.organiser.auth)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: true, message, code })
    expect(await hashes()).toEqual(before)
  })

  it('a create needs a name and a council; a council or parent outside the caller’s is 403', async () => {
    const w = await world()
    expect((await call('/org/p/event/save', { organizer_id: w.councilA }, w.users.organiser.auth)).body.message).toBe('name is a required field')
    expect((await call('/org/p/event/save', { name: 'X' }, w.users.organiser.auth)).body.message).toBe('organizer_id is a required field')
    expect((await call('/org/p/event/save', { name: 'X', organizer_id: w.councilB }, w.users.organiser.auth)).status).toBe(403)
    expect((await call('/org/p/event/save', { id: w.eventId, organizer_id: w.councilB }, w.users.organiser.auth)).status).toBe(403)
    const [foreign] = await t.database.db
      .insert(schema.events)
      .values({ slug: `f-${serial}`, name: 'Foreign', organizerId: w.councilB })
      .returning({ id: schema.events.id })
    expect((await call('/org/p/event/save', { id: w.eventId, parent_id: foreign!.id }, w.users.organiser.auth)).status).toBe(403)
    expect((await call('/org/p/event/save', { id: w.eventId, parent_id: w.eventId }, w.users.organiser.auth)).status).toBe(400)
    expect((await call('/org/p/event/save', { id: 999999 }, w.users.organiser.auth)).status).toBe(404)
  })

  it('ticket_count never goes below tickets_sold (409)', async () => {
    const w = await world()
    const db = t.database.db
    await db.update(schema.events).set({ state: 'TICKET_OPEN', isTicketFeatureEnabled: true, ticketCount: 5 }).where(eq(schema.events.id, w.eventId))
    const s1 = await t.student()
    const s2 = await t.student()
    await db.insert(schema.participants).values([
      { eventId: w.eventId, userId: s1.id, ticketCollected: true, ticketCode: `C${serial}x` },
      { eventId: w.eventId, userId: s2.id, ticketCollected: true, ticketCode: `C${serial}y` },
    ])
    const res = await call('/org/p/event/save', { id: w.eventId, ticket_count: 1 }, w.users.organiser.auth)
    expect(res.status).toBe(409)
    expect((await call('/org/p/event/save', { id: w.eventId, ticket_count: 2 }, w.users.organiser.auth)).status).toBe(200)
  })

  it('without an organiser role an unknown event id is 403 as a known one is (no draft ids to discover); an organiser gets 404', async () => {
    const w = await world()
    const unknown = 2_000_000_000
    const calls: [string, (id: number) => unknown][] = [
      ['/org/p/event/save', (id) => ({ id, name: 'X' })],
      ['/org/p/event/state', (id) => ({ event_id: id, state: 'UPCOMING' })],
      ['/org/p/event/participants', (id) => ({ event_id: id })],
      ['/org/p/event/staff', (id) => ({ event_id: id })],
      ['/org/p/event/notify', (id) => ({ event_id: id, title: 'T', body: 'B', to: 'PARTICIPANTS' })],
      ['/org/p/event/notify/status', (id) => ({ event_id: id })],
    ]
    for (const [path, body] of calls) {
      for (const role of ['student', 'door'] as const) {
        expect((await call(path, body(w.eventId), w.auth(role))).status, `${path} as ${role}, the draft`).toBe(403)
        expect((await call(path, body(unknown), w.auth(role))).status, `${path} as ${role}, no such event`).toBe(403)
      }
      expect((await call(path, body(unknown), w.auth('organiser'))).status, `${path} as organiser, no such event`).toBe(404)
    }
    const csv = (id: number, role: Role) => t.app.inject({ method: 'GET', url: `/api/v1/org/p/event/${id}/participants.csv`, headers: w.auth(role) })
    expect((await csv(unknown, 'student')).statusCode).toBe(403)
    expect((await csv(unknown, 'organiser')).statusCode).toBe(404)
  })

  it('an update that sends only the id (or only unknown fields) answers the event unchanged, writing nothing', async () => {
    const w = await world()
    const before = await hashes()
    for (const body of [{ id: w.eventId }, { id: w.eventId, unknown_field: 'x', tickets_sold: 9 }]) {
      const res = await call('/org/p/event/save', body, w.users.organiser.auth)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.event).toMatchObject({ id: w.eventId, name: 'Hack Night', state: 'DRAFT', tickets_sold: 0 })
    }
    expect(await hashes()).toEqual(before)
    expect((await call('/org/p/event/save', { id: w.eventId }, w.users.otherOrganiser.auth)).status).toBe(403)
  })

  it('an event as large as the field limits allow (Devanagari long_description, twenty questions of fifty options) is saved, not 413', async () => {
    const w = await world()
    const questions = Array.from({ length: 20 }, (_, i) => ({
      label: `प्रश्न ${i} ${'क'.repeat(150)}`,
      kind: 'CHOICE',
      options: Array.from({ length: 50 }, (_, j) => `${j} ${'ख'.repeat(195)}`),
    }))
    const res = await call('/org/p/event/save', { id: w.eventId, long_description: 'न'.repeat(20_000), questions }, w.users.organiser.auth)
    expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(200)
    expect(res.body.event.long_description).toHaveLength(20_000)
    expect(res.body.event.questions).toHaveLength(20)
    // Beyond any field's limit, the body is still refused whole.
    const huge = await call('/org/p/event/save', { id: w.eventId, long_description: 'x'.repeat(3_000_000) }, w.users.organiser.auth)
    expect(huge.status).toBe(413)
  })

  it('dates and schedule times outside the years 1 to 9999 answer 400 naming the field (the database cannot store them), not 500', async () => {
    const w = await world()
    const before = await hashes()
    for (const v of ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+14:00', '9999-12-31T23:59:59-14:00']) {
      const schedule = await call('/org/p/event/save', { id: w.eventId, schedule: { ends_at: v } }, w.users.organiser.auth)
      expect(schedule, v).toEqual({
        status: 400,
        body: { error: true, message: 'schedule.ends_at must be a date and time with its offset, e.g. 2026-03-06T18:00:00+05:30', code: 'INVALID_INPUT' },
      })
      const dates = await call('/org/p/event/save', { id: w.eventId, dates: [v] }, w.users.organiser.auth)
      expect(dates, v).toEqual({
        status: 400,
        body: { error: true, message: 'dates must be a date and time with its offset, e.g. 2026-03-06T18:00:00+05:30', code: 'INVALID_INPUT' },
      })
    }
    expect(await hashes()).toEqual(before)
    expect((await call('/org/p/event/save', { id: w.eventId, schedule: { ends_at: '0001-01-01T00:00:00Z' } }, w.users.organiser.auth)).status).toBe(200)
  })

  it('each date’s end time (issue 22 item 7): saved with its date, kept when the dates change without them, refused when not after its start', async () => {
    const w = await world()
    const save = (body: object) => call('/org/p/event/save', { id: w.eventId, ...body }, w.users.organiser.auth)
    const ends = async () => (await t.database.db.select().from(schema.events).where(eq(schema.events.id, w.eventId)))[0]!
    // Sent out of order: each end stays with its date.
    const saved = await save({
      dates: ['2026-03-02T10:00:00+05:30', '2026-03-01T18:00:00+05:30'],
      date_ends: ['2026-03-02T13:00:00+05:30', '2026-03-02T01:00:00+05:30'],
    })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    expect(saved.body.event.dates).toEqual(['2026-03-01T18:00:00+05:30', '2026-03-02T10:00:00+05:30'])
    expect(saved.body.event.date_ends).toEqual(['2026-03-02T01:00:00+05:30', '2026-03-02T13:00:00+05:30'])
    // Dates changed without end times: a date that stays keeps its end; a new one has none.
    const moved = await save({ dates: ['2026-03-02T10:00:00+05:30', '2026-03-03T10:00:00+05:30'] })
    expect(moved.body.event.date_ends).toEqual(['2026-03-02T13:00:00+05:30', null])
    const before = await hashes()
    for (const [body, message] of [
      [{ date_ends: ['2026-03-02T13:00:00+05:30'] }, 'date_ends must be sent with dates'],
      [{ dates: ['2026-03-02T10:00:00+05:30'], date_ends: ['2026-03-02T09:00:00+05:30'] }, 'date_ends: each end must be after its date’s start'],
      [{ dates: ['2026-03-02T10:00:00+05:30'], date_ends: ['2026-03-02T10:00:00+05:30'] }, 'date_ends: each end must be after its date’s start'],
      [{ dates: [], date_ends: [null] }, 'date_ends must not have more entries than dates'],
      [{ dates: [], date_ends: ['5 PM'] }, 'date_ends must be a date and time with its offset, e.g. 2026-03-06T18:00:00+05:30'],
    ] as const)
      expect(await save(body), message).toEqual({ status: 400, body: { error: true, message, code: 'INVALID_INPUT' } })
    expect(await hashes()).toEqual(before)
    expect((await ends()).dateEnds).toEqual(['2026-03-02T13:00:00+05:30', null])
  })

  it('a manual state move wins over the schedule, is audited, and tells the listeners', async () => {
    const w = await world()
    const seen: unknown[] = []
    const off = t.app.lifecycle.onStateChange((c) => void seen.push({ id: c.eventId, from: c.from, to: c.to }))
    for (const state of ['UPCOMING', 'REGISTRATION_OPEN', 'TICKET_OPEN', 'REGISTRATION_OPEN', 'DRAFT', 'COMPLETED']) {
      const res = await call('/org/p/event/state', { event_id: w.eventId, state }, w.users.organiser.auth)
      expect(res.status).toBe(200)
      expect(res.body.event.state).toBe(state)
    }
    off()
    expect(seen[0]).toEqual({ id: w.eventId, from: 'DRAFT', to: 'UPCOMING' })
    expect(seen).toHaveLength(6)
    const [row] = await t.database.db.select().from(schema.events).where(eq(schema.events.id, w.eventId))
    expect(row!.scheduleAppliedThrough).not.toBeNull()
    const bad = await call('/org/p/event/state', { event_id: w.eventId, state: 'OPEN' }, w.users.organiser.auth)
    expect(bad).toMatchObject({ status: 400, body: { message: expect.stringContaining('state must be one of') } })
    const log = (await call('/org/p/audit', { event_id: w.eventId }, w.users.admin.auth)).body.entries
    expect(log[0]).toMatchObject({ action: 'event.state', before: { state: 'DRAFT' }, after: { state: 'COMPLETED' } })
  })

  it('door volunteers: added and removed by e-mail; someone who never signed in is 404', async () => {
    const w = await world()
    const added = await call('/org/p/event/staff', { event_id: w.eventId, email: w.studentEmail.toUpperCase() }, w.users.organiser.auth)
    expect(added.status).toBe(200)
    expect(added.body.staff.map((p: any) => p.id).sort()).toEqual([w.users.door.id, w.users.student.id].sort())
    const me = await call('/user/p/me', true, w.users.student.auth)
    expect(me.body.user.roles.door_events).toContain(w.eventId)
    const removed = await call('/org/p/event/staff', { event_id: w.eventId, email: w.studentEmail, remove: true }, w.users.organiser.auth)
    expect(removed.body.staff.map((p: any) => p.id)).toEqual([w.users.door.id])
    const nobody = await call('/org/p/event/staff', { event_id: w.eventId, email: 'nobody@example.edu' }, w.users.organiser.auth)
    expect(nobody.status).toBe(404)
    expect((await call('/org/p/event/staff', { event_id: w.eventId, email: 'not-an-email' }, w.users.organiser.auth)).body.message).toBe(
      'email must be an e-mail address',
    )
  })

  it('admins manage councils and their organisers', async () => {
    const w = await world()
    const created = await call('/org/p/council/save', { name: 'Robotics', email: 'robo@example.edu' }, w.users.admin.auth)
    expect(created.status).toBe(200)
    const id = created.body.council.id
    expect(created.body.council).toMatchObject({ name: 'Robotics', email: 'robo@example.edu', phone_number: null })
    const granted = await call('/org/p/council/organizers', { council_id: id, email: w.studentEmail }, w.users.admin.auth)
    expect(granted.body.organizers.map((p: any) => p.id)).toEqual([w.users.student.id])
    const list = await call('/org/p/councils', {}, w.users.student.auth)
    expect(list.body.councils.map((c: any) => c.id)).toEqual([id])
    expect((await call('/org/p/council/save', { name: '' }, w.users.admin.auth)).body.message).toBe('name is a required field')
    expect((await call('/org/p/council/save', { id: 999999, name: 'X' }, w.users.admin.auth)).status).toBe(404)
    // Only the id (or only unknown fields): the council as it is, nothing written (was a 500: an UPDATE with nothing to set).
    const before = await hashes()
    for (const body of [{ id }, { id, slug: 'x', organizers: [] }]) {
      const same = await call('/org/p/council/save', body, w.users.admin.auth)
      expect(same.status, JSON.stringify(same.body)).toBe(200)
      expect(same.body.council).toEqual(created.body.council)
    }
    expect(await hashes()).toEqual(before)
    expect((await call('/org/p/council/save', { id: 999999 }, w.users.admin.auth)).status).toBe(404)
  })

  it('the participants list and the CSV: BOM, formula guard, comma and quote, Devanagari, a column per question', async () => {
    const w = await world()
    const db = t.database.db
    const names = ['=HYPERLINK("http://evil")', 'Doe, "Jo"', 'अनन्या शर्मा', '+91 trick', '@SUM(1)', '-2+3']
    for (const [i, name] of names.entries()) {
      const s = await t.student({ name })
      await db.insert(schema.participants).values({ eventId: w.eventId, userId: s.id, answers: i === 0 ? { gh: 'https://github.com/x' } : {} })
    }
    const list = await call('/org/p/event/participants', { event_id: w.eventId }, w.users.organiser.auth)
    expect(list.status).toBe(200)
    expect(list.body.participants.map((p: any) => p.user.name)).toEqual(names)
    expect(list.body.participants[0]).toMatchObject({
      team: null,
      ticket_collected: false,
      ticket_code: null,
      checked_in_at: null,
      rating: null,
      waitlist_position: null,
      answers: { gh: 'https://github.com/x' },
    })
    expect(list.body.questions.map((q: any) => q.label)).toEqual(['GitHub'])
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/org/p/event/${w.eventId}/participants.csv`, headers: w.users.organiser.auth })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/)
    const raw = res.rawPayload
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const text = raw.subarray(3).toString('utf8')
    const lines = text.split('\r\n')
    expect(lines[0]).toBe(
      'Name,E-mail,Student ID,Mobile,Branch,Year,Team,Registered at,Ticket collected,Ticket code,Checked in at,Rating,Waitlist position,GitHub',
    )
    expect(lines[1]!.startsWith(`"'=HYPERLINK(""http://evil"")",`)).toBe(true)
    expect(lines[1]!.endsWith(',https://github.com/x')).toBe(true)
    expect(lines[2]!.startsWith('"Doe, ""Jo""",')).toBe(true)
    expect(lines[3]!.startsWith('अनन्या शर्मा,')).toBe(true)
    expect(lines[4]!.startsWith("'+91 trick,")).toBe(true)
    expect(lines[5]!.startsWith("'@SUM(1),")).toBe(true)
    expect(lines[6]!.startsWith("'-2+3,")).toBe(true)
    expect(lines).toHaveLength(8)
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/org/p/event/abc/participants.csv', headers: w.users.organiser.auth })).statusCode).toBe(404)
  })

  it('the CSV speaks the college’s language: times in Asia/Kolkata with the offset, branches as the screens show them, ticket codes kept as text (issue 22 item 5)', async () => {
    const w = await world()
    const db = t.database.db
    await db.update(schema.events).set({ state: 'TICKET_OPEN', isTicketFeatureEnabled: true, ticketCount: 5 }).where(eq(schema.events.id, w.eventId))
    const s = await t.student({ name: 'Kavya Nair', branch: 'Computer_Engineering', year: 2027 })
    const code = '1234567890123456'
    await db.insert(schema.participants).values({
      eventId: w.eventId,
      userId: s.id,
      ticketCollected: true,
      ticketCode: code,
      // 02:30:56 IST on the 27th: 21:00:56 on the 26th in UTC, the wrong day.
      createdAt: new Date('2026-11-26T21:00:56Z'),
      checkedInAt: new Date('2026-11-27T12:45:00Z'),
    })
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/org/p/event/${w.eventId}/participants.csv`, headers: w.users.organiser.auth })
    expect(res.statusCode).toBe(200)
    const [head, line] = parseCsv(res.rawPayload.subarray(3).toString('utf8'), ',')
    const cell = (name: string) => line![head!.indexOf(name)]
    expect(cell('Name')).toBe('Kavya Nair')
    expect(cell('Branch')).toBe('Computer Engineering')
    expect(cell('Registered at')).toBe('2026-11-27T02:30:56+05:30')
    expect(Date.parse(cell('Registered at')!)).toBe(Date.parse('2026-11-26T21:00:56Z'))
    expect(cell('Checked in at')).toBe('2026-11-27T18:15:00+05:30')
    // ="1234567890123456": a spreadsheet shows the sixteen digits as text, not 1.23457E+15.
    expect(cell('Ticket code')).toBe(`="${code}"`)
    // The JSON list keeps the wire forms (the console formats them itself).
    const list = await call('/org/p/event/participants', { event_id: w.eventId }, w.users.organiser.auth)
    expect(list.body.participants[0]).toMatchObject({ ticket_code: code, user: { branch: 'Computer_Engineering' } })
  })
})

/** Cells of CSV text split at `separator` as a spreadsheet does (RFC 4180: quotes only around a whole cell). */
function parseCsv(text: string, separator: ',' | ';'): string[][] {
  const rows: string[][] = [[]]
  let cell = ''
  let quoted = false
  let atStart = true
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++
      else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"' && atStart) (quoted = true), (atStart = false)
    else if (c === separator) rows.at(-1)!.push(cell), (cell = ''), (atStart = true)
    else if (c === '\r' && text[i + 1] === '\n') rows.at(-1)!.push(cell), rows.push([]), (cell = ''), (atStart = true), i++
    else (cell += c), (atStart = false)
  }
  rows.at(-1)!.push(cell)
  return rows
}

describe('csvCell', () => {
  it('a cell with ; is quoted and guarded like one with , (issue 21 item 10): split at , or at ; (Excel in a ;-locale), no cell starts a formula', () => {
    const values = ['Rao;=HYPERLINK("http://evil")', 'a;b', '=x;+y', 'x;"=1"', 'Doe, Jo;@SUM(1)', 'plain', '-3;-4']
    const line = `${values.map(csvCell).join(',')}\r\n`
    expect(csvCell('a;b')).toBe('"a;b"')
    // Split at commas, each cell reads back as written, with the guard's ' before a formula character.
    expect(parseCsv(line, ',')[0]).toEqual(['Rao;\'=HYPERLINK("http://evil")', 'a;b', "'=x;'+y", 'x;\'"=1"', "Doe, Jo;'@SUM(1)", 'plain', "'-3;'-4"])
    // Split at semicolons, as Excel does where ; is the list separator: no cell begins with = + - @ (or a quote and one).
    const cells = parseCsv(line, ';')[0]!
    expect(cells.length).toBeGreaterThan(1)
    expect(cells.filter((c) => /^"*[=+\-@\t\r]/.test(c))).toEqual([])
  })

  it.each([
    ['plain', 'plain'],
    ['=1+1', "'=1+1"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['a\nb', '"a\nb"'],
    [null, ''],
    [2027, '2027'],
  ])('%j → %j', (input, output) => expect(csvCell(input)).toBe(output))
})
