// An event's cross-field rules (contract/event-rules.ts), each at its boundary: the one home the contract's schema,
// the repository's save and the console's editor all call.
import { describe, expect, it } from 'vitest'
import {
  dateEndsError,
  externalLinkError,
  parentPlacement,
  parentSelf,
  questionIdsError,
  questionOptionErrors,
  DATE_ENDS_ALONE,
  DATE_ENDS_TOO_MANY,
  EXTERNAL_LINK_MISSING,
  type StoredEvent,
  saveRefusal,
  scheduleOutOfOrder,
  teamFactsNeeded,
  teamSizeError,
} from '../../contract/event-rules.ts'
import { EVENT_STATES } from '../../contract/constants.ts'
import { schedule } from '../../contract/entities.ts'
import { SCHEDULE_STEPS } from '../../contract/schedule-steps.ts'
import { SCHEDULE_STEPS as CONSOLE_STEPS } from '../../src/lib/org-event.ts'

const at = (minutes: number) => new Date(Date.UTC(2026, 11, 1, 10, minutes)).toISOString()

describe('rules over the input alone', () => {
  it('the schedule’s steps are the Schedule’s fields in order, each starting the lifecycle’s next state; the console names each', () => {
    expect(SCHEDULE_STEPS.map(([key]) => key)).toEqual(Object.keys(schedule.shape))
    expect(SCHEDULE_STEPS.map(([, state]) => state)).toEqual(EVENT_STATES.slice(1))
    expect(CONSOLE_STEPS.map(({ key, state }) => [key, state])).toEqual(SCHEDULE_STEPS.map(([key, state]) => [key, state]))
    expect(CONSOLE_STEPS.map(({ label }) => label)).toEqual([
      'Registration opens',
      'Registration closes',
      'Tickets open',
      'Tickets close',
      'Event starts',
      'Event ends',
    ])
  })

  it('each step set comes after the one set before it: equal is out of order, a minute later is in', () => {
    expect(scheduleOutOfOrder({})).toBeNull()
    expect(scheduleOutOfOrder({ registration_opens_at: at(0), registration_closes_at: at(1) })).toBeNull()
    expect(scheduleOutOfOrder({ registration_opens_at: at(0), registration_closes_at: at(0) })).toEqual({
      step: 'registration_closes_at',
      message: 'schedule.registration_closes_at must be after schedule.registration_opens_at',
    })
    // Steps left out are skipped: tickets open compared with registration opening.
    expect(scheduleOutOfOrder({ registration_opens_at: at(5), registration_closes_at: null, tickets_open_at: at(4) })?.message).toBe(
      'schedule.tickets_open_at must be after schedule.registration_opens_at',
    )
    // The first step out of order only.
    expect(scheduleOutOfOrder({ starts_at: at(10), ends_at: at(9), tickets_close_at: at(11) })?.step).toBe('starts_at')
  })

  it('each date’s end: sent with its dates, one per date at most, after its start (equal is not)', () => {
    expect(dateEndsError([at(0)], undefined)).toBeNull()
    expect(dateEndsError(undefined, [])).toBe(DATE_ENDS_ALONE)
    expect(dateEndsError([at(0)], [null, null])).toBe(DATE_ENDS_TOO_MANY)
    expect(dateEndsError([at(0), at(60)], [at(1)])).toBeNull()
    expect(dateEndsError([at(0)], [at(0)])).toBe('date_ends: each end must be after its date’s start')
    expect(dateEndsError([at(0)], [at(1)])).toBeNull()
    expect(dateEndsError([at(0)], [null])).toBeNull()
  })

  it('the smallest team is not above the largest: equal passes, one more fails, a missing or non-number side passes', () => {
    expect(teamSizeError(4, 4)).toBeNull()
    expect(teamSizeError(5, 4)).toBe('min_ppt must not be more than ma_ppt')
    expect(teamSizeError(5, undefined)).toBeNull()
    expect(teamSizeError(Number.NaN, 1)).toBeNull()
  })

  it('an EXTERNAL registration has its link; a link not sent is left to the save', () => {
    expect(externalLinkError('EXTERNAL', null)).toBe('external_registration_link is required for an EXTERNAL registration')
    expect(externalLinkError('EXTERNAL', '')).toBe(EXTERNAL_LINK_MISSING)
    expect(externalLinkError('EXTERNAL', undefined)).toBeNull()
    expect(externalLinkError('EXTERNAL', 'https://forms.example/x')).toBeNull()
    expect(externalLinkError('ONPLATFORM', null)).toBeNull()
    expect(externalLinkError(undefined, null)).toBeNull()
  })

  it('a CHOICE has two options at least, and no option twice (trimmed)', () => {
    expect(questionOptionErrors({ label: 'Stack', kind: 'CHOICE', options: ['Web', 'ML'] })).toEqual([])
    expect(questionOptionErrors({ label: 'Stack', kind: 'CHOICE', options: ['Web'] })).toEqual(["questions: 'Stack' needs at least two options"])
    expect(questionOptionErrors({ label: 'Stack', kind: 'CHOICE' })).toEqual(["questions: 'Stack' needs at least two options"])
    expect(questionOptionErrors({ label: 'Stack', kind: 'CHOICE', options: ['Web', ' Web '] })).toEqual(["questions: 'Stack' has the same option twice"])
    expect(questionOptionErrors({ label: 'X', kind: 'CHOICE', options: ['A'] }).length).toBe(1)
    expect(questionOptionErrors({ label: 'GitHub', kind: 'URL', options: [] })).toEqual([])
  })

  it('no two questions share an id; new ones (no id) never clash', () => {
    expect(questionIdsError([{ id: 'a' }, { id: 'b' }, {}, {}])).toBeNull()
    expect(questionIdsError([{ id: 'a' }, { id: 'a' }])).toBe('questions: two questions have the same id')
  })
})

