// The team calls through the real app (inject) on PGlite: who may do what (status AND database state after
// each answer), every validation message and refusal, paths with and without the trailing slash, ids as strings.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSAGES } from '../../contract/schemas.ts'
import type { Team } from '../../contract/types.ts'
import { schema } from '../../server/db/index.ts'
import { TEAM_MESSAGES as M } from '../../server/routes/outcomes.ts'
import { testApp, type TestApp } from './helpers.ts'
import { createTeam, makeEvent, post, setState, snapshot, teamMembers, type Auth } from './teams-fixtures.ts'

let t: TestApp
beforeAll(async () => {
  t = await testApp()
})
afterAll(() => t.close())

const INVALID_TOKEN = { error: true, message: 'Invalid Token', code: 'INVALID_TOKEN' }

/**
 * One event with two teams: Alpha (leader + member) and Bravo (otherLeader + otherMember), plus an
 * outsider registered nowhere. Each matrix row gets a fresh one so rows cannot influence each other.
 */
async function world() {
  const eventId = await makeEvent(t, { maPpt: 4 })
  const [leader, member, otherLeader, otherMember, outsider] = [await t.student(), await t.student(), await t.student(), await t.student(), await t.student()]
  const alpha: Team = (await post(t, 'create-team/', { event_id: eventId, team_name: 'Alpha' }, leader.auth)).body.team
  expect((await post(t, 'join-team/', { event_id: eventId, invite_code: alpha.invite_code }, member.auth)).status).toBe(200)
  const bravo: Team = (await post(t, 'create-team/', { event_id: eventId, team_name: 'Bravo' }, otherLeader.auth)).body.team
  expect((await post(t, 'join-team/', { event_id: eventId, invite_code: bravo.invite_code }, otherMember.auth)).status).toBe(200)
  const users = { leader, member, otherLeader, otherMember, outsider }
  const auth: Record<Role, Auth> = {
    leader: leader.auth,
    member: member.auth,
    nonMember: outsider.auth,
    otherTeam: otherMember.auth,
    otherLeader: otherLeader.auth,
    signedOut: undefined,
  }
  return { eventId, alpha, bravo, users, auth }
}
type World = Awaited<ReturnType<typeof world>>
type Role = 'leader' | 'member' | 'nonMember' | 'otherTeam' | 'otherLeader' | 'signedOut'
type Snap = Awaited<ReturnType<typeof snapshot>>

interface Row {
  call: 'create-team/' | 'join-team/' | 'remove-from-team/' | 'delete-team/'
  as: Role
  body: (w: World) => Record<string, unknown>
  status: number
  message?: string
  /** What the database must look like afterwards; rows without it must leave it exactly as before. */
  after?: (w: World, before: Snap, after: Snap) => void
}

const memberIds = (s: Snap, teamId: number) => s.members.filter((m) => m.teamId === teamId).map((m) => m.userId)

