// The first calls started by src/boot.ts before the app's code arrived: the client takes each answer once, for
// the same path and token, through the same rules as any call (a 401 → one refresh → the call again → logout
// when the refresh fails), and the kept answers of src/api/last-known.ts stand in when the network is gone.
import { describe, expect, it, vi } from 'vitest'
import { ApiError, INVALID_TOKEN, createClient, type EarlyCalls } from '../../src/api/client.ts'
import { createCalls } from '../../src/api/all-calls.ts'
import { createLastKnown } from '../../src/api/last-known.ts'
import { forgetCopies } from '../../src/api/last-known-copies.ts'
import { memoryStorage as storage } from '../fixtures/storage.ts'

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const USER = { id: 7, name: 'Meera' }

describe('early calls', () => {
  it('the first call of a path with the same token takes the early answer instead of asking again', async () => {
    const fetch = vi.fn(async () => json(200, { error: false, user: { id: 99 } }))
    const early: EarlyCalls = { token: 'A1', calls: { '/user/p/me': Promise.resolve(json(200, { error: false, user: USER })) } }
    const client = createClient({ fetch, storage: storage({ accessToken: 'A1', refreshToken: 'R1' }), onLogout: vi.fn(), early })
    expect(await client.request('/user/p/me')).toEqual({ error: false, user: USER })
    expect(fetch).not.toHaveBeenCalled()
    // Taken once: the next call asks the server.
    expect(await client.request('/user/p/me')).toEqual({ error: false, user: { id: 99 } })
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('a call with a body takes the early answer started with that body (Home’s events), not one with another', async () => {
    const fetch = vi.fn(async () => json(200, { error: false, events: { ONGOING: [] } }))
    const home = Promise.resolve(json(200, { error: false, events: {} }))
    const early: EarlyCalls = { token: 'A1', calls: { '/event/p/get{"scope":"home"}': home } }
    const client = createClient({ fetch, storage: storage({ accessToken: 'A1', refreshToken: 'R1' }), onLogout: vi.fn(), early })
    expect(await client.request('/event/p/get')).toEqual({ error: false, events: { ONGOING: [] } })
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(await client.request('/event/p/get', { scope: 'home' })).toEqual({ error: false, events: {} })
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('an early answer made with another token (a sign-in since) is not used', async () => {
    const fetch = vi.fn(async () => json(200, { error: false, user: USER }))
    const early: EarlyCalls = { token: 'OLD', calls: { '/user/p/me': Promise.resolve(json(200, { error: false, user: { id: 1 } })) } }
    const client = createClient({ fetch, storage: storage({ accessToken: 'NEW', refreshToken: 'R1' }), onLogout: vi.fn(), early })
    expect(await client.request('/user/p/me')).toEqual({ error: false, user: USER })
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('an early 401 leads to one refresh, then the call again with the new token', async () => {
    const seen: string[] = []
    const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
      const path = String(url)
      seen.push(`${path.replace(/.*\/api\/v1/, '')} ${new Headers(init?.headers).get('authorization') ?? ''}`)
      if (path.endsWith('/auth/refresh-token')) return json(200, { error: false, accessToken: 'A2', refreshToken: 'R2' })
      return json(200, { error: false, user: USER })
    })
    const early: EarlyCalls = {
      token: 'A1',
      calls: {
        '/user/p/me': Promise.resolve(json(401, { error: true, message: 'Invalid Token' })),
        '/event/p/get': Promise.resolve(json(401, { error: true, message: 'Invalid Token' })),
      },
    }
    const store = storage({ accessToken: 'A1', refreshToken: 'R1' })
    const client = createClient({ fetch, storage: store, onLogout: vi.fn(), early })
    await Promise.all([client.request('/user/p/me'), client.request('/event/p/get')])
    // One refresh for both early 401s, then each call again with the new token.
    expect(seen.filter((s) => s.startsWith('/auth/refresh-token'))).toHaveLength(1)
    expect(seen.filter((s) => s !== '/auth/refresh-token ').sort()).toEqual(['/event/p/get Bearer A2', '/user/p/me Bearer A2'])
    expect(store.data.get('refreshToken')).toBe('R2')
  })

  it('an early 401 with a refused refresh goes to /logout', async () => {
    const fetch = vi.fn(async () => json(401, { error: true, message: 'Invalid Token' }))
    const onLogout = vi.fn()
    const early: EarlyCalls = { token: 'A1', calls: { '/user/p/me': Promise.resolve(json(401, { error: true, message: 'Invalid Token' })) } }
    const client = createClient({ fetch, storage: storage({ accessToken: 'A1', refreshToken: 'R1' }), onLogout, early })
    await expect(client.request('/user/p/me')).rejects.toMatchObject({ status: 401, message: INVALID_TOKEN })
    expect(onLogout).toHaveBeenCalledTimes(1)
  })
})

describe('last known answers', () => {
  const offlineFetch = vi.fn(async () => {
    throw new TypeError('Failed to fetch')
  })

  it('keeps each good answer and gives it back, marked as a copy, when the network is gone', async () => {
    const store = storage({ accessToken: 'A1', refreshToken: 'R1' })
    const heard: boolean[] = []
    const lastKnown = createLastKnown(store)
    lastKnown.listen((copy) => heard.push(copy))
    let online = true
    const fetch = vi.fn(async (url: string | URL | Request) => {
      if (!online) throw new TypeError('Failed to fetch')
      return String(url).endsWith('/user/p/me') ? json(200, { error: false, user: USER }) : json(200, { error: false, event: { id: 5, name: 'Garba Night' } })
    })
    const api = createCalls(createClient({ fetch, storage: store, onLogout: vi.fn() }), lastKnown)
    expect((await api.me()).user).toEqual(USER)
    expect(await api.getEvent(5)).toEqual({ id: 5, name: 'Garba Night' })
    online = false
    expect((await api.me()).user).toEqual(USER)
    expect(await api.getEvent(5)).toEqual({ id: 5, name: 'Garba Night' })
    expect(heard).toEqual([false, false, true, true])
    // Nothing kept for another event: the network failure comes through.
    await expect(api.getEvent(6)).rejects.toMatchObject({ status: 0 })
  })

  it('an answer arriving after a logout is not kept: logout cleared all of storage, and it stays clear', async () => {
    const store = storage({ accessToken: 'A1', refreshToken: 'R1' })
    let answer!: (response: Response) => void
    const fetch = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)))
    const api = createCalls(createClient({ fetch, storage: store, onLogout: vi.fn() }), createLastKnown(store))
    const me = api.me()
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1))
    store.data.clear() // the student logs out while the read is on its way (signOut: localStorage.clear())
    answer(json(200, { error: false, user: USER }))
    expect((await me).user).toEqual(USER)
    expect([...store.data.keys()]).toEqual([])
  })

  it('only a network failure falls back: a server answer (404, 401) is not papered over', async () => {
    const store = storage({ accessToken: 'A1', refreshToken: 'R1', 'lastKnown:event:5': JSON.stringify({ id: 5 }) })
    const fetch = vi.fn(async () => json(404, { error: true, message: 'No such event.' }))
    const api = createCalls(createClient({ fetch, storage: store, onLogout: vi.fn() }), createLastKnown(store))
    await expect(api.getEvent(5)).rejects.toBeInstanceOf(ApiError)
    await expect(api.getEvent(5)).rejects.toMatchObject({ status: 404 })
  })

  it('forgetCopies() forgets the kept answers and nothing else', async () => {
    const store = storage({ accessToken: 'A1', 'lastKnown:me': '{}', 'lastKnown:events': '{}', other: 'x' })
    forgetCopies(store)
    expect([...store.data.keys()].sort()).toEqual(['accessToken', 'other'])
    const api = createCalls(createClient({ fetch: offlineFetch, storage: store, onLogout: vi.fn() }), createLastKnown(store))
    await expect(api.me()).rejects.toMatchObject({ status: 0 })
  })
})
