// A fair opening (issue 24, API.md Part 3), through the real routes on every database kind: the window's entry
// (IN_DRAW, once however many taps), the draw (tickets to the first keys, the rest on the waitlist in key order, the
// seed published and every key recomputable from it), first come, first served after it, a claim arriving between
// draw_at and the draw, window 0 exactly as before, the console's and the import's fair_start; and on PostgreSQL,
// two instances racing to draw one event (exactly one draw) and an instance started after draw_at catching up.
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import { importCatalogue } from '../../server/db/events/catalogue.ts'
import { claimsRepository } from '../../server/db/tickets/claims.ts'
import { loadConfig } from '../../server/config.ts'
import { openDatabase, schema } from '../../server/db/index.ts'
import { rowsOf } from '../../server/db/outcomes.ts'
import { RATE_LIMITS, TOO_MANY } from '../../server/plugins/rate-limit.ts'
import { MESSAGES, ORG_MESSAGES } from '../../server/routes/outcomes.ts'
import { DB_KINDS, testApp, testDatabase, type TestApp } from './helpers.ts'
import { post } from './teams-fixtures.ts'

type Student = Awaited<ReturnType<TestApp['student']>>

/** The draw nonce each test student's app sends (API.md Part 3): 32 hex digits, fixed per student here. */
const nonceOf = (userId: number) => createHash('sha256').update(`nonce ${userId}`).digest('hex').slice(0, 32)
/** A draw key as API.md Part 3 defines it since round four: HMAC-SHA256(seed, `<user id>:<nonce>`). */
const key = (seed: string, userId: number) =>
  createHmac('sha256', seed)
    .update(`${userId}:${nonceOf(userId)}`)
    .digest('hex')
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex')

let serial = 0

/** A ticketed individual event in REGISTRATION_OPEN with a draw window, and `n` registered students. */
async function fairEvent(t: TestApp, options: { tickets: number; students: number; window?: number }) {
  serial += 1
  const db = t.database.db
  const [council] = await db
    .insert(schema.councils)
    .values({ slug: `fair-${serial}-${randomBytes(3).toString('hex')}`, name: `Fair council ${serial}` })
    .returning({ id: schema.councils.id })
  const window = options.window ?? 60
  const [event] = await db
    .insert(schema.events)
    .values({
      slug: `fair-${serial}-${randomBytes(4).toString('hex')}`,
      name: `Fair event ${serial}`,
      organizerId: council.id,
      state: 'REGISTRATION_OPEN',
      isTicketFeatureEnabled: true,
      ticketCount: options.tickets,
      fairWindowSeconds: window,
      fairSeed: window > 0 ? randomBytes(32).toString('hex') : null,
      dates: ['2026-12-01T18:00:00+05:30'],
    })
    .returning({ id: schema.events.id })
  const students: Student[] = []
  for (let i = 0; i < options.students; i++) students.push(await t.student())
  if (students.length) await db.insert(schema.participants).values(students.map((s) => ({ eventId: event.id, userId: s.id })))
  return { eventId: event.id, councilId: council.id, students }
}

async function open(t: TestApp, eventId: number) {
  await t.database.db.update(schema.events).set({ state: 'TICKET_OPEN' }).where(eq(schema.events.id, eventId))
}

/** Moves the draw's time into the past (as if the window had passed). */
async function windowPassed(t: TestApp, eventId: number) {
  await t.database.db.execute(sql`UPDATE events SET fair_draw_at = now() - interval '1 second' WHERE id = ${eventId}`)
}

async function eventRow(t: TestApp, eventId: number) {
  const [e] = await t.database.db.select().from(schema.events).where(eq(schema.events.id, eventId))
  return e!
}

async function holders(t: TestApp, eventId: number): Promise<number[]> {
  const rows = await t.database.db
    .select({ userId: schema.participants.userId })
    .from(schema.participants)
    .where(and(eq(schema.participants.eventId, eventId), eq(schema.participants.ticketCollected, true)))
  return rows.map((r) => r.userId).sort((a, b) => a - b)
}

async function waitlistOrder(t: TestApp, eventId: number): Promise<number[]> {
  return rowsOf(await t.database.db.execute(sql`SELECT user_id FROM waitlist WHERE event_id = ${eventId} ORDER BY id`)).map((r) =>
    Number((r as { user_id: number }).user_id),
  )
}

