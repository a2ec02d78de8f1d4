// Login and logout through the real app: the callback's tokens stored and taken out of the address, the
// error fragment, a signed-in user sent on, and logout clearing everything.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { App } from '../../src/app.tsx'
import { SIGN_IN_STATE } from '../../contract/constants.ts'
import { SIGN_IN_STATE_KEY } from '../../src/stores/session-flows.ts'
import { cleanup, click, fakeServer, getByText, go, mount, student, waitFor } from './session-fakes.ts'

const STATE = 'Qm9vdHN0cmFwLXN0YXRlLW9uZS10aW1lLXZhbHVlLTEyMw'

const signedInServer = () =>
  fakeServer({
    '/user/p/me': (_b, auth) => (auth === 'Bearer acc-1' ? [200, { error: false, user: student() }] : [401, { error: true, message: 'Invalid Token' }]),
    '/event/p/get': () => [200, { error: false, events: {} }],
    '/auth/logout': () => [200, { error: false }],
  })

afterEach(() => {
  cleanup()
  sessionStorage.clear()
})

describe('login', () => {
  it('shows the logo, the product name, By CSI-KJSCE and Continue with Google', async () => {
    fakeServer({})
    go('/login')
    const root = mount(<App />)
    await waitFor(() => getByText(root, 'CSI Events', 'h1'))
    expect(getByText(root, 'By CSI-KJSCE')).toBeTruthy()
    expect(root.querySelector('img[src="/logo.svg"]')).not.toBeNull()
    expect(getByText(root, 'Continue with Google', 'button')).toBeTruthy()
    expect(root.querySelector('nav')).toBeNull() // no main layout on /login
  })

  it('Continue with Google sends the whole window to {host}/api/v1/auth/google with a one-time state kept in this tab', async () => {
    fakeServer({})
    go('/login')
    const assign = vi.spyOn(location, 'assign').mockImplementation(() => {})
    const root = mount(<App />)
    const button = await waitFor(() => getByText(root, 'Continue with Google', 'button') as HTMLButtonElement)
    await click(button)
    const state = sessionStorage.getItem(SIGN_IN_STATE_KEY)
    expect(state).toMatch(SIGN_IN_STATE)
    expect(assign).toHaveBeenCalledWith(`/api/v1/auth/google?state=${state}`)
    expect(button.disabled).toBe(true) // no second sign-in started by an impatient second tap
    assign.mockRestore()
  })

  it('stores both tokens from the fragment, removes them from the address and goes to /', async () => {
    const api = signedInServer()
    sessionStorage.setItem(SIGN_IN_STATE_KEY, STATE)
    go(`/login#accessToken=acc-1&refreshToken=ref-1&state=${STATE}`)
    const root = mount(<App />)
    await waitFor(() => expect(location.pathname).toBe('/'))
    expect(location.hash).toBe('')
    expect(location.href).not.toContain('acc-1')
    expect(localStorage.getItem('accessToken')).toBe('acc-1')
    expect(localStorage.getItem('refreshToken')).toBe('ref-1')
    await waitFor(() => getByText(root, 'Namaste'))
    expect(api.calls('/user/p/me')[0].auth).toBe('Bearer acc-1')
    expect(sessionStorage.getItem(SIGN_IN_STATE_KEY)).toBeNull() // one time only
  })

  it('accepts the query form of SPEC §2 as well', async () => {
    signedInServer()
    sessionStorage.setItem(SIGN_IN_STATE_KEY, STATE)
    go(`/login?accessToken=acc-1&refreshToken=ref-1&state=${STATE}`)
    mount(<App />)
    await waitFor(() => expect(location.pathname).toBe('/'))
    expect(location.search).toBe('')
    expect(localStorage.getItem('accessToken')).toBe('acc-1')
    expect(localStorage.getItem('refreshToken')).toBe('ref-1')
  })

  it('#error= shows the message and is taken out of the address', async () => {
    fakeServer({})
    go('/login#error=This%20Google%20account%20is%20not%20allowed')
    const root = mount(<App />)
    const alert = await waitFor(() => getByText(root, /Sign-in failed/, 'main [role="alert"]'))
    expect(alert.textContent).toBe('Sign-in failed: This Google account is not allowed')
    expect(location.pathname).toBe('/login')
    expect(location.hash).toBe('')
    expect(localStorage.getItem('accessToken')).toBeNull()
  })

  it('a signed-in user opening /login goes to /', async () => {
    signedInServer()
    localStorage.setItem('accessToken', 'acc-1')
    localStorage.setItem('refreshToken', 'ref-1')
    go('/login')
    const root = mount(<App />)
    await waitFor(() => expect(location.pathname).toBe('/'))
    await waitFor(() => getByText(root, 'Namaste'))
  })
})

