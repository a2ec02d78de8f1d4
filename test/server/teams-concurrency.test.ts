// The team rules that can race, on every database kind (PostgreSQL too when TEST_DATABASE_URL is set, where
// transactions really run side by side): no team past ma_ppt, one team per name, one membership per event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Team } from '../../contract/types.ts'
import { TEAM_MESSAGES as M } from '../../server/routes/outcomes.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'
import { makeEvent, post, snapshot, teamMembers } from './teams-fixtures.ts'

type Answer = Awaited<ReturnType<typeof post>>
const tally = (answers: Answer[]) => {
  const byStatus: Record<number, number> = {}
  for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1
  return byStatus
}

describe.each(DB_KINDS)('team races on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind })
  })
  afterAll(() => t.close())

  async function team(eventId: number, name: string) {
    const leader = await t.student()
    const res = await post(t, 'create-team/', { event_id: eventId, team_name: name }, leader.auth)
    expect(res.status).toBe(200)
    return { leader, team: res.body.team as Team }
  }

  it('20 simultaneous joins (20 students) to a team of ma_ppt 4 with one member: exactly 4 members, 17 refused as full', async () => {
    for (let round = 0; round < 3; round++) {
      const eventId = await makeEvent(t, { maPpt: 4 })
      const { leader, team: target } = await team(eventId, 'Quad')
      const joiners = await Promise.all(Array.from({ length: 20 }, () => t.student()))
      const answers = await Promise.all(joiners.map((s) => post(t, 'join-team/', { event_id: eventId, invite_code: target.invite_code }, s.auth)))
      // 1 leader + 3 joiners = ma_ppt 4; the other 17 are refused (20 - 3).
      expect(tally(answers)).toEqual({ 200: 3, 409: 17 })
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body).toEqual({ error: true, message: M.full, code: 'TEAM_FULL' })
      const members = await teamMembers(t, target.id)
      expect(members).toHaveLength(4)
      expect(members).toContain(leader.id)
      const accepted = joiners.filter((_, i) => answers[i].status === 200).map((s) => s.id)
      expect(members.sort()).toEqual([leader.id, ...accepted].sort())
    }
  })

  it('two simultaneous create-team calls with one name (two students) end with one team', async () => {
    for (let round = 0; round < 5; round++) {
      const eventId = await makeEvent(t)
      const [a, b] = [await t.student(), await t.student()]
      const answers = await Promise.all([
        post(t, 'create-team/', { event_id: eventId, team_name: 'Twins' }, a.auth),
        post(t, 'create-team/', { event_id: eventId, team_name: 'TWINS' }, b.auth),
      ])
      expect(tally(answers)).toEqual({ 200: 1, 409: 1 })
      expect(answers.find((x) => x.status === 409)!.body.message).toBe(M.nameTaken)
      const after = await snapshot(t, eventId)
      expect(after.teams).toHaveLength(1)
      // Only the winner is registered: the loser's participant row went with its rolled-back transaction.
      expect(after.members).toEqual([{ userId: after.teams[0].leaderId, teamId: after.teams[0].id }])
    }
  })

  it('one student creating two teams at once (two names) ends with one team and one registration', async () => {
    for (let round = 0; round < 5; round++) {
      const eventId = await makeEvent(t)
      const s = await t.student()
      const answers = await Promise.all([
        post(t, 'create-team/', { event_id: eventId, team_name: 'Left' }, s.auth),
        post(t, 'create-team/', { event_id: eventId, team_name: 'Right' }, s.auth),
      ])
      expect(tally(answers)).toEqual({ 200: 1, 409: 1 })
      expect(answers.find((x) => x.status === 409)!.body.message).toBe(M.alreadyRegistered)
      const after = await snapshot(t, eventId)
      expect(after.teams).toHaveLength(1)
      expect(after.members).toEqual([{ userId: s.id, teamId: after.teams[0].id }])
    }
  })

  it('one student joining two teams of one event at once ends with one membership', async () => {
    for (let round = 0; round < 5; round++) {
      const eventId = await makeEvent(t)
      const [x, y] = [await team(eventId, 'Xray'), await team(eventId, 'Yankee')]
      const s = await t.student()
      const answers = await Promise.all([
        post(t, 'join-team/', { event_id: eventId, invite_code: x.team.invite_code }, s.auth),
        post(t, 'join-team/', { event_id: eventId, invite_code: y.team.invite_code }, s.auth),
      ])
      expect(tally(answers)).toEqual({ 200: 1, 409: 1 })
      expect(answers.find((a) => a.status === 409)!.body.message).toBe(M.alreadyRegistered)
      const rows = (await snapshot(t, eventId)).members.filter((m) => m.userId === s.id)
      expect(rows).toHaveLength(1)
    }
  })

  it('a deletion racing with joins leaves no member behind and no 5xx', async () => {
    const eventId = await makeEvent(t, { maPpt: 10 })
    const { leader, team: target } = await team(eventId, 'Doomed')
    const joiners = await Promise.all(Array.from({ length: 10 }, () => t.student()))
    const answers = await Promise.all([
      ...joiners.slice(0, 5).map((s) => post(t, 'join-team/', { event_id: eventId, invite_code: target.invite_code }, s.auth)),
      post(t, 'delete-team/', { event_id: eventId, team_id: target.id }, leader.auth),
      ...joiners.slice(5).map((s) => post(t, 'join-team/', { event_id: eventId, invite_code: target.invite_code }, s.auth)),
    ])
    expect(answers.every((a) => a.status < 500)).toBe(true)
    expect(answers[5].status).toBe(200)
    // Joins either landed before the deletion (and were unregistered with the team) or found no team.
    for (const a of answers) expect([200, 404]).toContain(a.status)
    expect(await snapshot(t, eventId)).toEqual({ teams: [], members: [] })
  })
})
