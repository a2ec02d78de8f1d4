import { describe, expect, it } from 'vitest'
import { nextStep } from '../../src/lib/next-step.ts'

const schedule = {
  registration_opens_at: '2026-03-06T18:00:00+05:30',
  registration_closes_at: '2026-03-08T18:00:00+05:30',
  tickets_open_at: null,
  tickets_close_at: null,
  starts_at: null,
  ends_at: null,
}

describe('nextStep', () => {
  it('names the next step in IST, with its weekday when it is within the week', () => {
    const now = Date.parse('2026-03-04T10:00:00+05:30')
    expect(nextStep({ state: 'UPCOMING', schedule }, now)).toEqual({ at: Date.parse(schedule.registration_opens_at), text: 'Registration opens Fri 6:00 PM' })
  })
  it('counts down in the last hour', () => {
    const now = Date.parse('2026-03-06T17:48:30+05:30')
    expect(nextStep({ state: 'UPCOMING', schedule }, now)?.text).toBe('Registration opens in 12 min')
    expect(nextStep({ state: 'UPCOMING', schedule }, Date.parse('2026-03-06T17:59:30+05:30'))?.text).toBe('Registration opens in less than a minute')
  })
  it('skips passed steps and the step of the current state; null when nothing is left', () => {
    const now = Date.parse('2026-03-07T10:00:00+05:30')
    expect(nextStep({ state: 'REGISTRATION_OPEN', schedule }, now)?.text).toBe('Registration closes Sun 6:00 PM')
    expect(nextStep({ state: 'REGISTRATION_CLOSED', schedule }, Date.parse('2026-03-09T10:00:00+05:30'))).toBeNull()
    expect(nextStep({ state: 'UPCOMING' }, now)).toBeNull()
  })
})