const stored = (over: Partial<StoredEvent> = {}): StoredEvent => ({
  id: 7,
  min_ppt: 1,
  ma_ppt: 4,
  registration_type: 'ONPLATFORM',
  external_registration_link: null,
  tickets_sold: 10,
  fair_window_seconds: 60,
  state: 'REGISTRATION_OPEN',
  fair_draw_set: false,
  ...over,
})

describe('rules of a save against the stored event', () => {
  it('team sizes as they will stand: the field sent over the stored one', () => {
    expect(saveRefusal({ min_ppt: 4 }, stored(), null)).toBeNull()
    expect(saveRefusal({ min_ppt: 5 }, stored(), null)).toBe('minAboveMax')
    expect(saveRefusal({ ma_ppt: 2 }, stored({ min_ppt: 3 }), { registered: 0, largest: 0 })).toBe('minAboveMax')
    // On create, each side defaults to 1.
    expect(saveRefusal({ min_ppt: 2 }, null, null)).toBe('minAboveMax')
    expect(saveRefusal({ min_ppt: 1 }, null, null)).toBeNull()
  })

  it('an EXTERNAL registration keeps a link: sent, or stored', () => {
    expect(saveRefusal({ registration_type: 'EXTERNAL' }, null, null)).toBe('externalLinkMissing')
    expect(saveRefusal({ registration_type: 'EXTERNAL' }, stored({ external_registration_link: 'https://x.example' }), null)).toBeNull()
    expect(
      saveRefusal({ external_registration_link: null }, stored({ registration_type: 'EXTERNAL', external_registration_link: 'https://x.example' }), null),
    ).toBe('externalLinkMissing')
  })

  it('tickets not below those collected: equal passes, one fewer fails', () => {
    expect(saveRefusal({ ticket_count: 10 }, stored(), null)).toBeNull()
    expect(saveRefusal({ ticket_count: 9 }, stored(), null)).toBe('ticketCountBelowSold')
    expect(saveRefusal({ ticket_count: 0 }, null, null)).toBeNull()
  })

  it('the team mode is fixed once students registered; teams not below one already formed', () => {
    expect(teamFactsNeeded({ ma_ppt: 4 }, stored())).toBe(false)
    expect(teamFactsNeeded({ ma_ppt: 3 }, stored())).toBe(true)
    expect(teamFactsNeeded({ ma_ppt: 3 }, null)).toBe(false)
    expect(saveRefusal({ ma_ppt: 1 }, stored(), { registered: 1, largest: 1 })).toBe('teamModeLocked')
    expect(saveRefusal({ ma_ppt: 1 }, stored(), { registered: 0, largest: 0 })).toBeNull()
    expect(saveRefusal({ ma_ppt: 3 }, stored({ ma_ppt: 1 }), { registered: 2, largest: 1 })).toBe('teamModeLocked')
    expect(saveRefusal({ ma_ppt: 3 }, stored(), { registered: 6, largest: 3 })).toBeNull()
    expect(saveRefusal({ ma_ppt: 3 }, stored(), { registered: 6, largest: 4 })).toBe('teamsTooBig')
  })

  it('the fair window is fixed once tickets opened or the draw is set; the same window is no change', () => {
    expect(saveRefusal({ fair_start: { window_seconds: 120 } }, stored(), null)).toBeNull()
    expect(saveRefusal({ fair_start: { window_seconds: 120 } }, stored({ state: 'TICKET_OPEN' }), null)).toBe('fairStartLocked')
    expect(saveRefusal({ fair_start: { window_seconds: 120 } }, stored({ fair_draw_set: true }), null)).toBe('fairStartLocked')
    expect(saveRefusal({ fair_start: { window_seconds: 60 } }, stored({ state: 'TICKET_OPEN' }), null)).toBeNull()
    expect(saveRefusal({ fair_start: null }, stored({ state: 'TICKET_OPEN', fair_window_seconds: 0 }), null)).toBeNull()
    expect(saveRefusal({ fair_start: null }, stored({ state: 'TICKET_OPEN' }), null)).toBe('fairStartLocked')
    expect(saveRefusal({ fair_start: { window_seconds: 120 } }, null, null)).toBeNull()
  })

  it('answers the first rule broken, in the save’s order', () => {
    const all = { min_ppt: 9, registration_type: 'EXTERNAL', ticket_count: 0, ma_ppt: 1, fair_start: { window_seconds: 1 } }
    expect(saveRefusal(all, stored({ state: 'TICKET_OPEN' }), { registered: 5, largest: 2 })).toBe('minAboveMax')
    expect(saveRefusal({ ...all, min_ppt: 1 }, stored({ state: 'TICKET_OPEN' }), { registered: 5, largest: 2 })).toBe('externalLinkMissing')
    expect(saveRefusal({ ...all, min_ppt: 1, registration_type: 'ONPLATFORM' }, stored({ state: 'TICKET_OPEN' }), { registered: 5, largest: 2 })).toBe(
      'ticketCountBelowSold',
    )
    expect(saveRefusal({ ma_ppt: 1, fair_start: { window_seconds: 1 } }, stored({ state: 'TICKET_OPEN' }), { registered: 5, largest: 2 })).toBe(
      'teamModeLocked',
    )
  })

  it('one level of sub-events: not itself, a top-level parent, and no sub-events of its own', () => {
    expect(parentSelf(7, 7)).toBe(true)
    expect(parentSelf(8, 7)).toBe(false)
    expect(parentSelf(7, undefined)).toBe(false)
    expect(parentSelf(null, 7)).toBe(false)
    expect(parentPlacement({ parent_id: null }, false)).toBeNull()
    expect(parentPlacement({ parent_id: 3 }, false)).toBe('parentNotTopLevel')
    expect(parentPlacement({ parent_id: 3 }, true)).toBe('parentNotTopLevel')
    expect(parentPlacement({ parent_id: null }, true)).toBe('parentOfChildren')
  })
})
