// Ticket transfer (issue 25 item 2) through the real routes, on every database kind: the place moves, the code does
// not; every rule the contract names; the door answers TRANSFERRED for the old code, live and at sync; and the races
// of the issue on PostgreSQL too: two transfers of one ticket at once, and a transfer racing a check-in, each
// leaving exactly one holder and tickets_sold equal to the holders.
import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TRANSFERS_PER_TICKET } from '../../contract/transfer.ts'
import { schema } from '../../server/db/index.ts'
import { transfersCloseAt } from '../../server/db/tickets/transfers.ts'
import { AROUND_MESSAGES, DOOR_MESSAGES, MESSAGES } from '../../server/routes/outcomes.ts'
import { doorPost, doorWorld } from './door-fixtures.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'
import { post } from './teams-fixtures.ts'

type Student = Awaited<ReturnType<TestApp['student']>>

const CANNOT_RECEIVE =
  'Your friend cannot receive this ticket. They must have signed in to the app once with this e-mail, be registered for this event (in your team, for a team event), and not hold a ticket for it.'

describe.each(DB_KINDS)('ticket transfer on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind, app: { aroundIntervalMs: false } })
  }, 60_000)
  afterAll(() => t.close())

  const emailOf = async (s: Student) => {
    const [u] = await t.database.db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, s.id))
    return u.email
  }
  const transfer = async (eventId: number, from: Student, to: Student | string) =>
    post(t, 'transfer-ticket', { event_id: eventId, email: typeof to === 'string' ? to : await emailOf(to) }, from.auth)
  const holding = async (eventId: number, s: Student) => {
    const [p] = await t.database.db
      .select()
      .from(schema.participants)
      .where(and(eq(schema.participants.eventId, eventId), eq(schema.participants.userId, s.id)))
    return p
  }
  async function counter(eventId: number) {
    const [e] = await t.database.db.select({ sold: schema.events.ticketsSold }).from(schema.events).where(eq(schema.events.id, eventId))
    const r = (await t.database.db.execute(sql`SELECT count(*)::int AS n FROM participants WHERE event_id = ${eventId} AND ticket_collected`)) as any
    return { sold: e.sold, holders: Number((r.rows ?? r)[0].n) }
  }
  const checkIn = (eventId: number, code: string, door: Student) =>
    doorPost(t, 'check-in', { event_id: eventId, ticket_code: code, scan_id: randomUUID(), gate: 'North' }, door.auth)

  it('moves the place, not the code: the friend gets a new code, the old one stops, the count stays, it is audited', async () => {
    const w = await doorWorld(t, { state: 'TICKET_OPEN' })
    const [holder] = w.people
    const friend = w.registered
    const before = await counter(w.eventId)
    const res = await transfer(w.eventId, holder, friend)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toEqual({ error: false, message: AROUND_MESSAGES.transferred('No Ticket'), to: 'No Ticket', transfers_left: 1 })
    const old = await holding(w.eventId, holder)
    expect(old).toMatchObject({ ticketCollected: false, ticketCode: null, ticketTransfers: 0 })
    const got = await holding(w.eventId, friend)
    expect(got.ticketCollected).toBe(true)
    expect(got.ticketCode).toMatch(/^\d{16}$/)
    expect(got.ticketCode).not.toBe(w.codes[0])
    expect(got.ticketTransfers).toBe(1)
    expect(await counter(w.eventId)).toEqual(before)
    // The friend sees it in the event (My Events reads the same rows); the old holder has no ticket.
    expect((await post(t, `get/${w.eventId}`, {}, friend.auth)).body.event.Participant.ticket_code).toBe(got.ticketCode)
    expect((await post(t, `get/${w.eventId}`, {}, holder.auth)).body.event.Participant.ticket_collected).toBe(false)
    const [entry] = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.eventId, w.eventId), eq(schema.auditLog.action, 'ticket.transfer')))
    expect(entry).toMatchObject({ actorId: holder.id, before: { holder: holder.id, transfers: 0 }, after: { holder: friend.id, transfers: 1 } })
    // Nothing of the code in the log.
    expect(JSON.stringify(entry)).not.toContain(w.codes[0])

    // The door: the old code is TRANSFERRED (live), the friend's passes.
    const stale = await checkIn(w.eventId, w.codes[0], w.users.door)
    expect(stale).toEqual({ status: 404, body: { error: true, message: DOOR_MESSAGES.transferred, code: 'TRANSFERRED', result: 'TRANSFERRED' } })
    expect((await checkIn(w.eventId, got.ticketCode!, w.users.door)).body.result).toBe('CHECKED_IN')
  })

  it('a door list downloaded before the transfer: the old code scanned offline is TRANSFERRED at sync, and nothing is recorded', async () => {
    const w = await doorWorld(t, { state: 'ONGOING' })
    expect((await transfer(w.eventId, w.people[1], w.registered)).status).toBe(200)
    const scan = { ticket_code: w.codes[1], scan_id: randomUUID(), gate: 'South', scanned_at: new Date().toISOString() }
    const synced = await doorPost(
      t,
      'sync',
      { event_id: w.eventId, scans: [scan, { ...scan, scan_id: randomUUID(), ticket_code: w.codes[2] }] },
      w.users.door.auth,
    )
    expect(synced.status).toBe(200)
    expect(synced.body.results[0]).toEqual({
      error: true,
      message: DOOR_MESSAGES.transferred,
      code: 'TRANSFERRED',
      result: 'TRANSFERRED',
      scan_id: scan.scan_id,
    })
    expect(synced.body.results[1].result).toBe('CHECKED_IN')
    const recorded = await t.database.db.select().from(schema.doorScans).where(eq(schema.doorScans.scanId, scan.scan_id))
    expect(recorded).toEqual([])
  })

  it('refuses what the contract names, and changes nothing', async () => {
    const w = await doorWorld(t, { state: 'TICKET_OPEN' })
    const [holder, other] = w.people
    const stranger = await t.student({ name: 'Stranger' })
    const snapshot = async () => [
      await holding(w.eventId, holder),
      await holding(w.eventId, other),
      await holding(w.eventId, w.registered),
      await counter(w.eventId),
    ]
    const start = await snapshot()
    const refused = async (to: Student | string, status: number, message: string, from = holder) => {
      const res = await transfer(w.eventId, from, to)
      expect(res, JSON.stringify(res.body)).toMatchObject({ status, body: { error: true, message } })
    }
    // Issue 36 item 5: no account, not registered and a ticket already answer alike, so an e-mail is not told apart.
    await refused('nobody-here@example.edu', 409, CANNOT_RECEIVE)
    await refused(holder, 400, 'This is your own e-mail: enter your friend’s.')
    await refused((await emailOf(holder)).toUpperCase(), 400, 'This is your own e-mail: enter your friend’s.')
    await refused(stranger, 409, CANNOT_RECEIVE)
    await refused(other, 409, CANNOT_RECEIVE)
    await refused(other, 409, 'You do not hold a ticket for this event.', w.registered)
    await refused(other, 403, MESSAGES.notRegistered, stranger)
    await refused('not an e-mail', 400, 'email must be an e-mail address')
    expect((await post(t, 'transfer-ticket', { event_id: w.eventId }, holder.auth)).body.message).toBe('email must be an e-mail address')
    expect((await post(t, 'transfer-ticket', { event_id: 2147483647, email: await emailOf(other) }, holder.auth)).status).toBe(404)
    expect((await post(t, 'transfer-ticket', { event_id: w.eventId, email: await emailOf(other) })).status).toBe(401)
    // Checked in: the ticket was used.
    expect((await checkIn(w.eventId, w.codes[0], w.users.door)).body.result).toBe('CHECKED_IN')
    await refused(w.registered, 409, 'Your ticket was already used at the door, so it cannot be transferred.')
    await t.database.db.update(schema.participants).set({ checkedInAt: null, checkedInGate: null }).where(eq(schema.participants.ticketCode, w.codes[0]))
    expect(await snapshot()).toEqual(start)
  })

  it('at most twice per ticket; only while the door may check tickets; closed by the organiser’s cut-off', async () => {
    const w = await doorWorld(t, { state: 'TICKET_OPEN' })
    const [a] = w.people
    const b = w.registered
    const c = await t.student({ name: 'Third' })
    await t.database.db.insert(schema.participants).values({ eventId: w.eventId, userId: c.id })
    expect((await transfer(w.eventId, a, b)).body.transfers_left).toBe(1)
    expect((await transfer(w.eventId, b, c)).body.transfers_left).toBe(0)
    expect(TRANSFERS_PER_TICKET).toBe(2)
    const third = await transfer(w.eventId, c, a)
    expect(third).toMatchObject({ status: 409, body: { message: 'This ticket has already changed hands 2 times: it cannot be transferred again.' } })

    const w2 = await doorWorld(t, { state: 'COMPLETED' })
    expect((await transfer(w2.eventId, w2.people[0], w2.registered)).body).toEqual({
      error: true,
      message: 'Tickets of this event cannot be transferred now.',
      code: 'TRANSFERS_CLOSED',
    })
    // The organiser closed transfers an hour before the first date (25 Nov 2026, 6 PM IST: past).
    const w3 = await doorWorld(t, { state: 'TICKET_OPEN' })
    await t.database.db.update(schema.events).set({ transferClosesMinutes: 60 }).where(eq(schema.events.id, w3.eventId))
    expect((await transfer(w3.eventId, w3.people[0], w3.registered)).status).toBe(403)
    await t.database.db.update(schema.events).set({ transferClosesMinutes: null }).where(eq(schema.events.id, w3.eventId))
    expect((await transfer(w3.eventId, w3.people[0], w3.registered)).status).toBe(200)
  })

  it('the count belongs to a ticket (issue 36 item 7): after s0 → s10 → s11 and a give-back, s11’s fresh claim can be transferred', async () => {
    const w = await doorWorld(t, { state: 'TICKET_OPEN' })
    const [s0] = w.people
    const s10 = w.registered
    const s11 = await t.student({ name: 'Eleven' })
    const s12 = await t.student({ name: 'Twelve' })
    await t.database.db.insert(schema.participants).values([
      { eventId: w.eventId, userId: s11.id },
      { eventId: w.eventId, userId: s12.id },
    ])
    expect((await transfer(w.eventId, s0, s10)).status).toBe(200)
    expect((await transfer(w.eventId, s10, s11)).body.transfers_left).toBe(0)
    expect((await post(t, 'release-ticket', { event_id: w.eventId }, s11.auth)).status).toBe(200)
    expect((await holding(w.eventId, s11)).ticketTransfers).toBe(0)
    expect((await post(t, 'claim-ticket', { event_id: w.eventId }, s11.auth)).body.result).toBe('CLAIMED')
    const again = await transfer(w.eventId, s11, s12)
    expect(again).toMatchObject({ status: 200, body: { transfers_left: 1 } })
    // A student without a ticket carries no count, whatever path took it: the database refuses one.
    await post(t, 'release-ticket', { event_id: w.eventId }, s12.auth)
    const refused = await t.database.db.execute(sql`UPDATE participants SET ticket_transfers = 1 WHERE event_id = ${w.eventId} AND user_id = ${s12.id}`).then(
      () => null,
      (err: { cause?: { message?: string } }) => err.cause?.message ?? String(err),
    )
    expect(refused).toMatch(/participants_transfers_with_ticket/)
  })

  it('the organiser sets the cut-off through the event’s save (0 to 10,080 minutes, or null), audited with the event', async () => {
    const w = await doorWorld(t, { state: 'TICKET_OPEN' })
    const save = async (body: unknown) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/org/p/event/save',
        headers: { 'content-type': 'application/json', ...w.users.organiser.auth },
        payload: JSON.stringify(body),
      })
      return { status: res.statusCode, body: res.json() }
    }
    const set = await save({ id: w.eventId, transfer_closes_minutes: 120 })
    expect(set.status, JSON.stringify(set.body)).toBe(200)
    expect(set.body.event.transfer_closes_minutes).toBe(120)
    expect((await save({ id: w.eventId, venue: 'Hall 3' })).body.event.transfer_closes_minutes).toBe(120)
    expect((await save({ id: w.eventId, transfer_closes_minutes: 10081 })).body).toEqual({
      error: true,
      message: 'transfer_closes_minutes must be a whole number from 0 to 10080',
      code: 'INVALID_INPUT',
    })
    expect((await save({ id: w.eventId, transfer_closes_minutes: null })).body.event.transfer_closes_minutes).toBeNull()
    // A volunteer of the event may not.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/org/p/event/save',
      headers: { 'content-type': 'application/json', ...w.users.door.auth },
      payload: JSON.stringify({ id: w.eventId, transfer_closes_minutes: 5 }),
    })
    expect(res.statusCode).toBe(403)
  })

  it('issue 36 item 5: tries at someone who cannot receive the ticket are limited to 10 an hour per student; other answers do not count', async () => {
    const w = await doorWorld(t, { state: 'TICKET_OPEN' })
    const [holder] = w.people
    // Mistakes of another kind (the student's own e-mail) hand their try back.
    for (let i = 0; i < 3; i++) expect((await transfer(w.eventId, holder, holder)).status).toBe(400)
    for (let i = 0; i < 10; i++) expect((await transfer(w.eventId, holder, `nobody-${i}@example.edu`)).body.message).toBe(CANNOT_RECEIVE)
    const limited = await transfer(w.eventId, holder, w.registered)
    expect(limited.status).toBe(429)
    expect(limited.body).toMatchObject({
      code: 'TOO_MANY_TRANSFER_MISSES',
      message: expect.stringMatching(/^Too many tries to give a ticket to someone who cannot receive it\. Please try again in \d+ minutes?\.$/),
    })
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000)
    // Nothing moved: the holder still holds the ticket.
    expect((await holding(w.eventId, holder)).ticketCollected).toBe(true)
    // Another student has tries of their own.
    expect((await transfer(w.eventId, w.people[1], 'nobody-else@example.edu')).status).toBe(409)
  })

  it('a team event’s ticket goes only to a teammate', async () => {
    const w = await doorWorld(t, { state: 'TICKET_OPEN', teamName: 'Crew' })
    // people[0] is in team Crew; the registered student is not.
    expect((await transfer(w.eventId, w.people[0], w.registered)).body.message).toBe(CANNOT_RECEIVE)
    const mate = await t.student({ name: 'Mate' })
    await t.database.db.insert(schema.participants).values({ eventId: w.eventId, userId: mate.id, teamId: w.teamId })
    expect((await transfer(w.eventId, w.people[0], mate)).status).toBe(200)
  })

  it('a friend a place is held for on the waitlist takes the ticket: the held place passes to the next in line', async () => {
    const w = await doorWorld(t, { state: 'TICKET_OPEN', holders: 2 })
    await t.database.db.update(schema.events).set({ ticketCount: 2 }).where(eq(schema.events.id, w.eventId))
    const [next] = [await t.student({ name: 'Next' })]
    await t.database.db.insert(schema.participants).values({ eventId: w.eventId, userId: next.id })
    expect((await post(t, 'waitlist', { event_id: w.eventId, join: true }, w.registered.auth)).status).toBe(200)
    expect((await post(t, 'waitlist', { event_id: w.eventId, join: true }, next.auth)).status).toBe(200)
    // people[1] gives back: the place is held for `registered`; then people[0] gives their ticket to `registered`.
    expect((await post(t, 'release-ticket', { event_id: w.eventId }, w.people[1].auth)).status).toBe(200)
    expect((await post(t, `get/${w.eventId}`, {}, w.registered.auth)).body.event.Participant.waitlist.offer_expires_at).not.toBeNull()
    expect((await transfer(w.eventId, w.people[0], w.registered)).status).toBe(200)
    const mine = (await post(t, `get/${w.eventId}`, {}, w.registered.auth)).body.event.Participant
    expect(mine.waitlist).toBeNull()
    expect(mine.ticket_collected).toBe(true)
    expect((await post(t, `get/${w.eventId}`, {}, next.auth)).body.event.Participant.waitlist.offer_expires_at).not.toBeNull()
    expect(await counter(w.eventId)).toEqual({ sold: 1, holders: 1 })
  })

  it('two transfers of one ticket at once: exactly one friend holds it', async () => {
    for (let round = 0; round < 5; round++) {
      const w = await doorWorld(t, { state: 'TICKET_OPEN', holders: 1 })
      const friends = [w.registered]
      for (let i = 0; i < 3; i++) {
        const f = await t.student({ name: `Friend ${i}` })
        await t.database.db.insert(schema.participants).values({ eventId: w.eventId, userId: f.id })
        friends.push(f)
      }
      const before = await counter(w.eventId)
      const answers = await Promise.all(friends.map((f) => transfer(w.eventId, w.people[0], f)))
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
      for (const a of answers.filter((a) => a.status !== 200)) expect(a.body.message).toBe('You do not hold a ticket for this event.')
      expect(await counter(w.eventId)).toEqual(before)
      const holders = await Promise.all(friends.map((f) => holding(w.eventId, f)))
      expect(holders.filter((h) => h.ticketCollected)).toHaveLength(1)
    }
  })

  it('a transfer racing a check-in of the same ticket: either the ticket was used, or the old code is refused', async () => {
    for (let round = 0; round < 6; round++) {
      const w = await doorWorld(t, { state: 'ONGOING', holders: 1 })
      const [moved, scanned] = await Promise.all([transfer(w.eventId, w.people[0], w.registered), checkIn(w.eventId, w.codes[0], w.users.door)])
      if (moved.status === 200) {
        expect(scanned.body.result).toBe('TRANSFERRED')
        expect((await holding(w.eventId, w.registered)).checkedInAt).toBeNull()
      } else {
        expect(scanned.body.result).toBe('CHECKED_IN')
        expect(moved.body.message).toBe('Your ticket was already used at the door, so it cannot be transferred.')
        expect((await holding(w.eventId, w.registered)).ticketCollected).toBe(false)
      }
      expect(await counter(w.eventId)).toEqual({ sold: 1, holders: 1 })
    }
  })
})

describe('transfersCloseAt', () => {
  it('is the first date less the organiser’s minutes, or never', () => {
    expect(transfersCloseAt('2026-11-25T18:00:00+05:30', 90)?.toISOString()).toBe('2026-11-25T11:00:00.000Z')
    expect(transfersCloseAt('2026-11-25T18:00:00+05:30', null)).toBeNull()
    expect(transfersCloseAt(null, 60)).toBeNull()
  })
})
