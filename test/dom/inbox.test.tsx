// The inbox (issue 37 item 2): the header's bell counts the unread messages /user/p/me reports; the inbox lists
// them newest first, marks what it shows read on the server (the bell follows), pages to older ones, reads offline
// from the last page fetched and fetches again when the phone is back online.
import { afterEach, describe, expect, it } from 'vitest'
import { App } from '../../src/app.tsx'
import { signal } from '@preact/signals'
import { NotifyMe, PUSH_REFUSED, UNSUPPORTED } from '../../src/components/notify-me/index.tsx'
import type { PushStatus } from '../../src/stores/push.ts'
import { Toaster } from '../../src/components/toast/index.tsx'
import { cleanup, click, fakeServer, find, getByText, go, mount, student, waitFor } from './session-fakes.ts'

const message = (id: number, read = false) => ({
  id,
  title: `Message ${id}`,
  body: `Body of message ${id}`,
  url: `/event-details/${id}`,
  created_at: '2026-11-28T09:00:00.000Z',
  read,
})

function server(opts: { unread: number; pages: Record<string, ReturnType<typeof message>[]>; more?: boolean }) {
  let unread = opts.unread
  return fakeServer({
    '/user/p/me': () => [200, { error: false, user: student(), unread }],
    '/event/p/get': () => [200, { error: false, events: {} }],
    '/user/p/inbox': (body) => {
      const page = opts.pages[String(body?.before ?? 'newest')] ?? []
      return [200, { error: false, messages: page, unread, more: !body?.before && !!opts.more }]
    },
    '/user/p/inbox/read': (body) => {
      unread = 0
      return [200, { error: false, unread, up_to: body.up_to }]
    },
  })
}

const signIn = () => {
  localStorage.setItem('accessToken', 'A')
  localStorage.setItem('refreshToken', 'R')
}
const bell = (root: ParentNode) => find<HTMLAnchorElement>(root, 'header a[href="/inbox"]')

afterEach(cleanup)