const matrix: Row[] = [
  // create-team: only a student registered nowhere in the event may create one.
  { call: 'create-team/', as: 'leader', body: (w) => ({ event_id: w.eventId, team_name: 'Zulu' }), status: 409, message: M.alreadyRegistered },
  { call: 'create-team/', as: 'member', body: (w) => ({ event_id: w.eventId, team_name: 'Zulu' }), status: 409, message: M.alreadyRegistered },
  { call: 'create-team/', as: 'otherTeam', body: (w) => ({ event_id: w.eventId, team_name: 'Zulu' }), status: 409, message: M.alreadyRegistered },
  {
    call: 'create-team/',
    as: 'nonMember',
    body: (w) => ({ event_id: w.eventId, team_name: 'Zulu' }),
    status: 200,
    message: 'Team created',
    after: (w, before, after) => {
      expect(after.teams).toHaveLength(before.teams.length + 1)
      const zulu = after.teams.find((x) => x.name === 'Zulu')!
      expect(zulu.leaderId).toBe(w.users.outsider.id)
      expect(memberIds(after, zulu.id)).toEqual([w.users.outsider.id])
    },
  },
  { call: 'create-team/', as: 'signedOut', body: (w) => ({ event_id: w.eventId, team_name: 'Zulu' }), status: 401, message: 'Invalid Token' },

  // join-team with Alpha's code: only the outsider gets in.
  { call: 'join-team/', as: 'leader', body: (w) => ({ event_id: w.eventId, invite_code: w.alpha.invite_code }), status: 409, message: M.alreadyRegistered },
  { call: 'join-team/', as: 'member', body: (w) => ({ event_id: w.eventId, invite_code: w.alpha.invite_code }), status: 409, message: M.alreadyRegistered },
  { call: 'join-team/', as: 'otherTeam', body: (w) => ({ event_id: w.eventId, invite_code: w.alpha.invite_code }), status: 409, message: M.alreadyRegistered },
  {
    call: 'join-team/',
    as: 'nonMember',
    body: (w) => ({ event_id: w.eventId, invite_code: w.alpha.invite_code }),
    status: 200,
    message: 'Joined team',
    after: (w, before, after) => {
      expect(after.teams).toEqual(before.teams)
      expect(memberIds(after, w.alpha.id).sort()).toEqual([w.users.leader.id, w.users.member.id, w.users.outsider.id].sort())
      expect(memberIds(after, w.bravo.id)).toEqual(memberIds(before, w.bravo.id))
    },
  },
  { call: 'join-team/', as: 'signedOut', body: (w) => ({ event_id: w.eventId, invite_code: w.alpha.invite_code }), status: 401, message: 'Invalid Token' },

  // remove-from-team on Alpha.
  {
    call: 'remove-from-team/',
    as: 'leader',
    body: (w) => ({ team_id: w.alpha.id, user_id: w.users.member.id }),
    status: 200,
    message: 'Member removed',
    after: (w, before, after) => {
      expect(after.teams).toEqual(before.teams)
      expect(after.members.map((m) => m.userId)).not.toContain(w.users.member.id) // unregistered from the event
      expect(memberIds(after, w.alpha.id)).toEqual([w.users.leader.id])
    },
  },
  { call: 'remove-from-team/', as: 'leader', body: (w) => ({ team_id: w.alpha.id, user_id: w.users.leader.id }), status: 403, message: M.leaderNotRemovable },
  { call: 'remove-from-team/', as: 'leader', body: (w) => ({ team_id: w.alpha.id, user_id: w.users.otherMember.id }), status: 404, message: M.memberNotFound },
  { call: 'remove-from-team/', as: 'leader', body: (w) => ({ team_id: w.alpha.id, user_id: w.users.outsider.id }), status: 404, message: M.memberNotFound },
  {
    call: 'remove-from-team/',
    as: 'member',
    body: (w) => ({ team_id: w.alpha.id, user_id: w.users.member.id }),
    status: 200,
    message: 'Member removed',
    after: (w, _before, after) => {
      expect(after.members.map((m) => m.userId)).not.toContain(w.users.member.id)
      expect(memberIds(after, w.alpha.id)).toEqual([w.users.leader.id])
    },
  },
  { call: 'remove-from-team/', as: 'member', body: (w) => ({ team_id: w.alpha.id, user_id: w.users.leader.id }), status: 403, message: M.leaderNotRemovable },
  { call: 'remove-from-team/', as: 'nonMember', body: (w) => ({ team_id: w.alpha.id, user_id: w.users.member.id }), status: 403, message: M.notAMember },
  { call: 'remove-from-team/', as: 'nonMember', body: (w) => ({ team_id: w.alpha.id, user_id: w.users.leader.id }), status: 403, message: M.notAMember },
  { call: 'remove-from-team/', as: 'otherTeam', body: (w) => ({ team_id: w.alpha.id, user_id: w.users.member.id }), status: 403, message: M.notAMember },
  { call: 'remove-from-team/', as: 'otherLeader', body: (w) => ({ team_id: w.alpha.id, user_id: w.users.member.id }), status: 403, message: M.notAMember },
  { call: 'remove-from-team/', as: 'signedOut', body: (w) => ({ team_id: w.alpha.id, user_id: w.users.member.id }), status: 401, message: 'Invalid Token' },

  // delete-team on Alpha.
  {
    call: 'delete-team/',
    as: 'leader',
    body: (w) => ({ event_id: w.eventId, team_id: w.alpha.id }),
    status: 200,
    message: 'Team deleted',
    after: (w, before, after) => {
      expect(after.teams.map((x) => x.id)).toEqual([w.bravo.id])
      // Alpha's members are unregistered; Bravo is untouched.
      expect(after.members).toEqual(before.members.filter((m) => m.teamId === w.bravo.id))
    },
  },
  { call: 'delete-team/', as: 'member', body: (w) => ({ event_id: w.eventId, team_id: w.alpha.id }), status: 403, message: M.leaderOnlyDelete },
  { call: 'delete-team/', as: 'nonMember', body: (w) => ({ event_id: w.eventId, team_id: w.alpha.id }), status: 403, message: M.leaderOnlyDelete },
  { call: 'delete-team/', as: 'otherTeam', body: (w) => ({ event_id: w.eventId, team_id: w.alpha.id }), status: 403, message: M.leaderOnlyDelete },
  { call: 'delete-team/', as: 'otherLeader', body: (w) => ({ event_id: w.eventId, team_id: w.alpha.id }), status: 403, message: M.leaderOnlyDelete },
  { call: 'delete-team/', as: 'signedOut', body: (w) => ({ event_id: w.eventId, team_id: w.alpha.id }), status: 401, message: 'Invalid Token' },
]

