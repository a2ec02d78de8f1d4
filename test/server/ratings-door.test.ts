// Ratings, tightened (API.md Part 2; issue 10 and issue 12): where tickets were enabled only ticket holders may
// rate, and once the door has checked anyone in at the event, only those checked in. The event's detail says
// whether the door checked anyone in, so the app offers stars only where the rating will be accepted.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { MESSAGES } from '../../server/routes/outcomes.ts'
import { doorWorld } from './door-fixtures.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

describe.each(DB_KINDS)('who may rate on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind })
  }, 60_000)
  afterAll(() => t?.close())

  const rate = async (eventId: number, auth: { authorization: string }) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/event/p/rate', headers: auth, payload: { event_id: eventId, rating: 5 } })
    return { status: res.statusCode, message: res.json().message }
  }
  const complete = (eventId: number) => t.database.db.update(schema.events).set({ state: 'COMPLETED' }).where(eq(schema.events.id, eventId))
  const detail = async (eventId: number, auth: { authorization: string }) =>
    (await t.app.inject({ method: 'POST', url: `/api/v1/event/p/get/${eventId}`, headers: auth })).json().event

  it('a ticketed event nobody was checked in at: ticket holders may rate, a registered student without a ticket may not', async () => {
    const w = await doorWorld(t)
    await complete(w.eventId)
    expect(await rate(w.eventId, w.registered.auth)).toEqual({ status: 403, message: MESSAGES.noTicket })
    expect(await rate(w.eventId, w.people[0].auth)).toEqual({ status: 200, message: MESSAGES.rated })
    expect((await detail(w.eventId, w.people[0].auth)).door_checked_in).toBe(false)
  })

  it('once the door checked anyone in: only those checked in may rate', async () => {
    const w = await doorWorld(t)
    const scan = await t.app.inject({
      method: 'POST',
      url: '/api/v1/door/p/check-in',
      headers: w.users.door.auth,
      payload: { event_id: w.eventId, ticket_code: w.codes[0], scan_id: crypto.randomUUID(), gate: 'North' },
    })
    expect(scan.statusCode).toBe(200)
    await complete(w.eventId)
    expect(await rate(w.eventId, w.people[1].auth)).toEqual({ status: 403, message: MESSAGES.notCheckedInToRate })
    expect(await rate(w.eventId, w.registered.auth)).toEqual({ status: 403, message: MESSAGES.noTicket })
    expect(await rate(w.eventId, w.users.student.auth)).toEqual({ status: 403, message: MESSAGES.notParticipant })
    expect(await rate(w.eventId, w.people[0].auth)).toEqual({ status: 200, message: MESSAGES.rated })
    const [p] = await t.database.db
      .select({ rating: schema.participants.rating })
      .from(schema.participants)
      .where(eq(schema.participants.userId, w.people[1].id))
    expect(p.rating).toBeNull()
    const seen = await detail(w.eventId, w.people[1].auth)
    expect(seen.door_checked_in).toBe(true)
    expect(seen.Participant.checked_in_at).toBeNull()
    expect((await detail(w.eventId, w.people[0].auth)).Participant.checked_in_at).toEqual(expect.any(String))
  })
})
