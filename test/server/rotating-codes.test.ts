// A code that changes every 30 s (issue 25 item 1) through the real routes, on every database kind: each ticket's
// secret (made with every new code, whichever path sets it; a transfer gives a new one), sent with the ticket and
// with the door's list; the door's check live (the server's clock: the current step and one either side, never
// two, a bare code or a wrong time code) and at sync (against each scan's scanned_at); rotation off (printed
// tickets) accepts the plain code; gates racing on one rotating code on PostgreSQL too (exactly one CHECKED_IN).
import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { STEP_MS, stepOf, timeCode, withTimeCode } from '../../contract/time-code.ts'
import { EXPIRED_CODE_MESSAGE } from '../../contract/time-code-check.ts'
import { schema } from '../../server/db/index.ts'
import { DOOR_MESSAGES } from '../../server/routes/outcomes.ts'
import { doorPost, doorWorld, scannedText, type DoorWorld } from './door-fixtures.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'
import { post } from './teams-fixtures.ts'

const EXPIRED = { error: true, message: EXPIRED_CODE_MESSAGE, code: 'EXPIRED_CODE', result: 'EXPIRED_CODE' }

describe.each(DB_KINDS)('rotating codes on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind, app: { aroundIntervalMs: false } })
  }, 60_000)
  afterAll(() => t?.close())
  afterEach(() => vi.useRealTimers())

  /** The server's clock (Date only: timers stay real) fixed at `ms`: the step a live scan is checked in is known. */
  const clockAt = (ms: number) => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(ms)
  }
  /** The middle of the step now is in, so that a scan made "now" is nowhere near a step's edge. */
  const midStep = () => stepOf(Date.now()) * STEP_MS + STEP_MS / 2

  const scan = (w: DoorWorld, text: string, scanId: string = randomUUID()) =>
    doorPost(t, 'check-in', { event_id: w.eventId, ticket_code: text, scan_id: scanId, gate: 'North' }, w.users.door.auth)
  const secretOf = async (code: string) => {
    const [p] = await t.database.db
      .select({ secret: schema.participants.ticketSecret })
      .from(schema.participants)
      .where(eq(schema.participants.ticketCode, code))
    return p?.secret ?? null
  }
  const scansOf = async (w: DoorWorld) => t.database.db.select().from(schema.doorScans).where(eq(schema.doorScans.eventId, w.eventId))

  it('every ticket code gets its own secret, whichever path sets it; no code, no secret', async () => {
    const w = await doorWorld(t, { state: 'TICKET_OPEN', rotating: true })
    const secrets = await Promise.all(w.codes.map(secretOf))
    for (const s of secrets) expect(s).toMatch(/^[0-9a-f]{40}$/)
    expect(new Set(secrets).size).toBe(secrets.length)
    // The claim's SQL function (claim_tickets), as a registered student claims through the route.
    const claimed = await post(t, 'claim-ticket', { event_id: w.eventId }, w.registered.auth)
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200)
    expect(await secretOf(claimed.body.ticket_code)).toMatch(/^[0-9a-f]{40}$/)
    // A code set by SQL as fair_draw() and the waitlist's offer set it: a new secret; a code taken away: none.
    const db = t.database.db
    const before = await secretOf(w.codes[1])
    await db.execute(sql`UPDATE participants SET ticket_code = ${`R${w.codes[1]}`} WHERE ticket_code = ${w.codes[1]}`)
    const after = await secretOf(`R${w.codes[1]}`)
    expect(after).toMatch(/^[0-9a-f]{40}$/)
    expect(after).not.toBe(before)
    await db.execute(sql`UPDATE participants SET ticket_collected = false, ticket_code = NULL WHERE ticket_code = ${`R${w.codes[1]}`}`)
    const r = (await db.execute(
      sql`SELECT count(*)::int AS n FROM participants WHERE event_id = ${w.eventId} AND ticket_secret IS NOT NULL AND ticket_code IS NULL`,
    )) as any
    expect(Number((r.rows ?? r)[0].n)).toBe(0)
    // The database itself refuses a code without a secret.
    await expect(db.execute(sql`UPDATE participants SET ticket_secret = NULL WHERE ticket_code = ${w.codes[2]}`)).rejects.toThrow()
  })

  it('the holder gets the secret with the ticket (null when rotation is off), and the server’s time to set the phone’s clock by', async () => {
    const w = await doorWorld(t, { rotating: true })
    const now = midStep()
    clockAt(now)
    const detail = await post(t, `get/${w.eventId}`, {}, w.people[0].auth)
    expect(detail.status).toBe(200)
    expect(detail.body.event.Participant.ticket_secret).toBe(await secretOf(w.codes[0]))
    expect(detail.body.event.server_time).toBe(new Date(now).toISOString())
    const list = await doorPost(t, 'tickets', { event_id: w.eventId }, w.users.door.auth)
    expect(list.body.rotating_codes).toBe(true)
    expect(list.body.tickets.map((x: { secret: string }) => x.secret)).toEqual(await Promise.all(w.codes.map(secretOf)))
    await t.database.db.update(schema.events).set({ rotatingCodes: false }).where(eq(schema.events.id, w.eventId))
    expect((await post(t, `get/${w.eventId}`, {}, w.people[0].auth)).body.event.Participant.ticket_secret).toBeNull()
    const off = await doorPost(t, 'tickets', { event_id: w.eventId }, w.users.door.auth)
    expect(off.body.rotating_codes).toBe(false)
    expect(off.body.tickets.every((x: { secret: unknown }) => x.secret === null)).toBe(true)
  })

  it('online: the current step and one either side pass; two steps old, a bare code and a wrong time code are EXPIRED_CODE (410), recording nothing', async () => {
    const w = await doorWorld(t, { rotating: true, holders: 6 })
    const now = midStep()
    clockAt(now)
    const current = await scan(w, await scannedText(t, w.codes[0], now))
    expect(current.status, JSON.stringify(current.body)).toBe(200)
    expect(current.body.result).toBe('CHECKED_IN')
    expect((await scan(w, await scannedText(t, w.codes[1], now, -1))).status).toBe(200)
    expect((await scan(w, await scannedText(t, w.codes[2], now, +1))).status).toBe(200)
    const recorded = (await scansOf(w)).length
    for (const text of [
      await scannedText(t, w.codes[3], now, -2), // a screenshot over a minute old
      await scannedText(t, w.codes[3], now, +2),
      w.codes[3], // bare: typed, or a picture from before rotation
      withTimeCode(w.codes[3], String((Number((await scannedText(t, w.codes[3], now)).slice(-6)) + 1) % 1e6).padStart(6, '0')), // wrong
    ]) {
      const refused = await scan(w, text)
      expect(refused.status, text).toBe(410)
      expect(refused.body).toEqual(EXPIRED)
    }
    expect(DOOR_MESSAGES.expiredCode).toBe('This code has expired: ask the student to open the ticket in the app')
    expect((await scansOf(w)).length).toBe(recorded)
    const [row] = await t.database.db.select().from(schema.participants).where(eq(schema.participants.ticketCode, w.codes[3]))
    expect(row.checkedInAt).toBeNull()
    // Another ticket's time code on this one is wrong too; a time code on a code of no ticket is simply unknown.
    const foreign = withTimeCode(w.codes[4], (await scannedText(t, w.codes[5], now)).slice(-6))
    if (foreign !== (await scannedText(t, w.codes[4], now))) expect((await scan(w, foreign)).status).toBe(410)
    const unknown = await scan(w, withTimeCode('0000000000000000', '123456'))
    expect(unknown.status).toBe(404)
    expect(unknown.body.result).toBe('UNKNOWN_TICKET')
  })

  it('a scan_id retried after its answer was lost gets its first answer, however many steps later', async () => {
    const w = await doorWorld(t, { rotating: true })
    const now = midStep()
    clockAt(now)
    const text = await scannedText(t, w.codes[0], now)
    const scanId = randomUUID()
    const first = await scan(w, text, scanId)
    expect(first.status).toBe(200)
    clockAt(now + 5 * 60_000)
    const again = await scan(w, text, scanId)
    expect(again).toEqual(first)
    // A new scan of that picture now is refused.
    expect((await scan(w, text)).status).toBe(410)
  })

  it('rotation off (printed tickets): the plain code passes, and a time part, if any, is not looked at', async () => {
    const w = await doorWorld(t, { rotating: false })
    expect((await scan(w, w.codes[0])).status).toBe(200)
    expect((await scan(w, withTimeCode(w.codes[1], '000000'))).status).toBe(200)
    expect((await scan(w, withTimeCode(w.codes[0], '000000'))).body.result).toBe('ALREADY_CHECKED_IN')
  })

  it('sync: each time code is checked against its scan’s scanned_at; refused ones are EXPIRED_CODE in place, the rest decided as before', async () => {
    const w = await doorWorld(t, { rotating: true, holders: 4 })
    const at = Date.now() - 60 * 60_000 // scanned offline an hour ago
    const scannedAt = new Date(at).toISOString()
    const scans = [
      { ticket_code: await scannedText(t, w.codes[0], at), scan_id: randomUUID(), gate: 'East', scanned_at: scannedAt },
      { ticket_code: await scannedText(t, w.codes[1], at, -2), scan_id: randomUUID(), gate: 'East', scanned_at: scannedAt },
      { ticket_code: w.codes[2], scan_id: randomUUID(), gate: 'East', scanned_at: scannedAt },
      { ticket_code: await scannedText(t, w.codes[3], at, 1), scan_id: randomUUID(), gate: 'East', scanned_at: scannedAt },
      // The same picture scanned now, an hour later: its time code is an hour old.
      { ticket_code: await scannedText(t, w.codes[1], at), scan_id: randomUUID(), gate: 'East', scanned_at: new Date().toISOString() },
    ]
    const res = await doorPost(t, 'sync', { event_id: w.eventId, scans }, w.users.door.auth)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.results.map((r: { result: string }) => r.result)).toEqual(['CHECKED_IN', 'EXPIRED_CODE', 'EXPIRED_CODE', 'CHECKED_IN', 'EXPIRED_CODE'])
    expect(res.body.results[1]).toEqual({ ...EXPIRED, scan_id: scans[1].scan_id })
    expect(res.body.results[0].checked_in_at).toBe(scannedAt)
    const recorded = await scansOf(w)
    expect(recorded.map((r) => r.ticketCode).sort()).toEqual([w.codes[0], w.codes[3]].sort())
    // Sent again (the device never heard): the same answers.
    const again = await doorPost(t, 'sync', { event_id: w.eventId, scans }, w.users.door.auth)
    expect(again.body.results.map((r: { result: string }) => r.result)).toEqual(res.body.results.map((r: { result: string }) => r.result))
  })

  it('a transfer gives the friend a new code and secret: the old time code stops working, the friend’s passes; audited', async () => {
    const w = await doorWorld(t, { state: 'TICKET_OPEN', rotating: true })
    const [holder] = w.people
    const oldSecret = await secretOf(w.codes[0])
    const now = midStep()
    const oldText = await scannedText(t, w.codes[0], now)
    const [{ email }] = await t.database.db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, w.registered.id))
    expect((await post(t, 'transfer-ticket', { event_id: w.eventId, email }, holder.auth)).status).toBe(200)
    const [friend] = await t.database.db
      .select()
      .from(schema.participants)
      .where(and(eq(schema.participants.eventId, w.eventId), eq(schema.participants.userId, w.registered.id)))
    expect(friend.ticketSecret).toMatch(/^[0-9a-f]{40}$/)
    expect(friend.ticketSecret).not.toBe(oldSecret)
    clockAt(now)
    const old = await scan(w, oldText)
    expect(old.status).toBe(404)
    expect(old.body.result).toBe('TRANSFERRED')
    // The old secret's time code on the friend's new code: wrong.
    expect(await scan(w, withTimeCode(friend.ticketCode!, await timeCode(oldSecret!, stepOf(now))))).toMatchObject({ status: 410, body: EXPIRED })
    expect((await scan(w, await scannedText(t, friend.ticketCode!, now))).status).toBe(200)
    const [entry] = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.eventId, w.eventId), eq(schema.auditLog.action, 'ticket.transfer')))
    expect(entry.after).toMatchObject({ holder: w.registered.id, secret: 'new' })
  })

  it('20 gates scanning one rotating code at once: exactly one CHECKED_IN', async () => {
    const w = await doorWorld(t, { rotating: true })
    const now = midStep()
    clockAt(now)
    const text = await scannedText(t, w.codes[0], now)
    const answers = await Promise.all(Array.from({ length: 20 }, () => scan(w, text)))
    expect(answers.filter((a) => a.body.result === 'CHECKED_IN')).toHaveLength(1)
    expect(answers.filter((a) => a.body.result === 'ALREADY_CHECKED_IN')).toHaveLength(19)
  })

  it('the organiser turns rotation off and on with the event’s save (default on); a bad value is a 400 naming the field', async () => {
    const w = await doorWorld(t)
    const save = (body: unknown) =>
      t.app
        .inject({
          method: 'POST',
          url: '/api/v1/org/p/event/save',
          headers: { 'content-type': 'application/json', ...w.users.organiser.auth },
          payload: JSON.stringify(body),
        })
        .then((r) => ({ status: r.statusCode, body: r.json() }))
    expect((await save({ id: w.eventId, rotating_codes: true })).body.event.rotating_codes).toBe(true)
    expect((await save({ id: w.eventId, venue: 'Hall 2' })).body.event.rotating_codes).toBe(true)
    expect((await save({ id: w.eventId, rotating_codes: false })).body.event.rotating_codes).toBe(false)
    const bad = await save({ id: w.eventId, rotating_codes: 'yes' })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe('rotating_codes must be true or false')
  })
})
