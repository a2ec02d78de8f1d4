// The event calls of API.md through the real app (inject) on PGlite: shapes, every refusal and its status.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importCatalogue } from '../../server/db/events/catalogue.ts'
import { schema } from '../../server/db/index.ts'
import { testApp, type TestApp } from './helpers.ts'

const { events, participants, teams } = schema

type Auth = { authorization: string }

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
  councils: [
    { slug: 'csi', name: 'CSI-KJSCE', photo_url: '/demo/council-csi.svg', phone_number: '9820011223', email: 'csi@example.edu' },
    { slug: 'arts', name: 'Arts Circle', photo_url: null, phone_number: null, email: null },
  ],
  events: [
    base('upcoming', { state: 'UPCOMING', dates: ['2026-12-20T10:00:00+05:30'] }),
    // Free: a fee without tickets would hold the registration for its payment (API.md Part 4; test/server/payments.test.ts).
    base('open', { state: 'REGISTRATION_OPEN', dates: ['2026-11-24T10:00:00+05:30'] }),
    base('team-open', { state: 'REGISTRATION_OPEN', ma_ppt: 4 }),
    base('closed', { state: 'REGISTRATION_CLOSED' }),
    // First come, first served: imported straight into TICKET_OPEN, a new ticketed event would open with a draw window.
    base('tickets', { state: 'TICKET_OPEN', is_ticket_feature_enabled: true, ticket_count: 2, organizer: 'arts', fair_start: { window_seconds: 0 } }),
    base('tickets-off', { state: 'TICKET_OPEN', is_ticket_feature_enabled: false, ticket_count: 10 }),
    base('ticket-closed', { state: 'TICKET_CLOSED', is_ticket_feature_enabled: true, ticket_count: 10 }),
    base('ongoing', { state: 'ONGOING', registration_type: 'EXTERNAL', external_registration_link: 'https://forms.example.com/x' }),
    base('done', { state: 'COMPLETED' }),
    base('fest', { state: 'REGISTRATION_OPEN', dates: ['2026-11-23T09:00:00+05:30'] }),
    base('fest-b', { state: 'REGISTRATION_OPEN', parent: 'fest', dates: ['2026-11-28T09:00:00+05:30'] }),
    base('fest-a', { state: 'UPCOMING', parent: 'fest', dates: ['2026-11-27T09:00:00+05:30'] }),
  ],
}