describe('login CSRF: tokens only as the answer to a sign-in this tab started (issue 10)', () => {
  it.each([
    ['a fragment without state', '#accessToken=evil-a&refreshToken=evil-r'],
    ['the query form without state', '?accessToken=evil-a&refreshToken=evil-r'],
    ['a state this tab did not keep', `#accessToken=evil-a&refreshToken=evil-r&state=${'x'.repeat(43)}`],
  ])('an attacker link with %s is dropped from the address and ignored', async (_n, tail) => {
    const api = signedInServer()
    sessionStorage.setItem(SIGN_IN_STATE_KEY, STATE) // even while a real sign-in is under way
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    go(`/login${tail}`)
    const root = mount(<App />)
    await waitFor(() => getByText(root, 'Continue with Google', 'button'))
    expect(location.pathname).toBe('/login')
    expect(location.hash + location.search).toBe('')
    expect(localStorage.getItem('accessToken')).toBeNull()
    expect(localStorage.getItem('refreshToken')).toBeNull()
    expect(api.requests).toEqual([])
    expect(sessionStorage.getItem(SIGN_IN_STATE_KEY)).toBe(STATE) // the real sign-in can still complete
    expect(warn).toHaveBeenCalled()
    warn.mockRestore()
  })

  it("a signed-in student's session is kept when an attacker link arrives, with no question asked", async () => {
    signedInServer()
    localStorage.setItem('accessToken', 'acc-1')
    localStorage.setItem('refreshToken', 'ref-1')
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    go('/login#accessToken=evil-a&refreshToken=evil-r')
    const root = mount(<App />)
    await waitFor(() => expect(location.pathname).toBe('/'))
    expect(location.hash).toBe('')
    expect(localStorage.getItem('accessToken')).toBe('acc-1')
    expect(localStorage.getItem('refreshToken')).toBe('ref-1')
    await waitFor(() => getByText(root, 'Namaste'))
    warn.mockRestore()
  })

  it('a sign-in this tab started never replaces a live session without the student confirming', async () => {
    const api = signedInServer()
    localStorage.setItem('accessToken', 'acc-1')
    localStorage.setItem('refreshToken', 'ref-1')
    sessionStorage.setItem(SIGN_IN_STATE_KEY, STATE)
    go(`/login#accessToken=acc-2&refreshToken=ref-2&state=${STATE}`)
    const root = mount(<App />)
    await waitFor(() => getByText(root, 'Switch account?', 'h1'))
    expect(location.hash).toBe('')
    expect(localStorage.getItem('accessToken')).toBe('acc-1')
    await click(getByText(root, 'Stay signed in', 'button'))
    await waitFor(() => expect(location.pathname).toBe('/'))
    expect(localStorage.getItem('accessToken')).toBe('acc-1')
    expect(localStorage.getItem('refreshToken')).toBe('ref-1')
    expect(api.calls('/user/p/me').every((c) => c.auth === 'Bearer acc-1')).toBe(true)
  })

  it('Switch account stores the new tokens', async () => {
    fakeServer({
      '/user/p/me': () => [200, { error: false, user: student() }],
      '/event/p/get': () => [200, { error: false, events: {} }],
    })
    localStorage.setItem('accessToken', 'acc-1')
    localStorage.setItem('refreshToken', 'ref-1')
    sessionStorage.setItem(SIGN_IN_STATE_KEY, STATE)
    go(`/login#accessToken=acc-2&refreshToken=ref-2&state=${STATE}`)
    const root = mount(<App />)
    await click(await waitFor(() => getByText(root, 'Switch account', 'button')))
    await waitFor(() => expect(location.pathname).toBe('/'))
    expect(localStorage.getItem('accessToken')).toBe('acc-2')
    expect(localStorage.getItem('refreshToken')).toBe('ref-2')
  })
})

describe('logout', () => {
  it('revokes the refresh token on the server, clears ALL local storage and goes to /login', async () => {
    const api = signedInServer()
    localStorage.setItem('accessToken', 'acc-1')
    localStorage.setItem('refreshToken', 'ref-1')
    localStorage.setItem('somethingElse', 'x')
    go('/logout')
    const root = mount(<App />)
    await waitFor(() => expect(location.pathname).toBe('/login'))
    expect(localStorage.length).toBe(0)
    expect(api.calls('/auth/logout')).toEqual([{ path: '/auth/logout', body: { refreshToken: 'ref-1' }, auth: null }])
    await waitFor(() => getByText(root, 'Continue with Google', 'button'))
  })

  it('does not wait for a slow server before leaving', async () => {
    let release!: () => void
    fakeServer({ '/auth/logout': () => new Promise((r) => (release = () => r([200, { error: false }]))) })
    localStorage.setItem('refreshToken', 'ref-1')
    go('/logout')
    mount(<App />)
    await waitFor(() => expect(location.pathname).toBe('/login'))
    expect(localStorage.length).toBe(0)
    release()
  })

  it('the Logout link of My Profile leads there', async () => {
    const api = signedInServer()
    localStorage.setItem('accessToken', 'acc-1')
    localStorage.setItem('refreshToken', 'ref-1')
    go('/profile')
    const root = mount(<App />)
    const link = await waitFor(() => getByText(root, 'Logout', 'a'))
    await click(link)
    await waitFor(() => expect(location.pathname).toBe('/login'))
    expect(localStorage.length).toBe(0)
    expect(api.calls('/auth/logout')).toHaveLength(1)
  })
})
