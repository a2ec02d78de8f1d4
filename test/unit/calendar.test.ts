// Calendar grid, day bucketing, dots and schedule. Runs under several zones via `npm run test:tz`.
// Expected first/last cells were worked out independently (Python's datetime), not by this module.
import { describe, expect, test } from 'vitest'
import type { EventState } from '../../contract/constants.ts'
import type { EventSummary } from '../../contract/types.ts'
import { isDayKey, addMonths, dotsFor, eventsByDay, monthGrid, monthOfKey, monthTitle, noEventsText, scheduleFor } from '../../src/lib/calendar.ts'
import { eventSummary, newEventId } from '../fixtures/events.ts'

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

// [year, month, weekday of the 1st, first cell, last cell, days in month]
const MONTHS: [number, number, string, string, string, number][] = [
  [2026, 2, 'Sunday', '2026-02-01', '2026-03-14', 28], // exactly four rows of its own; two trailing weeks
  [2026, 6, 'Monday', '2026-05-31', '2026-07-11', 30],
  [2026, 9, 'Tuesday', '2026-08-30', '2026-10-10', 30],
  [2026, 4, 'Wednesday', '2026-03-29', '2026-05-09', 30],
  [2026, 1, 'Thursday', '2025-12-28', '2026-02-07', 31], // starts in the previous year
  [2026, 5, 'Friday', '2026-04-26', '2026-06-06', 31],
  [2026, 8, 'Saturday', '2026-07-26', '2026-09-05', 31], // needs all six rows
  [2028, 2, 'Tuesday', '2028-01-30', '2028-03-11', 29], // leap February
  [2027, 2, 'Monday', '2027-01-31', '2027-03-13', 28],
  [2026, 12, 'Tuesday', '2026-11-29', '2027-01-09', 31], // ends in the next year
]

test('the table covers months starting on every weekday', () => {
  expect(new Set(MONTHS.map((m) => m[2]))).toEqual(new Set(WEEKDAYS))
})

describe.each(MONTHS)('%i-%i (1st is a %s)', (year, month, weekday, firstKey, lastKey, length) => {
  const grid = monthGrid(year, month)
  const key1 = `${year}-${String(month).padStart(2, '0')}-01`

  test('42 cells of consecutive days from a Sunday', () => {
    expect(grid).toHaveLength(42)
    expect(grid[0].key).toBe(firstKey)
    expect(grid[41].key).toBe(lastKey)
    for (let i = 1; i < 42; i++) {
      const step = Date.parse(grid[i].key) - Date.parse(grid[i - 1].key)
      expect(step, `${grid[i - 1].key} → ${grid[i].key}`).toBe(86_400_000)
    }
    expect(new Date(grid[0].key + 'T00:00:00Z').getUTCDay()).toBe(0)
  })

  test(`the 1st sits in the ${weekday} column and the month has ${length} days in it`, () => {
    const at = grid.findIndex((c) => c.key === key1)
    expect(at).toBe(WEEKDAYS.indexOf(weekday))
    const inMonth = grid.filter((c) => c.inMonth)
    expect(inMonth).toHaveLength(length)
    expect(inMonth.map((c) => c.day)).toEqual(Array.from({ length }, (_, i) => i + 1))
    expect(inMonth.every((c) => c.key.startsWith(key1.slice(0, 8)))).toBe(true)
    // The cells in the month are one contiguous run.
    expect(grid.slice(at, at + length).every((c) => c.inMonth)).toBe(true)
  })

  test('day numbers match the keys', () => {
    for (const c of grid) expect(c.day).toBe(Number(c.key.slice(8)))
  })
})

test.each([
  [{ year: 2026, month: 12 }, 1, { year: 2027, month: 1 }],
  [{ year: 2027, month: 1 }, -1, { year: 2026, month: 12 }],
  [{ year: 2026, month: 11 }, 0, { year: 2026, month: 11 }],
  [{ year: 2026, month: 5 }, 14, { year: 2027, month: 7 }],
  [{ year: 2026, month: 5 }, -17, { year: 2024, month: 12 }],
])('addMonths(%o, %i) = %o', (from, n, to) => {
  expect(addMonths(from, n)).toEqual(to)
})

test('month of a key and month titles', () => {
  expect(monthOfKey('2028-02-29')).toEqual({ year: 2028, month: 2 })
  expect(monthTitle({ year: 2026, month: 11 })).toBe('November 2026')
  expect(monthTitle({ year: 2027, month: 1 })).toBe('January 2027')
})

function ev(state: EventState, dates: string[], extra: Partial<EventSummary> = {}): EventSummary {
  const id = newEventId()
  return eventSummary({
    id,
    name: `Event ${id}`,
    dates,
    organizer: { id: 1, name: 'CSI', photo_url: `/org/${id}.png` },
    state,
    ...extra,
  })
}

