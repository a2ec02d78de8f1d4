// SPEC §4 Session, on the real client and stores against a fake server: user first, one refresh on 401,
// /logout when that cannot work, the events list afterwards in any case.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createClient } from '../../src/api/client.ts'
import { createCalls } from '../../src/api/all-calls.ts'
import { EventsModel } from '../../src/stores/events.ts'
import { SessionModel } from '../../src/stores/session.ts'
import { parseAuthReturn } from '../../src/stores/session-flows.ts'
import { App } from '../../src/app.tsx'
import { cleanup, fakeServer, getByText, go, mount, student, waitFor } from './session-fakes.ts'

function model() {
  const onLogout = vi.fn()
  const client = createClient({ storage: localStorage, onLogout })
  const api = createCalls(client)
  const events = new EventsModel(api.getEvents)
  const session = new SessionModel({ me: api.me, events })
  return { session, events, onLogout }
}

const UPCOMING = { UPCOMING: [{ id: 1, name: 'Hack Night' }] }

/** A server with access token A2 valid and refresh token R1 rotating to R2 (answering with A3). */
function server(opts: { meStatus?: number; refreshStatus?: number } = {}) {
  let access = 'A2'
  return fakeServer({
    '/user/p/me': (_b, auth) => {
      if (opts.meStatus) return [opts.meStatus, { error: true, message: 'Database unavailable' }]
      return auth === `Bearer ${access}` ? [200, { error: false, user: student() }] : [401, { error: true, message: 'Invalid Token' }]
    },
    '/event/p/get': (_b, auth) => (auth === `Bearer ${access}` ? [200, { error: false, events: UPCOMING }] : [401, { error: true, message: 'Invalid Token' }]),
    '/auth/refresh-token': (body) => {
      if (opts.refreshStatus) return [opts.refreshStatus, { error: true, message: 'Invalid Token' }]
      if (body?.refreshToken !== 'R1') return [401, { error: true, message: 'Invalid Token' }]
      access = 'A3'
      return [200, { error: false, accessToken: 'A3', refreshToken: 'R2' }]
    },
  })
}

afterEach(cleanup)

