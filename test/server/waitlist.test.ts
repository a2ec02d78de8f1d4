// Give back and waitlist (issue 13, API.md Part 2 "Around the event"): every rule through the real routes, on
// every database kind, and the race of the issue on PostgreSQL: 300 students on the waitlist, 50 tickets given
// back at once, then the 300 claiming at once: 50 offers, never two students holding one place, tickets_sold
// never above ticket_count.
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { AROUND_MESSAGES, MESSAGES as E } from '../../server/routes/outcomes.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'
import { makeEvent, post, setState } from './teams-fixtures.ts'

type Student = Awaited<ReturnType<TestApp['student']>>

describe.each(DB_KINDS)('give back and waitlist on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind, app: { aroundIntervalMs: false } })
  }, 60_000)
  afterAll(() => t.close())

  /** A TICKET_OPEN individual event with `count` tickets, `holders` students holding one, `others` registered without. */
  async function soldOut(count: number, others: number) {
    const eventId = await makeEvent(t, { maPpt: 1, state: 'TICKET_OPEN' })
    await t.database.db.update(schema.events).set({ isTicketFeatureEnabled: true, ticketCount: count }).where(eq(schema.events.id, eventId))
    const holders: Student[] = []
    const waiting: Student[] = []
    for (let i = 0; i < count; i++) holders.push(await t.student())
    for (let i = 0; i < others; i++) waiting.push(await t.student())
    await t.database.db.insert(schema.participants).values([...holders, ...waiting].map((s) => ({ eventId, userId: s.id })))
    for (const h of holders) expect((await post(t, 'claim-ticket', { event_id: eventId }, h.auth)).status).toBe(200)
    return { eventId, holders, waiting }
  }

  const detail = async (eventId: number, s: Student) => (await post(t, `get/${eventId}`, {}, s.auth)).body.event
  const join = (eventId: number, s: Student, j = true) => post(t, 'waitlist', { event_id: eventId, join: j }, s.auth)
  const release = (eventId: number, s: Student) => post(t, 'release-ticket', { event_id: eventId }, s.auth)
  const claim = (eventId: number, s: Student) => post(t, 'claim-ticket', { event_id: eventId }, s.auth)
  async function counter(eventId: number) {
    const [e] = await t.database.db.select().from(schema.events).where(eq(schema.events.id, eventId))
    const r = (await t.database.db.execute(sql`SELECT count(*)::int AS n FROM participants WHERE event_id = ${eventId} AND ticket_collected`)) as any
    return { sold: e.ticketsSold, count: e.ticketCount, held: Number((r.rows ?? r)[0].n) }
  }
  const expire = (eventId: number) =>
    t.database.db.execute(sql`UPDATE waitlist SET offer_expires_at = now() - interval '1 second' WHERE event_id = ${eventId} AND offered_at IS NOT NULL`)

  it('joins only when sold out, registered and without a ticket; shows the position; leaves', async () => {
    const { eventId, holders, waiting } = await soldOut(1, 3)
    const stranger = await t.student()
    expect((await join(eventId, stranger)).body).toEqual({ error: true, message: E.notRegistered, code: 'NOT_REGISTERED' })
    expect((await join(eventId, holders[0])).status).toBe(409)
    const [a, b, c] = waiting
    expect((await join(eventId, a)).body).toEqual({ error: false, position: 1, message: AROUND_MESSAGES.joined })
    expect((await join(eventId, b)).body.position).toBe(2)
    expect((await join(eventId, b)).body.position).toBe(2) // joining twice keeps the place
    expect((await join(eventId, c)).body.position).toBe(3)
    expect((await detail(eventId, c)).Participant.waitlist).toEqual({ position: 3, offer_expires_at: null })
    expect((await detail(eventId, holders[0])).Participant.waitlist).toBeNull()
    expect((await join(eventId, b, false)).body).toEqual({ error: false, message: AROUND_MESSAGES.left })
    expect((await join(eventId, b, false)).body).toEqual({ error: false, message: AROUND_MESSAGES.notOnList })
    expect((await detail(eventId, c)).Participant.waitlist.position).toBe(2)
    expect((await post(t, 'waitlist', { event_id: eventId }, a.auth)).body).toEqual({ error: true, message: 'join is a required field', code: 'INVALID_INPUT' })
    expect((await post(t, 'waitlist', { event_id: 2147483647, join: true }, a.auth)).status).toBe(404)
  })

  it('refuses to join while tickets are left, and outside TICKET_OPEN', async () => {
    const { eventId, waiting } = await soldOut(1, 2)
    await t.database.db.update(schema.events).set({ ticketCount: 2 }).where(eq(schema.events.id, eventId))
    expect((await join(eventId, waiting[0])).status).toBe(409)
    await setState(t, eventId, 'TICKET_CLOSED')
    expect((await join(eventId, waiting[0])).status).toBe(403)
  })

  it('a ticket given back: its code stops, the first in line is offered it, only they may claim it, then it passes on', async () => {
    const { eventId, holders, waiting } = await soldOut(1, 3)
    const [a, b, outsider] = waiting
    await join(eventId, a)
    await join(eventId, b)
    const code = (await detail(eventId, holders[0])).Participant.ticket_code
    expect(code).toMatch(/^\d{16}$/)
    expect((await detail(eventId, outsider)).held_until).toBeNull()
    expect((await release(eventId, holders[0])).body).toEqual({ error: false, message: AROUND_MESSAGES.released })
    const rows = await t.database.db.select().from(schema.participants).where(eq(schema.participants.ticketCode, code))
    expect(rows).toEqual([])
    expect(await counter(eventId)).toMatchObject({ sold: 0, held: 0 })
    // A second give-back: nothing held.
    expect((await release(eventId, holders[0])).status).toBe(409)
    const offer = (await detail(eventId, a)).Participant.waitlist
    expect(offer.position).toBe(1)
    const minutes = (Date.parse(offer.offer_expires_at) - Date.now()) / 60_000
    expect(minutes).toBeGreaterThan(29)
    expect(minutes).toBeLessThanOrEqual(30)
    expect((await detail(eventId, b)).Participant.waitlist).toEqual({ position: 2, offer_expires_at: null })
    // Everyone sees that the place is held, and until when (issue 22 item 11: not an RSVP button that reverts).
    for (const s of [a, b, outsider, holders[0]]) expect((await detail(eventId, s)).held_until).toBe(offer.offer_expires_at)
    // Others, on the list or not, keep getting sold out (the old holder too).
    for (const s of [b, outsider, holders[0]]) expect((await claim(eventId, s)).body).toEqual({ error: true, message: E.soldOut, code: 'SOLD_OUT' })
    // The hold passes: the tick passes it on to b (exactly once). The tick the give-back kicked is joined first, so
    // that the counts below are this call's.
    await t.app.aroundJobs.tick()
    await expire(eventId)
    expect((await claim(eventId, a)).body.message).toBe(E.soldOut)
    expect(await t.app.waitlistRepository.tick()).toEqual({ expired: 1, offered: 1 })
    expect(await t.app.waitlistRepository.tick()).toEqual({ expired: 0, offered: 0 })
    expect((await detail(eventId, a)).Participant.waitlist).toBeNull()
    expect((await detail(eventId, b)).Participant.waitlist.offer_expires_at).not.toBeNull()
    expect((await claim(eventId, a)).body.message).toBe(E.soldOut)
    const claimed = await claim(eventId, b)
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200)
    expect((await detail(eventId, b)).Participant.waitlist).toBeNull()
    expect(await counter(eventId)).toMatchObject({ sold: 1, count: 1, held: 1 })
    expect((await detail(eventId, outsider)).held_until).toBeNull()
  })

  it('leaving with an offer passes it to the next; leaving TICKET_OPEN clears the list', async () => {
    const { eventId, holders, waiting } = await soldOut(1, 2)
    const [a, b] = waiting
    await join(eventId, a)
    await join(eventId, b)
    await release(eventId, holders[0])
    expect((await detail(eventId, a)).Participant.waitlist.offer_expires_at).not.toBeNull()
    await join(eventId, a, false)
    expect((await detail(eventId, b)).Participant.waitlist).toMatchObject({ position: 1 })
    expect((await detail(eventId, b)).Participant.waitlist.offer_expires_at).not.toBeNull()
    await setState(t, eventId, 'TICKET_CLOSED')
    const left = await t.database.db.select().from(schema.waitlist).where(eq(schema.waitlist.eventId, eventId))
    expect(left).toEqual([])
    expect((await release(eventId, b)).status).toBe(403)
  })

  it('give back: refusals for no ticket, not registered, closed event, unknown event, bad body', async () => {
    const { eventId, waiting } = await soldOut(1, 1)
    const stranger = await t.student()
    expect((await release(eventId, waiting[0])).status).toBe(409)
    expect((await release(eventId, stranger)).body).toEqual({ error: true, message: E.notRegistered, code: 'NOT_REGISTERED' })
    expect((await release(2147483647, stranger)).status).toBe(404)
    expect((await post(t, 'release-ticket', { event_id: 'x' }, stranger.auth)).body).toEqual({
      error: true,
      message: 'event_id must be a positive whole number',
      code: 'INVALID_INPUT',
    })
    expect((await post(t, 'release-ticket', {}, undefined)).status).toBe(401)
  })

  it('a place freed some other way (more tickets) is offered by the tick', async () => {
    const { eventId, waiting } = await soldOut(1, 2)
    await join(eventId, waiting[0])
    await join(eventId, waiting[1])
    await t.database.db.update(schema.events).set({ ticketCount: 2 }).where(eq(schema.events.id, eventId))
    expect(await t.app.waitlistRepository.tick()).toEqual({ expired: 0, offered: 1 })
    expect((await claim(eventId, waiting[1])).status).toBe(409)
    expect((await claim(eventId, waiting[0])).status).toBe(200)
  })

  it.runIf(kind === 'postgres')(
    'race: 300 waiting, 50 given back at once, 300 claim at once: 50 offers, 50 claims, never oversold',
    async () => {
      const { eventId, holders, waiting } = await soldOut(50, 300)
      for (const s of waiting) expect((await join(eventId, s)).status).toBe(200)
      const released = await Promise.all(holders.map((h) => release(eventId, h)))
      expect(released.map((r) => r.status)).toEqual(holders.map(() => 200))
      const offers = await t.database.db
        .select()
        .from(schema.waitlist)
        .where(sql`${schema.waitlist.eventId} = ${eventId} AND ${schema.waitlist.offeredAt} IS NOT NULL`)
      expect(offers.length).toBe(50)
      const offered = new Set(offers.map((o) => o.userId))
      // The offers went to the first 50 in line.
      expect([...offered].sort((a, b) => a - b)).toEqual(
        waiting
          .slice(0, 50)
          .map((s) => s.id)
          .sort((a, b) => a - b),
      )
      // Everyone claims at once, with two instances' ticks passing nothing on meanwhile (no offer expired).
      const [claims] = await Promise.all([Promise.all(waiting.map((s) => claim(eventId, s))), t.app.waitlistRepository.tick(), t.app.waitlistRepository.tick()])
      const winners = waiting.filter((_, i) => claims[i].status === 200).map((s) => s.id)
      expect(winners.length).toBe(50)
      expect(new Set(winners)).toEqual(offered)
      const c = await counter(eventId)
      expect(c).toMatchObject({ sold: 50, count: 50, held: 50 })
      const codes = await t.database.db.execute(
        sql`SELECT count(DISTINCT ticket_code)::int AS n FROM participants WHERE event_id = ${eventId} AND ticket_collected`,
      )
      expect(Number(((codes as any).rows ?? codes)[0].n)).toBe(50)
    },
    240_000,
  )

  it.runIf(kind === 'postgres')(
    'race: expired offers passed on by several ticks at once, exactly once each',
    async () => {
      const { eventId, holders, waiting } = await soldOut(20, 60)
      for (const s of waiting) await join(eventId, s)
      await Promise.all(holders.map((h) => release(eventId, h)))
      await expire(eventId)
      const ticks = await Promise.all([1, 2, 3, 4].map(() => t.app.waitlistRepository.tick()))
      const expired = ticks.reduce((n, r) => n + r.expired, 0)
      const offered = ticks.reduce((n, r) => n + r.offered, 0)
      expect(expired).toBe(20)
      expect(offered).toBe(20)
      const offers = await t.database.db
        .select()
        .from(schema.waitlist)
        .where(sql`${schema.waitlist.eventId} = ${eventId} AND ${schema.waitlist.offeredAt} IS NOT NULL`)
      expect(offers.map((o) => o.userId).sort((a, b) => a - b)).toEqual(
        waiting
          .slice(20, 40)
          .map((s) => s.id)
          .sort((a, b) => a - b),
      )
    },
    120_000,
  )
})
