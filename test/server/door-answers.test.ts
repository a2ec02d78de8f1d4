// "Show at the door" (issue 25 item 4): an organiser marks a registration question, its answers come with the
// door's verdict (online check-in, its repeats, the sync) and with the offline list's tickets, as the holder's
// own answers (a team member's, not the leader's); the answers to any other question never reach the door.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { doorPost, doorWorld, type DoorWorld } from './door-fixtures.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

/** Answers that must never reach the door: none of them is a door question's. */
const PRIVATE = ['9876543210-private', 'peanut-allergy-private', 'my-secret-github']

describe.each(DB_KINDS)('"show at the door" answers on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind })
  }, 60_000)
  afterAll(() => t?.close())

  async function save(w: DoorWorld, questions: unknown[]) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/org/p/event/save',
      headers: { 'content-type': 'application/json', ...w.users.organiser.auth },
      payload: JSON.stringify({ id: w.eventId, questions }),
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().event.questions as { id: string; label: string; show_at_door?: boolean }[]
  }

  /** The world's event with three questions (two shown at the door), and each holder's answers. */
  async function world(options: { teamName?: string } = {}) {
    const w = await doorWorld(t, { holders: 3, ...options })
    const questions = await save(w, [
      { label: 'Phone for the team', kind: 'TEXT', required: false },
      { label: 'T-shirt size', kind: 'CHOICE', options: ['S', 'M', 'L'], show_at_door: true },
      { label: 'Allergies', kind: 'TEXT', show_at_door: false },
      { label: 'Food', kind: 'CHOICE', options: ['Veg', 'Non-veg'], show_at_door: true },
    ])
    const [phone, shirt, allergy, food] = questions.map((q) => q.id)
    const answers = [
      { [phone]: PRIVATE[0], [shirt]: 'M', [allergy]: PRIVATE[1], [food]: 'Veg' },
      { [phone]: PRIVATE[2], [shirt]: 'L' }, // no food answer: not listed
      {}, // nothing answered: no door_answers at all
    ]
    for (let i = 0; i < answers.length; i++)
      await t.database.db.update(schema.participants).set({ answers: answers[i] }).where(eq(schema.participants.ticketCode, w.codes[i]))
    return { w, questions, ids: { phone, shirt, allergy, food } }
  }

  const scan = (w: DoorWorld, code: string, scanId: string = randomUUID()) =>
    doorPost(t, 'check-in', { event_id: w.eventId, ticket_code: code, scan_id: scanId, gate: 'North' }, w.users.door.auth)
  const noPrivate = (body: unknown) => {
    const text = JSON.stringify(body)
    for (const p of PRIVATE) expect(text).not.toContain(p)
    expect(text).not.toContain('Phone for the team')
    expect(text).not.toContain('Allergies')
  }

  it('the flag is stored with the question (false unless sent) and given back to the console', async () => {
    const { questions } = await world()
    expect(questions.map((q) => [q.label, q.show_at_door])).toEqual([
      ['Phone for the team', false],
      ['T-shirt size', true],
      ['Allergies', false],
      ['Food', true],
    ])
    const w = await doorWorld(t)
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/v1/org/p/event/save',
      headers: { 'content-type': 'application/json', ...w.users.organiser.auth },
      payload: JSON.stringify({ id: w.eventId, questions: [{ label: 'Size', kind: 'TEXT', show_at_door: 'yes' }] }),
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toBe('questions: show_at_door must be true or false')
    const [row] = await t.database.db.select({ questions: schema.events.questions }).from(schema.events).where(eq(schema.events.id, w.eventId))
    expect(row.questions).toEqual([])
  })

  it('online: CHECKED_IN, ALREADY_CHECKED_IN and a repeated scan_id carry only the marked answers, in the questions’ order', async () => {
    const { w } = await world()
    const scanId = randomUUID()
    const first = await scan(w, w.codes[0], scanId)
    expect(first.status).toBe(200)
    expect(first.body.attendee.door_answers).toEqual([
      { label: 'T-shirt size', answer: 'M' },
      { label: 'Food', answer: 'Veg' },
    ])
    noPrivate(first.body)
    const again = await scan(w, w.codes[0])
    expect(again.status).toBe(409)
    expect(again.body.attendee.door_answers).toEqual(first.body.attendee.door_answers)
    noPrivate(again.body)
    expect((await scan(w, w.codes[0], scanId)).body).toEqual(first.body)
    // An unanswered door question is left out; no answer at all, no field.
    const second = await scan(w, w.codes[1])
    expect(second.body.attendee.door_answers).toEqual([{ label: 'T-shirt size', answer: 'L' }])
    noPrivate(second.body)
    const third = await scan(w, w.codes[2])
    expect(third.status).toBe(200)
    expect(third.body.attendee).not.toHaveProperty('door_answers')
  })

  it('the offline list carries each ticket’s marked answers and no other, and the sync answers with them', async () => {
    const { w } = await world()
    const list = await doorPost(t, 'tickets', { event_id: w.eventId }, w.users.door.auth)
    expect(list.status).toBe(200)
    const byCode = new Map(list.body.tickets.map((x: { ticket_code: string }) => [x.ticket_code, x]))
    expect(byCode.get(w.codes[0])).toMatchObject({
      door_answers: [
        { label: 'T-shirt size', answer: 'M' },
        { label: 'Food', answer: 'Veg' },
      ],
    })
    expect(byCode.get(w.codes[1])).toMatchObject({ door_answers: [{ label: 'T-shirt size', answer: 'L' }] })
    expect(byCode.get(w.codes[2])).not.toHaveProperty('door_answers')
    noPrivate(list.body)
    const synced = await doorPost(
      t,
      'sync',
      { event_id: w.eventId, scans: [{ ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'East', scanned_at: new Date().toISOString() }] },
      w.users.door.auth,
    )
    expect(synced.status).toBe(200)
    expect(synced.body.results[0]).toMatchObject({ result: 'CHECKED_IN', attendee: { door_answers: [{ label: 'T-shirt size' }, { label: 'Food' }] } })
    noPrivate(synced.body)
  })

  it('a team event shows the answers of the member holding the ticket (the holder’s own, not the leader’s)', async () => {
    const { w, ids } = await world({ teamName: 'Owls' })
    // Holder 1 is in the team whose leader is another student with answers of their own.
    const [team] = await t.database.db.select({ leaderId: schema.teams.leaderId }).from(schema.teams).where(eq(schema.teams.id, w.teamId!))
    await t.database.db.insert(schema.participants).values({ eventId: w.eventId, userId: team.leaderId, teamId: w.teamId, answers: { [ids.shirt]: 'S' } })
    const answer = await scan(w, w.codes[0])
    expect(answer.body.attendee).toMatchObject({ team: { name: 'Owls' }, door_answers: [{ label: 'T-shirt size', answer: 'M' }, { label: 'Food' }] })
  })

  it('a question unmarked later stops reaching the door, on a repeated scan_id too', async () => {
    const { w, questions } = await world()
    const scanId = randomUUID()
    expect((await scan(w, w.codes[0], scanId)).body.attendee.door_answers).toHaveLength(2)
    await save(
      w,
      questions.map((q) => ({ ...q, show_at_door: false })),
    )
    const replay = await scan(w, w.codes[0], scanId)
    expect(replay.status).toBe(200)
    expect(replay.body.attendee).not.toHaveProperty('door_answers')
    const list = await doorPost(t, 'tickets', { event_id: w.eventId }, w.users.door.auth)
    expect(JSON.stringify(list.body)).not.toContain('door_answers')
  })
})
