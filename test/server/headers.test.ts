// Security headers on the app page and on the API (issue 6), body size and timeouts.
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANSWERS_BODY_LIMIT, EVENT_SAVE_BODY_LIMIT } from '../../contract/org.ts'
import { BODY_LIMIT } from '../../server/app.ts'
import { contentSecurityPolicy, inlineScripts, inlineStyleHashes } from '../../server/plugins/security-headers.ts'
import { testApp, type TestApp } from './helpers.ts'

const CRITICAL_CSS = ':root{--c-brand:#c8102e}body{margin:0}'

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  )
}

function expectSecurityHeaders(headers: Record<string, unknown>) {
  const csp = directives(String(headers['content-security-policy']))
  expect(csp.get('object-src')).toEqual(["'none'"])
  expect(csp.get('base-uri')).toEqual(["'none'"])
  expect(csp.get('frame-ancestors')).toEqual(["'none'"])
  expect(String(headers['content-security-policy'])).not.toContain('unsafe-inline')
  expect(String(headers['content-security-policy'])).not.toContain('unsafe-eval')
  expect(headers['strict-transport-security']).toMatch(/^max-age=\d{8,}/)
  expect(headers['x-content-type-options']).toBe('nosniff')
  expect(headers['referrer-policy']).toBe('no-referrer')
}

describe('security headers', () => {
  let t: TestApp
  let staticDir: string

  beforeAll(async () => {
    staticDir = mkdtempSync(join(tmpdir(), 'campus-static-'))
    mkdirSync(join(staticDir, 'assets'))
    writeFileSync(
      join(staticDir, 'index.html'),
      `<!doctype html><html><head><style>${CRITICAL_CSS}</style><script type="module" src="/assets/index-abc.js"></script></head><body><div id="app"></div></body></html>`,
    )
    writeFileSync(join(staticDir, 'assets', 'index-abc.js'), 'console.log(1)')
    t = await testApp({ env: { STATIC_DIR: staticDir } })
  })
  afterAll(() => t.close())

  it('the app page: CSP allows its scripts and its inline critical CSS by hash, images from https and data:', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' })
    expect(res.statusCode).toBe(200)
    expectSecurityHeaders(res.headers)
    const csp = directives(String(res.headers['content-security-policy']))
    const hash = `'sha256-${createHash('sha256').update(CRITICAL_CSS).digest('base64')}'`
    expect(csp.get('style-src')).toEqual(["'self'", hash])
    expect(csp.get('script-src')).toEqual(["'self'"])
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'https:'])
    expect(csp.get('connect-src')).toEqual(["'self'"])
    expect(csp.get('manifest-src')).toEqual(["'self'"])
    expect(csp.get('worker-src')).toEqual(["'self'"])
  })

  it('a client-side route and a hashed asset carry the same headers', async () => {
    for (const url of ['/events/3', '/assets/index-abc.js']) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(200)
      expectSecurityHeaders(res.headers)
    }
  })

  it('API answers (success, 401, 404, 400) carry them too', async () => {
    const { auth } = await t.student()
    const answers = [
      await t.app.inject({ method: 'POST', url: '/api/v1/user/p/me', headers: { ...auth, 'content-type': 'application/json' }, payload: 'true' }),
      await t.app.inject({ method: 'POST', url: '/api/v1/user/p/me' }),
      await t.app.inject({ method: 'POST', url: '/api/v1/no/such/call' }),
      await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh-token', headers: { 'content-type': 'application/json' }, payload: '{' }),
    ]
    expect(answers.map((r) => r.statusCode)).toEqual([200, 401, 404, 400])
    for (const res of answers) expectSecurityHeaders(res.headers)
  })

  it('the development sign-in page keeps its own stricter policy', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/google' })
    expect(res.statusCode).toBe(200)
    const csp = directives(String(res.headers['content-security-policy']))
    expect(csp.get('default-src')).toEqual(["'none'"])
    expect(res.headers['x-content-type-options']).toBe('nosniff')
  })

  it('the configured API host (VITE_API_HOST) is added to connect-src, as an origin', () => {
    const csp = directives(contentSecurityPolicy({ apiOrigin: 'https://api.example.edu' }))
    expect(csp.get('connect-src')).toEqual(["'self'", 'https://api.example.edu'])
  })

  it('an inline script would be allowed only by its hash', () => {
    const dir = mkdtempSync(join(tmpdir(), 'campus-static-'))
    writeFileSync(join(dir, 'index.html'), '<html><head><script>window.x=1</script><script src="/a.js"></script></head></html>')
    const csp = directives(contentSecurityPolicy({ staticDir: dir }))
    expect(csp.get('script-src')).toEqual(["'self'", `'sha256-${createHash('sha256').update('window.x=1').digest('base64')}'`])
  })

  // The real build, when there is one: no inline script, no style attributes the hashes cannot cover.
  it.skipIf(!existsSync('dist/index.html'))('dist/index.html has no inline script and no style attribute; its <style> blocks are hashed', () => {
    const html = readFileSync('dist/index.html', 'utf8')
    expect(inlineScripts(html)).toEqual([])
    expect(html).not.toMatch(/\sstyle=/i)
    const csp = contentSecurityPolicy({ staticDir: 'dist' })
    for (const h of inlineStyleHashes(html)) expect(csp).toContain(h)
  })
})

