// Invite codes and the limit on wrong ones: the generator's alphabet, length and spread; a forced collision
// retried; the attempt limiter on every database kind; and the 429 that changes nothing, through the app.
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Team } from '../../contract/types.ts'
import { schema, type Database } from '../../server/db/index.ts'
import { JOIN_ATTEMPTS, databaseAttemptLimiter } from '../../server/db/people/attempts.ts'
import { INVITE_CODE_ALPHABET, randomInviteCode } from '../../server/teams/invite-codes.ts'
import { INVITE_CODE_TRIES } from '../../server/db/teams/teams.ts'
import { TEAM_MESSAGES as M } from '../../server/routes/outcomes.ts'
import { DB_KINDS, testApp, testDatabase, type TestApp } from './helpers.ts'
import { createTeam, makeEvent, post, setState, snapshot } from './teams-fixtures.ts'

/** Pearson's chi-square of character counts against a uniform spread over the alphabet. */
function chiSquare(codes: string[]) {
  const counts = new Map<string, number>()
  for (const code of codes) for (const ch of code) counts.set(ch, (counts.get(ch) ?? 0) + 1)
  const total = codes.length * 5
  const expected = total / INVITE_CODE_ALPHABET.length
  let chi = 0
  for (const ch of INVITE_CODE_ALPHABET) chi += ((counts.get(ch) ?? 0) - expected) ** 2 / expected
  return { chi, counts }
}
// 61 degrees of freedom: mean 61, standard deviation 11; 120 is passed by chance about once in 100,000 runs.
const CHI_LIMIT = 120

describe('invite-code generator', () => {
  it('draws 5 characters from [A-Za-z0-9], using all 62 of them', () => {
    expect(INVITE_CODE_ALPHABET).toHaveLength(62)
    expect(new Set(INVITE_CODE_ALPHABET).size).toBe(62)
    const codes = Array.from({ length: 10_000 }, () => randomInviteCode())
    for (const code of codes) expect(code).toMatch(/^[A-Za-z0-9]{5}$/)
    expect(new Set(codes.join('')).size).toBe(62)
    // 10,000 draws from 916 million codes: a repeat has a probability of about 5%, more than one ~0.1%.
    expect(codes.length - new Set(codes).size).toBeLessThanOrEqual(1)
  })

  it('maps each draw of 0..61 to one alphabet character, in order', () => {
    let i = 0
    const draws: number[] = []
    const pick = (max: number) => {
      expect(max).toBe(62)
      draws.push(i)
      return i++ % max
    }
    expect(randomInviteCode(pick)).toBe('ABCDE')
    i = 57
    expect(randomInviteCode(pick)).toBe('56789')
  })

  it('spreads characters evenly (chi-square), and the test would see the bias of `byte % 62`', () => {
    const fair = chiSquare(Array.from({ length: 10_000 }, () => randomInviteCode()))
    expect(fair.chi).toBeLessThan(CHI_LIMIT)
    // Negative control: a byte modulo 62 favours the first 8 characters (5/256 instead of 4/256).
    const biased = chiSquare(Array.from({ length: 10_000 }, () => randomInviteCode((max) => randomBytes(1)[0] % max)))
    expect(biased.chi).toBeGreaterThan(CHI_LIMIT)
  })
})

describe('invite-code uniqueness within an event (forced collisions)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp()
  })
  afterAll(() => t.close())

  const sequence = (...codes: string[]) => {
    const calls: string[] = []
    const gen = () => {
      const code = codes[Math.min(calls.length, codes.length - 1)]
      calls.push(code)
      return code
    }
    return { gen, calls }
  }

  it('draws again when the first code is already taken in the event', async () => {
    const eventId = await makeEvent(t)
    const first = await createTeam(t.database.db, { eventId, userId: (await t.student()).id, name: 'First' }, () => 'AAAAA')
    expect(first.invite_code).toBe('AAAAA')
    const { gen, calls } = sequence('AAAAA', 'BBBBB')
    const s = await t.student()
    const second = await createTeam(t.database.db, { eventId, userId: s.id, name: 'Second' }, gen)
    expect(calls).toEqual(['AAAAA', 'BBBBB'])
    expect(second.invite_code).toBe('BBBBB')
    expect(second.Participant).toEqual([{ user: expect.objectContaining({ id: s.id }) }])
  })

  it(`gives up after ${INVITE_CODE_TRIES} taken codes with a readable 503, creating nothing`, async () => {
    const eventId = await makeEvent(t)
    await createTeam(t.database.db, { eventId, userId: (await t.student()).id, name: 'First' }, () => 'CCCCC')
    const before = await snapshot(t, eventId)
    const { gen, calls } = sequence('CCCCC')
    const s = await t.student()
    await expect(createTeam(t.database.db, { eventId, userId: s.id, name: 'Second' }, gen)).rejects.toMatchObject({
      status: 503,
      message: M.codesExhausted,
    })
    expect(calls).toHaveLength(INVITE_CODE_TRIES)
    expect(await snapshot(t, eventId)).toEqual(before)
  })

  it('allows the same code in two different events (unique within an event only)', async () => {
    const [e1, e2] = [await makeEvent(t), await makeEvent(t)]
    const s = await t.student()
    expect((await createTeam(t.database.db, { eventId: e1, userId: s.id, name: 'Same' }, () => 'DDDDD')).invite_code).toBe('DDDDD')
    expect((await createTeam(t.database.db, { eventId: e2, userId: s.id, name: 'Same' }, () => 'DDDDD')).invite_code).toBe('DDDDD')
  })

  it('reports a name clash as the name, not as a code collision, even when the code clashes too', async () => {
    const eventId = await makeEvent(t)
    await createTeam(t.database.db, { eventId, userId: (await t.student()).id, name: 'Clash' }, () => 'EEEEE')
    const { gen, calls } = sequence('FFFFF')
    await expect(createTeam(t.database.db, { eventId, userId: (await t.student()).id, name: 'clash' }, gen)).rejects.toMatchObject({
      status: 409,
      message: M.nameTaken,
    })
    expect(calls).toHaveLength(1) // no pointless retries on a name clash
  })

  it('refuses a generator that breaks the code format rather than storing its output', async () => {
    const eventId = await makeEvent(t)
    await expect(createTeam(t.database.db, { eventId, userId: (await t.student()).id, name: 'Odd' }, () => 'ab-12')).rejects.toThrow(/invite code generator/)
    expect(await snapshot(t, eventId)).toEqual({ teams: [], members: [] })
  })
})

