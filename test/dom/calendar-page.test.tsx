// The Calendar screen: today (IST) selected by default, a day's schedule item (ordinal day, organiser image,
// title, hh:mm A, link), the exact empty text, and month navigation with Today.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { App } from '../../src/app.tsx'
import { detail, eventsServer } from './event-fixtures.ts'
import { cleanup, click, getByText, go, mount, waitFor } from './session-fakes.ts'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

// 20:00 UTC on 17 Nov is already 01:30 on 18 Nov in IST: "today" must be the 18th whatever the phone's zone.
const NOW = Date.parse('2026-11-17T20:00:00Z')

async function open(events = [detail({ id: 101, name: 'Robo Race', state: 'REGISTRATION_OPEN', dates: ['2026-11-21T13:00:00Z'] })]) {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW })
  localStorage.setItem('accessToken', 'A')
  localStorage.setItem('refreshToken', 'R')
  eventsServer({ events })
  go('/calendar')
  const root = mount(<App />)
  await waitFor(() => getByText(root, 'November 2026', 'h2'))
  return root
}

const day = (root: HTMLElement, key: string) => root.querySelector<HTMLButtonElement>(`button[data-key="${key}"]`)!
const scheduleTitle = (root: HTMLElement) => root.querySelector('#schedule-title')!.textContent

describe('calendar page', () => {
  it("selects today in IST and says 'No events on {date}' for an empty day", async () => {
    const root = await open()
    expect(day(root, '2026-11-18').getAttribute('aria-current')).toBe('date')
    expect(scheduleTitle(root)).toBe('Wednesday, 18 November 2026')
    expect(getByText(root, /^No events on/, 'p').textContent).toBe('No events on Wed, 18 Nov 2026')
  })

  it('a day with an event lists it: ordinal day, organiser image, title, start time, link', async () => {
    const root = await open()
    await click(day(root, '2026-11-21'))
    const item = await waitFor(() => getByText(root, 'Robo Race').closest('a')!)
    expect(item.getAttribute('href')).toBe('/event-details/101')
    expect(getByText(item, '21st')).toBeTruthy()
    expect(getByText(item, '06:30 PM')).toBeTruthy()
    expect(item.querySelector('img')!.getAttribute('src')).toBe('https://img.example/csi.png')
    expect(root.textContent).not.toContain('No events on')
  })

  it('previous, next and Today move the month; Today also selects today again', async () => {
    const root = await open()
    await click(root.querySelector<HTMLButtonElement>('button[aria-label="Next month"]')!)
    await waitFor(() => getByText(root, 'December 2026', 'h2'))
    await click(root.querySelector<HTMLButtonElement>('button[aria-label="Previous month"]')!)
    await click(root.querySelector<HTMLButtonElement>('button[aria-label="Previous month"]')!)
    await waitFor(() => getByText(root, 'October 2026', 'h2'))
    await click(day(root, '2026-10-05'))
    expect(getByText(root, /^No events on/, 'p').textContent).toBe('No events on Mon, 5 Oct 2026')
    await click(getByText(root, 'Today', 'button'))
    await waitFor(() => getByText(root, 'November 2026', 'h2'))
    expect(scheduleTitle(root)).toBe('Wednesday, 18 November 2026')
  })

  it('keeps its selected day across Back (issue 14): the day is in the address, and the screen opens on it', async () => {
    const root = await open([
      detail({ id: 101, name: 'Robo Race', state: 'REGISTRATION_OPEN', dates: ['2026-11-21T13:00:00Z'] }),
      detail({ id: 102, name: 'Winter Quiz', state: 'UPCOMING', dates: ['2026-12-03T13:00:00Z'] }),
    ])
    await click(root.querySelector<HTMLButtonElement>('button[aria-label="Next month"]')!)
    await click(day(root, '2026-12-03'))
    expect(location.pathname + location.search).toBe('/calendar?day=2026-12-03')
    await click(getByText(root, 'Winter Quiz').closest('a')!)
    await waitFor(() => expect(location.pathname).toBe('/event-details/102'))
    history.back()
    await waitFor(() => expect(location.search).toBe('?day=2026-12-03'))
    await waitFor(() => getByText(root, 'December 2026', 'h2'))
    expect(scheduleTitle(root)).toBe('Thursday, 3 December 2026')
    expect(getByText(root, 'Winter Quiz')).toBeTruthy()
  })

  it('an address with no day or an impossible one opens on today', async () => {
    for (const search of ['', '?day=2026-02-30', '?day=tomorrow']) {
      vi.useFakeTimers({ toFake: ['Date'], now: NOW })
      localStorage.setItem('accessToken', 'A')
      localStorage.setItem('refreshToken', 'R')
      eventsServer({ events: [] })
      go(`/calendar${search}`)
      const root = mount(<App />)
      await waitFor(() => getByText(root, 'November 2026', 'h2'))
      expect(scheduleTitle(root), search).toBe('Wednesday, 18 November 2026')
      cleanup()
    }
  })
})
