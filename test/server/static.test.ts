// Serving the built app: hashed assets cached for a year, index.html revalidated for every client-side route,
// and nothing outside the build's own files (no folders, no hidden build metadata, no paths out of dist/).
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inlineStyleHashes } from '../../server/plugins/security-headers.ts'
import { testApp, type TestApp } from './helpers.ts'

describe('static files of the built app', () => {
  let t: TestApp
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'campus-dist-'))
    mkdirSync(join(dir, 'assets'))
    mkdirSync(join(dir, '.vite'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>CSI Events</title><div id="app"></div>')
    writeFileSync(join(dir, 'assets', 'start-abc123.js'), 'export const x = 1')
    writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {})')
    writeFileSync(join(dir, '.vite', 'manifest.json'), '{"secret":"build metadata"}')
    t = await testApp({ env: { STATIC_DIR: dir } })
  })
  afterAll(() => t.close())

  const get = (url: string) => t.app.inject({ method: 'GET', url })

  it('a hashed asset is cached for a year, immutable', async () => {
    const res = await get('/assets/start-abc123.js')
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
  })

  it('an unhashed file (the service worker) is revalidated', async () => {
    const res = await get('/sw.js')
    expect(res.statusCode).toBe(200)
    expect(res.headers['cache-control']).toBe('no-cache')
  })

  it.each(['/', '/event-details/3', '/profile/myevents', '/assets'])('%s answers index.html, revalidated', async (url) => {
    const res = await get(url)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.headers['cache-control']).toBe('no-cache')
    expect(res.body).toContain('<div id="app">')
  })

  it('the app’s files vary on nothing but the encoding: a Vary: Origin would keep the service worker’s cache from matching them', async () => {
    for (const url of ['/', '/sw.js', '/assets/start-abc123.js', '/event-details/3']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } })
      expect(String(res.headers.vary ?? ''), url).not.toMatch(/origin/i)
    }
  })

  it('the API reference (/api/docs) and the OpenAPI document are not swallowed by the client-side routes', async () => {
    const docs = await get('/api/docs')
    expect(docs.statusCode).toBe(200)
    expect(docs.body).not.toContain('<div id="app">')
    expect(docs.body).toMatch(/swagger/i)
    const doc = await get('/api/v1/openapi.json')
    expect(doc.json().openapi).toBe('3.1.0')
  })

  it('the short verify address (issue 37 item 1) is the server’s public page, never the app’s index.html; JSON when asked', async () => {
    for (const code of ['ZZZZZ-ZZZZZ', 'zzzzzzzzzz', '%3Cscript%3E']) {
      const page = await t.app.inject({ method: 'GET', url: `/verify/${code}`, headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } })
      expect(page.statusCode).toBe(404)
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(page.body).not.toContain('<div id="app">')
      expect(page.body).toContain('<h1>Unknown verification code</h1>')
      expect(page.body).toContain('<a class="open" href="http://app.test/">Open CSI Events</a>')
      expect(page.body).not.toMatch(/<script/i)
      // Its own policy: no script, and its one style block allowed by that block's hash.
      const policy = String(page.headers['content-security-policy'])
      expect(policy).toContain("default-src 'none'")
      expect(policy).toContain(`style-src ${inlineStyleHashes(page.body).join(' ')}`)
      const json = await t.app.inject({ method: 'GET', url: `/verify/${code}`, headers: { accept: 'application/json' } })
      expect(json.statusCode).toBe(404)
      expect(json.json()).toEqual({ error: true, message: 'No certificate has this code.', code: 'UNKNOWN_CERTIFICATE' })
    }
    // Not the app's route either: with a trailing part it is the app's (no such screen), as before.
    expect((await get('/verify')).body).toContain('<div id="app">')
  })

  it.each(['/.vite/manifest.json', '/assets/missing-000.js', '/../package.json', '/%2e%2e/package.json'])(
    '%s is a JSON 404, never a file outside the build',
    async (url) => {
      const res = await get(url)
      expect(res.statusCode).toBe(404)
      expect(res.body).not.toContain('build metadata')
      expect(res.body).not.toContain('campus-events')
    },
  )
})
