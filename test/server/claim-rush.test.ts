// The ticket rush (issue 3): however many claims arrive at once, never more tickets than ticket_count and
// never two for one student. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL, where concurrent
// transactions really interleave.
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accessTokens } from '../../server/auth/tokens.ts'
import { importCatalogue } from '../../server/db/events/catalogue.ts'
import { schema } from '../../server/db/index.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

const { events, participants, users } = schema

describe.each(DB_KINDS)('ticket rush on %s', (kind) => {
  let t: TestApp
  let ids: Record<string, number>
  let sign: (userId: number) => Promise<string>

  beforeAll(async () => {
    t = await testApp({ kind })
    sign = accessTokens(new TextEncoder().encode(t.config.jwtSecret!)).sign
    ;({ events: ids } = await importCatalogue(t.database.db, {
      councils: [{ slug: 'cc', name: 'Cultural Committee' }],
      events: [
        {
          slug: 'rush',
          name: 'Rush',
          dates: ['2026-11-25T19:00:00+05:30'],
          organizer: 'cc',
          state: 'TICKET_OPEN',
          is_ticket_feature_enabled: true,
          ticket_count: 100,
          fair_start: { window_seconds: 0 }, // first come, first served (no draw window on opening)
        },
        {
          slug: 'solo',
          name: 'Solo',
          dates: ['2026-11-26T19:00:00+05:30'],
          organizer: 'cc',
          state: 'TICKET_OPEN',
          is_ticket_feature_enabled: true,
          ticket_count: 100,
          fair_start: { window_seconds: 0 }, // first come, first served (no draw window on opening)
        },
      ],
    }))
  })
  afterAll(() => t.close())

  const claim = (authorization: string, eventId: number) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/event/p/claim-ticket',
      headers: { 'content-type': 'application/json', authorization },
      payload: JSON.stringify({ event_id: eventId }),
    })

  const sold = async (eventId: number) => {
    const [event] = await t.database.db.select({ n: events.ticketsSold }).from(events).where(eq(events.id, eventId))
    const [rows] = await t.database.db
      .select({ n: sql<number>`count(*)::int`, codes: sql<number>`count(distinct ${participants.ticketCode})::int` })
      .from(participants)
      .where(and(eq(participants.eventId, eventId), eq(participants.ticketCollected, true)))
    return { counter: event.n, collected: Number(rows.n), distinctCodes: Number(rows.codes) }
  }

  it('1,000 registered students claiming 100 tickets at once: exactly 100 tickets, 900 sold-out refusals, no 5xx', async () => {
    // One multi-row insert for the students and one for their registrations: the rush is what is timed.
    const created = await t.database.db
      .insert(users)
      .values(Array.from({ length: 1000 }, (_, i) => ({ issuer: 'test', subject: `rush-${kind}-${i}`, email: `rush${i}@example.edu`, name: `Rusher ${i}` })))
      .returning({ id: users.id })
    await t.database.db.insert(participants).values(created.map((u) => ({ eventId: ids.rush, userId: u.id })))
    const bearers = await Promise.all(created.map(async (u) => `Bearer ${await sign(u.id)}`))

    const answers = await Promise.all(bearers.map((b) => claim(b, ids.rush)))

    const statuses = answers.map((r) => r.statusCode)
    expect(statuses.filter((s) => s >= 500)).toEqual([])
    expect(statuses.filter((s) => s === 200)).toHaveLength(100)
    const refusals = answers.filter((r) => r.statusCode !== 200)
    expect(refusals).toHaveLength(900)
    expect(new Set(refusals.map((r) => `${r.statusCode} ${r.json().message}`))).toEqual(new Set(['409 Tickets are sold out.']))
    const codes = answers.filter((r) => r.statusCode === 200).map((r) => r.json().ticket_code)
    expect(new Set(codes).size).toBe(100)
    expect(await sold(ids.rush)).toEqual({ counter: 100, collected: 100, distinctCodes: 100 })
  })

  it('50 claims by one student at once: one ticket, 49 refusals, counted once', async () => {
    const student = await t.student()
    await t.database.db.insert(participants).values({ eventId: ids.solo, userId: student.id })

    const answers = await Promise.all(Array.from({ length: 50 }, () => claim(student.auth.authorization, ids.solo)))

    expect(answers.filter((r) => r.statusCode >= 500)).toEqual([])
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1)
    const refusals = answers.filter((r) => r.statusCode !== 200)
    expect(new Set(refusals.map((r) => `${r.statusCode} ${r.json().message}`))).toEqual(new Set(['409 You already have a ticket for this event.']))
    expect(refusals).toHaveLength(49)
    expect(await sold(ids.solo)).toEqual({ counter: 1, collected: 1, distinctCodes: 1 })
  })
})
