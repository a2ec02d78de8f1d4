// The event-detail store at a step of the event's schedule (issue 11): at the step's minute it fetches the event
// again, and a few times more over the next minute while the server has not moved it yet (a busy scheduler), then
// stops: a step the server never takes costs five fetches, not one every second and a half for as long as the page
// stays open. Fake timers: the test steps through the minutes.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { EventDetail } from '../../contract/types.ts'
import { EventDetailModel } from '../../src/stores/event-detail.ts'
import { detail } from './event-fixtures.ts'

const NOW = Date.parse('2026-11-20T12:00:00Z')
const schedule = (opensInMs: number): EventDetail['schedule'] => ({
  registration_opens_at: new Date(NOW + opensInMs).toISOString(),
  registration_closes_at: null,
  tickets_open_at: null,
  tickets_close_at: null,
  starts_at: null,
  ends_at: null,
})

beforeEach(() => {
  vi.useFakeTimers({ now: NOW })
})
afterEach(() => {
  vi.useRealTimers()
})

function store(answers: (calls: number) => EventDetail) {
  let calls = 0
  const getEvent = vi.fn(async () => answers(++calls))
  const fail = () => Promise.reject(new Error('not in this test'))
  const model = new EventDetailModel({ getEvent, register: fail, claimTicket: fail, rate: fail })
  return { model, getEvent }
}

describe('the event page at a step of its schedule', () => {
  it('counts down, fetches at the minute and again while the server is late, and shows the move when it lands', async () => {
    const upcoming = detail({ id: 41, state: 'UPCOMING', schedule: schedule(10 * 60_000) })
    // The server moves the event only after its third fetch past the minute (17 s late).
    const { model, getEvent } = store((n) => (n <= 3 ? upcoming : { ...upcoming, state: 'REGISTRATION_OPEN' }))
    await model.load('41')
    expect(getEvent).toHaveBeenCalledTimes(1)
    expect(model.next.value?.text).toBe('Registration opens in 10 min')
    await vi.advanceTimersByTimeAsync(4 * 60_000 + 30_000)
    expect(model.next.value?.text).toBe('Registration opens in 6 min') // the countdown ticks on its own
    expect(getEvent).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(5 * 60_000 + 30_000 + 1_500) // the minute, and 1.5 s
    expect(getEvent).toHaveBeenCalledTimes(2)
    expect(model.event.value?.state).toBe('UPCOMING')
    await vi.advanceTimersByTimeAsync(15_000 - 1_500)
    expect(getEvent).toHaveBeenCalledTimes(4)
    expect(model.event.value?.state).toBe('REGISTRATION_OPEN')
    expect(model.next.value).toBeNull()
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(getEvent).toHaveBeenCalledTimes(4) // nothing more once the move is seen
  })

  it('a step the server never takes is fetched five times over a minute, then the page stops asking', async () => {
    const upcoming = detail({ id: 42, state: 'UPCOMING', schedule: schedule(60_000) })
    const { model, getEvent } = store(() => upcoming)
    await model.load('42')
    await vi.advanceTimersByTimeAsync(60_000 + 61_000)
    expect(getEvent).toHaveBeenCalledTimes(1 + 5)
    expect(model.next.value).toBeNull()
    await vi.advanceTimersByTimeAsync(30 * 60_000)
    expect(getEvent).toHaveBeenCalledTimes(1 + 5)
  })
})