describe('eventsByDay', () => {
  test('buckets by the IST day, not the UTC or local day', () => {
    const lateEvening = ev('UPCOMING', ['2026-11-21T18:45:00Z']) // 00:15 IST on the 22nd
    const morning = ev('UPCOMING', ['2026-11-21T03:30:00Z']) // 09:00 IST on the 21st
    const byDay = eventsByDay([lateEvening, morning])
    expect(byDay.get('2026-11-22')).toEqual([lateEvening])
    expect(byDay.get('2026-11-21')).toEqual([morning])
  })

  test('a multi-day event counts once on each of its days', () => {
    const fest = ev('ONGOING', [
      '2026-11-20T04:30:00Z',
      '2026-11-20T10:30:00Z', // same IST day again
      '2026-11-21T04:30:00Z',
    ])
    const byDay = eventsByDay([fest])
    expect([...byDay.keys()].sort()).toEqual(['2026-11-20', '2026-11-21'])
    expect(byDay.get('2026-11-20')).toEqual([fest])
  })

  test('an event with no parseable date is on no day', () => {
    expect(eventsByDay([ev('UPCOMING', []), ev('UPCOMING', ['garbage'])]).size).toBe(0)
  })
})

describe('dotsFor', () => {
  const today = '2026-11-21'
  const open = ev('REGISTRATION_OPEN', [])
  const others = (['UPCOMING', 'REGISTRATION_CLOSED', 'TICKET_OPEN', 'TICKET_CLOSED', 'ONGOING', 'COMPLETED'] as const).map((s) => ev(s, []))

  test.each([
    ['a past day is all grey', '2026-11-20', [open, others[0]], ['grey', 'grey']],
    ['a past day in an earlier year is grey', '2025-12-31', [open], ['grey']],
    ['today counts as not past', today, [open, others[1]], ['green', 'red']],
    ['a future day: green for REGISTRATION_OPEN, red for the rest', '2026-12-01', [others[2], open, others[3]], ['red', 'green', 'red']],
    ['at most three dots', '2026-11-22', [open, open, others[4], others[5], open], ['green', 'green', 'red']],
    ['no events, no dots', '2026-11-22', [], []],
  ] as const)('%s', (_, day, events, dots) => {
    expect(dotsFor(events, day, today)).toEqual(dots)
  })

  test.each(others.map((e) => [e.state, e]))('%s is red on a future day', (_, e) => {
    expect(dotsFor([e], '2026-11-22', today)).toEqual(['red'])
  })
})

describe('scheduleFor', () => {
  test('sorted by start time on that day, with ordinal day, hh:mm A in IST and the right link', () => {
    const late = ev('UPCOMING', ['2026-11-21T13:00:00Z'], { name: 'Late talk' }) // 06:30 PM IST
    const early = ev('REGISTRATION_OPEN', ['2026-11-21T03:30:00Z'], { name: 'Early', children: [{ id: 99 }] }) // 09:00 AM
    const multi = ev('ONGOING', ['2026-11-20T04:30:00Z', '2026-11-21T06:30:00Z'], { name: 'Fest' }) // 12:00 PM on the 21st
    const items = scheduleFor([late, multi, early], '2026-11-21')
    expect(items).toEqual([
      { id: early.id, title: 'Early', organizerImage: `/org/${early.id}.png`, ordinalDay: '21st', startTime: '09:00 AM', href: `/child-events/${early.id}` },
      { id: multi.id, title: 'Fest', organizerImage: `/org/${multi.id}.png`, ordinalDay: '21st', startTime: '12:00 PM', href: `/event-details/${multi.id}` },
      { id: late.id, title: 'Late talk', organizerImage: `/org/${late.id}.png`, ordinalDay: '21st', startTime: '06:30 PM', href: `/event-details/${late.id}` },
    ])
  })

  test('the start shown is the one on the chosen day; events not on that day are left out', () => {
    const multi = ev('ONGOING', ['2026-11-02T04:30:00Z', '2026-11-03T12:00:00Z'])
    expect(scheduleFor([multi], '2026-11-03').map((i) => [i.ordinalDay, i.startTime])).toEqual([['3rd', '05:30 PM']])
    expect(scheduleFor([multi], '2026-11-02').map((i) => [i.ordinalDay, i.startTime])).toEqual([['2nd', '10:00 AM']])
    expect(scheduleFor([multi], '2026-11-04')).toEqual([])
  })

  test('just after IST midnight belongs to the new day', () => {
    const e = ev('UPCOMING', ['2026-11-21T18:30:00Z'])
    expect(scheduleFor([e], '2026-11-22').map((i) => i.startTime)).toEqual(['12:00 AM'])
    expect(scheduleFor([e], '2026-11-21')).toEqual([])
  })
})

test('empty schedule text names the day', () => {
  expect(noEventsText('2026-11-21')).toBe('No events on Sat, 21 Nov 2026')
  expect(noEventsText('2028-02-29')).toBe('No events on Tue, 29 Feb 2028')
})

// The calendar's selected day comes from the address (issue 14), so anything may arrive there.
test.each([
  ['2026-11-21', true],
  ['2028-02-29', true],
  ['2026-02-29', false],
  ['2026-13-01', false],
  ['2026-1-5', false],
  ['tomorrow', false],
  [undefined, false],
  [['2026-11-21'], false],
])('isDayKey(%j) is %s', (value, expected) => {
  expect(isDayKey(value)).toBe(expected)
})
