// Issue 10, item 2 (part): the unauthenticated calls are rate-limited per client address, logout included
// (it shares the refresh bucket), so a flood of them cannot hold the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testApp, type TestApp } from './helpers.ts'

const small = { writes: { limit: 3, windowSeconds: 60 }, signIn: { limit: 2, windowSeconds: 60 }, refresh: { limit: 2, windowSeconds: 60 } }

describe('logout flood', () => {
  let t: TestApp
  beforeAll(async () => (t = await testApp({ app: { rateLimits: small } })))
  afterAll(() => t.close())

  it('the third logout in a window from one address gets 429 with Retry-After', async () => {
    const logout = () =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { 'content-type': 'application/json' }, payload: { refreshToken: 'A'.repeat(43) } })
    expect((await logout()).statusCode).toBe(200)
    expect((await logout()).statusCode).toBe(200)
    const refused = await logout()
    expect(refused.statusCode).toBe(429)
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
  })
})
