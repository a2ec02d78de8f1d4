// Multi-day events and re-entry at the door (issue 25 item 3): a ticket admits once per event day (the IST day of
// each date), across midnight IST with the server's clock injected (no waiting); any number of gates at once give one
// CHECKED_IN per day (on PostgreSQL too); offline scans over two days sync to one admission each day, the earliest
// scanned_at winning; undo takes back today's admission only; re-entry scans out and in, live and offline, with the
// inside count; the per-day counts in the door's lists and the console.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { doorRepository, type OfflineScan } from '../../server/db/door/door.ts'
import { schema } from '../../server/db/index.ts'
import { DOOR_MESSAGES } from '../../server/routes/outcomes.ts'
import { checkedInOf, doorPost, doorWorld, type DoorWorld } from './door-fixtures.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

const FEST = ['2026-11-27T10:00:00+05:30', '2026-11-28T10:00:00+05:30', '2026-11-29T10:00:00+05:30']
const ist = (s: string) => new Date(`${s}+05:30`)

describe.each(DB_KINDS)('multi-day events and re-entry at the door on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind })
  }, 60_000)
  afterAll(() => t?.close())

  /** A door world whose event runs on `dates`, with re-entry or not. */
  async function fest(dates = FEST, reentry = false): Promise<DoorWorld> {
    const w = await doorWorld(t)
    await t.database.db.update(schema.events).set({ dates, reentry }).where(eq(schema.events.id, w.eventId))
    return w
  }
  /** The door's repository at a fixed time. */
  const at = (instant: Date) => doorRepository(t.database.db, () => instant)
  const scanAt = async (w: DoorWorld, instant: Date, code: string, gate = 'North', scanId = randomUUID()) => {
    const outcome = await at(instant).checkIn(w.users.door.id, { eventId: w.eventId, ticketCode: code, scanId, gate })
    if (!outcome.ok) throw new Error(`refused: ${outcome.refusal}`)
    return outcome.value
  }
  const admissionsOf = (w: DoorWorld) =>
    t.database.db
      .select({ day: schema.admissions.day, at: schema.admissions.checkedInAt, gate: schema.admissions.gate, inside: schema.admissions.inside })
      .from(schema.admissions)
      .where(eq(schema.admissions.eventId, w.eventId))
      .orderBy(schema.admissions.day)

  it('admits once per IST day: 23:59:59 IST on day 1 and 00:00:00 IST on day 2 are two admissions; a second scan the same day is ALREADY_CHECKED_IN', async () => {
    const w = await fest()
    const late = await scanAt(w, ist('2026-11-27T23:59:59'), w.codes[0], 'North')
    expect(late).toMatchObject({ result: 'CHECKED_IN', day: '2026-11-27', checked_in_at: '2026-11-27T18:29:59.000Z' })
    expect(await scanAt(w, ist('2026-11-27T23:59:59.500'), w.codes[0], 'South')).toMatchObject({
      result: 'ALREADY_CHECKED_IN',
      day: '2026-11-27',
      gate: 'North',
    })
    const midnight = await scanAt(w, ist('2026-11-28T00:00:00'), w.codes[0], 'South')
    expect(midnight).toMatchObject({ result: 'CHECKED_IN', day: '2026-11-28', checked_in_at: '2026-11-27T18:30:00.000Z' })
    expect(await scanAt(w, ist('2026-11-28T18:00:00'), w.codes[0], 'East')).toMatchObject({ result: 'ALREADY_CHECKED_IN', day: '2026-11-28', gate: 'South' })
    expect((await admissionsOf(w)).map((a) => [a.day, a.gate])).toEqual([
      ['2026-11-27', 'North'],
      ['2026-11-28', 'South'],
    ])
    // participants.checked_in_at mirrors the latest day's first entry.
    expect(await checkedInOf(t, w.codes[0])).toEqual({ at: new Date('2026-11-27T18:30:00.000Z'), gate: 'South' })
  })

  it('the ticket holder’s event detail says the days the door admitted the ticket on (issue 37 item 3); a single-day event says nothing new', async () => {
    const w = await fest()
    const detail = async (who: { auth: { authorization: string } }) =>
      (await t.app.inject({ method: 'POST', url: `/api/v1/event/p/get/${w.eventId}`, headers: who.auth, payload: {} })).json().event.Participant
    expect((await detail(w.people[0])).days_used).toEqual([])
    await scanAt(w, ist('2026-11-28T11:00:00'), w.codes[0])
    await scanAt(w, ist('2026-11-27T11:00:00'), w.codes[0])
    expect((await detail(w.people[0])).days_used).toEqual(['2026-11-27', '2026-11-28'])
    // Another holder's days are theirs; a registration without a ticket, and a single-day event, carry no days.
    expect((await detail(w.people[1])).days_used).toEqual([])
    expect('days_used' in (await detail(w.registered))).toBe(false)
    const single = await fest(['2026-11-27T10:00:00+05:30'])
    await scanAt(single, ist('2026-11-27T11:00:00'), single.codes[0])
    const one = (await t.app.inject({ method: 'POST', url: `/api/v1/event/p/get/${single.eventId}`, headers: single.people[0].auth, payload: {} })).json().event
      .Participant
    expect(one.checked_in_at).not.toBeNull()
    expect('days_used' in one).toBe(false)
  })

  it('a single-day event admits once in all, whatever day the scans come on (the door as before)', async () => {
    const w = await fest(['2026-11-27T10:00:00+05:30'])
    expect((await scanAt(w, ist('2026-11-27T23:59:59'), w.codes[0])).result).toBe('CHECKED_IN')
    const next = await scanAt(w, ist('2026-11-28T00:00:00'), w.codes[0])
    expect(next.result).toBe('ALREADY_CHECKED_IN')
    expect('day' in next).toBe(false)
  })

  it('undo takes back today’s admission only; the mirror goes back to the day before; the ticket can come in again today', async () => {
    const w = await fest()
    await scanAt(w, ist('2026-11-27T11:00:00'), w.codes[1], 'North')
    await scanAt(w, ist('2026-11-28T11:00:00'), w.codes[1], 'South')
    expect((await at(ist('2026-11-28T11:05:00')).undo(w.users.door.id, w.eventId, w.codes[1])).ok).toBe(true)
    expect((await admissionsOf(w)).map((a) => a.day)).toEqual(['2026-11-27'])
    expect(await checkedInOf(t, w.codes[1])).toEqual({ at: ist('2026-11-27T11:00:00'), gate: 'North' })
    // Nothing left today: a second undo is refused, and changes nothing.
    expect(await at(ist('2026-11-28T11:06:00')).undo(w.users.door.id, w.eventId, w.codes[1])).toEqual({ ok: false, refusal: 'notCheckedIn' })
    expect((await scanAt(w, ist('2026-11-28T11:10:00'), w.codes[1], 'East')).result).toBe('CHECKED_IN')
    const audit = await t.database.db.select().from(schema.auditLog).where(eq(schema.auditLog.eventId, w.eventId))
    expect(audit.filter((a) => a.action === 'door.undo').map((a) => (a.before as { day: string }).day)).toEqual(['2026-11-28'])
  })

  it('any number of gates at once give exactly one CHECKED_IN per day, with and without repeated scan_ids', async () => {
    const w = await fest()
    for (const day of ['2026-11-27T12:00:00', '2026-11-28T12:00:00']) {
      const ids = Array.from({ length: 8 }, () => randomUUID())
      const answers = await Promise.all([...ids, ...ids].map((id, i) => scanAt(w, ist(day), w.codes[2], `Gate ${i % 8}`, id)))
      expect(answers.filter((a) => a.result === 'CHECKED_IN')).toHaveLength(2) // the winning scan and its own repeat
      expect(new Set(answers.filter((a) => a.result === 'CHECKED_IN').map((a) => (a as { checked_in_at: string }).checked_in_at)).size).toBe(1)
      expect(answers.filter((a) => a.result === 'ALREADY_CHECKED_IN')).toHaveLength(14)
    }
    expect((await admissionsOf(w)).map((a) => a.day)).toEqual(['2026-11-27', '2026-11-28'])
  })

  it('live scans and a sync racing over three tickets and two days never deadlock, and each ticket has one admission a day', async () => {
    const w = await fest()
    const offline: OfflineScan[] = w.codes.flatMap((code, i) => [
      { ticket_code: code, scan_id: randomUUID(), gate: 'Offline', scanned_at: `2026-11-27T1${i}:00:00+05:30` },
      { ticket_code: code, scan_id: randomUUID(), gate: 'Offline', scanned_at: `2026-11-28T1${i}:00:00+05:30` },
    ])
    const noon = ist('2026-11-28T13:00:00')
    const results = await Promise.all([
      at(noon).sync(w.users.door.id, w.eventId, offline),
      ...w.codes.map((code) => scanAt(w, noon, code, 'Live')),
      ...[...w.codes].reverse().map((code) => scanAt(w, noon, code, 'Live 2')),
    ])
    expect(results[0].ok).toBe(true)
    const rows = await admissionsOf(w)
    expect(rows).toHaveLength(6)
    expect(new Set(rows.map((r) => r.day))).toEqual(new Set(['2026-11-27', '2026-11-28']))
  })

  it('offline scans over two days sync to one admission a day, the earliest scanned_at winning, whenever each reaches the server', async () => {
    const w = await fest()
    const door = at(ist('2026-11-29T09:00:00'))
    const s = (code: string, when: string, gate: string): OfflineScan => ({ ticket_code: code, scan_id: randomUUID(), gate, scanned_at: `${when}+05:30` })
    // Device A, offline on days 1 and 2; sent in one sync, out of order.
    const a = [s(w.codes[0], '2026-11-28T09:00:00', 'A'), s(w.codes[0], '2026-11-27T10:00:00', 'A'), s(w.codes[0], '2026-11-27T11:00:00', 'A')]
    const first = await door.sync(w.users.door.id, w.eventId, a)
    if (!first.ok) throw new Error(first.refusal)
    expect(first.value.map((r) => [r.result, 'day' in r ? r.day : null])).toEqual([
      ['CHECKED_IN', '2026-11-28'],
      ['CHECKED_IN', '2026-11-27'],
      ['ALREADY_CHECKED_IN', '2026-11-27'],
    ])
    // Device B was offline too and let the same ticket in earlier on day 2: its sync, later, takes day 2 over.
    const b = [s(w.codes[0], '2026-11-28T08:30:00', 'B')]
    const second = await door.sync(w.users.door.id, w.eventId, b)
    if (!second.ok) throw new Error(second.refusal)
    expect(second.value[0]).toMatchObject({ result: 'CHECKED_IN', day: '2026-11-28', checked_in_at: ist('2026-11-28T08:30:00').toISOString() })
    // Device A's day-2 scan, sent again, hears of it; its day-1 check-in stands.
    const again = await door.sync(w.users.door.id, w.eventId, a)
    if (!again.ok) throw new Error(again.refusal)
    expect(again.value.map((r) => [r.result, 'gate' in r ? r.gate : null])).toEqual([
      ['ALREADY_CHECKED_IN', 'B'],
      ['CHECKED_IN', null],
      ['ALREADY_CHECKED_IN', 'A'],
    ])
    expect((await admissionsOf(w)).map((r) => [r.day, r.gate, r.at.toISOString()])).toEqual([
      ['2026-11-27', 'A', ist('2026-11-27T10:00:00').toISOString()],
      ['2026-11-28', 'B', ist('2026-11-28T08:30:00').toISOString()],
    ])
    // Day 3, live: in again.
    expect(await scanAt(w, ist('2026-11-29T09:00:00'), w.codes[0])).toMatchObject({ result: 'CHECKED_IN', day: '2026-11-29' })
  })

  it('re-entry: out and in again, live, with the inside count; a double read never checks anyone out; without re-entry there is no out', async () => {
    // Days around today, so the server's own clock falls on one of them.
    const day = 86_400_000
    const w = await fest(
      [new Date(Date.now() - day), new Date(), new Date(Date.now() + day)].map((d) => d.toISOString()),
      true,
    )
    const move = (path: 'check-in' | 'check-out', code: string, scanId = randomUUID()) =>
      doorPost(t, path, { event_id: w.eventId, ticket_code: code, scan_id: scanId, gate: 'Main' }, w.users.door.auth)
    const inside = async () => {
      const list = await doorPost(t, 'tickets', { event_id: w.eventId }, w.users.door.auth)
      return list.body.days.reduce((n: number, d: { inside: number }) => n + d.inside, 0)
    }
    const firstIn = await move('check-in', w.codes[0])
    expect(firstIn.status).toBe(200)
    await move('check-in', w.codes[1])
    expect(await inside()).toBe(2)
    expect((await move('check-in', w.codes[0])).status).toBe(409) // a double read at the entrance: still in
    const outId = randomUUID()
    const out = await move('check-out', w.codes[0], outId)
    expect(out.status).toBe(200)
    expect(out.body).toMatchObject({ result: 'CHECKED_OUT', attendee: { name: 'Holder 1' } })
    expect(await inside()).toBe(1)
    // The same scan out again (a retry) answers the same; a new scan out of someone out is NOT_INSIDE.
    expect((await move('check-out', w.codes[0], outId)).body.result).toBe('CHECKED_OUT')
    const twice = await move('check-out', w.codes[0])
    expect(twice.status).toBe(409)
    expect(twice.body).toMatchObject({ result: 'NOT_INSIDE', message: DOOR_MESSAGES.notInside })
    expect((await move('check-out', w.codes[2])).body.result).toBe('NOT_INSIDE') // never came in
    // Back in: CHECKED_IN again, said to be a re-entry; the day's first entry is kept.
    const back = await move('check-in', w.codes[0])
    expect(back.status).toBe(200)
    expect(back.body).toMatchObject({ result: 'CHECKED_IN', reentry: true })
    expect(await inside()).toBe(2)
    const list = await doorPost(t, 'tickets', { event_id: w.eventId }, w.users.door.auth)
    const mine = list.body.tickets.find((x: { ticket_code: string }) => x.ticket_code === w.codes[0])
    expect(mine.admissions).toEqual([{ day: expect.any(String), checked_in_at: firstIn.body.checked_in_at, gate: 'Main', inside: true }])
    expect(list.body.reentry).toBe(true)
    // The second holder steps out: one inside.
    expect((await move('check-out', w.codes[1])).status).toBe(200)
    expect(await inside()).toBe(1)
    // The event list of the door and the console count each day.
    const events = await doorPost(t, 'events', {}, w.users.door.auth)
    const door = events.body.events.find((e: { id: number }) => e.id === w.eventId)
    expect(door.reentry).toBe(true)
    expect(door.days.map((d: { checked_in: number; inside: number }) => [d.checked_in, d.inside])).toContainEqual([2, 1])
    const org = await t.app.inject({
      method: 'POST',
      url: '/api/v1/org/p/events',
      headers: { 'content-type': 'application/json', ...w.users.organiser.auth },
      payload: '{}',
    })
    const mineOrg = org.json().events.find((e: { id: number }) => e.id === w.eventId)
    expect(mineOrg.reentry).toBe(true)
    expect(mineOrg.counts.days.map((d: { checked_in: number; inside: number }) => [d.checked_in, d.inside])).toContainEqual([2, 1])
  })

  it('a scan out on an event without re-entry is refused with the reason and changes nothing; a check-in’s scan_id cannot be a check-out', async () => {
    const w = await fest()
    const id = randomUUID()
    await doorPost(t, 'check-in', { event_id: w.eventId, ticket_code: w.codes[0], scan_id: id, gate: 'Main' }, w.users.door.auth)
    const out = await doorPost(t, 'check-out', { event_id: w.eventId, ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'Main' }, w.users.door.auth)
    expect(out.status).toBe(409)
    expect(out.body).toMatchObject({ result: 'NOT_INSIDE', message: DOOR_MESSAGES.reentryOff })
    const reused = await doorPost(t, 'check-out', { event_id: w.eventId, ticket_code: w.codes[0], scan_id: id, gate: 'Main' }, w.users.door.auth)
    expect(reused.status).toBe(409)
    expect(reused.body.message).toBe(DOOR_MESSAGES.scanIdReused)
    expect((await admissionsOf(w)).map((a) => a.inside)).toEqual([true])
  })

  it('offline outs and ins sync in scanned_at order, whatever order they are sent in', async () => {
    const w = await fest(FEST, true)
    const s = (when: string, direction: 'IN' | 'OUT'): OfflineScan => ({
      ticket_code: w.codes[0],
      scan_id: randomUUID(),
      gate: 'Side',
      scanned_at: `2026-11-28T${when}+05:30`,
      direction,
    })
    const scans = [s('13:00:00', 'OUT'), s('10:00:00', 'IN'), s('12:00:00', 'IN'), s('11:00:00', 'OUT'), s('10:30:00', 'IN')]
    const synced = await at(ist('2026-11-28T14:00:00')).sync(w.users.door.id, w.eventId, scans)
    if (!synced.ok) throw new Error(synced.refusal)
    expect(synced.value.map((r) => [r.result, 'reentry' in r ? r.reentry : undefined])).toEqual([
      ['CHECKED_OUT', undefined],
      ['CHECKED_IN', undefined],
      ['CHECKED_IN', true],
      ['CHECKED_OUT', undefined],
      ['ALREADY_CHECKED_IN', undefined],
    ])
    expect(await admissionsOf(w)).toEqual([{ day: '2026-11-28', at: ist('2026-11-28T10:00:00'), gate: 'Side', inside: false }])
  })
})