describe('inbox', () => {
  it('the bell says how many are unread; opening the inbox lists them, marks them read, and the bell goes quiet', async () => {
    const api = server({ unread: 2, pages: { newest: [message(12), message(11), message(3, true)] } })
    signIn()
    go('/')
    const root = mount(<App />)
    await waitFor(() => expect(bell(root).getAttribute('aria-label')).toBe('Inbox, 2 unread'))
    expect(bell(root).querySelector('.badge')!.textContent).toBe('2')

    go('/inbox')
    dispatchEvent(new PopStateEvent('popstate'))
    await waitFor(() => getByText(root, 'Inbox', 'h1'))
    const items = [...root.querySelectorAll<HTMLAnchorElement>('main li a')]
    expect(items.map((a) => a.getAttribute('href'))).toEqual(['/event-details/12', '/event-details/11', '/event-details/3'])
    // New on this visit: the word, not colour alone; the one read before has none.
    expect(items.map((a) => a.textContent?.startsWith('New'))).toEqual([true, true, false])
    expect(items[0].textContent).toContain('Body of message 12')
    expect(items[0].querySelector('time')!.getAttribute('datetime')).toBe('2026-11-28T09:00:00.000Z')
    expect(items[0].querySelector('time')!.textContent).toBe('28 Nov 2026, 2:30 PM')
    // Read up to the newest shown, once; the bell follows the server's count.
    await waitFor(() => expect(api.calls('/user/p/inbox/read').map((c) => c.body)).toEqual([{ up_to: 12 }]))
    await waitFor(() => expect(bell(root).getAttribute('aria-label')).toBe('Inbox'))
    expect(bell(root).querySelector('.badge')).toBeNull()
  })

  it('nothing unread: no read is sent; older messages come with "Show older messages"', async () => {
    const api = server({ unread: 0, pages: { newest: [message(60, true)], '60': [message(7, true)] }, more: true })
    signIn()
    go('/inbox')
    const root = mount(<App />)
    await waitFor(() => getByText(root, 'Message 60'))
    await click(getByText(root, 'Show older messages', 'button'))
    await waitFor(() => getByText(root, 'Message 7'))
    expect(api.calls('/user/p/inbox').map((c) => c.body)).toEqual([true, { before: 60 }])
    expect(root.textContent).not.toContain('Show older messages')
    expect(api.calls('/user/p/inbox/read')).toEqual([])
  })

  it("another student signed in on this phone never sees the last one's messages, not even while theirs load", async () => {
    server({ unread: 0, pages: { newest: [message(31, true)] } })
    signIn()
    go('/inbox')
    let root = mount(<App />)
    await waitFor(() => getByText(root, 'Message 31'))
    cleanup() // signed out: the session and storage go

    let answer!: () => void
    const held = new Promise<void>((resolve) => (answer = resolve))
    fakeServer({
      '/user/p/me': () => [200, { error: false, user: student({ id: 8, name: 'Ravi' }), unread: 0 }],
      '/event/p/get': () => [200, { error: false, events: {} }],
      '/user/p/inbox': async () => {
        await held
        return [200, { error: false, messages: [message(40, true)], unread: 0, more: false }]
      },
    })
    signIn()
    go('/inbox')
    root = mount(<App />)
    await waitFor(() => getByText(root, 'Loading your messages'))
    expect(root.textContent).not.toContain('Message 31')
    answer()
    await waitFor(() => getByText(root, 'Message 40'))
    expect(root.textContent).not.toContain('Message 31')
  })

  it('no messages: says what will arrive here', async () => {
    server({ unread: 0, pages: {} })
    signIn()
    go('/inbox')
    const root = mount(<App />)
    await waitFor(() => getByText(root, /^No messages yet\./))
  })

  it('offline: the messages last fetched; back online, fetched again with what arrived meanwhile', async () => {
    // A start offline: the kept user and the kept page (a message this test's server never sends).
    signIn()
    localStorage.setItem('lastKnown:user', JSON.stringify({ error: false, user: student(), unread: 0 }))
    localStorage.setItem('lastKnown:inbox', JSON.stringify({ error: false, messages: [message(5, true)], unread: 0, more: false }))
    fakeServer({})
    const offline = globalThis.fetch as unknown as { mockImplementation(f: () => Promise<never>): void }
    offline.mockImplementation(() => Promise.reject(new TypeError('Failed to fetch')))
    go('/inbox')
    const root = mount(<App />)
    await waitFor(() => getByText(root, /Message 5$/))
    expect(root.textContent).not.toContain('Message 6')
    expect(root.textContent).toContain('You are offline.')

    server({ unread: 1, pages: { newest: [message(6), message(5, true)] } })
    dispatchEvent(new Event('online'))
    await waitFor(() => getByText(root, /Message 6$/))
    expect(root.querySelectorAll('main li')).toHaveLength(2)
  })

  it('"Notify me" where this browser cannot take notifications says why, and that the inbox has them', async () => {
    server({ unread: 0, pages: {} })
    signIn()
    go('/inbox')
    const root = mount(<App />)
    await waitFor(() => getByText(root, 'Inbox', 'h1'))
    // happy-dom has no PushManager: the phone cannot subscribe.
    const note = await waitFor(() => find(root, '.notify-me-note'))
    expect(note.textContent).toBe(UNSUPPORTED)
  })

  it('a push service that refuses the subscription is named, not "try again"; a failed call to the server may be tried again', async () => {
    const controls = (err: unknown) => ({
      status: signal<PushStatus>('off'),
      check: async () => {},
      enable: () => Promise.reject(err),
      disable: async () => {},
    })
    let root = mount(
      <>
        <NotifyMe push={controls(new DOMException('Registration failed - push service error', 'AbortError'))} />
        <Toaster />
      </>,
    )
    await click(getByText(root, 'Notify me', 'button'))
    await waitFor(() => expect(root.querySelector('.toast-error')?.textContent).toBe(PUSH_REFUSED))
    cleanup()
    root = mount(
      <>
        <NotifyMe push={controls(Object.assign(new Error('No connection to the server.'), { status: 0 }))} />
        <Toaster />
      </>,
    )
    await click(getByText(root, 'Notify me', 'button'))
    await waitFor(() => expect(root.querySelector('.toast-error')?.textContent).toBe('Could not turn on notifications. Please try again.'))
  })
})
