// The door (issue 12, API.md Part 2 "At the door"): check-in answers in API.md's shapes, scan_id idempotency,
// the gates' race for one ticket (exactly one CHECKED_IN, on PostgreSQL too), undo (audited), the offline sync
// with conflicting scans of two gates, the event list and the ticket list, and the states the door works in.
import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { DOOR_MESSAGES } from '../../server/routes/outcomes.ts'
import { checkedInOf, doorPost, doorWorld } from './door-fixtures.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

describe.each(DB_KINDS)('the door on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind })
  }, 60_000)
  afterAll(() => t?.close())

  const scan = (w: Awaited<ReturnType<typeof doorWorld>>, code: string, gate = 'North', scanId: string = randomUUID()) =>
    doorPost(t, 'check-in', { event_id: w.eventId, ticket_code: code, scan_id: scanId, gate }, w.users.door.auth)

  it('checks a ticket in (200 CHECKED_IN with the attendee), then answers 409 ALREADY_CHECKED_IN with when and where', async () => {
    const w = await doorWorld(t, { teamName: 'Owls' })
    const first = await scan(w, w.codes[0], 'North')
    expect(first.status).toBe(200)
    expect(first.body).toEqual({
      error: false,
      result: 'CHECKED_IN',
      attendee: { name: 'Holder 1', photo_url: 'https://example.edu/p/1.jpg', team: { id: w.teamId, name: 'Owls' } },
      checked_in_at: expect.any(String),
    })
    const again = await scan(w, w.codes[0], 'South')
    expect(again.status).toBe(409)
    expect(again.body).toEqual({
      error: true,
      message: DOOR_MESSAGES.alreadyCheckedIn,
      code: 'ALREADY_CHECKED_IN',
      result: 'ALREADY_CHECKED_IN',
      attendee: first.body.attendee,
      checked_in_at: first.body.checked_in_at,
      gate: 'North',
    })
    expect((await checkedInOf(t, w.codes[0])).gate).toBe('North')
  })

  it('answers 404 UNKNOWN_TICKET for a code of no ticket, and says so for another event’s ticket; nothing is recorded', async () => {
    const w = await doorWorld(t)
    const unknown = await scan(w, '0000000000000000')
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: true, message: DOOR_MESSAGES.unknownTicket, code: 'UNKNOWN_TICKET', result: 'UNKNOWN_TICKET' })
    const other = await scan(w, w.otherCode)
    expect(other.status).toBe(404)
    expect(other.body.result).toBe('UNKNOWN_TICKET')
    expect(other.body.message).toContain('another event')
    expect((await checkedInOf(t, w.otherCode)).at).toBeNull()
    const scans = await t.database.db.select().from(schema.doorScans).where(eq(schema.doorScans.eventId, w.eventId))
    expect(scans).toEqual([])
  })

  it('a ticket given back answers that it was given back, at a live scan and in a sync (issue 22 item 12); nothing is recorded', async () => {
    const w = await doorWorld(t, { state: 'TICKET_OPEN' })
    const released = await t.app.inject({
      method: 'POST',
      url: '/api/v1/event/p/release-ticket',
      headers: { ...w.people[1].auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ event_id: w.eventId }),
    })
    expect(released.statusCode, released.body).toBe(200)
    const live = await scan(w, w.codes[1])
    expect(live.status).toBe(404)
    expect(live.body).toEqual({ error: true, message: DOOR_MESSAGES.givenBack, code: 'UNKNOWN_TICKET', result: 'UNKNOWN_TICKET' })
    const scanId = randomUUID()
    const synced = await doorPost(
      t,
      'sync',
      { event_id: w.eventId, scans: [{ ticket_code: w.codes[1], scan_id: scanId, gate: 'North', scanned_at: new Date().toISOString() }] },
      w.users.door.auth,
    )
    expect(synced.status).toBe(200)
    expect(synced.body.results).toEqual([{ error: true, message: DOOR_MESSAGES.givenBack, code: 'UNKNOWN_TICKET', result: 'UNKNOWN_TICKET', scan_id: scanId }])
    // A code of no ticket at all still says so.
    expect((await scan(w, '0000000000000000')).body.message).toBe(DOOR_MESSAGES.unknownTicket)
    const scans = await t.database.db.select().from(schema.doorScans).where(eq(schema.doorScans.eventId, w.eventId))
    expect(scans).toEqual([])
  })

  it('answers a repeated scan_id with its first answer; a scan_id reused for another ticket is refused', async () => {
    const w = await doorWorld(t)
    const id = randomUUID()
    const first = await scan(w, w.codes[1], 'North', id)
    expect(first.status).toBe(200)
    const retry = await scan(w, w.codes[1], 'North', id)
    expect(retry).toEqual(first)
    // A second, different scan is ALREADY; its own retry gets that answer again.
    const other = randomUUID()
    const second = await scan(w, w.codes[1], 'South', other)
    expect(second.status).toBe(409)
    expect(await scan(w, w.codes[1], 'South', other)).toEqual(second)
    // Upper-case spelling of the same UUID is the same scan.
    expect(await scan(w, w.codes[1], 'North', id.toUpperCase())).toEqual(first)
    // The same scan_id for another ticket is a device's mistake: refused, nothing changes.
    const reused = await scan(w, w.codes[2], 'North', id)
    expect(reused.status).toBe(409)
    expect(reused.body.message).toBe(DOOR_MESSAGES.scanIdReused)
    expect((await checkedInOf(t, w.codes[2])).at).toBeNull()
  })

  it('20 gates scanning one ticket at once, each retrying its scan: exactly one CHECKED_IN', async () => {
    const w = await doorWorld(t)
    const ids = Array.from({ length: 20 }, () => randomUUID())
    const answers = await Promise.all([...ids, ...ids].map((id, i) => scan(w, w.codes[0], `Gate ${i % 20}`, id)))
    const byId = new Map<string, number>()
    answers.forEach((a, i) => {
      const id = [...ids, ...ids][i]
      if (byId.has(id)) expect(a.status).toBe(byId.get(id))
      else byId.set(id, a.status)
    })
    expect([...byId.values()].filter((s) => s === 200)).toHaveLength(1)
    expect([...byId.values()].filter((s) => s === 409)).toHaveLength(19)
    const winner = ids.find((id) => byId.get(id) === 200)!
    const [stored] = await t.database.db.select().from(schema.doorScans).where(eq(schema.doorScans.scanId, winner))
    expect((await checkedInOf(t, w.codes[0])).gate).toBe(stored.gate)
    const checked = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(schema.doorScans)
      .where(and(eq(schema.doorScans.eventId, w.eventId), sql`${schema.doorScans.answer}->>'result' = 'CHECKED_IN'`))
    expect(Number(checked[0].n)).toBe(1)
  })

  it('undo clears the check-in (audited), so the ticket can be scanned in again', async () => {
    const w = await doorWorld(t)
    await scan(w, w.codes[0], 'North')
    const undo = await doorPost(t, 'check-in/undo', { event_id: w.eventId, ticket_code: w.codes[0] }, w.users.door.auth)
    expect(undo).toEqual({ status: 200, body: { error: false, message: DOOR_MESSAGES.undone } })
    expect((await checkedInOf(t, w.codes[0])).at).toBeNull()
    const [entry] = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.eventId, w.eventId), eq(schema.auditLog.action, 'door.undo')))
    expect(entry.actorId).toBe(w.users.door.id)
    expect(entry.before).toMatchObject({ ticket_code: w.codes[0], gate: 'North' })
    expect(entry.after).toMatchObject({ ticket_code: w.codes[0], checked_in_at: null })
    const twice = await doorPost(t, 'check-in/undo', { event_id: w.eventId, ticket_code: w.codes[0] }, w.users.door.auth)
    expect(twice.status).toBe(409)
    expect((await scan(w, w.codes[0], 'South')).status).toBe(200)
    const unknown = await doorPost(t, 'check-in/undo', { event_id: w.eventId, ticket_code: w.otherCode }, w.users.door.auth)
    expect(unknown.status).toBe(404)
  })

  it('sync: scans in order, answered as check-in; of two gates’ offline scans of one ticket the earliest wins', async () => {
    const w = await doorWorld(t, { holders: 4 })
    const at = (min: number) => `2026-11-22T18:${String(min).padStart(2, '0')}:00.000Z`
    // Gate A, offline, scanned ticket 0 at 18:05 and ticket 1 at 18:06; it syncs first.
    const a = [
      { ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'A', scanned_at: at(5) },
      { ticket_code: w.codes[1], scan_id: randomUUID(), gate: 'A', scanned_at: at(6) },
      { ticket_code: '123', scan_id: randomUUID(), gate: 'A', scanned_at: at(7) },
    ]
    const syncA = await doorPost(t, 'sync', { event_id: w.eventId, scans: a }, w.users.door.auth)
    expect(syncA.status).toBe(200)
    expect(syncA.body.results.map((r: any) => [r.scan_id, r.result])).toEqual([
      [a[0].scan_id, 'CHECKED_IN'],
      [a[1].scan_id, 'CHECKED_IN'],
      [a[2].scan_id, 'UNKNOWN_TICKET'],
    ])
    expect(syncA.body.results[0].checked_in_at).toBe(at(5))
    // Gate B, offline too, scanned ticket 0 earlier (18:03) and ticket 1 later (18:09); it syncs second.
    const b = [
      { ticket_code: w.codes[1], scan_id: randomUUID(), gate: 'B', scanned_at: at(9) },
      { ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'B', scanned_at: at(3) },
    ]
    const syncB = await doorPost(t, 'sync', { event_id: w.eventId, scans: b }, w.users.door.auth)
    expect(syncB.body.results.map((r: any) => r.result)).toEqual(['ALREADY_CHECKED_IN', 'CHECKED_IN'])
    expect(syncB.body.results[0]).toMatchObject({ gate: 'A', checked_in_at: at(6) })
    expect(await checkedInOf(t, w.codes[0])).toEqual({ at: new Date(at(3)), gate: 'B' })
    // Gate A's displaced scan, synced again, now hears that the ticket was in at B first.
    const again = await doorPost(t, 'sync', { event_id: w.eventId, scans: [a[0]] }, w.users.door.auth)
    expect(again.body.results[0]).toMatchObject({ result: 'ALREADY_CHECKED_IN', gate: 'B', checked_in_at: at(3), scan_id: a[0].scan_id })
    // Within one sync, two gates' scans of one ticket: the earliest wins whatever the order sent.
    const c = [
      { ticket_code: w.codes[2], scan_id: randomUUID(), gate: 'C', scanned_at: at(20) },
      { ticket_code: w.codes[2], scan_id: randomUUID(), gate: 'D', scanned_at: at(12) },
    ]
    const syncC = await doorPost(t, 'sync', { event_id: w.eventId, scans: c }, w.users.door.auth)
    expect(syncC.body.results.map((r: any) => r.result)).toEqual(['ALREADY_CHECKED_IN', 'CHECKED_IN'])
    expect(syncC.body.results[0]).toMatchObject({ gate: 'D', checked_in_at: at(12) })
    // A live check-in is never taken over by an offline scan synced after it, even an earlier one.
    expect((await scan(w, w.codes[3], 'Live')).status).toBe(200)
    const late = await doorPost(
      t,
      'sync',
      { event_id: w.eventId, scans: [{ ticket_code: w.codes[3], scan_id: randomUUID(), gate: 'E', scanned_at: at(1) }] },
      w.users.door.auth,
    )
    expect(late.body.results[0]).toMatchObject({ result: 'ALREADY_CHECKED_IN', gate: 'Live' })
    // Exactly one CHECKED_IN answer stands per ticket.
    const rows = await t.database.db
      .select({ code: schema.doorScans.ticketCode, n: sql<number>`count(*)::int` })
      .from(schema.doorScans)
      .where(and(eq(schema.doorScans.eventId, w.eventId), sql`${schema.doorScans.answer}->>'result' = 'CHECKED_IN'`))
      .groupBy(schema.doorScans.ticketCode)
    expect(rows.every((r) => Number(r.n) === 1)).toBe(true)
    expect(rows).toHaveLength(4)
  })

  it('sync refuses a malformed scan with a 400 naming the field, writing nothing', async () => {
    const w = await doorWorld(t)
    const bad = await doorPost(
      t,
      'sync',
      { event_id: w.eventId, scans: [{ ticket_code: w.codes[0], scan_id: 'nope', gate: 'A', scanned_at: '2026-11-22T18:00:00Z' }] },
      w.users.door.auth,
    )
    expect(bad).toEqual({ status: 400, body: { error: true, message: 'scan_id must be a UUID', code: 'INVALID_INPUT' } })
    const when = await doorPost(
      t,
      'sync',
      { event_id: w.eventId, scans: [{ ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'A', scanned_at: 'yesterday' }] },
      w.users.door.auth,
    )
    expect(when.body.message).toBe('scanned_at must be an ISO date-time with offset')
    // Instants outside the years 1 to 9999 (which the database cannot store) are refused the same way, not a 500.
    for (const scanned_at of ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+14:00', '9999-12-31T23:59:59-14:00']) {
      const odd = await doorPost(
        t,
        'sync',
        { event_id: w.eventId, scans: [{ ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'A', scanned_at }] },
        w.users.door.auth,
      )
      expect(odd, scanned_at).toEqual({ status: 400, body: { error: true, message: 'scanned_at must be an ISO date-time with offset', code: 'INVALID_INPUT' } })
    }
    const none = await doorPost(t, 'sync', { event_id: w.eventId }, w.users.door.auth)
    expect(none.body.message).toBe('scans is a required field')
    const gate = await doorPost(t, 'check-in', { event_id: w.eventId, ticket_code: w.codes[0], scan_id: randomUUID(), gate: '  ' }, w.users.door.auth)
    expect(gate).toEqual({ status: 400, body: { error: true, message: 'gate is a required field', code: 'INVALID_INPUT' } })
    expect((await checkedInOf(t, w.codes[0])).at).toBeNull()
  })

  it('lists the caller’s door events with counts, and the ticket list with check-ins', async () => {
    const w = await doorWorld(t)
    await scan(w, w.codes[0], 'North')
    const mine = await doorPost(t, 'events', {}, w.users.door.auth)
    expect(mine.status).toBe(200)
    expect(mine.body.events.map((e: any) => e.id)).toEqual([w.eventId])
    expect(mine.body.events[0]).toEqual({
      id: w.eventId,
      name: expect.any(String),
      dates: ['2026-11-25T18:00:00+05:30'],
      venue: '',
      tickets_sold: 3,
      checked_in: 1,
    })
    const organiser = await doorPost(t, 'events', {}, w.users.organiser.auth)
    expect(organiser.body.events.map((e: any) => e.id).sort()).toEqual([w.eventId, w.otherEventId].sort())
    expect((await doorPost(t, 'events', {}, w.users.student.auth)).body.events).toEqual([])
    const list = await doorPost(t, 'tickets', { event_id: w.eventId }, w.users.door.auth)
    expect(list.status).toBe(200)
    expect(list.body.tickets).toHaveLength(3)
    expect(list.body.tickets[0]).toEqual({
      ticket_code: w.codes[0],
      name: 'Holder 1',
      photo_url: 'https://example.edu/p/1.jpg',
      team: null,
      checked_in_at: expect.any(String),
      gate: 'North',
      secret: null, // this world's tickets do not rotate (issue 25: rotating-codes.test.ts)
    })
    expect(list.body.rotating_codes).toBe(false)
    expect(list.body.tickets[1].checked_in_at).toBeNull()
    expect(Date.parse(list.body.as_of)).not.toBeNaN()
  })

  it('counts each event’s check-ins in the event list (two of three in: 2, the other event 0; issue 22 item 3)', async () => {
    const w = await doorWorld(t)
    await scan(w, w.codes[0], 'North')
    await scan(w, w.codes[2], 'South')
    const counts = (await doorPost(t, 'events', {}, w.users.organiser.auth)).body.events.map((e: any) => [e.id, e.tickets_sold, e.checked_in])
    expect(counts).toContainEqual([w.eventId, 3, 2])
    expect(counts.find((c: number[]) => c[0] === w.otherEventId)[2]).toBe(0)
    await doorPost(t, 'check-in/undo', { event_id: w.eventId, ticket_code: w.codes[2] }, w.users.door.auth)
    expect((await doorPost(t, 'events', {}, w.users.door.auth)).body.events[0].checked_in).toBe(1)
  })

  it('works only in TICKET_OPEN, TICKET_CLOSED and ONGOING (403 with a message otherwise: API.md, 403 for a wrong state)', async () => {
    for (const state of ['TICKET_OPEN', 'TICKET_CLOSED', 'ONGOING'] as const) {
      const w = await doorWorld(t, { state, holders: 1 })
      expect((await scan(w, w.codes[0])).status).toBe(200)
    }
    for (const state of ['COMPLETED', 'REGISTRATION_OPEN', 'DRAFT'] as const) {
      const w = await doorWorld(t, { state, holders: 1 })
      const refused = await scan(w, w.codes[0])
      expect(refused).toEqual({ status: 403, body: { error: true, message: DOOR_MESSAGES.doorClosed, code: 'DOOR_CLOSED' } })
      expect((await doorPost(t, 'tickets', { event_id: w.eventId }, w.users.door.auth)).status).toBe(403)
      expect((await doorPost(t, 'check-in/undo', { event_id: w.eventId, ticket_code: w.codes[0] }, w.users.door.auth)).status).toBe(403)
      const sync = await doorPost(
        t,
        'sync',
        { event_id: w.eventId, scans: [{ ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'A', scanned_at: new Date().toISOString() }] },
        w.users.door.auth,
      )
      expect(sync.status).toBe(403)
      expect((await doorPost(t, 'events', {}, w.users.door.auth)).body.events).toEqual([])
    }
  })
})

