// Issue 10, item 7 (the small ones): bad static paths answer 404, any method on an unknown API path answers the
// API's JSON 404, and half-set Google settings or NODE_ENV in another case are refused at start.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config.ts'
import { testApp, type TestApp } from './helpers.ts'

describe('bad static paths answer 404, not 500', () => {
  let t: TestApp
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'campus-dist-'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>CSI Events</title><div id="app"></div>')
    t = await testApp({ env: { STATIC_DIR: dir } })
  })
  afterAll(() => t.close())

  it.each(['/index.html/x', `/${'a'.repeat(300)}`, `/${'a'.repeat(300)}.js`, '/%00', '/x%00.js', '/assets/%00/y'])('%s', async (url) => {
    const res = await t.app.inject({ method: 'GET', url })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ error: true, message: 'Not found.', code: 'NOT_FOUND' })
  })

  it('client-side routes still answer the app', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/event-details/3' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
  })

  it.each(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const)('%s on an unknown /api/v1/ path answers the JSON 404', async (method) => {
    for (const url of ['/api/v1/nope', '/api/v1/event/p/nope/1', '/api/v1/', '/api/v2/x', '/api']) {
      const res = await t.app.inject({
        method,
        url,
        headers: { 'content-type': 'application/json' },
        payload: method === 'GET' || method === 'HEAD' ? undefined : '{}',
      })
      expect(res.statusCode, `${method} ${url}`).toBe(404)
      expect(res.headers['content-type'], `${method} ${url}`).toMatch(/^application\/json/)
      if (method !== 'HEAD') expect(res.json()).toEqual({ error: true, message: 'No such API call.', code: 'NOT_FOUND' })
    }
  })
})

describe('settings refused at start', () => {
  const base = { APP_URL: 'http://localhost:3000' }
  it('half-set Google settings (an id without a secret, or a secret without an id)', () => {
    expect(() => loadConfig({ ...base, GOOGLE_CLIENT_ID: 'id' })).toThrow(/GOOGLE_CLIENT_SECRET is missing/)
    expect(() => loadConfig({ ...base, GOOGLE_CLIENT_SECRET: 'secret' })).toThrow(/GOOGLE_CLIENT_ID is missing/)
    expect(loadConfig({ ...base, GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's' }).google?.clientId).toBe('id')
    expect(loadConfig(base).google).toBeUndefined()
  })
  it('NODE_ENV=production in another case, or "prod", is not taken for development', () => {
    for (const value of ['Production', 'PRODUCTION', 'prod', ' production']) {
      expect(() => loadConfig({ ...base, NODE_ENV: value })).toThrow(/exactly "production"/)
    }
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).production).toBe(false)
    expect(() => loadConfig({ ...base, NODE_ENV: 'production' })).toThrow(/required in production/)
  })
})
