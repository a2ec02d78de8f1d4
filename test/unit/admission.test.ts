// The door's per-day and re-entry rule (issue 25 item 3, contract/admission.ts), shared by the server and the door's
// offline check: the IST day either side of midnight, which event day a scan counts for, and the decision table.
import { describe, expect, it } from 'vitest'
import { type Decision, dayLabel, dayOf, decide, eventDays, istDay, scanTimeBelievable } from '../../contract/admission.ts'

const at = (iso: string) => Date.parse(iso)
const FEST = ['2026-11-27T10:00:00+05:30', '2026-11-28T10:00:00+05:30', '2026-11-29T10:00:00+05:30']

describe('istDay', () => {
  it.each([
    ['2026-11-27T23:59:59+05:30', '2026-11-27'],
    ['2026-11-28T00:00:00+05:30', '2026-11-28'],
    ['2026-11-27T18:29:59.999Z', '2026-11-27'],
    ['2026-11-27T18:30:00Z', '2026-11-28'],
  ])('%s is %s in Asia/Kolkata', (instant, day) => expect(istDay(at(instant))).toBe(day))
})

describe('dayOf', () => {
  const days = eventDays(FEST)
  it('one day per IST date, in order; two dates on one day are one day', () => {
    expect(days.map((d) => d.day)).toEqual(['2026-11-27', '2026-11-28', '2026-11-29'])
    expect(eventDays(['2026-11-27T10:00:00+05:30', '2026-11-27T18:00:00+05:30']).map((d) => d.day)).toEqual(['2026-11-27'])
  })
  it.each([
    ['23:59:59 IST on day 1 counts for day 1', '2026-11-27T23:59:59+05:30', '2026-11-27'],
    ['00:00:00 IST the next day counts for day 2', '2026-11-28T00:00:00+05:30', '2026-11-28'],
    ['the evening before day 1 counts for day 1', '2026-11-26T20:00:00+05:30', '2026-11-27'],
    ['after the last day counts for the last day', '2026-12-02T10:00:00+05:30', '2026-11-29'],
  ])('%s', (_, instant, day) => expect(dayOf(days, at(instant))).toBe(day))
  it('a day between two dates counts for the next one', () => {
    const gap = eventDays(['2026-11-27T10:00:00+05:30', '2026-11-29T10:00:00+05:30'])
    expect(dayOf(gap, at('2026-11-28T12:00:00+05:30'))).toBe('2026-11-29')
  })
  it('a night that runs past midnight stays its date’s (the date’s end holds the scan)', () => {
    const nights = eventDays(['2026-11-27T20:00:00+05:30', '2026-11-28T20:00:00+05:30'], null, ['2026-11-28T02:00:00+05:30', null])
    expect(dayOf(nights, at('2026-11-28T00:30:00+05:30'))).toBe('2026-11-27')
    expect(dayOf(nights, at('2026-11-28T03:00:00+05:30'))).toBe('2026-11-28')
  })
  it('a single-day event has one day whatever the scan’s date; no dates: the empty day', () => {
    const one = eventDays(['2026-11-25T18:00:00+05:30'])
    expect(dayOf(one, at('2027-01-01T10:00:00+05:30'))).toBe('2026-11-25')
    expect(dayOf([], Date.now())).toBe('')
  })
})

describe('decide', () => {
  const rows: [string, { inside: boolean } | null, 'IN' | 'OUT', boolean, Decision][] = [
    ['first scan in today', null, 'IN', false, 'ADMIT'],
    ['in again today, no re-entry', { inside: true }, 'IN', false, 'ALREADY_IN'],
    ['in again while inside, re-entry', { inside: true }, 'IN', true, 'ALREADY_IN'],
    ['in after going out, re-entry', { inside: false }, 'IN', true, 'REENTER'],
    ['out while inside, re-entry', { inside: true }, 'OUT', true, 'OUT'],
    ['out when out already', { inside: false }, 'OUT', true, 'NOT_INSIDE'],
    ['out before coming in today', null, 'OUT', true, 'NOT_INSIDE'],
    ['out on an event without re-entry', { inside: true }, 'OUT', false, 'NO_REENTRY'],
  ]
  it.each(rows)('%s', (_, today, direction, reentry, expected) => expect(decide(today, direction, reentry)).toBe(expected))
})

describe('dayLabel', () => {
  it('names the day of a multi-day event, nothing for a single-day one', () => {
    const days = eventDays(FEST)
    expect(dayLabel(days, '2026-11-28')).toBe('Day 2 · 28 Nov')
    expect(dayLabel(eventDays([FEST[0]]), '2026-11-27')).toBe('')
  })
})

describe('scanTimeBelievable (issue 36 item 6): an offline scan’s time, from its ticket’s issue to the sync plus two minutes', () => {
  const issued = Date.parse('2026-11-20T10:00:00+05:30')
  const received = Date.parse('2026-11-26T20:00:00+05:30')
  const cases: [string, string, boolean][] = [
    ['year 1', '0001-01-01T00:00:00Z', false],
    ['a minute before the ticket was issued', '2026-11-20T09:59:00+05:30', false],
    ['when the ticket was issued', '2026-11-20T10:00:00+05:30', true],
    ['on the event’s day', '2026-11-25T18:05:00+05:30', true],
    ['a minute after the sync was received (a phone’s clock a little fast)', '2026-11-26T20:01:00+05:30', true],
    ['three minutes after it', '2026-11-26T20:03:00+05:30', false],
    ['three days ahead', '2026-11-29T20:00:00+05:30', false],
    ['year 9000', '9000-01-01T00:00:00Z', false],
    ['not a time', 'not a time', false],
  ]
  it.each(cases)('%s', (_, at, expected) => {
    expect(scanTimeBelievable(Date.parse(at), issued, received)).toBe(expected)
  })
})
