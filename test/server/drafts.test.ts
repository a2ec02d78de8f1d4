// API.md Part 2, "Event lifecycle": a DRAFT exists only in the console. Students get 404 for it and never see
// it in a list (the grouped list, My Events, a parent's children), and no student write reaches it.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { testApp, type TestApp } from './helpers.ts'
import { makeEvent, post, setState } from './teams-fixtures.ts'

describe('drafts are invisible to students', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp()
  }, 60_000)
  afterAll(() => t.close())

  it('404 for the draft, absent from every list, and every write refused without a change', async () => {
    const parent = await makeEvent(t, { maPpt: 1 })
    const draft = await makeEvent(t, { maPpt: 1 })
    await t.database.db.update(schema.events).set({ parentId: parent, isTicketFeatureEnabled: true, ticketCount: 5 }).where(eq(schema.events.id, draft))
    const student = await t.student()
    // Registered while it was open, then moved back to DRAFT by an organiser.
    expect((await post(t, 'register-for-event', { event_id: draft }, student.auth)).status).toBe(200)
    await setState(t, draft, 'DRAFT')

    const detail = await post(t, `get/${draft}`, true, student.auth)
    expect(detail.status).toBe(404)
    expect(detail.body).toEqual({ error: true, message: 'Event not found.', code: 'EVENT_NOT_FOUND' })
    const list = await post(t, 'get', true, student.auth)
    const listed = Object.values(list.body.events as Record<string, { id: number }[]>)
      .flat()
      .map((e) => e.id)
    expect(listed).toContain(parent)
    expect(listed).not.toContain(draft)
    expect(Object.keys(list.body.events)).not.toContain('DRAFT')
    const parentDetail = await post(t, `get/${parent}`, true, student.auth)
    expect(parentDetail.body.event.children).toEqual([])
    const mine = await post(t, 'get/me', true, student.auth)
    expect(mine.body.events.map((p: { event: { id: number } }) => p.event.id)).not.toContain(draft)

    for (const [path, body] of [
      ['register-for-event', { event_id: draft }],
      ['claim-ticket', { event_id: draft }],
      ['rate', { event_id: draft, rating: 5 }],
    ] as const) {
      const res = await post(t, path, body, (await t.student()).auth)
      expect(res.status, path).toBeGreaterThanOrEqual(400)
      expect(res.status, path).toBeLessThan(500)
    }
    const [row] = await t.database.db.select({ sold: schema.events.ticketsSold }).from(schema.events).where(eq(schema.events.id, draft))
    expect(row.sold).toBe(0)
  })
})