describe.each(DB_KINDS)('attempt limiter on %s', (kind) => {
  let database: Database
  beforeAll(async () => {
    database = await testDatabase(kind)
  })
  afterAll(() => database.close())
  const counter = async (key: string) => (await database.db.select().from(schema.attemptCounters).where(eq(schema.attemptCounters.key, key)))[0]
  const age = (key: string, seconds: number) =>
    database.db
      .update(schema.attemptCounters)
      .set({ windowStartedAt: sql`now() - ${seconds}::int * interval '1 second'` })
      .where(eq(schema.attemptCounters.key, key))

  it('allows `limit` attempts in a window, then refuses with the seconds left and records nothing more', async () => {
    const limiter = databaseAttemptLimiter(database.db, { limit: 3, windowSeconds: 60 })
    const results = [await limiter.hit('a'), await limiter.hit('a'), await limiter.hit('a')]
    expect(results.map((r) => [r.allowed, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
    ])
    const refused = await limiter.hit('a')
    expect(refused.allowed).toBe(false)
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60)
    expect((await counter('a')).count).toBe(3)
    expect(await limiter.peek('a')).toMatchObject({ allowed: false, remaining: 0 })
    expect(await limiter.peek('untouched')).toEqual({ allowed: true, remaining: 3, retryAfterSeconds: 0 })
    expect(await counter('untouched')).toBeUndefined() // peek writes nothing
  })

  it('reports the time left in the window, and starts a new window once it has passed', async () => {
    const limiter = databaseAttemptLimiter(database.db, { limit: 2, windowSeconds: 900 })
    await limiter.hit('b')
    await limiter.hit('b')
    await age('b', 600)
    const refused = await limiter.hit('b')
    expect(refused.allowed).toBe(false)
    expect(refused.retryAfterSeconds).toBeGreaterThan(290)
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(300)
    await age('b', 900)
    expect(await limiter.hit('b')).toMatchObject({ allowed: true, remaining: 1 })
    expect((await counter('b')).count).toBe(1)
  })

  it('gives a reserved attempt back on refund, never below zero', async () => {
    const limiter = databaseAttemptLimiter(database.db, { limit: 1, windowSeconds: 60 })
    await limiter.hit('c')
    expect((await limiter.hit('c')).allowed).toBe(false)
    await limiter.refund('c')
    expect((await limiter.hit('c')).allowed).toBe(true)
    await limiter.refund('c')
    await limiter.refund('c')
    expect((await counter('c')).count).toBe(0)
  })

  it('keeps keys apart', async () => {
    const limiter = databaseAttemptLimiter(database.db, { limit: 1, windowSeconds: 60 })
    expect((await limiter.hit('d1')).allowed).toBe(true)
    expect((await limiter.hit('d1')).allowed).toBe(false)
    expect((await limiter.hit('d2')).allowed).toBe(true)
  })

  it('lets exactly `limit` of 30 simultaneous attempts through', async () => {
    const limiter = databaseAttemptLimiter(database.db, { limit: 5, windowSeconds: 60 })
    const results = await Promise.all(Array.from({ length: 30 }, () => limiter.hit('e')))
    expect(results.filter((r) => r.allowed)).toHaveLength(5)
    expect((await counter('e')).count).toBe(5)
  })
})

