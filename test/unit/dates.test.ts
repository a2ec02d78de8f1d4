// IST formatting must not depend on the machine's zone: `npm run test:tz` runs this file under
// America/Los_Angeles (UTC-8/-7 with DST), Pacific/Kiritimati (UTC+14) and UTC.
import { describe, expect, test } from 'vitest'
import { addDays, formatDateTime, formatDayKey, formatTime, formatUTC, istDayKey, ordinal, todayKeyIST } from '../../src/lib/date-formats.ts'
import { formatDate, formatIST } from '../../src/lib/dates.ts'

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone

test(`the zone the runner asked for is in force (${zone})`, () => {
  // Without this, a script that failed to pass TZ through would "prove" independence in one zone only.
  const asked = process.env.TZ
  if (asked) expect(asked === 'UTC' ? ['UTC', 'Etc/UTC'] : [asked]).toContain(zone)
})

// [instant, IST day key, 'hh:mm A', card date, details date-time]
const CASES: [string, string, string, string, string][] = [
  ['2026-11-21T13:00:00Z', '2026-11-21', '06:30 PM', 'Sat, 21 Nov 2026', '21 Nov 2026, 06:30 PM'],
  // One second before and at IST midnight: the day changes at 18:30 UTC.
  ['2026-11-21T18:29:59Z', '2026-11-21', '11:59 PM', 'Sat, 21 Nov 2026', '21 Nov 2026, 11:59 PM'],
  ['2026-11-21T18:30:00Z', '2026-11-22', '12:00 AM', 'Sun, 22 Nov 2026', '22 Nov 2026, 12:00 AM'],
  // Noon UTC is already the next day in Kiritimati (UTC+14) but still the 21st in IST.
  ['2026-11-21T12:00:00Z', '2026-11-21', '05:30 PM', 'Sat, 21 Nov 2026', '21 Nov 2026, 05:30 PM'],
  // Given with an IST offset, as the server sends them.
  ['2026-01-01T00:15:00+05:30', '2026-01-01', '12:15 AM', 'Thu, 1 Jan 2026', '1 Jan 2026, 12:15 AM'],
  ['2025-12-31T23:59:00+05:30', '2025-12-31', '11:59 PM', 'Wed, 31 Dec 2025', '31 Dec 2025, 11:59 PM'],
  ['2026-06-15T06:30:00Z', '2026-06-15', '12:00 PM', 'Mon, 15 Jun 2026', '15 Jun 2026, 12:00 PM'],
  // Los Angeles springs forward at 10:00 UTC on 8 Mar 2026; IST has no DST and must not notice.
  ['2026-03-08T10:30:00Z', '2026-03-08', '04:00 PM', 'Sun, 8 Mar 2026', '8 Mar 2026, 04:00 PM'],
  // 02:30 on 8 Mar 2026 in India is a wall-clock time Los Angeles skips (its clocks jump from 02:00 to 03:00 that
  // night): a formatter that rebuilt the IST clock as a local Date would print 03:30 there.
  ['2026-03-07T21:00:00Z', '2026-03-08', '02:30 AM', 'Sun, 8 Mar 2026', '8 Mar 2026, 02:30 AM'],
  // Leap day.
  ['2028-02-29T04:30:00Z', '2028-02-29', '10:00 AM', 'Tue, 29 Feb 2028', '29 Feb 2028, 10:00 AM'],
]

describe.each(CASES)('%s', (iso, key, time, date, dateTime) => {
  test(`is ${key} ${time} in IST`, () => {
    expect(istDayKey(iso)).toBe(key)
    expect(formatTime(iso)).toBe(time)
    expect(formatIST(iso, '{hh}:{mm} {A}')).toBe(time)
    expect(formatDate(iso)).toBe(date)
    expect(formatDateTime(iso)).toBe(dateTime)
  })
  test('reads the same from a Date and from epoch milliseconds', () => {
    expect(istDayKey(new Date(iso))).toBe(key)
    expect(formatTime(Date.parse(iso))).toBe(time)
  })
})