describe('authorization matrix: every team call as every role', () => {
  it.each(matrix.map((row) => [`${row.call} as ${row.as} → ${row.status}${row.message ? ` '${row.message}'` : ''}`, row] as const))(
    '%s',
    async (_name, row) => {
      const w = await world()
      const before = await snapshot(t, w.eventId)
      const res = await post(t, row.call, row.body(w), w.auth[row.as])
      expect(res.status).toBe(row.status)
      expect(res.body.error).toBe(row.status !== 200)
      if (row.message) expect(res.body.message).toBe(row.message)
      const after = await snapshot(t, w.eventId)
      if (row.after) row.after(w, before, after)
      else expect(after).toEqual(before)
    },
  )

  it('refuses a malformed or forged bearer token on every call with 401 and changes nothing', async () => {
    const w = await world()
    const before = await snapshot(t, w.eventId)
    for (const call of ['create-team/', 'join-team/', 'remove-from-team/', 'delete-team/'] as const) {
      for (const authorization of ['Bearer nope', 'Bearer a.b.c', 'Basic Zm9vOmJhcg==', '']) {
        const res = await post(
          t,
          call,
          { event_id: w.eventId, team_id: w.alpha.id, user_id: w.users.member.id, team_name: 'Zulu', invite_code: w.alpha.invite_code },
          { authorization },
        )
        expect(res.status).toBe(401)
        expect(res.body).toEqual(INVALID_TOKEN)
      }
    }
    expect(await snapshot(t, w.eventId)).toEqual(before)
  })
})

