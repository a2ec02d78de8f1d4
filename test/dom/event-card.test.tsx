// The event card's next-step line (issue 11): when the event moves on next, as a student reads it, worked out at
// render time from the event's schedule; no line when nothing is still to come.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EventCard } from '../../src/components/event-card/index.tsx'
import { summary } from './event-fixtures.ts'
import { cleanup, mount } from './session-fakes.ts'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const NO_STEPS = { registration_opens_at: null, registration_closes_at: null, tickets_open_at: null, tickets_close_at: null, starts_at: null, ends_at: null }
// Wednesday 4 March 2026, 10:00 IST.
const NOW = Date.parse('2026-03-04T10:00:00+05:30')

function card(over: Parameters<typeof summary>[0]) {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(NOW)
  const root = mount(<EventCard event={summary({ name: 'Hack Night', venue: 'Seminar Hall', ...over })} href="/event-details/1" />)
  return [...root.querySelectorAll('a p')].map((p) => p.textContent)
}

describe('event card: the next step', () => {
  it('says when the next step happens, after the venue', () => {
    const lines = card({
      state: 'UPCOMING',
      schedule: { ...NO_STEPS, registration_opens_at: '2026-03-06T18:00:00+05:30', registration_closes_at: '2026-03-08T18:00:00+05:30' },
    })
    expect(lines.slice(-2)).toEqual(['Seminar Hall', 'Registration opens Fri 6:00 PM'])
  })

  it('counts down in the last hour', () => {
    const lines = card({ state: 'TICKET_OPEN', schedule: { ...NO_STEPS, tickets_close_at: '2026-03-04T10:12:00+05:30' } })
    expect(lines.at(-1)).toBe('Tickets close in 12 min')
  })

  it('shows no line when no step is still to come', () => {
    const past = card({ state: 'REGISTRATION_OPEN', schedule: { ...NO_STEPS, registration_opens_at: '2026-03-01T18:00:00+05:30' } })
    expect(past.at(-1)).toBe('Seminar Hall')
    cleanup()
    const none = card({ state: 'UPCOMING', schedule: NO_STEPS })
    expect(none.at(-1)).toBe('Seminar Hall')
    expect(none.some((line) => /opens|closes|Starts|Ends/.test(line ?? ''))).toBe(false)
  })
})