describe('body size and timeouts', () => {
  let t: TestApp
  beforeAll(async () => (t = await testApp()))
  afterAll(() => t.close())

  it('bodies over 16 KB get 413 with the JSON error shape, on several calls, signed in or not', async () => {
    const { auth } = await t.student()
    const big = JSON.stringify({ event_id: 1, team_name: 'x'.repeat(BODY_LIMIT) })
    for (const url of ['/api/v1/auth/refresh-token', '/api/v1/user/p/update', '/api/v1/event/p/claim-ticket', '/api/v1/auth/dev']) {
      const res = await t.app.inject({ method: 'POST', url, headers: { ...auth, 'content-type': 'application/json' }, payload: big })
      expect(res.statusCode, url).toBe(413)
      expect(res.json(), url).toEqual({ error: true, message: 'The request is too large.', code: 'BODY_TOO_LARGE' })
    }
    // The calls that carry answers to registration questions, or a whole event, take what their field limits allow
    // (contract: bodyLimit), and no more.
    for (const [url, limit] of [
      ['/api/v1/event/p/create-team/', ANSWERS_BODY_LIMIT],
      ['/api/v1/event/p/register-for-event', ANSWERS_BODY_LIMIT],
      ['/api/v1/org/p/event/save', EVENT_SAVE_BODY_LIMIT],
    ] as const) {
      const over = JSON.stringify({ event_id: 1, team_name: 'x'.repeat(limit) })
      const res = await t.app.inject({ method: 'POST', url, headers: { ...auth, 'content-type': 'application/json' }, payload: over })
      expect(res.statusCode, url).toBe(413)
      expect(res.json(), url).toEqual({ error: true, message: 'The request is too large.', code: 'BODY_TOO_LARGE' })
    }
  })

  it('a body just under the limit is read (and refused for what it says, not its size)', async () => {
    const { auth } = await t.student()
    const payload = JSON.stringify({ event_id: 1, pad: 'x'.repeat(BODY_LIMIT - 40) })
    expect(payload.length).toBeLessThan(BODY_LIMIT)
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/event/p/claim-ticket', headers: { ...auth, 'content-type': 'application/json' }, payload })
    expect(res.statusCode).toBe(404)
  })

  it('request, connection and keep-alive timeouts are set on the HTTP server', () => {
    expect((t.app.initialConfig as { requestTimeout?: number }).requestTimeout).toBe(10_000)
    expect(t.app.initialConfig.connectionTimeout).toBe(30_000)
    expect(t.app.initialConfig.keepAliveTimeout).toBe(10_000)
    expect(t.app.server.requestTimeout).toBe(10_000)
    expect(t.app.server.keepAliveTimeout).toBe(10_000)
  })
})