describe('create-team', () => {
  it('answers the Team wire shape: trimmed name, 5-character code, the creator as leader and only member', async () => {
    const eventId = await makeEvent(t)
    const s = await t.student({ name: 'Asha', photoUrl: 'https://img.example/a.png' })
    const res = await post(t, 'create-team/', { event_id: eventId, team_name: '  Byte Busters  ' }, s.auth)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      error: false,
      message: 'Team created',
      team: {
        id: expect.any(Number),
        name: 'Byte Busters',
        invite_code: expect.stringMatching(/^[A-Za-z0-9]{5}$/),
        leader_id: s.id,
        Participant: [{ user: { id: s.id, name: 'Asha', photo_url: 'https://img.example/a.png' } }],
      },
    })
  })

  it.each([
    ['missing', undefined, MESSAGES.teamNameRequired],
    ['empty', '', MESSAGES.teamNameRequired],
    ['blank', '    ', MESSAGES.teamNameRequired],
    ['not a string', 12345, MESSAGES.teamNameRequired],
    ['two characters', 'ab', MESSAGES.teamNameMin],
    ['two characters padded with spaces', '  ab  ', MESSAGES.teamNameMin],
    ['41 characters', 'x'.repeat(41), MESSAGES.teamNameMax],
  ])('refuses a team name that is %s with 400 and its message, creating nothing', async (_case, teamName, message) => {
    const eventId = await makeEvent(t)
    const s = await t.student()
    const res = await post(t, 'create-team/', { event_id: eventId, team_name: teamName }, s.auth)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: true, message, code: 'INVALID_INPUT' })
    expect(await snapshot(t, eventId)).toEqual({ teams: [], members: [] })
  })

  it('accepts a name of exactly 3 characters after trimming', async () => {
    const eventId = await makeEvent(t)
    const res = await post(t, 'create-team/', { event_id: eventId, team_name: ' abc ' }, (await t.student()).auth)
    expect(res.status).toBe(200)
    expect(res.body.team.name).toBe('abc')
  })

  it.each([
    ['missing', undefined, 'event_id is a required field'],
    ['not a number', 'abc', 'event_id must be a positive whole number'],
    ['zero', 0, 'event_id must be a positive whole number'],
    ['negative', -3, 'event_id must be a positive whole number'],
    ['fractional', 1.5, 'event_id must be a positive whole number'],
  ])('refuses an event_id that is %s with 400', async (_case, eventId, message) => {
    const res = await post(t, 'create-team/', { event_id: eventId, team_name: 'Rockets' }, (await t.student()).auth)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: true, message, code: 'INVALID_INPUT' })
  })

  it('answers 404 for an unknown event', async () => {
    const res = await post(t, 'create-team/', { event_id: 999999, team_name: 'Rockets' }, (await t.student()).auth)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: true, message: M.eventNotFound, code: 'EVENT_NOT_FOUND' })
  })

  it('refuses an individual event (ma_ppt 1) with 403', async () => {
    const eventId = await makeEvent(t, { maPpt: 1 })
    const res = await post(t, 'create-team/', { event_id: eventId, team_name: 'Rockets' }, (await t.student()).auth)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: true, message: M.individualEvent, code: 'INDIVIDUAL_EVENT' })
    expect(await snapshot(t, eventId)).toEqual({ teams: [], members: [] })
  })

  it.each(['UPCOMING', 'REGISTRATION_CLOSED', 'TICKET_OPEN', 'TICKET_CLOSED', 'ONGOING', 'COMPLETED'] as const)(
    'refuses creation while the event is %s with 403',
    async (state) => {
      const eventId = await makeEvent(t, { state })
      const res = await post(t, 'create-team/', { event_id: eventId, team_name: 'Rockets' }, (await t.student()).auth)
      expect(res.status).toBe(403)
      expect(res.body).toEqual({ error: true, message: M.createClosed, code: 'TEAM_CREATE_CLOSED' })
      expect(await snapshot(t, eventId)).toEqual({ teams: [], members: [] })
    },
  )

  it('refuses a name already used in the event, whatever its case or padding, with 409', async () => {
    const eventId = await makeEvent(t)
    expect((await post(t, 'create-team/', { event_id: eventId, team_name: 'Rockets' }, (await t.student()).auth)).status).toBe(200)
    const before = await snapshot(t, eventId)
    for (const name of ['Rockets', 'ROCKETS', 'rockets', '  rOcKeTs ']) {
      const res = await post(t, 'create-team/', { event_id: eventId, team_name: name }, (await t.student()).auth)
      expect(res.status).toBe(409)
      expect(res.body).toEqual({ error: true, message: M.nameTaken, code: 'TEAM_NAME_TAKEN' })
    }
    expect(await snapshot(t, eventId)).toEqual(before)
  })

  it('allows the same name in another event', async () => {
    const [e1, e2] = [await makeEvent(t), await makeEvent(t)]
    const s = await t.student()
    expect((await post(t, 'create-team/', { event_id: e1, team_name: 'Rockets' }, s.auth)).status).toBe(200)
    expect((await post(t, 'create-team/', { event_id: e2, team_name: 'Rockets' }, s.auth)).status).toBe(200)
  })

  it('refuses a student registered for the event without a team (individual row) with 409', async () => {
    const eventId = await makeEvent(t)
    const s = await t.student()
    await t.database.db.insert(schema.participants).values({ eventId, userId: s.id })
    const res = await post(t, 'create-team/', { event_id: eventId, team_name: 'Rockets' }, s.auth)
    expect(res.status).toBe(409)
    expect(res.body.message).toBe(M.alreadyRegistered)
    expect((await snapshot(t, eventId)).teams).toEqual([])
  })
})

