// /user/p/me and /user/p/update: the User wire shape, every onboarding message of SPEC §5, the id rule,
// fields outside the list never written, and the 401 paths of API.md "Conventions".
import { eq } from 'drizzle-orm'
import { createSigner } from 'fast-jwt'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { MESSAGES } from '../../contract/schemas.ts'
import { schema } from '../../server/db/index.ts'
import { accessTokens } from '../../server/auth/tokens.ts'
import { startSession } from '../../server/db/people/sessions.ts'
import { testApp, type TestApp } from './helpers.ts'

const JSON_HEADERS = { 'content-type': 'application/json' }
const INVALID = { error: true, message: 'Invalid Token', code: 'INVALID_TOKEN' }

let profiles = 0
/** A valid body; each one with a phone and roll number no other student holds (they are unique, migration 0003). */
const valid = () => ({
  phone_number: String(9_123_456_700 + ++profiles),
  roll_number: `  1601012${2000 + profiles} `,
  gender: 'FEMALE',
  year: 2027,
  branch: 'Artificial_Intelligence_And_Data_Science',
  interests: ['AI/ML', 'Web Development', 'AI/ML'],
  degree: 'B.tech',
  college: 'KJSCE',
})

describe('user calls', () => {
  let t: TestApp
  const post = (url: string, headers: Record<string, string>, body: unknown = true) =>
    t.app.inject({ method: 'POST', url: `/api/v1/user${url}`, headers: { ...JSON_HEADERS, ...headers }, payload: JSON.stringify(body) })
  const rowOf = async (id: number) => (await t.database.db.select().from(schema.users).where(eq(schema.users.id, id)))[0]

  beforeAll(async () => {
    t = await testApp()
  })
  afterAll(() => t.close())

  describe('POST /user/p/me', () => {
    it('answers exactly the User fields of API.md, interests [] and nulls before onboarding', async () => {
      const s = await t.student({ phoneNumber: null, rollNumber: null, college: null, email: 'asha@example.edu', name: 'Asha' })
      const res = await post('/p/me', s.auth)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({
        error: false,
        user: {
          id: s.id,
          name: 'Asha',
          email: 'asha@example.edu',
          photo_url: null,
          college: null,
          phone_number: null,
          roll_number: null,
          gender: null,
          year: null,
          branch: null,
          degree: null,
          interests: [],
          // API.md Part 2: a student with no other role.
          roles: { admin: false, councils: [], door_events: [] },
        },
        // contract/inbox.ts: the unread messages beside the user; a new student has none.
        unread: 0,
      })
    })

    it('accepts the body true, {} and an empty body', async () => {
      const s = await t.student()
      for (const payload of ['true', '{}', '']) {
        const res = await t.app.inject({ method: 'POST', url: '/api/v1/user/p/me', headers: { ...JSON_HEADERS, ...s.auth }, payload })
        expect(res.statusCode, `body ${JSON.stringify(payload)}`).toBe(200)
        expect(res.json().user.id).toBe(s.id)
      }
      const none = await t.app.inject({ method: 'POST', url: '/api/v1/user/p/me', headers: s.auth })
      expect(none.statusCode).toBe(200)
    })

    it('answers 401 Invalid Token without a token, with a malformed one or a wrong scheme', async () => {
      const s = await t.student()
      const token = s.auth.authorization.slice('Bearer '.length)
      for (const headers of <Record<string, string>[]>[
        {},
        { authorization: 'Bearer' },
        { authorization: 'Bearer not.a.jwt' },
        { authorization: `Basic ${token}` },
        { authorization: token },
      ]) {
        const res = await post('/p/me', headers)
        expect(res.statusCode, JSON.stringify(headers)).toBe(401)
        expect(res.json()).toEqual(INVALID)
      }
    })

    it('answers 401 for a token with a forged signature or a forged user id', async () => {
      const s = await t.student()
      const other = await t.student()
      const [h, , sig] = s.auth.authorization.slice(7).split('.')
      const otherPayload = other.auth.authorization.slice(7).split('.')[1]
      const swapped = `${h}.${otherPayload}.${sig}` // other's claims under s's signature
      const forged = createSigner({ key: 'not-the-server-secret', algorithm: 'HS256', expiresIn: 600_000 })({
        typ: 'access',
        sub: String(s.id),
        iss: 'campus-events',
        aud: 'campus-events-api',
      })
      for (const token of [swapped, forged]) {
        const res = await post('/p/me', { authorization: `Bearer ${token}` })
        expect(res.statusCode).toBe(401)
        expect(res.json()).toEqual(INVALID)
      }
    })

    it('answers 401 for an unsigned (alg none) token', async () => {
      const s = await t.student()
      const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
      const now = Math.floor(Date.now() / 1000)
      const unsigned = `${enc({ alg: 'none' })}.${enc({ typ: 'access', sub: String(s.id), iss: 'campus-events', aud: 'campus-events-api', iat: now, exp: now + 600 })}.`
      const res = await post('/p/me', { authorization: `Bearer ${unsigned}` })
      expect(res.statusCode).toBe(401)
    })

    it('answers 401 for a refresh token used as an access token', async () => {
      const s = await t.student()
      const { refreshToken } = await startSession({ db: t.database.db, tokens: accessTokens(new TextEncoder().encode(t.config.jwtSecret!)) }, s.id)
      const res = await post('/p/me', { authorization: `Bearer ${refreshToken}` })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual(INVALID)
    })

    it('answers 401 for the token of a user who was deleted', async () => {
      const s = await t.student()
      await t.database.db.delete(schema.users).where(eq(schema.users.id, s.id))
      const res = await post('/p/me', s.auth)
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual(INVALID)
      const update = await post('/p/update', s.auth, valid())
      expect(update.statusCode).toBe(401)
    })
  })

  describe('POST /user/p/update', () => {
    it('writes the onboarding fields and answers Profile updated with the user', async () => {
      const s = await t.student({ phoneNumber: null, rollNumber: null, college: null })
      const sent = valid()
      const res = await post('/p/update', s.auth, { ...sent, id: s.id })
      expect(res.statusCode).toBe(200)
      const body = res.json()
      expect(body.error).toBe(false)
      expect(body.message).toBe('Profile updated')
      expect(body.user).toMatchObject({
        id: s.id,
        phone_number: sent.phone_number,
        roll_number: sent.roll_number.trim(),
        gender: 'FEMALE',
        year: 2027,
        branch: 'Artificial_Intelligence_And_Data_Science',
        interests: ['AI/ML', 'Web Development'], // deduplicated
        degree: 'B.tech',
        college: 'KJSCE',
      })
      const me = await post('/p/me', s.auth)
      expect(me.json().user).toEqual(body.user)
    })

    it('works without id, degree and college, and stores the fixed degree and college', async () => {
      const s = await t.student({ college: null })
      const { id: _id, degree: _d, college: _c, ...rest } = { ...valid(), id: 0 }
      const res = await post('/p/update', s.auth, rest)
      expect(res.statusCode).toBe(200)
      const row = await rowOf(s.id)
      expect(row.degree).toBe('B.tech')
      expect(row.college).toBe('KJSCE')
    })

    it('accepts the id as a numeric string (ids are compared as numbers)', async () => {
      const s = await t.student()
      const res = await post('/p/update', s.auth, { ...valid(), id: String(s.id) })
      expect(res.statusCode).toBe(200)
    })

    it("refuses another user's id with 403 and writes nothing to either user", async () => {
      const s = await t.student()
      const victim = await t.student()
      const before = [await rowOf(s.id), await rowOf(victim.id)]
      const res = await post('/p/update', s.auth, { ...valid(), id: victim.id })
      expect(res.statusCode).toBe(403)
      expect(res.json()).toEqual({ error: true, message: 'You can only update your own profile.', code: 'NOT_YOUR_PROFILE' })
      expect([await rowOf(s.id), await rowOf(victim.id)]).toEqual(before)
    })

    it.each([[-1], [0], [1.5], ['abc'], [true], [{}]])('refuses the id %j with 400', async (id) => {
      const s = await t.student()
      const before = await rowOf(s.id)
      const res = await post('/p/update', s.auth, { ...valid(), id })
      expect(res.statusCode).toBe(400)
      expect(res.json().error).toBe(true)
      expect(res.json().message).toMatch(/^id /)
      expect(await rowOf(s.id)).toEqual(before)
    })

    // Each SPEC §5 message, with the exact wording of contract/schemas.ts.
    const cases: [string, Record<string, unknown>, string][] = [
      ['phone missing', { phone_number: undefined }, MESSAGES.phoneRequired],
      ['phone empty', { phone_number: '' }, MESSAGES.phoneRequired],
      ['phone 9 digits', { phone_number: '912345678' }, MESSAGES.phoneDigits],
      ['phone 11 digits', { phone_number: '91234567801' }, MESSAGES.phoneDigits],
      ['phone with letters', { phone_number: '91234567ab' }, MESSAGES.phoneDigits],
      ['phone as a number', { phone_number: 9123456780 }, MESSAGES.phoneDigits],
      ['roll missing', { roll_number: undefined }, MESSAGES.rollRequired],
      ['roll blank', { roll_number: '   ' }, MESSAGES.rollRequired],
      ['roll too long', { roll_number: 'x'.repeat(33) }, MESSAGES.rollTooLong],
      ['gender missing', { gender: undefined }, MESSAGES.genderRequired],
      ['gender other', { gender: 'OTHER' }, MESSAGES.genderInvalid],
      ['gender lower case', { gender: 'male' }, MESSAGES.genderInvalid],
      ['year missing', { year: undefined }, MESSAGES.yearRequired],
      ['year as a string', { year: '2027' }, MESSAGES.yearNumber],
      ['year out of range', { year: 2030 }, MESSAGES.yearRange],
      ['branch missing', { branch: undefined }, MESSAGES.branchRequired],
      ['branch empty', { branch: '' }, MESSAGES.branchRequired],
      ['branch not of that year', { year: 2025, branch: 'Electronics_VLSI' }, MESSAGES.branchForYear],
      ['branch unknown', { branch: 'Astrology' }, MESSAGES.branchForYear],
      ['interests missing', { interests: undefined }, MESSAGES.interestsRequired],
      ['interests empty', { interests: [] }, MESSAGES.interestsRequired],
      ['interests not a list', { interests: 'AI/ML' }, MESSAGES.interestsRequired],
      ['interests unknown', { interests: ['Knitting'] }, MESSAGES.interestsUnknown],
      ['degree other', { degree: 'M.tech' }, "Degree must be 'B.tech'"],
      ['college other', { college: 'IIT' }, "College must be 'KJSCE'"],
    ]
    it.each(cases)('refuses %s with 400 and its message, writing nothing', async (_name, change, message) => {
      const s = await t.student()
      const before = await rowOf(s.id)
      const res = await post('/p/update', s.auth, { ...valid(), ...change })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: true, message, code: 'INVALID_INPUT' })
      expect(await rowOf(s.id)).toEqual(before)
    })

    it('refuses the body true with the first message', async () => {
      const s = await t.student()
      const res = await post('/p/update', s.auth, true)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ error: true, message: MESSAGES.phoneRequired, code: 'INVALID_INPUT' })
    })

    it('never writes fields outside the list (name, email, role, photo, issuer, subject, created_at)', async () => {
      const s = await t.student({ name: 'Real Name', email: 'real@example.edu' })
      const before = await rowOf(s.id)
      const res = await post('/p/update', s.auth, {
        ...valid(),
        name: 'Hacker',
        email: 'admin@example.edu',
        role: 'admin',
        photo_url: 'https://evil.example/x.png',
        issuer: 'dev',
        subject: 'someone',
        created_at: '2000-01-01T00:00:00Z',
        user_id: 1,
      })
      expect(res.statusCode).toBe(200)
      const after = await rowOf(s.id)
      expect(after).toMatchObject({
        name: before.name,
        email: before.email,
        photoUrl: before.photoUrl,
        issuer: before.issuer,
        subject: before.subject,
        createdAt: before.createdAt,
      })
      expect(Object.keys(res.json().user).sort()).toEqual(
        ['id', 'name', 'email', 'photo_url', 'college', 'phone_number', 'roll_number', 'gender', 'year', 'branch', 'degree', 'interests', 'roles'].sort(),
      )
    })

    it('answers 401 without a valid token and writes nothing', async () => {
      const s = await t.student()
      const before = await rowOf(s.id)
      const res = await post('/p/update', {}, { ...valid(), id: s.id })
      expect(res.statusCode).toBe(401)
      expect(res.json()).toEqual(INVALID)
      expect(await rowOf(s.id)).toEqual(before)
    })
  })

  describe('expired access tokens', () => {
    let short: TestApp
    beforeAll(async () => {
      short = await testApp({ accessTokenSeconds: 1 })
    })
    afterAll(() => short.close())

    it('answers 401 once the access token has expired', async () => {
      // A real sign-in through the development form, so the token is the app's own (1 s lifetime).
      const signIn = await short.app.inject({
        method: 'POST',
        url: '/api/v1/auth/dev',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'name=Exp&email=exp%40example.edu',
      })
      const accessToken = new URLSearchParams(new URL(signIn.headers.location as string).hash.slice(1)).get('accessToken')
      expect(accessToken).toBeTruthy()
      const call = () =>
        short.app.inject({ method: 'POST', url: '/api/v1/user/p/me', headers: { ...JSON_HEADERS, authorization: `Bearer ${accessToken}` }, payload: 'true' })
      expect((await call()).statusCode).toBe(200)
      // The verifier's clock (Date) moved past the token's expiry, with no real wait.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 2100 })
      try {
        const res = await call()
        expect(res.statusCode).toBe(401)
        expect(res.json()).toEqual(INVALID)
      } finally {
        vi.useRealTimers()
      }
    })
  })
})