describe('wrong invite codes through the app: 429 with Retry-After, and nothing changes', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp()
  })
  afterAll(() => t.close())
  const { limit, windowSeconds } = JOIN_ATTEMPTS

  async function teamToJoin(maPpt = 4) {
    const eventId = await makeEvent(t, { maPpt })
    const team: Team = (await post(t, 'create-team/', { event_id: eventId, team_name: 'Target' }, (await t.student()).auth)).body.team
    // A wrong code that differs from the real one (the real one is random).
    const wrong = team.invite_code === 'zzzzz' ? 'yyyyy' : 'zzzzz'
    return { eventId, team, wrong }
  }

  it(`refuses the attempt after ${limit} wrong codes, and then even the right code, until the window passes`, async () => {
    const { eventId, team, wrong } = await teamToJoin()
    const s = await t.student()
    for (let i = 0; i < limit; i++) {
      const res = await post(t, 'join-team/', { event_id: eventId, invite_code: wrong }, s.auth)
      expect(res.status).toBe(404)
      expect(res.body.message).toBe(M.unknownCode)
    }
    const before = await snapshot(t, eventId)
    const refused = await post(t, 'join-team/', { event_id: eventId, invite_code: wrong }, s.auth)
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ error: true, message: 'Too many wrong invite codes. Please try again in 15 minutes.', code: 'TOO_MANY_WRONG_CODES' })
    const retryAfter = Number(refused.headers['retry-after'])
    expect(Number.isInteger(retryAfter)).toBe(true)
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(windowSeconds)

    const right = await post(t, 'join-team/', { event_id: eventId, invite_code: team.invite_code }, s.auth)
    expect(right.status).toBe(429)
    expect(await snapshot(t, eventId)).toEqual(before) // no new participant
    const [row] = await t.database.db
      .select()
      .from(schema.attemptCounters)
      .where(eq(schema.attemptCounters.key, `join:${s.id}`))
    expect(row.count).toBe(limit) // refusals are not counted either

    // Another student is not affected by this one's guesses.
    expect((await post(t, 'join-team/', { event_id: eventId, invite_code: team.invite_code }, (await t.student()).auth)).status).toBe(200)

    // Once the window has passed (moved back in the database's clock), the right code works.
    await t.database.db
      .update(schema.attemptCounters)
      .set({ windowStartedAt: sql`now() - ${windowSeconds + 1}::int * interval '1 second'` })
      .where(eq(schema.attemptCounters.key, `join:${s.id}`))
    const later = await post(t, 'join-team/', { event_id: eventId, invite_code: team.invite_code }, s.auth)
    expect(later.status).toBe(200)
    expect(later.body.team.Participant.map((p: { user: { id: number } }) => p.user.id)).toContain(s.id)
  })

  it('counts only wrong codes: a right code refused for another reason (team full, registration closed, unknown event) is given back', async () => {
    const full = await teamToJoin(1 + 1)
    await post(t, 'join-team/', { event_id: full.eventId, invite_code: full.team.invite_code }, (await t.student()).auth)
    const s = await t.student()
    for (let i = 0; i < limit - 1; i++) {
      expect((await post(t, 'join-team/', { event_id: full.eventId, invite_code: full.wrong }, s.auth)).status).toBe(404)
    }
    for (let i = 0; i < 3; i++) {
      const res = await post(t, 'join-team/', { event_id: full.eventId, invite_code: full.team.invite_code }, s.auth)
      expect(res.status).toBe(409)
      expect(res.body.message).toBe(M.full)
    }
    const closed = await teamToJoin()
    await setState(t, closed.eventId, 'REGISTRATION_CLOSED')
    for (let i = 0; i < 3; i++) {
      expect((await post(t, 'join-team/', { event_id: closed.eventId, invite_code: closed.team.invite_code }, s.auth)).status).toBe(403)
    }
    expect((await post(t, 'join-team/', { event_id: 999999, invite_code: full.wrong }, s.auth)).status).toBe(404) // unknown event: not a guess
    expect((await post(t, 'join-team/', { event_id: full.eventId, invite_code: full.wrong }, s.auth)).status).toBe(404) // the 10th wrong code
    expect((await post(t, 'join-team/', { event_id: full.eventId, invite_code: full.wrong }, s.auth)).status).toBe(429)
  })

  it('limits per student across events: wrong codes for one event block joins to another', async () => {
    const a = await teamToJoin()
    const b = await teamToJoin()
    const s = await t.student()
    for (let i = 0; i < limit; i++) await post(t, 'join-team/', { event_id: a.eventId, invite_code: a.wrong }, s.auth)
    const before = await snapshot(t, b.eventId)
    const res = await post(t, 'join-team/', { event_id: b.eventId, invite_code: b.team.invite_code }, s.auth)
    expect(res.status).toBe(429)
    expect(await snapshot(t, b.eventId)).toEqual(before)
  })

  it('holds under a burst: of 40 simultaneous wrong codes, exactly the limit are looked up and the rest get 429', async () => {
    const { eventId, wrong } = await teamToJoin()
    const s = await t.student()
    const answers = await Promise.all(Array.from({ length: 40 }, () => post(t, 'join-team/', { event_id: eventId, invite_code: wrong }, s.auth)))
    expect(answers.filter((a) => a.status === 404)).toHaveLength(limit)
    expect(answers.filter((a) => a.status === 429)).toHaveLength(40 - limit)
  })
})