describe('join-team', () => {
  it('answers the team with its members, leader first, then by join time', async () => {
    const eventId = await makeEvent(t, { maPpt: 4 })
    const [leader, m1, m2] = [await t.student({ name: 'Zed' }), await t.student({ name: 'Amy' }), await t.student({ name: 'Bob' })]
    const team: Team = (await post(t, 'create-team/', { event_id: eventId, team_name: 'Rockets' }, leader.auth)).body.team
    await post(t, 'join-team/', { event_id: eventId, invite_code: team.invite_code }, m2.auth)
    const res = await post(t, 'join-team/', { event_id: eventId, invite_code: team.invite_code }, m1.auth)
    expect(res.status).toBe(200)
    expect(res.body.message).toBe('Joined team')
    expect(res.body.team.Participant.map((p: { user: { id: number } }) => p.user.id)).toEqual([leader.id, m2.id, m1.id])
    expect(res.body.team).toMatchObject({ id: team.id, name: 'Rockets', invite_code: team.invite_code, leader_id: leader.id })
  })

  it.each([
    ['missing', undefined, MESSAGES.inviteRequired],
    ['empty', '', MESSAGES.inviteRequired],
    ['four characters', 'abcd', MESSAGES.inviteLength],
    ['six characters', 'abcdef', MESSAGES.inviteLength],
    ['not a string', 12345, MESSAGES.inviteRequired],
  ])('refuses an invite code that is %s with 400, without counting an attempt', async (_case, code, message) => {
    const eventId = await makeEvent(t)
    const s = await t.student()
    const res = await post(t, 'join-team/', { event_id: eventId, invite_code: code }, s.auth)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: true, message, code: 'INVALID_INPUT' })
    const counters = await t.database.db
      .select()
      .from(schema.attemptCounters)
      .where(eq(schema.attemptCounters.key, `join:${s.id}`))
    expect(counters).toEqual([])
  })

  it('compares codes case-sensitively: the swapped-case code is a 404', async () => {
    const eventId = await makeEvent(t)
    const leader = await t.student()
    await createTeam(t.database.db, { eventId, userId: leader.id, name: 'Rockets' }, () => 'AbCdE')
    const s = await t.student()
    const res = await post(t, 'join-team/', { event_id: eventId, invite_code: 'aBcDe' }, s.auth)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: true, message: M.unknownCode, code: 'UNKNOWN_INVITE_CODE' })
    expect((await post(t, 'join-team/', { event_id: eventId, invite_code: 'AbCdE' }, s.auth)).status).toBe(200)
  })

  it("finds a code only within its own event: another event's code is a 404", async () => {
    const [e1, e2] = [await makeEvent(t), await makeEvent(t)]
    const team: Team = (await post(t, 'create-team/', { event_id: e1, team_name: 'Rockets' }, (await t.student()).auth)).body.team
    const res = await post(t, 'join-team/', { event_id: e2, invite_code: team.invite_code }, (await t.student()).auth)
    expect(res.status).toBe(404)
    expect(res.body.message).toBe(M.unknownCode)
    expect(await snapshot(t, e2)).toEqual({ teams: [], members: [] })
  })

  it('refuses a join to a full team with 409 and adds no one', async () => {
    const eventId = await makeEvent(t, { maPpt: 2 })
    const team: Team = (await post(t, 'create-team/', { event_id: eventId, team_name: 'Pair' }, (await t.student()).auth)).body.team
    expect((await post(t, 'join-team/', { event_id: eventId, invite_code: team.invite_code }, (await t.student()).auth)).status).toBe(200)
    const before = await snapshot(t, eventId)
    const res = await post(t, 'join-team/', { event_id: eventId, invite_code: team.invite_code }, (await t.student()).auth)
    expect(res.status).toBe(409)
    expect(res.body).toEqual({ error: true, message: M.full, code: 'TEAM_FULL' })
    expect(await snapshot(t, eventId)).toEqual(before)
  })

  it('refuses joins once registration has closed with 403', async () => {
    const eventId = await makeEvent(t)
    const team: Team = (await post(t, 'create-team/', { event_id: eventId, team_name: 'Rockets' }, (await t.student()).auth)).body.team
    await setState(t, eventId, 'REGISTRATION_CLOSED')
    const before = await snapshot(t, eventId)
    const res = await post(t, 'join-team/', { event_id: eventId, invite_code: team.invite_code }, (await t.student()).auth)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: true, message: M.joinClosed, code: 'TEAM_JOIN_CLOSED' })
    expect(await snapshot(t, eventId)).toEqual(before)
  })

  it('answers 404 for an unknown event and 403 for an individual one', async () => {
    const s = await t.student()
    const unknown = await post(t, 'join-team/', { event_id: 999999, invite_code: 'ABCDE' }, s.auth)
    expect(unknown.status).toBe(404)
    expect(unknown.body.message).toBe(M.eventNotFound)
    const single = await post(t, 'join-team/', { event_id: await makeEvent(t, { maPpt: 1 }), invite_code: 'ABCDE' }, s.auth)
    expect(single.status).toBe(403)
    expect(single.body.message).toBe(M.individualEvent)
  })
})

