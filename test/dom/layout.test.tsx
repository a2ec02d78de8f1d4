// The main layout: user and events loaded before the screen, the 'Namaste' header, the bottom navigation,
// the redirect to onboarding, bare routes and the error state.
import { afterEach, describe, expect, it } from 'vitest'
import { App } from '../../src/app.tsx'
import { TABS } from '../../src/pages/shell/layout.tsx'
import { cleanup, click, fakeServer, find, getByText, go, mount, student, waitFor } from './session-fakes.ts'

const server = (user = student(), eventsDelay = 0) =>
  fakeServer({
    '/user/p/me': () => [200, { error: false, user }],
    '/event/p/get': async () => {
      if (eventsDelay) await new Promise((r) => setTimeout(r, eventsDelay)) // kept: the fake server's slow answer the test is about
      return [200, { error: false, events: { UPCOMING: [] } }]
    },
  })

const signIn = () => {
  localStorage.setItem('accessToken', 'A')
  localStorage.setItem('refreshToken', 'R')
}

const tabs = (root: ParentNode) => [...root.querySelectorAll<HTMLAnchorElement>('nav a')]
const activeTabs = (root: ParentNode) =>
  tabs(root)
    .filter((a) => a.getAttribute('aria-current') === 'page')
    .map((a) => a.textContent)

afterEach(cleanup)

describe('main layout', () => {
  it("header: 'Namaste', the user's name, and the photo (alt, width, height) linking to /profile", async () => {
    server()
    signIn()
    go('/')
    const root = mount(<App />)
    const header = await waitFor(() => find(root, 'header'))
    expect(getByText(header, 'Namaste')).toBeTruthy()
    expect(getByText(header, 'Asha Rao')).toBeTruthy()
    const img = header.querySelector('img')!
    expect(img.getAttribute('src')).toBe('https://images.example/asha.png')
    expect(img.getAttribute('alt')).toBe('My Profile')
    expect(img.getAttribute('width')).toBe('40')
    expect(img.getAttribute('height')).toBe('40')
    expect(img.closest('a')!.getAttribute('href')).toBe('/profile')
    // The header comes before the page content.
    const main = root.querySelector('main')!
    expect(header.compareDocumentPosition(main) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })

  it('a user without photo gets an initial and a labelled link', async () => {
    server(student({ photo_url: null }))
    signIn()
    go('/')
    const root = mount(<App />)
    const link = await waitFor(() => find(root, 'header a[href="/profile"]'))
    expect(link.getAttribute('aria-label')).toBe('My Profile')
    expect(link.textContent).toBe('A')
  })

  it('bottom navigation: four tabs with labels and icons, the active one marked aria-current=page', async () => {
    server()
    signIn()
    go('/')
    const root = mount(<App />)
    await waitFor(() => expect(tabs(root)).toHaveLength(4))
    expect(tabs(root).map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Home', '/'],
      ['Calendar', '/calendar'],
      ['Councils', '/councils'],
      ['Profile', '/profile'],
    ])
    for (const a of tabs(root)) expect(a.querySelector('svg[aria-hidden="true"]')).not.toBeNull()
    expect(activeTabs(root)).toEqual(['Home'])
    expect(root.querySelector('nav a.tab-active')!.textContent).toBe('Home')

    await click(tabs(root)[1])
    await waitFor(() => expect(location.pathname).toBe('/calendar'))
    await waitFor(() => expect(activeTabs(root)).toEqual(['Calendar']))
    await waitFor(() => getByText(root, 'Calendar', 'h1'))

    await click(tabs(root)[3])
    await waitFor(() => getByText(root, 'My Profile', 'h1'))
    expect(activeTabs(root)).toEqual(['Profile'])
  })

  it('the Profile tab stays active under /profile/myevents; no tab is active on an event page', async () => {
    server()
    signIn()
    go('/profile/myevents')
    const root = mount(<App />)
    await waitFor(() => expect(activeTabs(root)).toEqual(['Profile']))
    expect(TABS).toHaveLength(4)
    cleanup()
    server()
    signIn()
    go('/event-details/3')
    const again = mount(<App />)
    await waitFor(() => expect(tabs(again)).toHaveLength(4))
    expect(activeTabs(again)).toEqual([])
  })

  it('renders no screen until the user AND the events are loaded (spinner meanwhile)', async () => {
    server(student(), 150)
    signIn()
    go('/')
    const root = mount(<App />)
    await waitFor(() => expect(root.querySelector('.spinner[role="status"]')).not.toBeNull())
    await new Promise((r) => setTimeout(r, 60)) // kept: inside the 150 ms answer, a window with no screen (absence)
    expect(root.querySelector('header')).toBeNull()
    expect(root.querySelector('h1')).toBeNull()
    await waitFor(() => getByText(root, 'Home', 'h1'))
  })

  it('sends a user missing the phone number or the roll number to /getting-started', async () => {
    for (const missing of [{ phone_number: null }, { roll_number: null }]) {
      server(student(missing))
      signIn()
      go('/calendar')
      const root = mount(<App />)
      await waitFor(() => expect(location.pathname).toBe('/getting-started'))
      await waitFor(() => getByText(root, 'Personal Details', 'h1'))
      expect(root.querySelector('nav')).toBeNull() // onboarding renders without the layout
      cleanup()
    }
  })

  it('My Profile: My Events, Contact Us as a tel: link, Logout', async () => {
    server()
    signIn()
    go('/profile')
    const root = mount(<App />)
    await waitFor(() => getByText(root, 'My Profile', 'h1'))
    expect(getByText(root, 'My Events', 'a').getAttribute('href')).toBe('/profile/myevents')
    expect(getByText(root, /Contact Us/, 'main a').getAttribute('href')).toMatch(/^tel:\+91\d{10}$/)
    expect(getByText(root, 'Logout', 'a').getAttribute('href')).toBe('/logout')
  })

  it('a user fetch that fails (not 401) shows the reason and a retry that recovers', async () => {
    let up = false
    fakeServer({
      '/user/p/me': () => (up ? [200, { error: false, user: student() }] : [503, { error: true, message: 'The server is busy. Try again.' }]),
      '/event/p/get': () => [200, { error: false, events: {} }],
    })
    signIn()
    go('/')
    const root = mount(<App />)
    await waitFor(() => getByText(root, 'The server is busy. Try again.'))
    up = true
    await click(getByText(root, 'Try again', 'button'))
    await waitFor(() => getByText(root, 'Namaste'))
  })

  it('an unknown address shows Page not found inside the layout', async () => {
    server()
    signIn()
    go('/no-such-screen')
    const root = mount(<App />)
    await waitFor(() => getByText(root, 'Page not found', 'h1'))
    expect(tabs(root)).toHaveLength(4)
  })
})
