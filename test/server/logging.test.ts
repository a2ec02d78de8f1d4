// Structured logs (issue 6): sign-ins, refusals, rate limits and token reuse are logged as JSON lines, and
// no line ever holds a token (header, body, URL or fragment) or a phone number.
import { Writable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { maskText, maskUrl } from '../../server/plugins/logging.ts'
import { testApp, type TestApp } from './helpers.ts'

const PHONE = '9876543210'
const json = { 'content-type': 'application/json' }

describe('logs', () => {
  let t: TestApp
  const lines: string[] = []
  const secrets = new Set<string>([PHONE])
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean))
      done()
    },
  })

  beforeAll(async () => {
    t = await testApp({
      // The reuse grace off, so the replay below revokes at once and its log line is seen.
      env: { REFRESH_REUSE_GRACE_SECONDS: '0' },
      app: {
        logger: { level: 'info', stream },
        rateLimits: { writes: { limit: 3, windowSeconds: 60 }, signIn: { limit: 5, windowSeconds: 60 }, refresh: { limit: 50, windowSeconds: 60 } },
      },
    })
  })
  afterAll(() => t.close())

  const entries = () => lines.map((l) => JSON.parse(l) as Record<string, any>)

  it('a day of traffic: sign-in, refresh, token reuse, profile with a phone number, refusals, rate limit, callback with a code', async () => {
    const signIn = await t.app.inject({ method: 'POST', url: '/api/v1/auth/dev', headers: json, payload: { name: 'Asha', email: 'asha@example.edu' } })
    const fragment = new URLSearchParams(String(signIn.headers.location).split('#')[1])
    const access = fragment.get('accessToken')!
    const refresh = fragment.get('refreshToken')!
    secrets.add(access).add(refresh)
    // The replay below revokes this sign-in and, since issue 10, its access tokens too: the calls after it are made
    // as another student.
    const auth = (await t.student()).auth
    secrets.add(auth.authorization.slice('Bearer '.length))

    const rotated = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh-token', headers: json, payload: { refreshToken: refresh } })
    expect(rotated.statusCode).toBe(200)
    secrets.add(rotated.json().accessToken).add(rotated.json().refreshToken)
    const replay = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh-token', headers: json, payload: { refreshToken: refresh } })
    expect(replay.statusCode).toBe(401)

    const profile = {
      phone_number: PHONE,
      roll_number: '16010122001',
      gender: 'FEMALE',
      year: 2027,
      branch: 'Artificial_Intelligence_And_Data_Science',
      interests: ['AI/ML'],
      degree: 'B.tech',
      college: 'KJSCE',
    }
    const updated = await t.app.inject({ method: 'POST', url: '/api/v1/user/p/update', headers: { ...json, ...auth }, payload: profile })
    const refusedUpdate = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/p/update',
      headers: { ...json, ...auth },
      payload: { ...profile, gender: 'nope', phone_number: `+91 ${PHONE}` },
    })
    expect(refusedUpdate.statusCode).toBe(400)
    await t.app.inject({ method: 'POST', url: '/api/v1/user/p/me', headers: { ...json, authorization: `Bearer ${access}x` }, payload: 'true' })
    await t.app.inject({ method: 'POST', url: '/api/v1/event/p/get', headers: json, payload: { refreshToken: refresh, accessToken: access } })
    await t.app.inject({ method: 'POST', url: '/api/v1/event/p/rate', headers: { ...json, ...auth }, payload: { event_id: 9, rating: 5 } })
    const limited = await t.app.inject({ method: 'POST', url: '/api/v1/event/p/rate', headers: { ...json, ...auth }, payload: { event_id: 9, rating: 5 } })
    expect([updated.statusCode, limited.statusCode]).toEqual([200, 429])
    secrets.add('4/0AfJohXm-SECRET-AUTH-CODE')
    await t.app.inject({ method: 'GET', url: `/api/v1/auth/google/callback?code=4/0AfJohXm-SECRET-AUTH-CODE&state=st4te-value-xyz` })
    secrets.add('st4te-value-xyz')
    // A careless log call by a future route: the masking pass still catches it.
    t.app.log.warn({ detail: { user: { phone_number: PHONE, note: `call ${PHONE}` } }, header: `Bearer ${access}` }, `debug ${refresh} ${PHONE}`)

    const all = entries()
    const msgs = all.map((e) => e.msg)
    expect(msgs).toContain('sign-in')
    expect(msgs).toContain('refresh token reused: its family is revoked')
    expect(msgs).toContain('rate limited')
    const refusals = all.filter((e) => e.msg === 'refused')
    expect(refusals.map((e) => e.status)).toEqual(expect.arrayContaining([400, 401, 404]))
    expect(refusals.find((e) => e.status === 400)?.reason).toBe('Mobile number must be 10 digits')
    expect(all.find((e) => e.msg === 'rate limited')).toMatchObject({ bucket: 'writes', limit: 3 })
    const callbackLine = all.find((e) => String(e.req?.url ?? '').includes('/google/callback'))
    expect(callbackLine?.req.url).toBe('/api/v1/auth/google/callback?code=[redacted]&state=[redacted]')

    for (const line of lines) {
      for (const secret of secrets) expect(line, `a log line holds a secret: ${line}`).not.toContain(secret)
      expect(line).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\./) // no JWT of any kind
      expect(line).not.toMatch(/(?<!\d)[6-9]\d{9}(?!\d)/) // no phone number
    }
    expect(lines.length).toBeGreaterThan(20)
  })
})

describe('masking', () => {
  it.each([
    ['Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc-def_ghi', 'Bearer [redacted]'],
    ['token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig end', 'token [token] end'],
    ['/login#accessToken=abc.def.ghi&refreshToken=xyz', '/login#accessToken=[redacted]&refreshToken=[redacted]'],
    ['refresh a'.replace('a', 'Qk9yZ0hQd2Z3b3ZzT2ZsQmV4Z2R0aXJ2bWxwY2x3Z2o'), 'refresh [redacted]'],
    ['call 9876543210 or +91 9876543210 or 09876543210', 'call [phone] or [phone] or [phone]'],
    ['ticket 1234567890123456 stays', 'ticket 1234567890123456 stays'],
    ['Invalid Token', 'Invalid Token'],
  ])('%s', (input, output) => {
    expect(maskText(input)).toBe(output)
  })

  it('URLs keep the path and the names of query parameters only', () => {
    expect(maskUrl('/api/v1/auth/google/callback?code=abc&state=def#frag')).toBe('/api/v1/auth/google/callback?code=[redacted]&state=[redacted]')
    expect(maskUrl('/api/v1/event/p/get/3')).toBe('/api/v1/event/p/get/3')
  })
})