describe('remove-from-team and delete-team', () => {
  it('compares ids as numbers: string ids work, and the leader stays unremovable when named by a string id', async () => {
    const w = await world()
    const leaderAsString = await post(t, 'remove-from-team/', { team_id: String(w.alpha.id), user_id: String(w.users.leader.id) }, w.auth.member)
    expect(leaderAsString.status).toBe(403)
    expect(leaderAsString.body.message).toBe(M.leaderNotRemovable)
    const res = await post(t, 'remove-from-team/', { team_id: String(w.alpha.id), user_id: ` ${w.users.member.id} ` }, w.auth.leader)
    expect(res.status).toBe(200)
    expect(await teamMembers(t, w.alpha.id)).toEqual([w.users.leader.id])
    const del = await post(t, 'delete-team/', { event_id: String(w.eventId), team_id: String(w.bravo.id) }, w.auth.otherLeader)
    expect(del.status).toBe(200)
    expect((await snapshot(t, w.eventId)).teams.map((x) => x.id)).toEqual([w.alpha.id])
  })

  it.each([
    ['team_id missing', { user_id: 1 }, 'team_id is a required field'],
    ['team_id a word', { team_id: 'x', user_id: 1 }, 'team_id must be a positive whole number'],
    ['user_id missing', { team_id: 1 }, 'user_id is a required field'],
    ['user_id negative', { team_id: 1, user_id: -1 }, 'user_id must be a positive whole number'],
  ])('remove-from-team refuses %s with 400', async (_case, body, message) => {
    const res = await post(t, 'remove-from-team/', body, (await t.student()).auth)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: true, message, code: 'INVALID_INPUT' })
  })

  it.each([
    ['event_id missing', { team_id: 1 }, 'event_id is a required field'],
    ['team_id missing', { event_id: 1 }, 'team_id is a required field'],
    ['team_id an object', { event_id: 1, team_id: { id: 1 } }, 'team_id must be a positive whole number'],
  ])('delete-team refuses %s with 400', async (_case, body, message) => {
    const res = await post(t, 'delete-team/', body, (await t.student()).auth)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: true, message, code: 'INVALID_INPUT' })
  })

  it('answers 404 for an unknown team on remove and on delete', async () => {
    const s = await t.student()
    const removed = await post(t, 'remove-from-team/', { team_id: 999999, user_id: s.id }, s.auth)
    expect(removed.status).toBe(404)
    expect(removed.body.message).toBe(M.teamNotFound)
    const deleted = await post(t, 'delete-team/', { event_id: 1, team_id: 999999 }, s.auth)
    expect(deleted.status).toBe(404)
    expect(deleted.body.message).toBe(M.teamNotInEvent)
  })

  it('refuses to delete a team named with another event, even by its leader', async () => {
    const w = await world()
    const elsewhere = await makeEvent(t)
    const before = await snapshot(t, w.eventId)
    const res = await post(t, 'delete-team/', { event_id: elsewhere, team_id: w.alpha.id }, w.auth.leader)
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ error: true, message: M.teamNotInEvent, code: 'TEAM_NOT_IN_EVENT' })
    expect(await snapshot(t, w.eventId)).toEqual(before)
  })

  it("checks the team's own event state: no removal and no deletion once its registration closed", async () => {
    const w = await world()
    await setState(t, w.eventId, 'REGISTRATION_CLOSED')
    // An open event elsewhere changes nothing: the state read is the team's own event's.
    await makeEvent(t, { state: 'REGISTRATION_OPEN' })
    const before = await snapshot(t, w.eventId)
    const removed = await post(t, 'remove-from-team/', { team_id: w.alpha.id, user_id: w.users.member.id }, w.auth.leader)
    expect(removed.status).toBe(403)
    expect(removed.body.message).toBe(M.changeClosed)
    const left = await post(t, 'remove-from-team/', { team_id: w.alpha.id, user_id: w.users.member.id }, w.auth.member)
    expect(left.status).toBe(403)
    const deleted = await post(t, 'delete-team/', { event_id: w.eventId, team_id: w.alpha.id }, w.auth.leader)
    expect(deleted.status).toBe(403)
    expect(deleted.body.message).toBe(M.changeClosed)
    expect(await snapshot(t, w.eventId)).toEqual(before)
  })

  it('lets a member refused by another member stay: a member may remove only themself', async () => {
    const w = await world()
    const third = await t.student()
    await post(t, 'join-team/', { event_id: w.eventId, invite_code: w.alpha.invite_code }, third.auth)
    const before = await snapshot(t, w.eventId)
    const res = await post(t, 'remove-from-team/', { team_id: w.alpha.id, user_id: third.id }, w.auth.member)
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: true, message: M.leaderOnlyRemove, code: 'LEADER_ONLY_REMOVE' })
    expect(await snapshot(t, w.eventId)).toEqual(before)
  })

  it('lets a removed student register again: join another team of the event', async () => {
    const w = await world()
    await post(t, 'remove-from-team/', { team_id: w.alpha.id, user_id: w.users.member.id }, w.auth.member)
    const res = await post(t, 'join-team/', { event_id: w.eventId, invite_code: w.bravo.invite_code }, w.auth.member)
    expect(res.status).toBe(200)
    expect(await teamMembers(t, w.bravo.id)).toContain(w.users.member.id)
  })
})