describe('the door and ids of no event', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp()
  }, 60_000)
  afterAll(() => t?.close())

  it('without any role an unknown event id is 403 as a known one is (no draft ids to discover); with a role it is 404', async () => {
    const w = await doorWorld(t)
    const unknown = 2_000_000_000
    const bodies = {
      'check-in': { event_id: unknown, ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'North' },
      tickets: { event_id: unknown },
      'check-in/undo': { event_id: unknown, ticket_code: w.codes[0] },
      sync: { event_id: unknown, scans: [] },
    }
    for (const [path, body] of Object.entries(bodies)) {
      expect((await doorPost(t, path, body, w.users.student.auth)).status, `${path} as a student`).toBe(403)
      expect((await doorPost(t, path, body, w.users.door.auth)).status, `${path} as a door volunteer`).toBe(404)
      expect((await doorPost(t, path, body, w.users.organiser.auth)).status, `${path} as an organiser`).toBe(404)
    }
  })
})

describe('the door’s roles matrix', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp()
  }, 60_000)
  afterAll(() => t?.close())

  const ROLES = ['door', 'organiser', 'admin', 'student', 'otherDoor'] as const
  const allowed = (role: (typeof ROLES)[number]) => role === 'door' || role === 'organiser' || role === 'admin'

  it.each(ROLES)('as %s: the door calls of the event answer by role, and a refusal changes nothing', async (role) => {
    const w = await doorWorld(t)
    const auth = w.users[role].auth
    const check = await doorPost(t, 'check-in', { event_id: w.eventId, ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'North' }, auth)
    const list = await doorPost(t, 'tickets', { event_id: w.eventId }, auth)
    const sync = await doorPost(
      t,
      'sync',
      { event_id: w.eventId, scans: [{ ticket_code: w.codes[1], scan_id: randomUUID(), gate: 'North', scanned_at: new Date().toISOString() }] },
      auth,
    )
    const events = await doorPost(t, 'events', {}, auth)
    if (allowed(role)) {
      expect([check.status, list.status, sync.status]).toEqual([200, 200, 200])
      expect(events.body.events.map((e: any) => e.id)).toContain(w.eventId)
      const undo = await doorPost(t, 'check-in/undo', { event_id: w.eventId, ticket_code: w.codes[0] }, auth)
      expect(undo.status).toBe(200)
    } else {
      for (const answer of [check, list, sync]) expect(answer).toEqual({ status: 403, body: { error: true, message: DOOR_MESSAGES.notDoor, code: 'NOT_DOOR' } })
      expect(events.body.events.map((e: any) => e.id)).not.toContain(w.eventId)
      // Someone else checks the ticket in; the outsider cannot undo it.
      await doorPost(t, 'check-in', { event_id: w.eventId, ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'North' }, w.users.door.auth)
      const undo = await doorPost(t, 'check-in/undo', { event_id: w.eventId, ticket_code: w.codes[0] }, auth)
      expect(undo.status).toBe(403)
      expect((await checkedInOf(t, w.codes[0])).gate).toBe('North')
      expect((await checkedInOf(t, w.codes[1])).at).toBeNull()
      const scans = await t.database.db.select().from(schema.doorScans).where(eq(schema.doorScans.scannedBy, w.users[role].id))
      expect(scans).toEqual([])
    }
    expect((await doorPost(t, 'check-in', { event_id: w.eventId, ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'North' })).status).toBe(401)
  })
})