test('the table holds an instant whose local day differs from its IST day in this zone', () => {
  // Guards the table itself: if every case fell on the same day locally, the zone runs would prove nothing.
  if (zone === 'Asia/Kolkata' || zone === 'Asia/Calcutta') return
  const local = (iso: string) => {
    const d = new Date(iso)
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
  }
  expect(CASES.some(([iso, key]) => local(iso) !== key)).toBe(true)
})

test('every tinydate token, plus the ones added for IST', () => {
  const iso = '2026-11-21T13:04:05.067Z' // 18:34:05.067 IST
  expect(formatIST(iso, '{YYYY}-{YY}-{MM}-{DD} {HH}:{mm}:{ss}.{fff}')).toBe('2026-26-11-21 18:34:05.067')
  expect(formatIST(iso, '{h}/{hh} {A} {D} {ddd} {MMM}')).toBe('6/06 PM 21 Sat Nov')
  expect(formatDayKey('2026-11-21', '{h}/{hh} {A} {D} {ddd} {dddd} {MMM} {MMMM}')).toBe('12/12 AM 21 Sat Saturday Nov November')
  // Every day and month name, short and long.
  const week = [0, 1, 2, 3, 4, 5, 6].map((i) => formatDayKey(addDays('2026-11-22', i), '{ddd} {dddd}'))
  expect(week).toEqual(['Sun Sunday', 'Mon Monday', 'Tue Tuesday', 'Wed Wednesday', 'Thu Thursday', 'Fri Friday', 'Sat Saturday'])
  const months = Array.from({ length: 12 }, (_, i) => formatDayKey(`2026-${String(i + 1).padStart(2, '0')}-01`, '{MMM} {MMMM}'))
  expect(months.map((m) => m.split(' ')[0])).toEqual(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'])
  expect(months.map((m) => m.split(' ')[1])).toEqual([
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ])
  expect(formatIST('2026-11-21T06:30:00Z', '{h} {hh} {A}')).toBe('12 12 PM')
  expect(formatIST('2026-11-20T18:30:00Z', '{h} {hh} {A}')).toBe('12 12 AM')
})

test('UTC formatting for machine-readable stamps', () => {
  expect(formatUTC('2026-11-21T18:30:00+05:30', '{YYYY}{MM}{DD}T{HH}{mm}{ss}Z')).toBe('20261121T130000Z')
})

test('today is the IST day of now', () => {
  expect(todayKeyIST(Date.parse('2026-11-21T18:29:59Z'))).toBe('2026-11-21')
  expect(todayKeyIST(Date.parse('2026-11-21T18:30:00Z'))).toBe('2026-11-22')
  expect(todayKeyIST()).toMatch(/^\d{4}-\d{2}-\d{2}$/)
})

test('an unparseable instant renders as empty text, not NaN', () => {
  expect(formatTime('not a date')).toBe('')
  expect(istDayKey('')).toBe('')
})

test.each([
  [1, '1st'],
  [2, '2nd'],
  [3, '3rd'],
  [4, '4th'],
  [10, '10th'],
  [11, '11th'],
  [12, '12th'],
  [13, '13th'],
  [14, '14th'],
  [20, '20th'],
  [21, '21st'],
  [22, '22nd'],
  [23, '23rd'],
  [24, '24th'],
  [30, '30th'],
  [31, '31st'],
  [101, '101st'],
  [111, '111th'],
  [112, '112th'],
  [113, '113th'],
])('ordinal(%i) is %s', (n, text) => {
  expect(ordinal(n)).toBe(text)
})

test('day keys: arithmetic across month, year and leap-day ends, and their names', () => {
  expect(addDays('2028-02-28', 1)).toBe('2028-02-29')
  expect(addDays('2027-02-28', 1)).toBe('2027-03-01')
  expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
  expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
  // 8 Mar 2026 is 23 hours long in Los Angeles: day keys must not care.
  expect(addDays('2026-03-07', 2)).toBe('2026-03-09')
  expect(formatDayKey('2026-11-21', '{dddd} {D} {MMMM} {YYYY}')).toBe('Saturday 21 November 2026')
})
