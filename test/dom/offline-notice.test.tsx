// The offline notice and the last known data, with the real client, stores and component: a start with no
// network shows the kept user and events plus the notice; back online, fresh answers replace them and the
// notice goes; with nothing kept, the network failure shows as the account error, not as an empty Home.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { OfflineNotice } from '../../src/pages/shell/offline-notice.tsx'
import { events, session } from '../../src/models.ts'

/** Home keeps its narrowed list (issue 15: {scope: 'home'}) under a key of its own. */
const HOME_EVENTS_KEY = `lastKnown:events:${JSON.stringify({ scope: 'home' })}`
import { cleanup, fakeServer, mount, student, waitFor } from './session-fakes.ts'

const NOTICE = 'You are offline. Showing what was last loaded.'
const GARBA = { id: 5, name: 'Garba Night' }

afterEach(() => {
  vi.restoreAllMocks()
  cleanup()
  events.reset()
})

const noNetwork = () =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    }),
  )

describe('offline notice', () => {
  it('no network: the kept user and events, and the notice; online again: fresh answers and no notice', async () => {
    localStorage.setItem('accessToken', 'acc-1')
    localStorage.setItem('refreshToken', 'ref-1')
    localStorage.setItem('lastKnown:user', JSON.stringify({ error: false, user: student({ name: 'Kept Name' }), unread: 0 }))
    localStorage.setItem(HOME_EVENTS_KEY, JSON.stringify({ TICKET_OPEN: [GARBA] }))
    noNetwork()
    const view = mount(<OfflineNotice />)
    expect(view.textContent).toBe('')

    await session.load()
    expect(session.status.value).toBe('ready')
    expect(session.user.value?.name).toBe('Kept Name')
    expect(events.all.value.map((e) => e.name)).toEqual(['Garba Night'])
    await waitFor(() => expect(view.textContent).toBe(NOTICE))
    expect(view.querySelector('[role="status"]')).not.toBeNull()
    // Tokens untouched: a network failure is not a reason to sign out.
    expect(localStorage.getItem('refreshToken')).toBe('ref-1')

    const api = fakeServer({ '/event/p/get': () => [200, { error: false, events: { ONGOING: [{ ...GARBA, name: 'Garba Night (live)' }] } }] })
    dispatchEvent(new Event('online'))
    await waitFor(() => expect(view.textContent).toBe(''))
    expect(api.calls('/event/p/get')).toHaveLength(1)
    expect(events.all.value.map((e) => e.name)).toEqual(['Garba Night (live)'])
    // The fresh answer is the one kept now.
    expect(JSON.parse(localStorage.getItem(HOME_EVENTS_KEY)!)).toEqual({ ONGOING: [{ ...GARBA, name: 'Garba Night (live)' }] })
  })

  it('no network and nothing kept: the account error, no notice of stale data', async () => {
    localStorage.setItem('accessToken', 'acc-1')
    localStorage.setItem('refreshToken', 'ref-1')
    noNetwork()
    const view = mount(<OfflineNotice />)
    await session.load()
    expect(session.status.value).toBe('error')
    expect(session.error.value).toMatch(/No connection/)
    expect(view.textContent).toBe('')
  })
})
