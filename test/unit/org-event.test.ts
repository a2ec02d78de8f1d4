// The organiser console's pure decisions (src/lib/org-event.ts), row by row.
import { describe, expect, it } from 'vitest'
import { EMPTY_SCHEDULE, fromLocalInput, nextMove, nextMoveText, toLocalInput } from '../../src/lib/org-event.ts'
import { csvFileName, matchesSearch, ratingBars, teamsOf, type ParticipantRow } from '../../src/lib/participants.ts'
import { STUDENTS_SEE } from '../../src/lib/state-moves.ts'
import { ALL_EVENT_STATES } from '../../contract/constants.ts'

const NOW = Date.parse('2026-11-20T12:00:00Z')

describe('nextMove', () => {
  const schedule = {
    ...EMPTY_SCHEDULE,
    registration_opens_at: '2026-11-20T11:00:00Z', // passed
    registration_closes_at: '2026-11-21T18:00:00+05:30',
    tickets_open_at: '2026-11-20T18:00:00+05:30', // 12:30 UTC: the earliest still ahead
    ends_at: null,
  }
  it.each([
    ['the earliest time still ahead, whatever the order', 'UPCOMING', { state: 'TICKET_OPEN', label: 'Tickets open', at: '2026-11-20T18:00:00+05:30' }],
    ['none for a draft: a draft never moves by itself', 'DRAFT', null],
  ] as const)('%s', (_name, state, expected) => {
    expect(nextMove(schedule, state, NOW)).toEqual(expected)
  })
  it('none when every time has passed or there is no schedule', () => {
    expect(nextMove({ ...EMPTY_SCHEDULE, starts_at: '2026-11-19T10:00:00Z' }, 'ONGOING', NOW)).toBeNull()
    expect(nextMove(null, 'UPCOMING', NOW)).toBeNull()
    expect(nextMove(EMPTY_SCHEDULE, 'UPCOMING', NOW)).toBeNull()
  })
})

describe('what students see', () => {
  it('has a sentence for each of the eight states', () => {
    for (const state of ALL_EVENT_STATES) expect(STUDENTS_SEE[state].length).toBeGreaterThan(20)
  })
})

describe('IST date-time inputs', () => {
  it.each([
    ['2026-11-20T12:30:00Z', '2026-11-20T18:00'],
    ['2026-11-20T18:00:00+05:30', '2026-11-20T18:00'],
    ['2026-12-31T20:00:00Z', '2027-01-01T01:30'],
    [null, ''],
  ])('%s reads as %s', (iso, local) => {
    expect(toLocalInput(iso)).toBe(local)
  })
  it('reads an input back as IST with its offset, and empty as null', () => {
    expect(fromLocalInput('2026-11-20T18:00')).toBe('2026-11-20T18:00:00+05:30')
    expect(Date.parse(fromLocalInput('2026-11-20T18:00')!)).toBe(Date.parse('2026-11-20T12:30:00Z'))
    expect(fromLocalInput('')).toBeNull()
  })
})

const row = (id: number, name: string, team: { id: number; name: string } | null, over: Partial<ParticipantRow['user']> = {}): ParticipantRow => ({
  user: {
    id,
    name,
    email: `${name.toLowerCase().replace(/\s/g, '.')}@example.edu`,
    roll_number: `1601${id}`,
    branch: 'Computer_Engineering',
    year: 2027,
    ...over,
  },
  team,
  answers: { github: `https://github.com/u${id}` },
})

describe('participants', () => {
  const rows = [row(1, 'Asha Rao', { id: 9, name: 'Bytes' }), row(2, 'Ravi Kumar', { id: 9, name: 'Bytes' }), row(3, 'मीरा शर्मा', { id: 4, name: 'Alpha' })]
  it.each([
    ['', 3],
    ['asha', 1],
    ['ASHA rao', 1],
    ['bytes', 2],
    ['16013', 1],
    ['मीरा', 1],
    ['github.com/u2', 1],
    ['asha ravi', 0],
  ])('search %j finds %i', (query, count) => {
    expect(rows.filter((p) => matchesSearch(p, query))).toHaveLength(count)
  })

  it('groups teams by name with their members and whether they meet min_ppt', () => {
    const teams = teamsOf([...rows, row(5, 'Solo', null)], 2)
    expect(teams.map((t) => [t.name, t.members.map((m) => m.user.id), t.complete])).toEqual([
      ['Alpha', [3], false],
      ['Bytes', [1, 2], true],
    ])
    expect(teamsOf(rows, 1).every((t) => t.complete)).toBe(true)
  })
})

describe('ratings and export', () => {
  it('draws five bars, 5 stars first, relative to the largest', () => {
    expect(ratingBars([1, 0, 2, 0, 4])).toEqual([
      { stars: 5, count: 4, percent: 100 },
      { stars: 4, count: 0, percent: 0 },
      { stars: 3, count: 2, percent: 50 },
      { stars: 2, count: 0, percent: 0 },
      { stars: 1, count: 1, percent: 25 },
    ])
    expect(ratingBars([0, 0, 0, 0, 0]).every((b) => b.percent === 0)).toBe(true)
  })
  it('names the CSV after the event in safe characters', () => {
    expect(csvFileName('Hack, "KJSCE" 2026!', 12)).toBe('Hack-KJSCE-2026-12-participants.csv')
    expect(csvFileName('***', 3)).toBe('event-3-participants.csv')
  })
})

describe('the console’s next move, said once (issue 37 item 7)', () => {
  it.each([
    ['REGISTRATION_OPEN', 'Registration opens', 'Next: registration opens on Fri, 4 Dec, 6:00 PM'],
    ['REGISTRATION_CLOSED', 'Registration closes', 'Next: registration closes on Fri, 4 Dec, 6:00 PM'],
    ['TICKET_OPEN', 'Tickets open', 'Next: tickets open on Fri, 4 Dec, 6:00 PM'],
    ['TICKET_CLOSED', 'Tickets close', 'Next: tickets close on Fri, 4 Dec, 6:00 PM'],
    ['ONGOING', 'Event starts', 'Next: event starts (Ongoing) on Fri, 4 Dec, 6:00 PM'],
    ['COMPLETED', 'Event ends', 'Next: event ends (Completed) on Fri, 4 Dec, 6:00 PM'],
  ] as const)('%s: %s', (state, label, text) => {
    expect(nextMoveText({ state, label, at: '2026-12-04T18:00:00+05:30' })).toBe(text)
  })
})
