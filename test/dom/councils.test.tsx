// Councils: photo, name, '+91 ' phone as a tel: link and e-mail as a mailto: link; the error with a retry.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { App } from '../../src/app.tsx'
import { nationalDigits } from '../../src/pages/councils/index.tsx'
import { eventsServer, type World } from './event-fixtures.ts'
import { cleanup, click, getByText, go, mount, waitFor } from './session-fakes.ts'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

function open(world: World) {
  localStorage.setItem('accessToken', 'A')
  localStorage.setItem('refreshToken', 'R')
  const server = eventsServer(world)
  go('/councils')
  return { root: mount(<App />), server }
}

describe('councils', () => {
  it('lists each council with photo, name, +91 tel: link and mailto: link', async () => {
    const { root } = open({
      events: [],
      councils: [
        { id: 1, name: 'CSI', photo_url: 'https://img.example/csi.png', phone_number: '9876543210', email: 'csi@kjsce.edu' },
        { id: 2, name: 'Music Council', photo_url: null, phone_number: null, email: null },
      ],
    })
    await waitFor(() => getByText(root, 'CSI', 'h2'))
    const card = getByText(root, 'CSI', 'h2').closest('li')!
    expect(card.querySelector('img')!.getAttribute('src')).toBe('https://img.example/csi.png')
    const tel = getByText(card, '+91 9876543210', 'a')
    expect(tel.getAttribute('href')).toBe('tel:+919876543210')
    expect(getByText(card, 'csi@kjsce.edu', 'a').getAttribute('href')).toBe('mailto:csi@kjsce.edu')
    const bare = getByText(root, 'Music Council', 'h2').closest('li')!
    expect(bare.querySelectorAll('a')).toHaveLength(0) // no empty tel:/mailto: links
  })

  it('reads stored numbers with a country code or spaces as the same ten digits', () => {
    expect(nationalDigits('+91 98765 43210')).toBe('9876543210')
    expect(nationalDigits('919876543210')).toBe('9876543210')
    expect(nationalDigits('09198765-43210')).toBe('9876543210')
    expect(nationalDigits('98765 43210')).toBe('9876543210')
  })

  it('offline, councils visited online show the last list, with the offline notice and no error (issue 14)', async () => {
    const { root } = open({ events: [], councils: [{ id: 4, name: 'Rotaract', photo_url: null, phone_number: null, email: 'rotaract@kjsce.edu' }] })
    await waitFor(() => getByText(root, 'Rotaract', 'h2'))
    // The app closed (what the phone keeps stays: tokens and the last answers), then opened with no network at all.
    const kept = Object.entries(localStorage)
    cleanup()
    for (const [key, value] of kept) localStorage.setItem(key, value)
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    )
    go('/councils')
    const again = mount(<App />)
    await waitFor(() => getByText(again, 'You are offline. Showing what was last loaded.'))
    expect(getByText(again, 'rotaract@kjsce.edu', 'a')).toBeTruthy()
    expect(again.textContent).not.toContain('Could not load the councils')
  })

  it('an error is logged and shown with Try again, which fetches again', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    let fail = true
    const { root, server } = open({
      events: [],
      councils: () =>
        fail
          ? [503, { error: true, message: 'Try later' }]
          : [200, { error: false, councils: [{ id: 3, name: 'IEEE', photo_url: null, phone_number: '9000000001', email: 'ieee@kjsce.edu' }] }],
    })
    await waitFor(() => getByText(root, /Try later/, 'p'))
    expect(log).toHaveBeenCalled()
    fail = false
    await click(getByText(root, 'Try again', 'button'))
    await waitFor(() => getByText(root, 'IEEE', 'h2'))
    expect(server.calls('/council/p/get')).toHaveLength(2)
  })
})