describe.each(DB_KINDS)('a fair opening on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind, app: { scheduler: false, aroundIntervalMs: false } })
  }, 60_000)
  afterAll(() => t.close())

  const claim = (eventId: number, s: Student) => post(t, 'claim-ticket', { event_id: eventId, draw_nonce: nonceOf(s.id) }, s.auth)
  const detail = async (eventId: number, s: Student) => (await post(t, `get/${eventId}`, {}, s.auth)).body.event

  it('window 0 is first come, first served exactly as before: a ticket at once, no fair_start, no entrants', async () => {
    const { eventId, students } = await fairEvent(t, { tickets: 1, students: 2, window: 0 })
    await open(t, eventId)
    const first = await claim(eventId, students[0])
    expect(first.status).toBe(200)
    expect(first.body).toEqual({ error: false, result: 'CLAIMED', message: MESSAGES.ticketClaimed, ticket_code: expect.stringMatching(/^\d{16}$/) })
    expect(await claim(eventId, students[1])).toMatchObject({ status: 409, body: { error: true, message: MESSAGES.soldOut, code: 'SOLD_OUT' } })
    expect(await claim(eventId, students[0])).toMatchObject({
      status: 409,
      body: { error: true, message: MESSAGES.alreadyHasTicket, code: 'ALREADY_HAS_TICKET' },
    })
    const e = await detail(eventId, students[0])
    expect(e.fair_start).toBeNull()
    expect(e.Participant.draw).toBeNull()
    expect((await eventRow(t, eventId)).fairDrawAt).toBeNull()
  })

  it('in the window a claim enters the draw: IN_DRAW with draw_at, once however many taps, nothing sold', async () => {
    const { eventId, students } = await fairEvent(t, { tickets: 2, students: 3 })
    const before = await detail(eventId, students[0])
    expect(before.fair_start).toEqual({
      window_seconds: 60,
      draw_at: null,
      seed_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      seed: null,
      entrants: null,
      keys: [],
    })
    await open(t, eventId)
    const row = await eventRow(t, eventId)
    expect(row.fairDrawAt).not.toBeNull()
    const drawAt = row.fairDrawAt!.toISOString()
    const answer = await claim(eventId, students[0])
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ error: false, result: 'IN_DRAW', draw_at: drawAt, message: MESSAGES.inDraw(drawAt) })
    expect(answer.body.message).toMatch(/^You are in the draw\. Results at \d{1,2}:\d{2} (AM|PM)\.$/)
    // A second tap, and ten at once: the same answer, one entry.
    const again = await Promise.all(Array.from({ length: 10 }, () => claim(eventId, students[0])))
    for (const a of again) expect(a.body).toEqual(answer.body)
    const entries = rowsOf(await t.database.db.execute(sql`SELECT count(*)::int AS n FROM fair_entrants WHERE event_id = ${eventId}`))
    expect(Number((entries[0] as { n: number }).n)).toBe(1)
    // The entry keeps the student's draw key (migration 0013), the same HMAC the draw publishes.
    const [stored] = rowsOf(await t.database.db.execute(sql`SELECT key FROM fair_entrants WHERE event_id = ${eventId}`)) as { key: string }[]
    expect(stored.key).toBe(key(row.fairSeed!, students[0].id))
    expect((await eventRow(t, eventId)).ticketsSold).toBe(0)
    const e = await detail(eventId, students[0])
    expect(e.fair_start).toMatchObject({ window_seconds: 60, draw_at: drawAt, seed: null, entrants: null, keys: [] })
    expect(e.fair_start.seed_hash).toBe(sha256(row.fairSeed!))
    expect(e.Participant).toMatchObject({ ticket_collected: false, ticket_code: null, draw: { result: 'PENDING', position: null } })
    expect(Date.parse(e.Participant.draw.entered_at)).not.toBeNaN()
    expect((await detail(eventId, students[1])).Participant.draw).toBeNull()
    // The list carries fair_start too, without keys.
    const list = (await post(t, 'get', {}, students[0].auth)).body.events.TICKET_OPEN.find((x: { id: number }) => x.id === eventId)
    expect(list.fair_start).toMatchObject({ window_seconds: 60, draw_at: drawAt, keys: [] })
  })

  it('refuses in the window whom it refused before: not registered, unknown event', async () => {
    const { eventId } = await fairEvent(t, { tickets: 2, students: 0 })
    await open(t, eventId)
    const stranger = await t.student()
    expect(await claim(eventId, stranger)).toMatchObject({ status: 403, body: { error: true, message: MESSAGES.notRegistered, code: 'NOT_REGISTERED' } })
    expect(await claim(2147483647, stranger)).toMatchObject({ status: 404, body: { error: true, message: MESSAGES.eventNotFound, code: 'EVENT_NOT_FOUND' } })
    expect(rowsOf(await t.database.db.execute(sql`SELECT 1 FROM fair_entrants WHERE event_id = ${eventId}`))).toHaveLength(0)
  })

  it('the draw: the first keys get the tickets, the rest join the waitlist in key order; seed and keys published and recomputable', async () => {
    const { eventId, students } = await fairEvent(t, { tickets: 3, students: 9 })
    await open(t, eventId)
    const entrants = students.slice(0, 8) // the ninth never taps
    for (const s of entrants) expect((await claim(eventId, s)).body.result).toBe('IN_DRAW')
    await t.app.schedulerTick() // not due yet: nothing happens
    expect((await eventRow(t, eventId)).fairDrawnAt).toBeNull()
    const drawsBefore = (await t.app.metrics.draws.get()).values[0]?.value ?? 0
    await windowPassed(t, eventId)
    await t.app.schedulerTick()
    await t.app.schedulerTick() // a second tick draws nothing more

    const row = await eventRow(t, eventId)
    const order = [...entrants].sort((a, b) => (key(row.fairSeed!, a.id) < key(row.fairSeed!, b.id) ? -1 : 1))
    expect(await holders(t, eventId)).toEqual(
      order
        .slice(0, 3)
        .map((s) => s.id)
        .sort((a, b) => a - b),
    )
    expect(await waitlistOrder(t, eventId)).toEqual(order.slice(3).map((s) => s.id))
    expect(row.ticketsSold).toBe(3)
    expect(row.fairEntrantCount).toBe(8)
    expect((await t.app.metrics.draws.get()).values[0]?.value).toBe(drawsBefore + 1)

    // What a student sees, and can check: the seed hashes to the commitment, every key recomputes, sorted. The
    // keys come only when asked for ({keys: true}: the draw page); the event page's fetch carries none.
    const e = (await post(t, `get/${eventId}`, { keys: true }, order[0].auth)).body.event
    expect(e.fair_start.seed).toBe(row.fairSeed)
    expect(sha256(e.fair_start.seed)).toBe(e.fair_start.seed_hash)
    expect(e.fair_start.entrants).toBe(8)
    expect(e.fair_start.keys).toEqual(entrants.map((s) => key(e.fair_start.seed, s.id)).sort())
    const plain = await detail(eventId, order[0])
    expect(plain.fair_start).toEqual({ ...e.fair_start, keys: [] })
    expect(plain.Participant.draw).toEqual(e.Participant.draw)
    expect((await post(t, `get/${eventId}`, { keys: 'yes' }, order[0].auth)).body).toEqual({
      error: true,
      message: 'keys must be true or false',
      code: 'INVALID_INPUT',
    })
    expect(JSON.stringify(e.fair_start)).not.toMatch(new RegExp(`"${order[0].id}"|Student`)) // no ids, no names
    expect(e.Participant).toMatchObject({ ticket_collected: true, draw: { result: 'WON', position: 1 } })
    const fourth = await detail(eventId, order[3])
    expect(fourth.Participant).toMatchObject({ ticket_collected: false, draw: { result: 'WAITLISTED', position: 4 }, waitlist: { position: 1 } })
    expect((await detail(eventId, order[7])).Participant.waitlist.position).toBe(5)
    expect((await detail(eventId, students[8])).Participant.draw).toBeNull()

    // The audit log has the draw once, with the seed it committed to.
    const audit = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.eventId, eventId), eq(schema.auditLog.action, 'event.draw')))
    expect(audit).toHaveLength(1)
    expect(audit[0].before).toMatchObject({ seed_hash: sha256(row.fairSeed!) })
    expect(audit[0].after).toMatchObject({ seed: row.fairSeed, entrants: 8, winners: 3, waitlisted: 5 })

    // After the draw: first come, first served for whatever is left (nothing here), and the waitlist works on.
    expect(await claim(eventId, students[8])).toMatchObject({ status: 409, body: { message: MESSAGES.soldOut } })
    expect(await claim(eventId, order[0])).toMatchObject({ status: 409, body: { message: MESSAGES.alreadyHasTicket } })
    expect((await post(t, 'release-ticket', { event_id: eventId }, order[0].auth)).status).toBe(200)
    const offered = rowsOf(await t.database.db.execute(sql`SELECT user_id FROM waitlist WHERE event_id = ${eventId} AND offered_at IS NOT NULL`))
    expect(offered.map((r) => Number((r as { user_id: number }).user_id))).toEqual([order[3].id])
    expect((await claim(eventId, order[3])).body.result).toBe('CLAIMED')
  })

  it('fewer entrants than tickets: all win, the rest is first come, first served; a claim after draw_at runs the draw first', async () => {
    const { eventId, students } = await fairEvent(t, { tickets: 3, students: 4 })
    await open(t, eventId)
    await claim(eventId, students[0])
    await windowPassed(t, eventId)
    // No tick yet: the late claim waits for the draw, then claims one of the places left.
    const late = await claim(eventId, students[1])
    expect(late.body).toMatchObject({ error: false, result: 'CLAIMED', ticket_code: expect.stringMatching(/^\d{16}$/) })
    expect(await holders(t, eventId)).toEqual([students[0].id, students[1].id].sort((a, b) => a - b))
    expect((await detail(eventId, students[0])).Participant.draw).toMatchObject({ result: 'WON', position: 1 })
    expect((await claim(eventId, students[2])).body.result).toBe('CLAIMED')
    expect(await claim(eventId, students[3])).toMatchObject({ status: 409, body: { message: MESSAGES.soldOut } })
    await t.app.schedulerTick()
    const draws = rowsOf(await t.database.db.execute(sql`SELECT entrants, winners FROM fair_draws WHERE event_id = ${eventId}`))
    expect(draws).toEqual([{ entrants: 1, winners: 1 }])
    const e = await eventRow(t, eventId)
    expect(e.ticketsSold).toBe(3)
  })

  it('a claim after draw_at whose draw still has not run after three runs is refused drawRunning, with a retry after 1 s; nothing sold', async () => {
    const { eventId, students } = await fairEvent(t, { tickets: 2, students: 2 })
    await open(t, eventId)
    await claim(eventId, students[0])
    await windowPassed(t, eventId)
    // The claims repository as the app builds it, given a draw that never gets made (another instance's, stuck).
    let runs = 0
    const stuck = claimsRepository(t.database.db, async () => void runs++)
    expect(await stuck.claim(students[1].id, eventId)).toEqual({ ok: false, refusal: 'drawRunning', retryAfter: 1 })
    expect(runs).toBe(3)
    expect(await holders(t, eventId)).toEqual([])
    // Once the draw runs, the same claim gets a place that is left.
    const drawing = claimsRepository(t.database.db, (id) => t.app.fairDraws.drawNow(id))
    expect(await drawing.claim(students[1].id, eventId)).toMatchObject({ ok: true, value: { kind: 'ticket' } })
    expect(await holders(t, eventId)).toEqual([students[0].id, students[1].id].sort((a, b) => a - b))
  })

  it('the draw checks again what a claim checks: an entrant who left, or whose team fell below min_ppt, neither wins nor waits', async () => {
    const { eventId, students } = await fairEvent(t, { tickets: 1, students: 5 })
    const db = t.database.db
    await db.update(schema.events).set({ minPpt: 2, maPpt: 3 }).where(eq(schema.events.id, eventId))
    const team = async (name: string, members: Student[]) => {
      const [row] = await db
        .insert(schema.teams)
        .values({ eventId, name, inviteCode: `${name}-${eventId}`, leaderId: members[0].id })
        .returning({ id: schema.teams.id })
      for (const m of members)
        await db
          .update(schema.participants)
          .set({ teamId: row.id })
          .where(and(eq(schema.participants.eventId, eventId), eq(schema.participants.userId, m.id)))
    }
    const [a1, a2, b1, b2, leaver] = students
    await team('full', [a1, a2])
    await team('shrinks', [b1, b2])
    await open(t, eventId)
    for (const s of students) expect((await claim(eventId, s)).body.result).toBe('IN_DRAW')
    // Between entry and draw: b2 leaves (team 'shrinks' is now 1 of min 2), and `leaver` (no team) unregisters.
    await db.delete(schema.participants).where(and(eq(schema.participants.eventId, eventId), eq(schema.participants.userId, b2.id)))
    await db.delete(schema.participants).where(and(eq(schema.participants.eventId, eventId), eq(schema.participants.userId, leaver.id)))
    await windowPassed(t, eventId)
    await t.app.schedulerTick()

    const row = await eventRow(t, eventId)
    const eligible = [a1, a2].sort((x, y) => (key(row.fairSeed!, x.id) < key(row.fairSeed!, y.id) ? -1 : 1))
    expect(await holders(t, eventId)).toEqual([eligible[0].id])
    expect(await waitlistOrder(t, eventId)).toEqual([eligible[1].id])
    expect(row.ticketsSold).toBe(1)
    const [draw] = rowsOf(await db.execute(sql`SELECT entrants, winners, waitlisted FROM fair_draws WHERE event_id = ${eventId}`))
    expect(draw).toEqual({ entrants: 5, winners: 1, waitlisted: 1 }) // every entry stays in the published list
    expect((await detail(eventId, b1)).Participant).toMatchObject({ ticket_collected: false, waitlist: null })
  })

  it('the published keys name nobody (issue 36 item 4): HMAC(seed, id) over every user id matches none; each entrant’s own key is HMAC(seed, id:nonce)', async () => {
    const { eventId, students } = await fairEvent(t, { tickets: 2, students: 6 })
    await open(t, eventId)
    for (const s of students) expect((await claim(eventId, s)).body.result).toBe('IN_DRAW')
    await windowPassed(t, eventId)
    await t.app.schedulerTick()
    const e = (await post(t, `get/${eventId}`, { keys: true }, students[0].auth)).body.event
    const published = new Set<string>(e.fair_start.keys)
    expect(published.size).toBe(6)
    // The red team's attack: every user id from 1 to past the last one, keyed as before round four.
    const last = Math.max(...students.map((s) => s.id))
    let linked = 0
    for (let id = 1; id <= last + 50; id++) if (published.has(createHmac('sha256', e.fair_start.seed).update(String(id)).digest('hex'))) linked++
    expect(linked).toBe(0)
    // Each student, with their own nonce (shown to them alone), finds their key in the list.
    for (const s of students) {
      const mine = await detail(eventId, s)
      expect(mine.Participant.draw.nonce).toBe(nonceOf(s.id))
      expect(published.has(createHmac('sha256', mine.fair_start.seed).update(`${s.id}:${mine.Participant.draw.nonce}`).digest('hex'))).toBe(true)
    }
  })

  it('the keys have a call of their own (issue 36 item 3): one answer per event, precompressed, a weak ETag and a year’s cache, 304, 404 before the draw', async () => {
    const { eventId, students } = await fairEvent(t, { tickets: 2, students: 5 })
    await open(t, eventId)
    for (const s of students) expect((await claim(eventId, s)).body.result).toBe('IN_DRAW')
    const get = (headers: Record<string, string> = {}, id: number | string = eventId, who = students[0]) =>
      t.app.inject({ method: 'GET', url: `/api/v1/event/p/draw-keys/${id}`, headers: { ...who.auth, ...headers } })
    const before = await get()
    expect(before.statusCode).toBe(404)
    expect(before.json()).toEqual({ error: true, message: MESSAGES.notDrawnYet, code: 'DRAW_NOT_MADE' })
    await windowPassed(t, eventId)
    await t.app.schedulerTick()

    const withKeys = (await post(t, `get/${eventId}`, { keys: true }, students[1].auth)).body.event
    expect(withKeys.fair_start.keys).toEqual(students.map((s) => key(withKeys.fair_start.seed, s.id)).sort())
    const expected = { error: false, keys: withKeys.fair_start.keys }
    const br = await get({ 'accept-encoding': 'gzip, deflate, br' })
    const gz = await get({ 'accept-encoding': 'gzip' })
    const plain = await get()
    expect([br.statusCode, gz.statusCode, plain.statusCode]).toEqual([200, 200, 200])
    expect(br.headers['content-encoding']).toBe('br')
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(expected)
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(expected)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.json()).toEqual(expected)
    for (const res of [br, gz, plain]) {
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(res.headers['cache-control']).toBe('private, max-age=31536000, immutable')
      expect(String(res.headers.vary)).toMatch(/Accept-Encoding/i)
      expect(res.headers.etag).toBe(plain.headers.etag)
    }
    expect(plain.headers.etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/)
    // Another student, later: the very same bytes (made once for the event).
    const again = await get({ 'accept-encoding': 'br' }, eventId, students[4])
    expect(again.rawPayload.equals(br.rawPayload)).toBe(true)
    // The phone's copy, revalidated: 304 without a body.
    const fresh = await get({ 'if-none-match': String(plain.headers.etag), 'accept-encoding': 'br' })
    expect(fresh.statusCode).toBe(304)
    expect(fresh.rawPayload.length).toBe(0)
    expect(fresh.headers.etag).toBe(plain.headers.etag)
    expect((await get({ 'if-none-match': 'W/"something-else"' })).statusCode).toBe(200)
    // The event's own keys: true says the same, from the same answer, in each encoding.
    expect((await post(t, `get/${eventId}`, { keys: true }, students[2].auth)).body.event.fair_start.keys).toEqual(expected.keys)
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/event/p/get/${eventId}`,
        headers: { ...students[2].auth, 'content-type': 'application/json', 'accept-encoding': encoding },
        payload: { keys: true },
      })
      expect(res.headers['content-encoding']).toBe(encoding)
      const event = JSON.parse(decode(res.rawPayload).toString()).event
      expect(event.fair_start.keys).toEqual(expected.keys)
      expect(event).toEqual({ ...(await post(t, `get/${eventId}`, { keys: true }, students[2].auth)).body.event, server_time: event.server_time })
    }
    for (const id of [999_999, 'abc', 0]) expect((await get({}, id)).json()).toEqual({ error: true, message: MESSAGES.eventNotFound, code: 'EVENT_NOT_FOUND' })
    const none = await fairEvent(t, { tickets: 2, students: 1, window: 0 })
    await open(t, none.eventId)
    expect((await get({}, none.eventId)).json()).toEqual({ error: true, message: MESSAGES.notDrawnYet, code: 'DRAW_NOT_MADE' })
  })

  it('a second entry keeps the first nonce; an entry without one gets one from the server; a malformed one is refused, nothing written', async () => {
    const { eventId, students } = await fairEvent(t, { tickets: 2, students: 3 })
    await open(t, eventId)
    const [first, bare, wrong] = students
    expect((await claim(eventId, first)).body.result).toBe('IN_DRAW')
    const again = await post(t, 'claim-ticket', { event_id: eventId, draw_nonce: 'f'.repeat(32) }, first.auth)
    expect(again.body.result).toBe('IN_DRAW')
    expect((await detail(eventId, first)).Participant.draw.nonce).toBe(nonceOf(first.id))
    expect((await post(t, 'claim-ticket', { event_id: eventId }, bare.auth)).body.result).toBe('IN_DRAW')
    const made = (await detail(eventId, bare)).Participant.draw.nonce
    expect(made).toMatch(/^[0-9a-f]{32}$/)
    for (const draw_nonce of ['A'.repeat(32), 'f'.repeat(31), 'f'.repeat(33), 42, 'g'.repeat(32)]) {
      const refused = await post(t, 'claim-ticket', { event_id: eventId, draw_nonce }, wrong.auth)
      expect(refused).toMatchObject({ status: 400, body: { error: true, message: 'draw_nonce must be 32 lowercase hex digits' } })
    }
    expect((await detail(eventId, wrong)).Participant.draw).toBeNull()
  })

  it('shows what the draw did (issue 36 item 8): an entrant made ineligible whose key sorts first is NOT_ELIGIBLE, not WON', async () => {
    const { eventId, students } = await fairEvent(t, { tickets: 1, students: 3 })
    const seed = (await eventRow(t, eventId)).fairSeed!
    const [gone, a, b] = students
    // A nonce that puts the student who will leave first in the key order (before the last winner's key).
    const keyOf = (id: number, nonce: string) => createHmac('sha256', seed).update(`${id}:${nonce}`).digest('hex')
    const others = [keyOf(a.id, nonceOf(a.id)), keyOf(b.id, nonceOf(b.id))]
    let nonce = ''
    for (let i = 0; !nonce || others.some((k) => k <= keyOf(gone.id, nonce)); i++) nonce = createHash('sha256').update(`try ${i}`).digest('hex').slice(0, 32)
    await open(t, eventId)
    expect((await post(t, 'claim-ticket', { event_id: eventId, draw_nonce: nonce }, gone.auth)).body.result).toBe('IN_DRAW')
    for (const s of [a, b]) expect((await claim(eventId, s)).body.result).toBe('IN_DRAW')
    // Between entry and draw, `gone` gets a ticket another way (an organiser's hand, say): no longer eligible.
    await t.database.db.execute(
      sql`UPDATE participants SET ticket_collected = true, ticket_code = '9999000011112222', ticket_collected_at = now() WHERE event_id = ${eventId} AND user_id = ${gone.id}`,
    )
    await t.database.db.execute(sql`UPDATE events SET ticket_count = 2 WHERE id = ${eventId}`)
    await windowPassed(t, eventId)
    await t.app.schedulerTick()
    const results = new Map<number, string>()
    for (const s of students) results.set(s.id, (await detail(eventId, s)).Participant.draw.result)
    expect(results.get(gone.id)).toBe('NOT_ELIGIBLE')
    expect([results.get(a.id), results.get(b.id)].sort()).toEqual(['WAITLISTED', 'WON'])
  })

  it('a push notification tells each entrant with a subscription the result', async () => {
    const { eventId, students } = await fairEvent(t, { tickets: 1, students: 2 })
    for (const [i, s] of students.entries())
      await t.database.db.insert(schema.pushSubscriptions).values({ userId: s.id, endpoint: `https://push.test/${eventId}/${i}`, p256dh: 'k', auth: 'a' })
    await open(t, eventId)
    for (const s of students) await claim(eventId, s)
    await windowPassed(t, eventId)
    await t.app.schedulerTick()
    const rows = rowsOf(await t.database.db.execute(sql`SELECT user_id, title, body FROM push_outbox WHERE tag = ${`draw-${eventId}`} ORDER BY user_id`)) as {
      user_id: number
      title: string
      body: string
    }[]
    expect(rows.map((r) => r.title).sort()).toEqual(['You are on the waitlist', 'You got a ticket'])
    expect(rows.find((r) => r.title === 'You are on the waitlist')!.body).toContain('number 1 on the waitlist')
  })

  it('a move out of TICKET_OPEN before the draw cancels its time; the next opening starts a new window with the entrants kept', async () => {
    const { eventId, students } = await fairEvent(t, { tickets: 1, students: 1 })
    await open(t, eventId)
    await claim(eventId, students[0])
    await t.database.db.update(schema.events).set({ state: 'REGISTRATION_CLOSED' }).where(eq(schema.events.id, eventId))
    expect((await eventRow(t, eventId)).fairDrawAt).toBeNull()
    await open(t, eventId)
    expect((await eventRow(t, eventId)).fairDrawAt).not.toBeNull()
    expect((await detail(eventId, students[0])).Participant.draw.result).toBe('PENDING')
  })

  it('the console: a new ticketed event gets a 60 s window and a seed; 0 turns it off; it cannot change once tickets opened', async () => {
    const organiser = await t.student()
    const [council] = await t.database.db
      .insert(schema.councils)
      .values({ slug: `fair-org-${kind}`, name: 'Fair org' })
      .returning({ id: schema.councils.id })
    await t.database.db.insert(schema.councilOrganizers).values({ councilId: council.id, userId: organiser.id })
    const save = async (body: unknown) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/org/p/event/save', headers: organiser.auth, payload: body as object })
      return { status: res.statusCode, body: res.json() }
    }
    const created = await save({ name: 'Fest', organizer_id: council.id, is_ticket_feature_enabled: true, ticket_count: 10 })
    expect(created.status).toBe(200)
    expect(created.body.event.fair_start).toMatchObject({ window_seconds: 60, draw_at: null, seed: null, keys: [] })
    const seedHash = created.body.event.fair_start.seed_hash
    const plain = await save({ name: 'Talk', organizer_id: council.id })
    expect(plain.body.event.fair_start).toBeNull()
    const id = created.body.event.id
    expect((await save({ id, fair_start: { window_seconds: 90 } })).body.event.fair_start).toMatchObject({ window_seconds: 90, seed_hash: seedHash })
    expect((await save({ id, fair_start: { window_seconds: 3601 } })).body).toEqual({
      error: true,
      message: 'fair_start.window_seconds must be a whole number from 0 to 3600',
      code: 'INVALID_INPUT',
    })
    expect((await save({ id, fair_start: 5 })).status).toBe(400)
    const audit = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.eventId, id), eq(schema.auditLog.action, 'event.create')))
    expect((audit[0].after as { fair_start: { seed_hash: string } }).fair_start.seed_hash).toBe(seedHash)
    await t.database.db.update(schema.events).set({ state: 'TICKET_OPEN' }).where(eq(schema.events.id, id))
    expect(await save({ id, fair_start: { window_seconds: 0 } })).toEqual({
      status: 409,
      body: { error: true, message: ORG_MESSAGES.fairStartLocked, code: 'FAIR_START_LOCKED' },
    })
    expect((await save({ id, fair_start: { window_seconds: 90 }, venue: 'Hall' })).status).toBe(200) // unchanged window: fine
    const off = await save({ name: 'Rush', organizer_id: council.id, is_ticket_feature_enabled: true, fair_start: { window_seconds: 0 } })
    expect(off.body.event.fair_start).toBeNull()
    const orgEvent = async () =>
      (await t.app.inject({ method: 'POST', url: '/api/v1/org/p/events', headers: organiser.auth, payload: {} }))
        .json()
        .events.find((x: { id: number }) => x.id === id)
    expect(await orgEvent()).toMatchObject({ counts: { entrants: 0 }, draw: null })
    // The console sees the draw's result once made (here: nobody entered).
    const entrant = await t.student()
    await t.database.db.insert(schema.participants).values({ eventId: id, userId: entrant.id })
    await t.database.db.update(schema.events).set({ ticketCount: 10 }).where(eq(schema.events.id, id))
    expect((await claim(id, entrant)).body.result).toBe('IN_DRAW')
    expect(await orgEvent()).toMatchObject({ counts: { entrants: 1 }, draw: null })
    await windowPassed(t, id)
    await t.app.schedulerTick()
    expect(await orgEvent()).toMatchObject({ fair_start: { entrants: 1 }, draw: { winners: 1, waitlisted: 0 } })
  })

  it('the import: fair_start read, 60 s for a new ticketed event, the seed kept by a re-import', async () => {
    const file = {
      councils: [{ slug: `imp-${kind}`, name: 'Import council' }],
      events: [
        { slug: `imp-a-${kind}`, name: 'A', dates: ['2026-12-01T18:00:00+05:30'], organizer: `imp-${kind}`, is_ticket_feature_enabled: true, ticket_count: 5 },
        {
          slug: `imp-b-${kind}`,
          name: 'B',
          dates: ['2026-12-01T18:00:00+05:30'],
          organizer: `imp-${kind}`,
          is_ticket_feature_enabled: true,
          fair_start: { window_seconds: 0 },
        },
        { slug: `imp-c-${kind}`, name: 'C', dates: ['2026-12-01T18:00:00+05:30'], organizer: `imp-${kind}`, fair_start: { window_seconds: 30 } },
      ],
    }
    const first = await importCatalogue(t.database.db, file)
    const rows = async () =>
      Object.fromEntries(
        await Promise.all(
          ['a', 'b', 'c'].map(async (x) => {
            const e = await eventRow(t, first.events[`imp-${x}-${kind}`])
            return [x, { window: e.fairWindowSeconds, seed: e.fairSeed }] as const
          }),
        ),
      )
    const once = await rows()
    expect(once.a.window).toBe(60)
    expect(once.a.seed).toMatch(/^[0-9a-f]{64}$/)
    expect(once.b).toEqual({ window: 0, seed: null })
    expect(once.c.window).toBe(30)
    await importCatalogue(t.database.db, file)
    expect(await rows()).toEqual(once)
    await expect(importCatalogue(t.database.db, { ...file, events: [{ ...file.events[0], fair_start: { window_seconds: 4000 } }] })).rejects.toThrow(
      /fair_start\.window_seconds: must be a whole number of seconds from 0 to 3600/,
    )
  })

  it('the import: a new ticketed event imported straight into TICKET_OPEN opens with its window like any other', async () => {
    const base = { dates: ['2026-12-01T18:00:00+05:30'], organizer: `open-${kind}`, state: 'TICKET_OPEN', is_ticket_feature_enabled: true, ticket_count: 5 }
    const file = {
      councils: [{ slug: `open-${kind}`, name: 'Open council' }],
      events: [
        { ...base, slug: `open-a-${kind}`, name: 'Default window' },
        { ...base, slug: `open-b-${kind}`, name: 'Own window', fair_start: { window_seconds: 30 } },
        { ...base, slug: `open-c-${kind}`, name: 'No window', fair_start: { window_seconds: 0 } },
      ],
    }
    const before = Date.now()
    const imported = await importCatalogue(t.database.db, file)
    const a = await eventRow(t, imported.events[`open-a-${kind}`])
    const b = await eventRow(t, imported.events[`open-b-${kind}`])
    const c = await eventRow(t, imported.events[`open-c-${kind}`])
    expect(a.fairWindowSeconds).toBe(60)
    expect(a.fairSeed).toMatch(/^[0-9a-f]{64}$/)
    expect(a.fairDrawAt!.getTime()).toBeGreaterThanOrEqual(before + 60_000 - 2_000) // the import's time + the window
    expect(a.fairDrawAt!.getTime()).toBeLessThanOrEqual(Date.now() + 60_000 + 2_000)
    expect(b.fairDrawAt!.getTime() - a.fairDrawAt!.getTime()).toBeLessThan(-25_000)
    expect(c).toMatchObject({ fairWindowSeconds: 0, fairSeed: null, fairDrawAt: null })
    // A student registered for it enters the draw; a re-import changes nothing (the window is locked once open).
    const s = await t.student()
    await t.database.db.insert(schema.participants).values({ eventId: a.id, userId: s.id })
    expect((await claim(a.id, s)).body).toMatchObject({ result: 'IN_DRAW', draw_at: a.fairDrawAt!.toISOString() })
    await importCatalogue(t.database.db, file)
    expect(await eventRow(t, a.id)).toMatchObject({ fairWindowSeconds: 60, fairSeed: a.fairSeed, fairDrawAt: a.fairDrawAt })
  })
})