describe('event calls', () => {
  let t: TestApp
  let ids: Record<string, number>
  let councilIds: Record<string, number>
  let alice: { id: number; auth: Auth }
  let bob: { id: number; auth: Auth }

  const call = (url: string, auth: Auth | undefined, body: unknown = true) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/event${url}`,
      headers: { 'content-type': 'application/json', ...auth },
      payload: JSON.stringify(body),
    })

  beforeAll(async () => {
    t = await testApp()
    const result = await importCatalogue(t.database.db, CATALOGUE)
    ids = result.events
    councilIds = result.councils
    alice = await t.student({ name: 'Alice', photoUrl: 'https://img.example/alice.png' })
    bob = await t.student({ name: 'Bob' })
  })
  afterAll(() => t.close())

  describe('signed out', () => {
    it.each(['/p/get', '/p/get/me', '/p/get/1', '/p/register-for-event', '/p/claim-ticket', '/p/rate'])(
      '%s answers 401 Invalid Token without a bearer token',
      async (url) => {
        const res = await call(url, undefined, { event_id: 1, rating: 5 })
        expect(res.statusCode).toBe(401)
        expect(res.json()).toEqual({ error: true, message: 'Invalid Token', code: 'INVALID_TOKEN' })
      },
    )

    it('refuses a forged token', async () => {
      const res = await call('/p/get', { authorization: 'Bearer abc.def.ghi' })
      expect(res.statusCode).toBe(401)
    })
  })

  describe('POST /p/get', () => {
    it('groups summaries by state in SPEC order, a key only where non-empty, without long_description', async () => {
      const res = await call('/p/get', alice.auth)
      expect(res.statusCode).toBe(200)
      const body = res.json()
      expect(body.error).toBe(false)
      expect(Object.keys(body.events)).toEqual(['UPCOMING', 'REGISTRATION_OPEN', 'REGISTRATION_CLOSED', 'TICKET_OPEN', 'TICKET_CLOSED', 'ONGOING', 'COMPLETED'])
      const open = body.events.REGISTRATION_OPEN.map((e: any) => e.id)
      // By first date: fest (23rd), open (24th), team-open (25th), fest-b (28th).
      expect(open).toEqual([ids.fest, ids.open, ids['team-open'], ids['fest-b']])
      for (const list of Object.values(body.events) as any[][]) {
        for (const e of list) expect(e).not.toHaveProperty('long_description')
      }
    })

    it('leaves out states with no events', async () => {
      await t.database.db.update(events).set({ state: 'UPCOMING' }).where(eq(events.id, ids.done))
      const body = (await call('/p/get', alice.auth, {})).json()
      expect(body.events).not.toHaveProperty('COMPLETED')
      await t.database.db.update(events).set({ state: 'COMPLETED' }).where(eq(events.id, ids.done))
    })

    it('gives every summary its organizer, children and the exact API.md fields', async () => {
      const body = (await call('/p/get', alice.auth)).json()
      const fest = body.events.REGISTRATION_OPEN.find((e: any) => e.id === ids.fest)
      expect(fest.children).toEqual([{ id: ids['fest-a'] }, { id: ids['fest-b'] }])
      const child = body.events.UPCOMING.find((e: any) => e.id === ids['fest-a'])
      expect(child.parent_id).toBe(ids.fest)
      expect(child.children).toEqual([])
      const tickets = body.events.TICKET_OPEN.find((e: any) => e.id === ids.tickets)
      expect(tickets).toEqual({
        id: ids.tickets,
        name: 'Event tickets',
        description: 'About tickets',
        event_page_image_url: null,
        banner_url: null,
        dates: ['2026-11-25T10:00:00+05:30'],
        venue: 'Main Auditorium',
        tags: ['Tech'],
        organizer: { id: councilIds.arts, name: 'Arts Circle', photo_url: null },
        parent_id: null,
        children: [],
        state: 'TICKET_OPEN',
        fee: 0,
        ma_ppt: 1,
        min_ppt: 1,
        registration_type: 'ONPLATFORM',
        external_registration_link: null,
        start_in_event_activity: false,
        in_event_activity: null,
        is_ticket_feature_enabled: true,
        ticket_count: 2,
        tickets_sold: 0,
        schedule: { registration_opens_at: null, registration_closes_at: null, tickets_open_at: null, tickets_close_at: null, starts_at: null, ends_at: null },
        fair_start: null,
        Participant: false,
      })
    })

    it('accepts the literal body true, {} and an empty body', async () => {
      for (const payload of ['true', '{}', '']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/event/p/get',
          headers: { 'content-type': 'application/json', ...alice.auth },
          payload,
        })
        expect(res.statusCode, payload).toBe(200)
      }
    })
  })

  describe('registration', () => {
    it('registers for an open individual event and shows Participant for that student only', async () => {
      const res = await call('/p/register-for-event', alice.auth, { event_id: ids.open })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ error: false, message: 'Registration Successful!!' })

      const mine = (await call('/p/get', alice.auth)).json().events.REGISTRATION_OPEN.find((e: any) => e.id === ids.open)
      expect(mine.Participant).toEqual({ ticket_collected: false, team: null })
      const theirs = (await call('/p/get', bob.auth)).json().events.REGISTRATION_OPEN.find((e: any) => e.id === ids.open)
      expect(theirs.Participant).toBe(false)
    })

    it('accepts the id as a numeric string', async () => {
      const res = await call('/p/register-for-event', bob.auth, { event_id: String(ids.open) })
      expect(res.statusCode).toBe(200)
    })

    it('answers 409 to a second registration and keeps one row', async () => {
      const res = await call('/p/register-for-event', alice.auth, { event_id: ids.open })
      expect(res.statusCode).toBe(409)
      expect(res.json()).toEqual({ error: true, message: 'You are already registered for this event.', code: 'ALREADY_REGISTERED' })
      const rows = await t.database.db
        .select()
        .from(participants)
        .where(and(eq(participants.eventId, ids.open), eq(participants.userId, alice.id)))
      expect(rows).toHaveLength(1)
    })

    it('lets ten simultaneous registrations of one student make exactly one row', async () => {
      const carol = await t.student()
      const answers = await Promise.all(Array.from({ length: 10 }, () => call('/p/register-for-event', carol.auth, { event_id: ids.open })))
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, ...Array(9).fill(409)])
      const rows = await t.database.db
        .select()
        .from(participants)
        .where(and(eq(participants.eventId, ids.open), eq(participants.userId, carol.id)))
      expect(rows).toHaveLength(1)
    })

    it.each([
      ['upcoming', 'REGISTRATION_NOT_OPEN', 'Registration is not open for this event.'],
      ['closed', 'REGISTRATION_NOT_OPEN', 'Registration is not open for this event.'],
      ['tickets', 'REGISTRATION_NOT_OPEN', 'Registration is not open for this event.'],
      ['done', 'REGISTRATION_NOT_OPEN', 'Registration is not open for this event.'],
      ['team-open', 'TEAM_EVENT', 'This is a team event: create or join a team to register.'],
    ])('refuses %s with 403 and writes nothing', async (slug, code, message) => {
      const res = await call('/p/register-for-event', bob.auth, { event_id: ids[slug] })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ error: true, message, code })
      const rows = await t.database.db.select().from(participants).where(eq(participants.eventId, ids[slug]))
      expect(rows).toHaveLength(0)
    })

    it('answers 404 for an unknown event', async () => {
      const res = await call('/p/register-for-event', bob.auth, { event_id: 999_999 })
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ error: true, message: 'Event not found.', code: 'EVENT_NOT_FOUND' })
    })

    it.each([
      [{}, 'event_id is a required field'],
      [true, 'event_id is a required field'],
      [{ event_id: 'abc' }, 'event_id must be a positive whole number'],
      [{ event_id: -3 }, 'event_id must be a positive whole number'],
      [{ event_id: 1.5 }, 'event_id must be a positive whole number'],
      [{ event_id: [1] }, 'event_id must be a positive whole number'],
      [{ event_id: 1e300 }, 'event_id must be a positive whole number'],
      [{ event_id: 2147483648 }, 'event_id must be a positive whole number'],
    ])('answers 400 to the body %j', async (body, message) => {
      const res = await call('/p/register-for-event', bob.auth, body)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: true, message, code: 'INVALID_INPUT' })
    })
  })

  describe('claim-ticket', () => {
    let dave: { id: number; auth: Auth }
    let erin: { id: number; auth: Auth }
    let frank: { id: number; auth: Auth }
    beforeAll(async () => {
      ;[dave, erin, frank] = [await t.student(), await t.student(), await t.student()]
      await t.database.db.insert(participants).values([
        { eventId: ids.tickets, userId: dave.id },
        { eventId: ids.tickets, userId: erin.id },
        { eventId: ids.tickets, userId: frank.id },
        { eventId: ids['tickets-off'], userId: dave.id },
        { eventId: ids['ticket-closed'], userId: dave.id },
      ])
    })

    it('refuses a student who is not registered with 403', async () => {
      const res = await call('/p/claim-ticket', alice.auth, { event_id: ids.tickets })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ error: true, message: 'You are not registered for this event.', code: 'NOT_REGISTERED' })
    })

    it('gives a registered student a 16-digit ticket code, stored and counted', async () => {
      const res = await call('/p/claim-ticket', dave.auth, { event_id: ids.tickets })
      expect(res.statusCode).toBe(200)
      const body = res.json()
      expect(body).toEqual({ error: false, result: 'CLAIMED', message: 'Ticket claimed!', ticket_code: expect.stringMatching(/^\d{16}$/) })
      const [row] = await t.database.db
        .select()
        .from(participants)
        .where(and(eq(participants.eventId, ids.tickets), eq(participants.userId, dave.id)))
      expect(row).toMatchObject({ ticketCollected: true, ticketCode: body.ticket_code })
      expect(row.ticketCollectedAt).toBeInstanceOf(Date)
      const [event] = await t.database.db.select().from(events).where(eq(events.id, ids.tickets))
      expect(event.ticketsSold).toBe(1)

      const detail = (await call(`/p/get/${ids.tickets}`, dave.auth)).json().event
      expect(detail.Participant).toMatchObject({ ticket_collected: true, ticket_code: body.ticket_code, team: null })
      expect(detail.tickets_sold).toBe(1)
    })

    it('answers 409 to a second claim by the same student and does not count it', async () => {
      const res = await call('/p/claim-ticket', dave.auth, { event_id: ids.tickets })
      expect(res.statusCode).toBe(409)
      expect(res.json()).toEqual({ error: true, message: 'You already have a ticket for this event.', code: 'ALREADY_HAS_TICKET' })
      const [event] = await t.database.db.select().from(events).where(eq(events.id, ids.tickets))
      expect(event.ticketsSold).toBe(1)
    })

    it('sells the last ticket, then answers 409 sold out and leaves the student without a code', async () => {
      expect((await call('/p/claim-ticket', erin.auth, { event_id: ids.tickets })).statusCode).toBe(200)
      const res = await call('/p/claim-ticket', frank.auth, { event_id: ids.tickets })
      expect(res.statusCode).toBe(409)
      expect(res.json()).toEqual({ error: true, message: 'Tickets are sold out.', code: 'SOLD_OUT' })
      const [row] = await t.database.db
        .select()
        .from(participants)
        .where(and(eq(participants.eventId, ids.tickets), eq(participants.userId, frank.id)))
      expect(row).toMatchObject({ ticketCollected: false, ticketCode: null })
      const [event] = await t.database.db.select().from(events).where(eq(events.id, ids.tickets))
      expect(event.ticketsSold).toBe(2)
    })

    it.each([
      ['tickets-off', 'ticket feature disabled'],
      ['ticket-closed', 'TICKET_CLOSED'],
      ['open', 'REGISTRATION_OPEN'],
      ['done', 'COMPLETED'],
    ])('refuses %s (%s) with 403', async (slug) => {
      const res = await call('/p/claim-ticket', dave.auth, { event_id: ids[slug] })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ error: true, message: 'Tickets are not open for this event.', code: 'TICKETS_NOT_OPEN' })
      const rows = await t.database.db
        .select()
        .from(participants)
        .where(and(eq(participants.eventId, ids[slug]), eq(participants.ticketCollected, true)))
      expect(rows).toHaveLength(0)
    })

    it('answers 404 for an unknown event and 400 for a missing id', async () => {
      expect((await call('/p/claim-ticket', dave.auth, { event_id: 424242 })).statusCode).toBe(404)
      const res = await call('/p/claim-ticket', dave.auth, {})
      expect(res.statusCode).toBe(400)
      expect(res.json().message).toBe('event_id is a required field')
    })
  })

  describe('rate', () => {
    let gina: { id: number; auth: Auth }
    beforeAll(async () => {
      gina = await t.student()
      await t.database.db.insert(participants).values([
        { eventId: ids.done, userId: gina.id },
        { eventId: ids.closed, userId: gina.id },
      ])
    })
    const ratingOf = async (userId: number, eventId: number) =>
      (
        await t.database.db
          .select()
          .from(participants)
          .where(and(eq(participants.eventId, eventId), eq(participants.userId, userId)))
      )[0]?.rating

    it('records a rating of a completed event, and a second one replaces the first', async () => {
      let res = await call('/p/rate', gina.auth, { event_id: ids.done, rating: 4 })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ error: false, message: 'Thank you for your feedback!' })
      expect(await ratingOf(gina.id, ids.done)).toBe(4)
      res = await call('/p/rate', gina.auth, { event_id: ids.done, rating: '2' })
      expect(res.statusCode).toBe(200)
      expect(await ratingOf(gina.id, ids.done)).toBe(2)
    })

    it("gives the caller's own rating in the detail's Participant (null before rating), never another student's", async () => {
      const [hari, ila] = [await t.student(), await t.student()]
      await t.database.db.insert(participants).values([
        { eventId: ids.done, userId: hari.id },
        { eventId: ids.done, userId: ila.id },
      ])
      const ratingShown = async (auth: Auth) => (await call(`/p/get/${ids.done}`, auth)).json().event.Participant.rating
      expect(await ratingShown(hari.auth)).toBeNull()
      expect((await call('/p/rate', ila.auth, { event_id: ids.done, rating: 5 })).statusCode).toBe(200)
      expect(await ratingShown(ila.auth)).toBe(5)
      expect(await ratingShown(hari.auth)).toBeNull()
      expect((await call('/p/rate', hari.auth, { event_id: ids.done, rating: 1 })).statusCode).toBe(200)
      expect(await ratingShown(hari.auth)).toBe(1)
      expect(await ratingShown(ila.auth)).toBe(5)
    })

    it.each([0, 6, 3.5, -1, '4.0', 'five', null, undefined, [3], { v: 3 }, true])('refuses the rating %j with 400', async (rating) => {
      const res = await call('/p/rate', gina.auth, { event_id: ids.done, rating })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: true, message: 'Rating must be a whole number from 1 to 5.', code: 'INVALID_INPUT' })
      expect(await ratingOf(gina.id, ids.done)).toBe(2)
    })

    it('refuses an event that is not completed with 403, even for a participant', async () => {
      const res = await call('/p/rate', gina.auth, { event_id: ids.closed, rating: 5 })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ error: true, message: 'You can rate an event once it is completed.', code: 'EVENT_NOT_COMPLETED' })
      expect(await ratingOf(gina.id, ids.closed)).toBeNull()
    })

    it('refuses a student who did not take part with 403 and writes nothing', async () => {
      const res = await call('/p/rate', bob.auth, { event_id: ids.done, rating: 5 })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ error: true, message: 'Only participants of this event can rate it.', code: 'NOT_PARTICIPANT' })
      const rows = await t.database.db.select().from(participants).where(eq(participants.userId, bob.id))
      expect(rows.every((r) => r.rating === null)).toBe(true)
    })

    it('answers 404 for an unknown event', async () => {
      const res = await call('/p/rate', gina.auth, { event_id: 777_777, rating: 5 })
      expect(res.statusCode).toBe(404)
      expect(res.json().message).toBe('Event not found.')
    })
  })

  describe('POST /p/get/:id', () => {
    it('gives the detail with long_description and Participant false for a stranger', async () => {
      const res = await call(`/p/get/${ids.fest}`, bob.auth)
      expect(res.statusCode).toBe(200)
      const { event } = res.json()
      expect(event).toMatchObject({
        id: ids.fest,
        long_description: 'All about fest',
        organizer: { id: councilIds.csi, name: 'CSI-KJSCE', photo_url: '/demo/council-csi.svg' },
        children: [{ id: ids['fest-a'] }, { id: ids['fest-b'] }],
        Participant: false,
      })
    })

    it('gives a registered student their participation with a null ticket code', async () => {
      const { event } = (await call(`/p/get/${ids.open}`, alice.auth)).json()
      expect(event.Participant).toEqual({
        id: expect.any(Number),
        ticket_collected: false,
        ticket_code: null,
        ticket_secret: null,
        team: null,
        checked_in_at: null,
        rating: null,
        waitlist: null,
        answers: {},
        draw: null,
      })
    })

    it('gives a team member the whole team, leader first, then by joining order', async () => {
      const [leader, early, late] = [await t.student({ name: 'Lead' }), await t.student({ name: 'Early' }), await t.student({ name: 'Late' })]
      const db = t.database.db
      const [team] = await db.insert(teams).values({ eventId: ids['team-open'], name: 'Byte Me', inviteCode: 'aB3dE', leaderId: leader.id }).returning()
      // The leader joined last here, to prove the order puts the leader first whatever the time.
      await db.insert(participants).values({ eventId: ids['team-open'], userId: early.id, teamId: team.id, createdAt: new Date('2026-01-01T00:00:00Z') })
      await db.insert(participants).values({ eventId: ids['team-open'], userId: late.id, teamId: team.id, createdAt: new Date('2026-01-02T00:00:00Z') })
      await db.insert(participants).values({ eventId: ids['team-open'], userId: leader.id, teamId: team.id, createdAt: new Date('2026-01-03T00:00:00Z') })

      const { event } = (await call(`/p/get/${ids['team-open']}`, late.auth)).json()
      expect(event.Participant).toEqual({
        id: expect.any(Number),
        ticket_collected: false,
        ticket_code: null,
        ticket_secret: null,
        team: {
          id: team.id,
          name: 'Byte Me',
          invite_code: 'aB3dE',
          leader_id: leader.id,
          Participant: [
            { user: { id: leader.id, name: 'Lead', photo_url: null } },
            { user: { id: early.id, name: 'Early', photo_url: null } },
            { user: { id: late.id, name: 'Late', photo_url: null } },
          ],
        },
        checked_in_at: null,
        rating: null,
        waitlist: null,
        answers: {},
        draw: null,
      })

      // The list shows the team as {id, name} only.
      const summary = (await call('/p/get', early.auth)).json().events.REGISTRATION_OPEN.find((e: any) => e.id === ids['team-open'])
      expect(summary.Participant).toEqual({ ticket_collected: false, team: { id: team.id, name: 'Byte Me' } })
      // A student outside the team sees no team and no invite code.
      const outside = (await call(`/p/get/${ids['team-open']}`, bob.auth)).json().event
      expect(outside.Participant).toBe(false)
      expect(JSON.stringify(outside)).not.toContain('aB3dE')
    })

    it.each(['999999', 'abc', '-1', '0', '1.5', '2147483648', '99999999999', '99999999999999999999', '%20', '1e3'])(
      'answers 404 Event not found for /p/get/%s',
      async (id) => {
        const res = await call(`/p/get/${id}`, alice.auth)
        expect(res.statusCode).toBe(404)
        expect(res.json()).toEqual({ error: true, message: 'Event not found.', code: 'EVENT_NOT_FOUND' })
      },
    )
  })

  describe('POST /p/get/me', () => {
    it('lists the caller’s participations with their event summaries', async () => {
      const hank = await t.student()
      expect((await call('/p/get/me', hank.auth)).json()).toEqual({ error: false, events: [] })
      await call('/p/register-for-event', hank.auth, { event_id: ids['fest-b'] })
      await t.database.db.insert(participants).values({ eventId: ids.done, userId: hank.id })
      const res = await call('/p/get/me', hank.auth)
      expect(res.statusCode).toBe(200)
      const list = res.json().events
      expect(list.map((p: any) => p.event.id)).toEqual([ids['fest-b'], ids.done])
      expect(list[0]).toEqual({
        id: expect.any(Number),
        ticket_collected: false,
        team: null,
        // Part 2 (issue 13): when the door checked the student in, for the certificate in My Events.
        checked_in_at: null,
        event: expect.objectContaining({ id: ids['fest-b'], parent_id: ids.fest, children: [], Participant: { ticket_collected: false, team: null } }),
      })
      expect(list[0].event).not.toHaveProperty('long_description')
    })

    it('shows a parent’s children in my events too', async () => {
      const ivy = await t.student()
      await t.database.db.insert(participants).values({ eventId: ids.fest, userId: ivy.id })
      const [mine] = (await call('/p/get/me', ivy.auth)).json().events
      expect(mine.event.children).toEqual([{ id: ids['fest-a'] }, { id: ids['fest-b'] }])
    })
  })
})
