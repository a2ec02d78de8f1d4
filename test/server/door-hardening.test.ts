// The door, hardened (issue 21 items 1, 6, 7 and 13):
// - an offline scan's time must be believable (issue 36 item 6: not before its ticket was issued, not after the sync
//   plus two minutes; before, a year-1 scan was read back as 2001 and a year-500 scan "won" as earliest); a rewrite
//   of a check-in's time or gate by a sync is audited;
// - the 404 for another event's ticket names that event only when the volunteer may see it (drafts stay unnamed);
// - a repeated scan_id after an undo answers the ticket's state now, not a stale CHECKED_IN;
// - a sync's work is bounded: 100 scans, known or not, are decided in one transaction (the answers as before).
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { DOOR_MESSAGES } from '../../server/routes/outcomes.ts'
import { checkedInOf, doorPost, doorWorld, type DoorWorld } from './door-fixtures.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

describe.each(DB_KINDS)('the door, hardened (%s)', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind })
  }, 60_000)
  afterAll(() => t?.close())

  const scan = (w: DoorWorld, code: string, gate = 'North', scanId: string = randomUUID()) =>
    doorPost(t, 'check-in', { event_id: w.eventId, ticket_code: code, scan_id: scanId, gate }, w.users.door.auth)
  const sync = (w: DoorWorld, scans: { ticket_code: string; scan_id?: string; gate?: string; scanned_at: string }[]) =>
    doorPost(t, 'sync', { event_id: w.eventId, scans: scans.map((s) => ({ scan_id: randomUUID(), gate: 'A', ...s })) }, w.users.door.auth)
  const audits = (w: DoorWorld, action: string) =>
    t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.eventId, w.eventId), eq(schema.auditLog.action, action)))

  it('issue 36 item 6: an offline scan whose time cannot be believed (before its ticket was issued: year 1, the day before; after the sync plus two minutes: three days ahead, year 9000) admits nobody and records nothing', async () => {
    const w = await doorWorld(t)
    // The fixture's tickets were issued on 1 Jan 2026 (COLLECTED_AT).
    for (const scanned_at of [
      '0001-01-01T00:00:00Z',
      '2025-12-31T12:00:00.000Z',
      new Date(Date.now() + 3 * 86_400_000).toISOString(),
      '9000-01-01T00:00:00Z',
    ]) {
      const refused = await sync(w, [{ ticket_code: w.codes[0], scanned_at }])
      expect(refused.body.results[0], scanned_at).toMatchObject({ result: 'EXPIRED_CODE' })
    }
    expect(await checkedInOf(t, w.codes[0])).toEqual({ at: null, gate: null })
    expect(await t.database.db.select().from(schema.doorScans).where(eq(schema.doorScans.ticketCode, w.codes[0]))).toEqual([])
    // A scan after the ticket was issued, and a phone a minute fast, are believed: checked in at their times (now at most).
    const earlier = await sync(w, [{ ticket_code: w.codes[1], scanned_at: '2026-11-24T14:00:00.000Z' }])
    expect(earlier.body.results[0]).toMatchObject({ result: 'CHECKED_IN', checked_in_at: '2026-11-24T14:00:00.000Z' })
    const before = Date.now()
    const fast = await sync(w, [{ ticket_code: w.codes[2], scanned_at: new Date(Date.now() + 60_000).toISOString() }])
    expect(fast.body.results[0].result).toBe('CHECKED_IN')
    expect(Date.parse(fast.body.results[0].checked_in_at)).toBeGreaterThanOrEqual(before - 1000)
    expect(Date.parse(fast.body.results[0].checked_in_at)).toBeLessThanOrEqual(Date.now())
  })

  it('item 6: an earlier offline scan takes over a later scan’s check-in, audited; a scan from the year 500 takes over nothing', async () => {
    const w = await doorWorld(t)
    const real = '2026-11-25T12:40:00.000Z'
    const first = await sync(w, [{ ticket_code: w.codes[0], scanned_at: real, gate: 'A' }])
    expect(first.body.results[0].result).toBe('CHECKED_IN')
    // Issue 36 item 6: a device with a clock set to the year 500 is not believed at all (before, it took the check-in
    // over at the collection's time).
    const bogus = await sync(w, [{ ticket_code: w.codes[0], scanned_at: '0500-06-01T00:00:00Z', gate: 'B' }])
    expect(bogus.body.results[0]).toMatchObject({ result: 'EXPIRED_CODE' })
    expect(await checkedInOf(t, w.codes[0])).toEqual({ at: new Date(real), gate: 'A' })
    expect(await audits(w, 'door.rewrite')).toHaveLength(0)
    // Gate B's real earlier scan (12:35) takes the check-in over, audited.
    const earlier = '2026-11-25T12:35:00.000Z'
    const takeover = await sync(w, [{ ticket_code: w.codes[0], scanned_at: earlier, gate: 'B' }])
    expect(takeover.body.results[0]).toMatchObject({ result: 'CHECKED_IN', checked_in_at: earlier })
    expect(await checkedInOf(t, w.codes[0])).toEqual({ at: new Date(earlier), gate: 'B' })
    const entries = await audits(w, 'door.rewrite')
    expect(entries).toHaveLength(1)
    expect(entries[0].actorId).toBe(w.users.door.id)
    expect(entries[0].before).toMatchObject({ ticket_code: w.codes[0], checked_in_at: real, gate: 'A' })
    expect(entries[0].after).toMatchObject({ ticket_code: w.codes[0], checked_in_at: earlier, gate: 'B' })
    // A scan that does not rewrite (already in, later) adds no entry.
    expect((await sync(w, [{ ticket_code: w.codes[0], scanned_at: real }])).body.results[0].result).toBe('ALREADY_CHECKED_IN')
    expect(await audits(w, 'door.rewrite')).toHaveLength(1)
  })

  it('item 7: another event’s ticket is named only when the volunteer may see that event (a published one, or their own), never a draft', async () => {
    const w = await doorWorld(t)
    const published = await scan(w, w.otherCode)
    expect(published.status).toBe(404)
    expect(published.body).toEqual({
      error: true,
      result: 'UNKNOWN_TICKET',
      message: expect.stringMatching(/^This ticket is for another event: Other \d+\.$/),
      code: 'UNKNOWN_TICKET',
    })
    await t.database.db.update(schema.events).set({ state: 'DRAFT', name: 'Secret unannounced draft' }).where(eq(schema.events.id, w.otherEventId))
    const draft = await scan(w, w.otherCode)
    expect(draft).toEqual({ status: 404, body: { error: true, result: 'UNKNOWN_TICKET', message: DOOR_MESSAGES.unknownTicket, code: 'UNKNOWN_TICKET' } })
    const synced = await sync(w, [{ ticket_code: w.otherCode, scanned_at: new Date().toISOString() }])
    expect(synced.body.results[0].message).toBe(DOOR_MESSAGES.unknownTicket)
    // The organiser of both events' council may see the draft: it is named to them.
    const own = await doorPost(t, 'check-in', { event_id: w.eventId, ticket_code: w.otherCode, scan_id: randomUUID(), gate: 'North' }, w.users.organiser.auth)
    expect(own.body.message).toBe(DOOR_MESSAGES.otherEvent('Secret unannounced draft'))
  })

  it('item 13: a repeated scan_id after an undo answers NOT_CHECKED_IN (a stale CHECKED_IN before), and after a new check-in ALREADY_CHECKED_IN with it', async () => {
    const w = await doorWorld(t)
    const id = randomUUID()
    const first = await scan(w, w.codes[0], 'North', id)
    expect(first.status).toBe(200)
    expect(await scan(w, w.codes[0], 'North', id)).toEqual(first) // the check-in stands: the first answer again
    await doorPost(t, 'check-in/undo', { event_id: w.eventId, ticket_code: w.codes[0] }, w.users.door.auth)
    const replay = await scan(w, w.codes[0], 'North', id)
    expect(replay).toEqual({
      status: 409,
      body: { error: true, result: 'NOT_CHECKED_IN', message: DOOR_MESSAGES.undoneScan, code: 'NOT_CHECKED_IN', attendee: first.body.attendee },
    })
    expect((await checkedInOf(t, w.codes[0])).at).toBeNull() // the replay did not check the ticket in again
    const synced = await sync(w, [{ ticket_code: w.codes[0], scan_id: id, scanned_at: new Date().toISOString() }])
    expect(synced.body.results[0]).toMatchObject({ result: 'NOT_CHECKED_IN', scan_id: id })
    // Scanned again (a new scan): in at South. The old scan_id now hears of that check-in.
    const again = await scan(w, w.codes[0], 'South')
    expect(again.status).toBe(200)
    const later = await scan(w, w.codes[0], 'North', id)
    expect(later.status).toBe(409)
    expect(later.body).toMatchObject({ result: 'ALREADY_CHECKED_IN', gate: 'South', checked_in_at: again.body.checked_in_at })
  })

  it('item 1: a sync of 100 scans (a few tickets, repeated ids, codes of no ticket) is answered as each scan would be, in the order sent', async () => {
    const w = await doorWorld(t, { holders: 3 })
    const at = (s: number) => new Date(Date.parse('2026-11-25T12:00:00Z') + s * 1000).toISOString()
    const repeated = randomUUID()
    const scans = Array.from({ length: 100 }, (_, i) => {
      const scan_id = randomUUID()
      if (i === 10) return { ticket_code: w.codes[0], scan_id: repeated, scanned_at: at(50), gate: 'A' }
      if (i === 20) return { ticket_code: w.codes[0], scan_id: repeated, scanned_at: at(50), gate: 'A' } // the same scan sent twice
      if (i === 30) return { ticket_code: w.codes[0], scan_id, scanned_at: at(40), gate: 'B' } // earlier: it wins
      if (i === 40) return { ticket_code: w.codes[1], scan_id, scanned_at: at(60), gate: 'C' }
      if (i === 50) return { ticket_code: w.otherCode, scan_id, scanned_at: at(1) }
      return { ticket_code: `NOPE${i}`, scan_id, scanned_at: at(i) }
    })
    const res = await sync(w, scans)
    expect(res.status).toBe(200)
    const results = res.body.results
    expect(results).toHaveLength(100)
    expect(results.map((r: { scan_id: string }) => r.scan_id)).toEqual(scans.map((s) => s.scan_id))
    expect(results[30]).toMatchObject({ result: 'CHECKED_IN', checked_in_at: at(40) })
    expect(results[10]).toMatchObject({ result: 'ALREADY_CHECKED_IN', gate: 'B', checked_in_at: at(40) })
    expect(results[20]).toEqual(results[10])
    expect(results[40]).toMatchObject({ result: 'CHECKED_IN', checked_in_at: at(60) })
    expect(results[50].message).toMatch(/^This ticket is for another event/)
    expect(results.filter((r: { result: string }) => r.result === 'UNKNOWN_TICKET')).toHaveLength(96)
    expect(await checkedInOf(t, w.codes[0])).toEqual({ at: new Date(at(40)), gate: 'B' })
    // Codes of no ticket record nothing; the three scans of tickets are recorded with their answers.
    const stored = await t.database.db.select().from(schema.doorScans).where(eq(schema.doorScans.eventId, w.eventId))
    expect(stored.map((s) => (s.answer as { result: string }).result).sort()).toEqual(['ALREADY_CHECKED_IN', 'CHECKED_IN', 'CHECKED_IN'])
  })
})
