// The fetch wrapper against a fake server: bearer header, the single-flight refresh of SPEC §4 and the error
// shapes of SPEC §8. The fake server answers like API.md: 401 {error:true,message:'Invalid Token'} for a bad token.
import { describe, expect, it, vi } from 'vitest'
import { ApiError, INVALID_TOKEN, NETWORK_MESSAGE, createClient, type TokenStorage } from '../../src/api/client.ts'
import { memoryStorage } from '../fixtures/storage.ts'

interface Seen {
  url: string
  auth: string | null
  body: unknown
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/**
 * A server with one valid access token at a time and rotating refresh tokens. `refreshDelay` keeps the refresh
 * answer pending so concurrent callers overlap it.
 */
function fakeServer(opts: { access?: string; refresh?: string; refreshStatus?: number; refreshDelay?: number } = {}) {
  let validAccess = opts.access ?? 'A2'
  let validRefresh = opts.refresh ?? 'R1'
  let generation = 1
  const seen: Seen[] = []
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers)
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    const path = String(url)
    seen.push({ url: path, auth: headers.get('authorization'), body })
    if (path.endsWith('/auth/refresh-token')) {
      if (opts.refreshDelay) await new Promise((r) => setTimeout(r, opts.refreshDelay)) // kept: the fake server's slow refresh the test is about
      if (opts.refreshStatus) return json(opts.refreshStatus, { error: true, message: 'Refresh token refused' })
      if (body?.refreshToken !== validRefresh) return json(401, { error: true, message: 'Invalid Token' })
      generation++
      validAccess = `A${generation + 1}`
      validRefresh = `R${generation}`
      return json(200, { error: false, accessToken: validAccess, refreshToken: validRefresh })
    }
    if (headers.get('authorization') !== `Bearer ${validAccess}`) {
      return json(401, { error: true, message: 'Token expired or whatever the server says' })
    }
    return json(200, { error: false, path, echo: body })
  })
  return { fetch, seen, refreshCalls: () => seen.filter((s) => s.url.endsWith('/auth/refresh-token')).length }
}

const setup = (storage: TokenStorage, server: ReturnType<typeof fakeServer>) => {
  const onLogout = vi.fn()
  const client = createClient({ baseUrl: 'https://api.example', fetch: server.fetch as typeof fetch, storage, onLogout })
  return { client, onLogout }
}

