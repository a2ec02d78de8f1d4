// A returning student's first call is not a 401 (issue 37 item 7): whoever stores an access token keeps its expiry
// beside it (src/api/token-expiry.ts); src/boot.ts drops a token that has expired or expires within the minute and
// sends no early call with it; the client, holding a refresh token alone, renews before its first call.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createClient } from '../../src/api/client.ts'
import { renew } from '../../src/api/refresh.ts'
import { expiryOf, keepExpiry } from '../../src/api/token-expiry.ts'
import { memoryStorage } from '../fixtures/storage.ts'

const b64url = (text: string) => Buffer.from(text).toString('base64url')
/** A token shaped as the server's (a JWT; the signature is not read by the app). */
const jwt = (claims: object) => `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify(claims))}.sig`
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

afterEach(() => {
  vi.unstubAllGlobals()
  vi.resetModules()
  delete (globalThis as { __earlyCalls?: unknown }).__earlyCalls
})

describe('the expiry kept beside the token', () => {
  it('is read from the JWT, base64url characters included; an unreadable token has none', () => {
    // A name whose base64url carries '-' and '_' (what plain atob refuses).
    const token = jwt({ sub: '7', name: '>>>???', exp: 1_800_000_000 })
    expect(token.split('.')[1]).toMatch(/[-_]/)
    expect(expiryOf(token)).toBe(1_800_000_000_000)
    expect(expiryOf('A2')).toBe(0)
    expect(expiryOf(jwt({ sub: '7' }))).toBe(0)
    const storage = memoryStorage({ tokenExpires: '5' })
    keepExpiry(storage, token)
    expect(storage.data.get('tokenExpires')).toBe('1800000000000')
    keepExpiry(storage, 'not-a-jwt')
    expect(storage.data.has('tokenExpires')).toBe(false)
  })

  it('a refresh keeps the new token and its expiry', async () => {
    const fresh = jwt({ sub: '7', exp: 1_900_000_000 })
    const storage = memoryStorage({ accessToken: 'old', refreshToken: 'R1', tokenExpires: '1' })
    await renew(
      {
        send: async () => ({ status: 200, data: { error: false, accessToken: fresh, refreshToken: 'R2' } }),
        fail: () => null,
        logout: () => {
          throw new Error('no logout expected')
        },
        storage,
        lock: (run) => run(),
      },
      'old',
    )
    expect(Object.fromEntries(storage.data)).toEqual({ accessToken: fresh, refreshToken: 'R2', tokenExpires: '1900000000000' })
  })
})

describe('the client with a refresh token alone', () => {
  it('renews first, then sends the call once with the new token: no 401 on the way', async () => {
    const seen: { path: string; auth: string | null }[] = []
    const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      const path = String(url).replace(/^.*\/api\/v1/, '')
      const auth = new Headers(init?.headers).get('authorization')
      seen.push({ path, auth })
      if (path === '/auth/refresh-token') return json(200, { error: false, accessToken: 'A9', refreshToken: 'R2' })
      return auth === 'Bearer A9' ? json(200, { error: false, user: { id: 7 } }) : json(401, { error: true, message: 'Invalid Token' })
    })
    const storage = memoryStorage({ refreshToken: 'R1' })
    const client = createClient({ fetch: fetch as typeof globalThis.fetch, storage, onLogout: vi.fn(), lock: (run) => run() })
    const [a, b] = await Promise.all([client.request('/user/p/me'), client.request('/event/p/get')])
    expect([a.error, b.error]).toEqual([false, false])
    // One refresh shared by both calls, and each call once, with the new token.
    expect(seen).toEqual([
      { path: '/auth/refresh-token', auth: null },
      { path: '/user/p/me', auth: 'Bearer A9' },
      { path: '/event/p/get', auth: 'Bearer A9' },
    ])
  })

  it('offline, the refresh fails and the call goes on to fail as offline, without logging out', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    })
    const onLogout = vi.fn()
    const storage = memoryStorage({ refreshToken: 'R1' })
    const client = createClient({ fetch: fetch as typeof globalThis.fetch, storage, onLogout, lock: (run) => run() })
    await expect(client.request('/user/p/me')).rejects.toMatchObject({ status: 0 })
    expect(onLogout).not.toHaveBeenCalled()
    expect(storage.data.get('refreshToken')).toBe('R1')
  })
})

describe('src/boot.ts', () => {
  async function boot(stored: Record<string, string>) {
    const storage = memoryStorage(stored)
    const fetch = vi.fn(async () => json(200, { error: false }))
    vi.stubGlobal('localStorage', storage)
    vi.stubGlobal('location', { pathname: '/' })
    vi.stubGlobal('fetch', fetch)
    await import('../../src/boot.ts')
    return { storage, fetch, early: (globalThis as { __earlyCalls?: { token: string } }).__earlyCalls }
  }

  it('drops an access token that expires within the minute, and sends no early call with it', async () => {
    const { storage, fetch, early } = await boot({ accessToken: 'A1', refreshToken: 'R1', tokenExpires: String(Date.now() + 30_000) })
    expect(storage.data.has('accessToken')).toBe(false)
    expect(storage.data.get('refreshToken')).toBe('R1')
    expect(fetch).not.toHaveBeenCalled()
    expect(early).toBeUndefined()
  })

  it('keeps a token with time left, or with no time kept (stored before this version), and starts the first calls with it', async () => {
    for (const stored of [{ tokenExpires: String(Date.now() + 600_000) }, {}] as Record<string, string>[]) {
      vi.resetModules()
      const { storage, fetch, early } = await boot({ accessToken: 'A1', refreshToken: 'R1', ...stored })
      expect(storage.data.get('accessToken')).toBe('A1')
      expect(fetch).toHaveBeenCalledTimes(2)
      expect(early?.token).toBe('A1')
    }
  })
})