describe('paths', () => {
  it('answers every team call with and without the trailing slash', async () => {
    for (const slash of ['/', '']) {
      const eventId = await makeEvent(t)
      const [leader, member] = [await t.student(), await t.student()]
      const created = await post(t, `create-team${slash}`, { event_id: eventId, team_name: 'Rockets' }, leader.auth)
      expect(created.status).toBe(200)
      const team: Team = created.body.team
      expect((await post(t, `join-team${slash}`, { event_id: eventId, invite_code: team.invite_code }, member.auth)).body.message).toBe('Joined team')
      expect((await post(t, `remove-from-team${slash}`, { team_id: team.id, user_id: member.id }, leader.auth)).body.message).toBe('Member removed')
      expect((await post(t, `delete-team${slash}`, { event_id: eventId, team_id: team.id }, leader.auth)).body.message).toBe('Team deleted')
      expect(await snapshot(t, eventId)).toEqual({ teams: [], members: [] })
    }
  })

  it('treats a body of `true`, an empty body and an array as no fields (400, not 500)', async () => {
    const s = await t.student()
    for (const payload of ['true', '', '[]', 'null']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/event/p/create-team/',
        headers: { 'content-type': 'application/json', ...s.auth },
        payload,
      })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: true, message: 'event_id is a required field', code: 'INVALID_INPUT' })
    }
  })
})