describe('api client', () => {
  it('POSTs JSON to {host}/api/v1/... with the stored bearer token and resolves with the data', async () => {
    const server = fakeServer({ access: 'A2' })
    const { client } = setup(memoryStorage({ accessToken: 'A2', refreshToken: 'R1' }), server)
    const data = await client.request('/event/p/register-for-event', { event_id: 7 })
    expect(data).toEqual({ error: false, path: 'https://api.example/api/v1/event/p/register-for-event', echo: { event_id: 7 } })
    const init = server.fetch.mock.calls[0][1]!
    expect(init.method).toBe('POST')
    expect(new Headers(init.headers).get('content-type')).toBe('application/json')
    expect(server.seen[0].auth).toBe('Bearer A2')
  })

  it('sends the literal body `true` when a call has no fields (SPEC §7 /user/p/me, /event/p/get)', async () => {
    const server = fakeServer({ access: 'A2' })
    const { client } = setup(memoryStorage({ accessToken: 'A2', refreshToken: 'R1' }), server)
    await client.request('/user/p/me')
    expect(server.fetch.mock.calls[0][1]!.body).toBe('true')
  })

  it('on 401 refreshes once, stores the new access token AND the rotated refresh token, and retries', async () => {
    const server = fakeServer({ access: 'A2', refresh: 'R1' })
    const storage = memoryStorage({ accessToken: 'stale', refreshToken: 'R1' })
    const { client, onLogout } = setup(storage, server)
    const data = await client.request('/user/p/me')
    expect(data.error).toBe(false)
    expect(server.seen.map((s) => s.url.replace('https://api.example/api/v1', ''))).toEqual(['/user/p/me', '/auth/refresh-token', '/user/p/me'])
    expect(server.seen[1]).toMatchObject({ auth: null, body: { refreshToken: 'R1' } })
    expect(server.seen[2].auth).toBe('Bearer A3')
    expect(storage.data.get('accessToken')).toBe('A3')
    expect(storage.data.get('refreshToken')).toBe('R2')
    expect(onLogout).not.toHaveBeenCalled()
  })

  it('several concurrent 401s share ONE refresh, then each call is retried with the new token', async () => {
    const server = fakeServer({ access: 'A2', refresh: 'R1', refreshDelay: 20 })
    const storage = memoryStorage({ accessToken: 'stale', refreshToken: 'R1' })
    const { client, onLogout } = setup(storage, server)
    const results = await Promise.all(['/user/p/me', '/event/p/get', '/council/p/get', '/event/p/get/me', '/event/p/get/3'].map((p) => client.request(p)))
    expect(results.every((r) => r.error === false)).toBe(true)
    expect(server.refreshCalls()).toBe(1)
    const retries = server.seen.filter((s) => s.auth === 'Bearer A3')
    expect(retries).toHaveLength(5)
    expect(onLogout).not.toHaveBeenCalled()
    expect(storage.data.get('refreshToken')).toBe('R2')
  })

  it("two tabs meeting 401 at once refresh ONCE between them: the second waits for the shared lock, then uses the first tab's tokens", async () => {
    // Refresh tokens work once (API.md): a second refresh with the same token would revoke the session.
    const server = fakeServer({ access: 'A2', refresh: 'R1', refreshDelay: 20 })
    const storage = memoryStorage({ accessToken: 'stale', refreshToken: 'R1' }) // localStorage is shared by tabs
    let held = Promise.resolve()
    const lock = (run: () => Promise<void>) => {
      // A stand-in for navigator.locks: one holder at a time, in order of request.
      const turn = held.then(run)
      held = turn.catch(() => {})
      return turn
    }
    const tabs = [1, 2].map(() => createClient({ baseUrl: 'https://api.example', fetch: server.fetch as typeof fetch, storage, onLogout: vi.fn(), lock }))
    const results = await Promise.all(tabs.map((tab) => tab.request('/user/p/me')))
    expect(results.every((r) => r.error === false)).toBe(true)
    expect(server.refreshCalls()).toBe(1)
    expect(storage.data.get('refreshToken')).toBe('R2')
  })

  it('without the shared lock, two tabs would both refresh (the race the lock exists for)', async () => {
    const server = fakeServer({ access: 'A2', refresh: 'R1', refreshDelay: 20 })
    const storage = memoryStorage({ accessToken: 'stale', refreshToken: 'R1' })
    const noLock = (run: () => Promise<void>) => run()
    const tabs = [1, 2].map(() =>
      createClient({ baseUrl: 'https://api.example', fetch: server.fetch as typeof fetch, storage, onLogout: vi.fn(), lock: noLock }),
    )
    await Promise.allSettled(tabs.map((tab) => tab.request('/user/p/me')))
    expect(server.refreshCalls()).toBe(2)
  })

  it('a call that meets a 401 after another caller already refreshed retries without a second refresh', async () => {
    const server = fakeServer({ access: 'A2', refresh: 'R1' })
    const storage = memoryStorage({ accessToken: 'stale', refreshToken: 'R1' })
    const { client } = setup(storage, server)
    // The first call refreshes; the second was sent with the stale token before that finished.
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const slowFetch = server.fetch.getMockImplementation()!
    server.fetch.mockImplementationOnce(async (url, init) => {
      const answer = await slowFetch(url, init)
      await gate
      return answer
    })
    const slow = client.request('/event/p/get')
    await client.request('/user/p/me')
    release()
    await slow
    expect(server.refreshCalls()).toBe(1)
  })

  it('no refresh token: onLogout, the call rejects with 401 Invalid Token, no refresh is attempted', async () => {
    const server = fakeServer({ access: 'A2' })
    const { client, onLogout } = setup(memoryStorage({ accessToken: 'stale' }), server)
    const error = await client.request('/user/p/me').catch((e) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 401, message: INVALID_TOKEN })
    expect(onLogout).toHaveBeenCalledTimes(1)
    expect(server.refreshCalls()).toBe(0)
  })

  it('no token at all: goes to logout without a round trip', async () => {
    const server = fakeServer()
    const { client, onLogout } = setup(memoryStorage(), server)
    await expect(client.request('/user/p/me')).rejects.toMatchObject({ status: 401, message: INVALID_TOKEN })
    expect(onLogout).toHaveBeenCalledTimes(1)
    expect(server.fetch).not.toHaveBeenCalled()
  })

  it('refresh refused by the server: onLogout once, however many calls were waiting', async () => {
    const server = fakeServer({ access: 'A2', refresh: 'R1', refreshStatus: 401, refreshDelay: 10 })
    const storage = memoryStorage({ accessToken: 'stale', refreshToken: 'R1' })
    const { client, onLogout } = setup(storage, server)
    const outcomes = await Promise.allSettled([client.request('/user/p/me'), client.request('/event/p/get')])
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected'])
    for (const o of outcomes) expect((o as PromiseRejectedResult).reason).toMatchObject({ status: 401, message: INVALID_TOKEN })
    expect(server.refreshCalls()).toBe(1)
    expect(onLogout).toHaveBeenCalledTimes(1)
  })

  it('a logout while a refresh is on its way: the rotated tokens are not written back, storage stays empty', async () => {
    const server = fakeServer({ access: 'A2', refresh: 'R1', refreshDelay: 200 })
    const storage = memoryStorage({ accessToken: 'stale', refreshToken: 'R1' })
    const { client } = setup(storage, server)
    const call = client.request('/user/p/me').catch((e) => e)
    // The refresh is asked for (its answer 200 ms away): the student logs out now.
    await vi.waitFor(() => expect(server.refreshCalls()).toBe(1), { interval: 1 })
    storage.data.clear() // signOut: localStorage.clear()
    expect(await call).toMatchObject({ status: 401, message: INVALID_TOKEN })
    expect([...storage.data.keys()]).toEqual([])
  })

  it('a replayed (already rotated) refresh token is refused and leads to logout', async () => {
    const server = fakeServer({ access: 'A2', refresh: 'R-new' })
    const { client, onLogout } = setup(memoryStorage({ accessToken: 'stale', refreshToken: 'R-old' }), server)
    await expect(client.request('/user/p/me')).rejects.toMatchObject({ status: 401 })
    expect(onLogout).toHaveBeenCalledTimes(1)
  })

  it('a refresh that cannot reach the server rejects with the network error and does NOT log out', async () => {
    const storage = memoryStorage({ accessToken: 'stale', refreshToken: 'R1' })
    const onLogout = vi.fn()
    const fetch = vi.fn(async (url: string | URL | Request) => {
      if (String(url).endsWith('/auth/refresh-token')) throw new TypeError('Failed to fetch')
      return json(401, { error: true, message: 'Invalid Token' })
    })
    const client = createClient({ fetch: fetch as typeof globalThis.fetch, storage, onLogout })
    await expect(client.request('/user/p/me')).rejects.toMatchObject({ status: 0, message: NETWORK_MESSAGE })
    expect(onLogout).not.toHaveBeenCalled()
    expect(storage.data.get('refreshToken')).toBe('R1')
  })

  it('a new token refused again right after the refresh ends in logout instead of a loop', async () => {
    const storage = memoryStorage({ accessToken: 'stale', refreshToken: 'R1' })
    const onLogout = vi.fn()
    const fetch = vi.fn(async (url: string | URL | Request) =>
      String(url).endsWith('/auth/refresh-token')
        ? json(200, { error: false, accessToken: 'A9', refreshToken: 'R9' })
        : json(401, { error: true, message: 'Invalid Token' }),
    )
    const client = createClient({ fetch: fetch as typeof globalThis.fetch, storage, onLogout })
    await expect(client.request('/user/p/me')).rejects.toMatchObject({ status: 401 })
    expect(fetch).toHaveBeenCalledTimes(3)
    expect(onLogout).toHaveBeenCalledTimes(1)
  })

  it("an error body becomes ApiError with the server's message and status", async () => {
    const storage = memoryStorage({ accessToken: 'A2', refreshToken: 'R1' })
    const fetch = vi.fn(async () => json(409, { error: true, message: 'You are already registered for this event.' }))
    const client = createClient({ fetch: fetch as typeof globalThis.fetch, storage, onLogout: vi.fn() })
    const error = await client.request('/event/p/register-for-event', { event_id: 1 }).catch((e) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 409, message: 'You are already registered for this event.' })
  })

  it('a 200 answer flagged error:true is a failure too (SPEC §8)', async () => {
    const fetch = vi.fn(async () => json(200, { error: true, message: 'Team name taken' }))
    const client = createClient({ fetch: fetch as typeof globalThis.fetch, storage: memoryStorage({ accessToken: 'A' }), onLogout: vi.fn() })
    await expect(client.request('/event/p/create-team/', {})).rejects.toMatchObject({ status: 200, message: 'Team name taken' })
  })

  it('a non-JSON error page still becomes a readable ApiError', async () => {
    const fetch = vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 }))
    const client = createClient({ fetch: fetch as typeof globalThis.fetch, storage: memoryStorage({ accessToken: 'A' }), onLogout: vi.fn() })
    const error = await client.request('/event/p/get').catch((e) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error.status).toBe(502)
    expect(error.message).toMatch(/502/)
  })

  it('a network failure becomes ApiError status 0 with a readable message', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    })
    const client = createClient({ fetch: fetch as typeof globalThis.fetch, storage: memoryStorage({ accessToken: 'A' }), onLogout: vi.fn() })
    await expect(client.request('/event/p/get')).rejects.toMatchObject({ status: 0, message: NETWORK_MESSAGE })
  })

  it('auth:false calls carry no bearer header and never refresh (logout)', async () => {
    const server = fakeServer({ access: 'A2' })
    const { client, onLogout } = setup(memoryStorage({ accessToken: 'A2', refreshToken: 'R1' }), server)
    await expect(client.request('/auth/logout', { refreshToken: 'R1' }, { auth: false })).rejects.toMatchObject({ status: 401 })
    expect(server.seen).toHaveLength(1)
    expect(server.seen[0].auth).toBeNull()
    expect(onLogout).not.toHaveBeenCalled()
  })

  it('an empty base URL means same origin: paths start at /api/v1', async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => json(200, { error: false }))
    const client = createClient({ fetch: fetch as typeof globalThis.fetch, storage: memoryStorage({ accessToken: 'A' }), onLogout: vi.fn() })
    await client.request('/council/p/get')
    expect(fetch.mock.calls[0][0]).toBe('/api/v1/council/p/get')
  })
})
