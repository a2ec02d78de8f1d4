// Registration questions (API.md Part 2): register-for-event, create-team/ and join-team/ check the answers against
// the event's questions (400 naming the question's label, nothing written), store them, and the event's details
// carry the questions and the caller's answers.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkAnswers } from '../../contract/questions.ts'
import { schema } from '../../server/db/index.ts'
import { testApp, type TestApp } from './helpers.ts'
import { makeEvent, post } from './teams-fixtures.ts'

const QUESTIONS = [
  { id: 'gh', label: 'GitHub', kind: 'URL', options: [], required: true },
  { id: 'stack', label: 'Tech stack', kind: 'TEXT', options: [], required: false },
  { id: 'track', label: 'Track', kind: 'CHOICE', options: ['Web', 'AI'], required: true },
]

describe('registration questions', () => {
  let t: TestApp
  beforeAll(async () => (t = await testApp()), 120_000)
  afterAll(() => t.close())

  async function eventWithQuestions(maPpt: number) {
    const id = await makeEvent(t, { maPpt })
    await t.database.db.update(schema.events).set({ questions: QUESTIONS }).where(eq(schema.events.id, id))
    return id
  }
  const rows = async (eventId: number) => t.database.db.select().from(schema.participants).where(eq(schema.participants.eventId, eventId))

  it.each([
    [{}, 'GitHub is a required field'],
    [{ gh: 'github.com/me', track: 'Web' }, 'GitHub must be an http or https link'],
    [{ gh: 'https://github.com/me', track: 'Cooking' }, 'Track must be one of: Web, AI'],
    [{ gh: 'https://github.com/me', track: 'AI', stack: 'x'.repeat(201) }, 'Tech stack must be at most 200 characters'],
    [{ gh: 42, track: 'AI' }, 'GitHub must be text'],
  ])('register-for-event with %j: 400 "%s", nothing written', async (answers, message) => {
    const eventId = await eventWithQuestions(1)
    const s = await t.student()
    const res = await post(t, 'register-for-event', { event_id: eventId, answers }, s.auth)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: true, message, code: 'INVALID_ANSWER' })
    expect(await rows(eventId)).toEqual([])
  })

  it('answers as long as their limits allow, in Devanagari (3 bytes a character), fit the body limit of these calls', async () => {
    const id = await makeEvent(t, { maPpt: 1 })
    const long = Array.from({ length: 10 }, (_, i) => ({ id: `l${i}`, label: `Essay ${i}`, kind: 'LONG_TEXT' as const, options: [], required: true }))
    await t.database.db.update(schema.events).set({ questions: long }).where(eq(schema.events.id, id))
    const answers = Object.fromEntries(long.map((q) => [q.id, 'न'.repeat(2_000)]))
    const s = await t.student()
    const res = await post(t, 'register-for-event', { event_id: id, answers }, s.auth)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect((await rows(id))[0]!.answers).toEqual(answers)
  })

  it('answers not an object: 400 naming answers', async () => {
    const eventId = await eventWithQuestions(1)
    const s = await t.student()
    const res = await post(t, 'register-for-event', { event_id: eventId, answers: 'hi' }, s.auth)
    expect(res).toMatchObject({ status: 400, body: { message: 'answers must be an object of answers by question id' } })
  })

  it('stores the answers (trimmed, only the event’s questions) and shows them in the details', async () => {
    const eventId = await eventWithQuestions(1)
    const s = await t.student()
    const res = await post(t, 'register-for-event', { event_id: eventId, answers: { gh: ' https://github.com/me ', track: 'AI', other: 'x' } }, s.auth)
    expect(res.status).toBe(200)
    const [row] = await rows(eventId)
    expect(row!.answers).toEqual({ gh: 'https://github.com/me', track: 'AI' })
    const detail = await post(t, `get/${eventId}`, {}, s.auth)
    expect(detail.body.event.questions).toEqual(QUESTIONS)
    expect(detail.body.event.Participant.answers).toEqual({ gh: 'https://github.com/me', track: 'AI' })
  })

  it('create-team/ and join-team/ check and store the answers too', async () => {
    const eventId = await eventWithQuestions(3)
    const [leader, member] = [await t.student(), await t.student()]
    const bad = await post(t, 'create-team/', { event_id: eventId, team_name: 'Alpha', answers: { gh: 'https://x.org' } }, leader.auth)
    expect(bad).toMatchObject({ status: 400, body: { message: 'Track is a required field' } })
    expect(await t.database.db.select().from(schema.teams).where(eq(schema.teams.eventId, eventId))).toEqual([])
    const ok = await post(t, 'create-team/', { event_id: eventId, team_name: 'Alpha', answers: { gh: 'https://x.org', track: 'Web' } }, leader.auth)
    expect(ok.status).toBe(200)
    const code = ok.body.team.invite_code
    const badJoin = await post(t, 'join-team/', { event_id: eventId, invite_code: code, answers: { track: 'Web' } }, member.auth)
    expect(badJoin).toMatchObject({ status: 400, body: { message: 'GitHub is a required field' } })
    const join = await post(t, 'join-team/', { event_id: eventId, invite_code: code, answers: { gh: 'http://y.org', track: 'AI' } }, member.auth)
    expect(join.status).toBe(200)
    const stored = (await rows(eventId)).map((r) => r.answers).sort((a: any, b: any) => a.gh.localeCompare(b.gh))
    expect(stored).toEqual([
      { gh: 'http://y.org', track: 'AI' },
      { gh: 'https://x.org', track: 'Web' },
    ])
  })

  it('an event without questions takes no answers and needs none', async () => {
    const eventId = await makeEvent(t, { maPpt: 1 })
    const s = await t.student()
    expect((await post(t, 'register-for-event', { event_id: eventId }, s.auth)).status).toBe(200)
  })

  it('checkAnswers: the same rules for the forms', () => {
    expect(checkAnswers(QUESTIONS as any, { gh: 'https://a.b', track: 'Web', stack: '  ' })).toEqual({ answers: { gh: 'https://a.b', track: 'Web' } })
  })
})
