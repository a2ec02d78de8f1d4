// Event details helpers: the Google Calendar link, the fee text and the venue split (SPEC §2 Event details).
import { describe, expect, test } from 'vitest'
import { calendarLink, calendarLinks } from '../../src/lib/calendar-link.ts'
import { formatFee } from '../../src/lib/money.ts'
import { splitVenue } from '../../src/lib/venue.ts'

describe('calendarLink', () => {
  const parse = (url: string) => new URL(url)

  test('name, description, first date for one hour, zone Asia/Kolkata', () => {
    const url = calendarLink({ name: 'Code & Chai', description: 'Bring a laptop: 100% fun', dates: ['2026-11-21T18:30:00+05:30'] })!
    expect(url.startsWith('https://calendar.google.com/calendar/render?action=TEMPLATE&')).toBe(true)
    const q = parse(url).searchParams
    expect(q.get('action')).toBe('TEMPLATE')
    expect(q.get('text')).toBe('Code & Chai') // the & is escaped, not a parameter break
    expect(q.get('details')).toBe('Bring a laptop: 100% fun')
    expect(q.get('dates')).toBe('20261121T130000Z/20261121T140000Z')
    expect(q.get('ctz')).toBe('Asia/Kolkata')
  })

  test('a multi-day event is booked day by day, not as one block spanning the days (issue 13)', () => {
    const links = calendarLinks({ name: 'Fest', description: '', dates: ['2026-11-20T04:30:00Z', '2026-11-21T12:00:00Z'] })
    expect(links.map((l) => l.label)).toEqual(['Add day 1 (Fri, 20 Nov 2026) to calendar', 'Add day 2 (Sat, 21 Nov 2026) to calendar'])
    expect(links.map((l) => parse(l.href).searchParams.get('dates'))).toEqual(['20261120T043000Z/20261120T053000Z', '20261121T120000Z/20261121T130000Z'])
    expect(links.map((l) => parse(l.href).searchParams.get('text'))).toEqual(['Fest (day 1 of 2)', 'Fest (day 2 of 2)'])
    expect(calendarLink({ name: 'Fest', description: '', dates: ['2026-11-20T04:30:00Z', '2026-11-21T12:00:00Z'] })).toBe(links[0].href)
  })

  test("the day the event's schedule ends on ends at that time", () => {
    const links = calendarLinks({
      name: 'Fest',
      description: '',
      dates: ['2026-11-20T04:30:00Z', '2026-11-21T04:30:00Z'],
      schedule: { ends_at: '2026-11-21T12:00:00Z' },
    })
    expect(links.map((l) => parse(l.href).searchParams.get('dates'))).toEqual(['20261120T043000Z/20261120T053000Z', '20261121T043000Z/20261121T120000Z'])
  })

  test('a second date before the first is booked on its own day', () => {
    const links = calendarLinks({ name: 'X', description: '', dates: ['2026-11-21T04:30:00Z', '2026-11-20T04:30:00Z'] })
    expect(links.map((l) => parse(l.href).searchParams.get('dates'))).toEqual(['20261121T043000Z/20261121T053000Z', '20261120T043000Z/20261120T053000Z'])
  })

  test('an hour that crosses UTC midnight and the year end', () => {
    const q = parse(calendarLink({ name: 'NYE', description: '', dates: ['2027-01-01T05:00:00+05:30'] })!).searchParams
    expect(q.get('dates')).toBe('20261231T233000Z/20270101T003000Z')
  })

  test.each([[[]], [['soon']]])('no usable date (%j) gives no link', (dates) => {
    expect(calendarLink({ name: 'X', description: '', dates })).toBeNull()
  })
})

test.each([
  [0, 'Free'],
  [150, '₹150'],
  [1500, '₹1,500'],
  [150000, '₹1,50,000'], // Indian grouping
  [99.5, '₹99.5'],
])('fee %d reads %s', (fee, text) => {
  expect(formatFee(fee)).toBe(text)
})

test.each([
  // The bold name ends at the comma (issue 37 item 7), not after the first word.
  ['Seminar Hall, Block B', ['Seminar Hall,', 'Block B']],
  ['Main Auditorium, Block A, 2nd floor', ['Main Auditorium,', 'Block A, 2nd floor']],
  ['Seminar Hall ,Block B', ['Seminar Hall ,', 'Block B']],
  ['Auditorium', ['Auditorium', '']],
  ['  Room   204  ', ['Room', '204']],
  ['', ['', '']],
  ['Lab\t5', ['Lab', '5']],
])('venue %j splits into %j', (venue, parts) => {
  expect(splitVenue(venue)).toEqual(parts)
})
