// CORS limited to APP_URL, exact origin, never `*` (issue 6); sign-in navigations are unaffected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testApp, type TestApp } from './helpers.ts'

const APP = 'http://app.test' // APP_URL in testApp

describe('CORS', () => {
  let t: TestApp
  beforeAll(async () => (t = await testApp()))
  afterAll(() => t.close())

  const preflight = (origin: string, url = '/api/v1/event/p/claim-ticket') =>
    t.app.inject({
      method: 'OPTIONS',
      url,
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    })

  it('a preflight from APP_URL is allowed for POST with the bearer and JSON headers', async () => {
    for (const url of ['/api/v1/event/p/claim-ticket', '/api/v1/event/p/create-team/', '/api/v1/auth/refresh-token']) {
      const res = await preflight(APP, url)
      expect(res.statusCode, url).toBe(204)
      expect(res.headers['access-control-allow-origin']).toBe(APP)
      expect(String(res.headers['access-control-allow-methods'])).toContain('POST')
      expect(String(res.headers['access-control-allow-headers'])).toMatch(/authorization/)
      expect(String(res.headers['access-control-allow-headers'])).toMatch(/content-type/)
      expect(res.headers['vary']).toMatch(/Origin/)
    }
  })

  it('a preflight from any other origin is refused, without an allow-origin header', async () => {
    for (const origin of ['http://evil.test', 'http://app.test.evil.test', 'https://app.test', 'http://app.test:8080', 'null']) {
      const res = await preflight(origin)
      expect(res.statusCode, origin).toBe(403)
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined()
      expect(res.json()).toEqual({ error: true, message: 'This origin may not call the API.', code: 'ORIGIN_NOT_ALLOWED' })
    }
  })

  it('an actual request from APP_URL gets its origin echoed (never *); another origin gets none', async () => {
    const { auth } = await t.student()
    const ok = await t.app.inject({ method: 'POST', url: '/api/v1/council/p/get', headers: { ...auth, origin: APP } })
    expect(ok.statusCode).toBe(200)
    expect(ok.headers['access-control-allow-origin']).toBe(APP)
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined()
    const foreign = await t.app.inject({ method: 'POST', url: '/api/v1/council/p/get', headers: { ...auth, origin: 'http://evil.test' } })
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined()
    // Refusals carry it too, so the app can read the message of a 401 or 429.
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/council/p/get', headers: { origin: APP } })
    expect(refused.statusCode).toBe(401)
    expect(refused.headers['access-control-allow-origin']).toBe(APP)
  })

  it('same-origin requests (no Origin header) get no CORS headers at all', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/council/p/get' })
    expect(res.headers['access-control-allow-origin']).toBeUndefined()
  })

  it('sign-in navigations are unaffected: the development form posts from another page and still signs in', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/dev',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' },
      payload: 'name=Asha&email=asha%40example.edu',
    })
    expect(res.statusCode).toBe(302)
    expect(res.headers.location).toMatch(/^http:\/\/app\.test\/login#accessToken=/)
    const page = await t.app.inject({ method: 'GET', url: '/api/v1/auth/google', headers: { origin: 'http://evil.test' } })
    expect(page.statusCode).toBe(200)
  })
})