const PG = process.env.TEST_DATABASE_URL

describe('the draw keys are limited per student (issue 36 item 3)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ app: { scheduler: false, aroundIntervalMs: false, rateLimits: RATE_LIMITS } })
  }, 60_000)
  afterAll(() => t.close())

  it(`${RATE_LIMITS.drawKeys!.limit} asks in ${RATE_LIMITS.drawKeys!.windowSeconds / 60} minutes, the call and the event's keys: true together; then 429 with Retry-After; the event without keys never counted`, async () => {
    const { eventId, students } = await fairEvent(t, { tickets: 1, students: 3 })
    await open(t, eventId)
    for (const s of students) expect((await post(t, 'claim-ticket', { event_id: eventId, draw_nonce: nonceOf(s.id) }, s.auth)).body.result).toBe('IN_DRAW')
    await windowPassed(t, eventId)
    await t.app.schedulerTick()
    const [flood, other] = students
    const getKeys = (who: Student) => t.app.inject({ method: 'GET', url: `/api/v1/event/p/draw-keys/${eventId}`, headers: who.auth })
    const statuses: number[] = []
    for (let i = 0; i < RATE_LIMITS.drawKeys!.limit; i++)
      statuses.push(i % 2 ? (await getKeys(flood)).statusCode : (await post(t, `get/${eventId}`, { keys: true }, flood.auth)).status)
    expect(statuses).toEqual(Array(RATE_LIMITS.drawKeys!.limit).fill(200))
    for (const refused of [
      await getKeys(flood),
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/event/p/get/${eventId}`,
        headers: { ...flood.auth, 'content-type': 'application/json' },
        payload: { keys: true },
      }),
    ]) {
      expect(refused.statusCode).toBe(429)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
      expect(refused.json()).toEqual({ error: true, message: TOO_MANY, code: 'RATE_LIMITED' })
    }
    // The event page's own fetch is never counted, nor is another student.
    for (let i = 0; i < 2 * RATE_LIMITS.drawKeys!.limit; i++) expect((await post(t, `get/${eventId}`, {}, flood.auth)).status).toBe(200)
    expect((await getKeys(other)).statusCode).toBe(200)
  })
})

describe.skipIf(!PG)('the draw with two instances on one PostgreSQL', () => {
  it('two instances racing to draw one event: exactly one draw, never a ticket twice, tickets_sold equals holders', async () => {
    const t = await testApp({ kind: 'postgres', app: { scheduler: false, aroundIntervalMs: false } })
    const other = await openDatabase({ url: (t.database as { url?: string }).url!, max: 5 })
    const config = loadConfig({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'fair-b-')),
      APP_URL: 'http://app.test',
      JWT_SECRET: 'b',
      STATIC_DIR: join(tmpdir(), 'none'),
    })
    const b = await buildApp({ config, database: other, rateLimits: false, scheduler: false, aroundIntervalMs: false, processMetrics: false })
    await b.ready()
    try {
      for (let round = 0; round < 5; round++) {
        const { eventId, students } = await fairEvent(t, { tickets: 20, students: 60 })
        await open(t, eventId)
        await Promise.all(students.map((s) => post(t, 'claim-ticket', { event_id: eventId, draw_nonce: nonceOf(s.id) }, s.auth)))
        await windowPassed(t, eventId)
        // Both instances' ticks and a late claim on each, all at once.
        const late = await t.student()
        await t.database.db.insert(schema.participants).values({ eventId, userId: late.id })
        await Promise.all([
          t.app.schedulerTick(),
          b.schedulerTick(),
          t.app.schedulerTick(),
          b.schedulerTick(),
          post(t, 'claim-ticket', { event_id: eventId, draw_nonce: nonceOf(late.id) }, late.auth),
        ])
        const draws = rowsOf(await t.database.db.execute(sql`SELECT entrants, winners, waitlisted FROM fair_draws WHERE event_id = ${eventId}`))
        expect(draws).toEqual([{ entrants: 60, winners: 20, waitlisted: 40 }])
        const audit = await t.database.db
          .select()
          .from(schema.auditLog)
          .where(and(eq(schema.auditLog.eventId, eventId), eq(schema.auditLog.action, 'event.draw')))
        expect(audit).toHaveLength(1)
        const row = await eventRow(t, eventId)
        expect(row.ticketsSold).toBe(20)
        expect(await holders(t, eventId)).toHaveLength(20)
        const order = [...students].sort((x, y) => (key(row.fairSeed!, x.id) < key(row.fairSeed!, y.id) ? -1 : 1))
        expect(await waitlistOrder(t, eventId)).toEqual(order.slice(20).map((s) => s.id))
      }
    } finally {
      await b.close()
      await other.close()
      await t.close()
    }
  }, 120_000)

  it('an instance started after draw_at draws at once (catching up after downtime)', async () => {
    const database = await testDatabase('postgres')
    const config = loadConfig({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'fair-c-')),
      APP_URL: 'http://app.test',
      JWT_SECRET: 'c',
      STATIC_DIR: join(tmpdir(), 'none'),
    })
    const db = database.db
    const [council] = await db.insert(schema.councils).values({ slug: 'down', name: 'Down' }).returning({ id: schema.councils.id })
    const [event] = await db
      .insert(schema.events)
      .values({
        slug: 'down-event',
        name: 'Down',
        organizerId: council.id,
        state: 'TICKET_OPEN',
        isTicketFeatureEnabled: true,
        ticketCount: 1,
        fairWindowSeconds: 60,
        fairSeed: randomBytes(32).toString('hex'),
      })
      .returning({ id: schema.events.id })
    const users = await db
      .insert(schema.users)
      .values([1, 2].map((i) => ({ issuer: 't', subject: `down-${i}`, email: `d${i}@x.edu`, name: `D${i}` })))
      .returning({ id: schema.users.id })
    await db.insert(schema.participants).values(users.map((u) => ({ eventId: event.id, userId: u.id })))
    await db.insert(schema.fairEntrants).values(users.map((u) => ({ eventId: event.id, userId: u.id })))
    await db.execute(sql`UPDATE events SET fair_draw_at = now() - interval '10 minutes' WHERE id = ${event.id}`)
    const app = await buildApp({ config, database, rateLimits: false, scheduler: { intervalMs: 200 }, aroundIntervalMs: false, processMetrics: false })
    await app.ready()
    try {
      for (let i = 0; i < 100; i++) {
        const [e] = await db.select().from(schema.events).where(eq(schema.events.id, event.id))
        if (e.fairDrawnAt) break
        await new Promise((r) => setTimeout(r, 50)) // kept: the step of a poll for the scheduler's draw
      }
      const [e] = await db.select().from(schema.events).where(eq(schema.events.id, event.id))
      expect(e.fairDrawnAt).not.toBeNull()
      expect(e.ticketsSold).toBe(1)
    } finally {
      await app.close()
      await database.close()
    }
  }, 60_000)
})