describe('session', () => {
  it('user data is empty until loaded; load fetches the user, THEN the events', async () => {
    const api = server()
    localStorage.setItem('accessToken', 'A2')
    localStorage.setItem('refreshToken', 'R1')
    const { session, events } = model()
    expect(session.userData.value).toEqual({ name: '', photo_url: '' })
    expect(session.status.value).toBe('idle')
    const loading = session.load()
    expect(session.status.value).toBe('loading')
    await loading
    expect(api.requests.map((r) => r.path)).toEqual(['/user/p/me', '/event/p/get'])
    expect(session.status.value).toBe('ready')
    expect(session.userData.value).toEqual({ name: 'Asha Rao', photo_url: 'https://images.example/asha.png' })
    expect(session.needsOnboarding.value).toBe(false)
    expect(events.byState.value).toEqual(UPCOMING)
    expect(events.all.value.map((e) => e.id)).toEqual([1])
  })

  it('on 401 the refresh token is tried once, both new tokens stored, the user re-fetched, then the events', async () => {
    const api = server()
    localStorage.setItem('accessToken', 'expired')
    localStorage.setItem('refreshToken', 'R1')
    const { session, onLogout } = model()
    await session.load()
    expect(api.requests.map((r) => `${r.path} ${r.auth ?? ''}`.trim())).toEqual([
      '/user/p/me Bearer expired',
      '/auth/refresh-token',
      '/user/p/me Bearer A3',
      '/event/p/get Bearer A3',
    ])
    expect(localStorage.getItem('accessToken')).toBe('A3')
    expect(localStorage.getItem('refreshToken')).toBe('R2')
    expect(session.status.value).toBe('ready')
    expect(onLogout).not.toHaveBeenCalled()
  })

  it('no refresh token: logout, and nothing more is fetched', async () => {
    const api = server()
    localStorage.setItem('accessToken', 'expired')
    const { session, onLogout } = model()
    await session.load()
    expect(onLogout).toHaveBeenCalledTimes(1)
    expect(session.status.value).toBe('signed-out')
    expect(api.requests.map((r) => r.path)).toEqual(['/user/p/me'])
  })

  it('refresh refused: logout', async () => {
    server({ refreshStatus: 401 })
    localStorage.setItem('accessToken', 'expired')
    localStorage.setItem('refreshToken', 'R1')
    const { session, onLogout } = model()
    await session.load()
    expect(onLogout).toHaveBeenCalledTimes(1)
    expect(session.status.value).toBe('signed-out')
    expect(session.user.value).toBeNull()
  })

  it('a user fetch failing for another reason still fetches the events (SPEC §4 "in any case")', async () => {
    const api = server({ meStatus: 503 })
    localStorage.setItem('accessToken', 'A2')
    localStorage.setItem('refreshToken', 'R1')
    const { session, events, onLogout } = model()
    await session.load()
    expect(api.requests.map((r) => r.path)).toEqual(['/user/p/me', '/event/p/get'])
    expect(session.status.value).toBe('error')
    expect(session.error.value).toBe('Database unavailable')
    expect(events.byState.value).toEqual(UPCOMING)
    expect(onLogout).not.toHaveBeenCalled()
  })

  it('an events failure is kept in the events store; the session is still ready', async () => {
    fakeServer({
      '/user/p/me': () => [200, { error: false, user: student() }],
      '/event/p/get': () => [200, { error: true, message: 'Could not list events' }],
    })
    localStorage.setItem('accessToken', 'A2')
    const { session, events } = model()
    await session.load()
    expect(session.status.value).toBe('ready')
    expect(events.error.value).toBe('Could not list events')
    expect(events.loaded.value).toBe(true)
  })

  it('concurrent loads share one fetch; a completed load is not repeated', async () => {
    const api = server()
    localStorage.setItem('accessToken', 'A2')
    const { session } = model()
    await Promise.all([session.load(), session.load(), session.load()])
    await session.load()
    expect(api.calls('/user/p/me')).toHaveLength(1)
    expect(api.calls('/event/p/get')).toHaveLength(1)
  })

  it('needsOnboarding when phone_number or roll_number is missing', async () => {
    for (const [over, expected] of [
      [{}, false],
      [{ phone_number: null }, true],
      [{ roll_number: null }, true],
      [{ phone_number: '', roll_number: '' }, true],
    ] as const) {
      fakeServer({
        '/user/p/me': () => [200, { error: false, user: student(over) }],
        '/event/p/get': () => [200, { error: false, events: {} }],
      })
      localStorage.setItem('accessToken', 'A2')
      const { session } = model()
      await session.load()
      expect(session.needsOnboarding.value).toBe(expected)
    }
  })

  it('a sign-out while the user is on its way does not bring the old user back', async () => {
    let answer!: () => void
    fakeServer({
      '/user/p/me': () => new Promise((r) => (answer = () => r([200, { error: false, user: student() }]))),
      '/event/p/get': () => [200, { error: false, events: {} }],
    })
    localStorage.setItem('accessToken', 'A2')
    const { session } = model()
    const loading = session.load()
    await waitFor(() => expect(answer).toBeTypeOf('function'))
    session.reset()
    answer()
    await loading
    expect(session.user.value).toBeNull()
    expect(session.status.value).toBe('idle')
  })

  it('in the app: an expired session with no refresh token ends on /login via /logout', async () => {
    server()
    localStorage.setItem('accessToken', 'expired')
    go('/')
    const root = mount(<App />)
    await waitFor(() => expect(location.pathname).toBe('/login'))
    await waitFor(() => getByText(root, 'Continue with Google', 'button'))
    expect(localStorage.length).toBe(0)
  })

  it('in the app: a first visit with no tokens goes to /login without calling the API', async () => {
    const api = server()
    go('/')
    mount(<App />)
    await waitFor(() => expect(location.pathname).toBe('/login'))
    expect(api.requests).toEqual([])
  })
})

describe('parseAuthReturn', () => {
  it.each([
    ['#accessToken=a&refreshToken=r', '', { accessToken: 'a', refreshToken: 'r', state: null }],
    ['', '?accessToken=a&refreshToken=r', { accessToken: 'a', refreshToken: 'r', state: null }],
    ['#accessToken=a&refreshToken=r&state=s1', '', { accessToken: 'a', refreshToken: 'r', state: 's1' }],
    ['#error=Access%20denied', '', { error: 'Access denied' }],
    ['', '?error=Access%20denied', { error: 'Access denied' }],
    ['#accessToken=a', '', null], // half a pair is not a sign-in
    ['', '', null],
  ])('%s %s', (hash, search, expected) => {
    expect(parseAuthReturn(hash, search)).toEqual(expected)
  })
})
