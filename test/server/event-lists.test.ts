// Bounded lists (issue 15): POST /event/p/get with `scope: 'home'`, `month`, `parent_id` and `mine` answers the
// same wire shape (grouped summaries) narrowed to what the screen shows; without fields, every event as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importCatalogue } from '../../server/db/events/catalogue.ts'
import { schema } from '../../server/db/index.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

const base = (slug: string, extra: Record<string, unknown> = {}) => ({
  slug,
  name: `Event ${slug}`,
  description: `About ${slug}`,
  long_description: `All about ${slug}`,
  dates: ['2026-11-25T10:00:00+05:30'],
  venue: 'Main Auditorium',
  tags: ['Tech'],
  organizer: 'csi',
  ...extra,
})

const CATALOGUE = {
  councils: [{ slug: 'csi', name: 'CSI-KJSCE', photo_url: null, phone_number: null, email: null }],
  events: [
    base('upcoming', { state: 'UPCOMING', dates: ['2026-12-20T10:00:00+05:30'] }),
    base('open', { state: 'REGISTRATION_OPEN', dates: ['2026-11-24T10:00:00+05:30'] }),
    base('closed', { state: 'REGISTRATION_CLOSED' }),
    base('tickets', { state: 'TICKET_OPEN', is_ticket_feature_enabled: true, ticket_count: 5 }),
    base('ticket-closed', { state: 'TICKET_CLOSED', is_ticket_feature_enabled: true, ticket_count: 5 }),
    base('ticket-closed-held', { state: 'TICKET_CLOSED', is_ticket_feature_enabled: true, ticket_count: 5 }),
    base('ongoing', { state: 'ONGOING' }),
    base('done', { state: 'COMPLETED', dates: ['2025-03-10T10:00:00+05:30'] }),
    base('done-long', { state: 'COMPLETED', dates: ['2026-10-30T10:00:00+05:30', '2026-11-02T10:00:00+05:30'] }),
    base('fest', { state: 'REGISTRATION_OPEN', dates: ['2026-11-23T09:00:00+05:30'] }),
    base('fest-a', { state: 'UPCOMING', parent: 'fest', dates: ['2026-11-27T09:00:00+05:30'] }),
    base('fest-b', { state: 'COMPLETED', parent: 'fest', dates: ['2026-11-28T09:00:00+05:30'] }),
  ],
}

const idsOf = (events: Record<string, { id: number }[]>) =>
  Object.values(events)
    .flat()
    .map((e) => e.id)
    .sort((a, b) => a - b)

describe.each(DB_KINDS)('bounded event lists (%s)', (kind) => {
  let t: TestApp
  let ids: Record<string, number>
  let alice: { id: number; auth: { authorization: string } }

  const list = (body: unknown, auth = alice.auth) =>
    t.app.inject({ method: 'POST', url: '/api/v1/event/p/get', headers: { 'content-type': 'application/json', ...auth }, payload: JSON.stringify(body) })
  const expectIds = async (body: unknown, slugs: string[]) => {
    const res = await list(body)
    expect(res.statusCode).toBe(200)
    expect(idsOf(res.json().events)).toEqual(slugs.map((s) => ids[s]!).sort((a, b) => a - b))
    return res.json().events
  }

  beforeAll(async () => {
    t = await testApp({ kind })
    ids = (await importCatalogue(t.database.db, CATALOGUE)).events
    alice = await t.student({ name: 'Alice' })
    const { participants } = schema
    await t.database.db.insert(participants).values([
      { eventId: ids['ticket-closed-held']!, userId: alice.id, ticketCollected: true, ticketCode: 'HELD-1' },
      { eventId: ids['ticket-closed']!, userId: alice.id },
      { eventId: ids.done!, userId: alice.id },
    ])
  })
  afterAll(() => t.close())

  it('without fields (true, {}), every published event, as before', async () => {
    await expectIds(true, Object.keys(ids))
    await expectIds({}, Object.keys(ids))
  })

  it("scope 'home': the states Home shows, and past events only for a collected ticket", async () => {
    const events = await expectIds({ scope: 'home' }, ['upcoming', 'open', 'tickets', 'ticket-closed-held', 'ongoing', 'fest', 'fest-a'])
    // Children are every child of a listed event, listed or not (Home leaves parents out of the childless sections).
    expect(events.REGISTRATION_OPEN.find((e: { id: number }) => e.id === ids.fest).children).toEqual([{ id: ids['fest-a'] }, { id: ids['fest-b'] }])
    expect(events.TICKET_CLOSED[0].Participant).toMatchObject({ ticket_collected: true })
    // Another student has no ticket there: the closed event is not on their home.
    const bob = await t.student({ name: 'Bob' })
    const res = await list({ scope: 'home' }, bob.auth)
    expect(res.json().events).not.toHaveProperty('TICKET_CLOSED')
  })

  it('month: the events with a date within a week of the month, ordered by first date', async () => {
    const events = await expectIds({ month: '2026-11' }, [
      'open',
      'closed',
      'tickets',
      'ticket-closed',
      'ticket-closed-held',
      'ongoing',
      'fest',
      'fest-a',
      'fest-b',
      'done-long',
    ])
    expect(events.REGISTRATION_OPEN.map((e: { id: number }) => e.id)).toEqual([ids.fest, ids.open])
    await expectIds({ month: '2025-03' }, ['done'])
    // December's window starts on 24 November (a week before): the late-November events are in its grid.
    await expectIds({ month: '2026-12' }, ['upcoming', 'open', 'closed', 'tickets', 'ticket-closed', 'ticket-closed-held', 'ongoing', 'fest-a', 'fest-b'])
    await expectIds({ month: '2027-01' }, [])
    await expectIds({ month: '2024-01' }, [])
  })

  it('parent_id: the children of one event; mine: the caller’s events; fields combine', async () => {
    await expectIds({ parent_id: ids.fest }, ['fest-a', 'fest-b'])
    await expectIds({ parent_id: String(ids.fest) }, ['fest-a', 'fest-b'])
    await expectIds({ parent_id: ids.upcoming }, [])
    await expectIds({ mine: true }, ['ticket-closed', 'ticket-closed-held', 'done'])
    await expectIds({ mine: false }, Object.keys(ids))
    await expectIds({ mine: true, scope: 'home' }, ['ticket-closed-held'])
    await expectIds({ parent_id: ids.fest, month: '2026-11', scope: 'home' }, ['fest-a'])
  })

  it.each([
    [{ scope: 'all' }, 'scope must be one of: home'],
    [{ scope: 1 }, 'scope must be one of: home'],
    [{ month: '2026-13' }, 'month must be a month as YYYY-MM'],
    [{ month: 202611 }, 'month must be a month as YYYY-MM'],
    [{ month: '2026-1' }, 'month must be a month as YYYY-MM'],
    [{ parent_id: 'abc' }, 'parent_id must be a positive whole number'],
    [{ parent_id: 0 }, 'parent_id must be a positive whole number'],
    [{ parent_id: 99999999999 }, 'parent_id must be a positive whole number'],
    [{ mine: 'yes' }, 'mine must be true or false'],
  ])('%j answers 400 naming the field', async (body, message) => {
    const res = await list(body)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: true, message, code: 'INVALID_INPUT' })
  })
})