describe('odd input never reaches the database as a 500', () => {
  it.each([
    ['create-team/', { event_id: 2147483648, team_name: 'Rockets' }, 'event_id must be a positive whole number'],
    ['join-team/', { event_id: '999999999999999', invite_code: 'abcde' }, 'event_id must be a positive whole number'],
    ['remove-from-team/', { team_id: 2147483648, user_id: 1 }, 'team_id must be a positive whole number'],
    ['remove-from-team/', { team_id: 1, user_id: 9007199254740991 }, 'user_id must be a positive whole number'],
    ['delete-team/', { event_id: 1, team_id: 2147483648 }, 'team_id must be a positive whole number'],
  ] as const)('%s with an id past the integer range (%j) is refused before the database: 400', async (call, body, message) => {
    const res = await post(t, call, body, (await t.student()).auth)
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ error: true, message, code: 'INVALID_INPUT' })
  })

  it('answers every call with a 4xx for wrong types, unicode, huge strings and extra fields, writing nothing', async () => {
    const w = await world()
    const before = await snapshot(t, w.eventId)
    const odd: unknown[] = [
      null,
      true,
      'x',
      -1,
      0,
      1e300,
      NaN,
      [],
      [w.eventId],
      {},
      { id: w.eventId },
      'ȷ̵̡̛ǫ̵̨̛͓̙̱̝̮̟̩̏͂͑̍̈́̎́́̉̅̚',
      'x'.repeat(10_000),
      '1; DROP TABLE teams',
      "' OR 1=1 --",
      '１２',
      '0x10',
      '1e3',
      ' 7 ',
    ]
    const fields = ['event_id', 'team_id', 'user_id', 'team_name', 'invite_code']
    let cases = 0
    for (const call of ['create-team/', 'join-team/', 'remove-from-team/', 'delete-team/'] as const) {
      for (const value of odd) {
        for (const field of fields) {
          // Valid fields everywhere except the one made odd, so each case reaches past the first check; the
          // caller (Alpha's member, not in Bravo) is refused even when an odd value happens to be valid.
          const body: Record<string, unknown> = {
            event_id: w.eventId,
            team_id: w.bravo.id,
            user_id: w.users.otherMember.id,
            team_name: 'Alpha',
            invite_code: 'zzzzz',
            extra: { nested: [1, 2] },
            [field]: value,
          }
          const res = await post(t, call, body, w.auth.member)
          cases++
          expect(res.status, `${call} ${field}=${JSON.stringify(value)?.slice(0, 40)}`).toBeGreaterThanOrEqual(400)
          expect(res.status).toBeLessThan(500)
          expect(res.body.error).toBe(true)
          expect(typeof res.body.message).toBe('string')
        }
      }
    }
    expect(cases).toBe(4 * odd.length * fields.length)
    expect(await snapshot(t, w.eventId)).toEqual(before)
  })
})
