// The door's list and its rules (src/lib/door-list.ts, issue 38 item 1), row by row: a read of a scanned text, express
// mode's repeat guard, the offline decision (contract/admission.ts applied to the list), the counts, the server's answer
// to a live scan and to a sync applied to the list, the queue applied to a fresh list, and the list as the phone keeps it.
import { describe, expect, it } from 'vitest'
import type { DoorDay, DoorTicket, ScanResult } from '../../contract/types.ts'
import {
  countsOn,
  decideOffline,
  type DoorList,
  keptOf,
  listOf,
  type QueuedScan,
  readOf,
  repeatGuard,
  settled,
  undone,
  withAnswer,
  withQueue,
} from '../../src/lib/door-list.ts'

const ASHA = '1000000000000001'
const KABIR = '1000000000000002'
const GIVEN_BACK = '1000000000000009'

const ticket = (code: string, name: string, extra: Partial<DoorTicket> = {}): DoorTicket => ({
  ticket_code: code,
  name,
  photo_url: null,
  team: null,
  checked_in_at: null,
  gate: null,
  ...extra,
})
const TICKETS = [ticket(ASHA, 'Asha Rao', { door_answers: [{ label: 'Food', answer: 'Veg' }] }), ticket(KABIR, 'Kabir Shah')]

/** Two evenings, 18:00 to 23:00 IST. */
const FEST_DAYS: DoorDay[] = [
  { day: '2026-11-27', label: 'Day 1 · 27 Nov', starts_at: '2026-11-27T12:30:00.000Z', ends_at: '2026-11-27T17:30:00.000Z', checked_in: 0, inside: 0 },
  { day: '2026-11-28', label: 'Day 2 · 28 Nov', starts_at: '2026-11-28T12:30:00.000Z', ends_at: '2026-11-28T17:30:00.000Z', checked_in: 0, inside: 0 },
]
const DAY1 = '2026-11-27T13:00:00.000Z'
const DAY1_LATER = '2026-11-27T15:00:00.000Z'
const DAY2 = '2026-11-28T13:00:00.000Z'

const oneDay = (reentry = false) => listOf({ tickets: TICKETS, as_of: DAY1, released: [GIVEN_BACK], days: FEST_DAYS.slice(0, 1), reentry })
const twoDays = (reentry = false) => listOf({ tickets: TICKETS, as_of: DAY1, released: [], days: FEST_DAYS, reentry })

let n = 0
const scan = (text: string, scanned_at: string, direction: 'IN' | 'OUT' = 'IN', gate = 'North'): QueuedScan => ({
  ticket_code: text,
  scan_id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  gate,
  scanned_at,
  direction,
})

/** Scans applied offline one after another: each answer's result, and the list after the last. */
function offline(list: DoorList, scans: QueuedScan[]) {
  const results: string[] = []
  for (const s of scans) {
    const decided = decideOffline(list, readOf(s.ticket_code).code, s)
    results.push(decided.answer.result)
    list = decided.list ?? list
  }
  return { results, list }
}

describe('readOf: the one reading of a scanned text', () => {
  it.each([
    ['a bare code', ASHA, { text: ASHA, code: ASHA, time: null }],
    ['spaces around it (a hardware scanner, a paste)', `  ${ASHA}\n`, { text: ASHA, code: ASHA, time: null }],
    ['a rotating code: the ticket code and its time code', ` ${ASHA}-123456 `, { text: `${ASHA}-123456`, code: ASHA, time: '123456' }],
    ['five digits after the dash: a code of its own', `${ASHA}-12345`, { text: `${ASHA}-12345`, code: `${ASHA}-12345`, time: null }],
    ['nothing read', '   ', { text: '', code: '', time: null }],
  ])('%s', (_, raw, read) => expect(readOf(raw)).toEqual(read))
})

describe('repeatGuard: the same ticket twice in a row is one read', () => {
  it.each([
    ['the same code within the window: not sent', [ASHA, ASHA], [0, 3999], [true, false]],
    ['the same code after the window: sent again', [ASHA, ASHA], [0, 4000], [true, true]],
    ['held up: each read restarts the window', [ASHA, ASHA, ASHA], [0, 3000, 6000], [true, false, false]],
    ['another code in between: both sent', [ASHA, KABIR, ASHA], [0, 100, 200], [true, true, true]],
  ])('%s', (_, codes, times, fresh) => {
    let now = 0
    const guard = repeatGuard(4000, () => now)
    expect(
      codes.map((code, i) => {
        now = times[i]
        return guard.fresh(code)
      }),
    ).toEqual(fresh)
  })
  it('after reset (an undo) the same code is sent at once', () => {
    const guard = repeatGuard(4000, () => 0)
    expect(guard.fresh(ASHA)).toBe(true)
    guard.reset()
    expect(guard.fresh(ASHA)).toBe(true)
  })
})

describe('decideOffline: the list decides as the server would', () => {
  it.each([
    ['first scan in: checked in', oneDay(), [scan(ASHA, DAY1)], ['CHECKED_IN']],
    ['in again the same day: already in', oneDay(), [scan(ASHA, DAY1), scan(ASHA, DAY1_LATER)], ['CHECKED_IN', 'ALREADY_CHECKED_IN']],
    ['a rotating code read: the ticket is its code', oneDay(), [scan(`${ASHA}-123456`, DAY1), scan(ASHA, DAY1_LATER)], ['CHECKED_IN', 'ALREADY_CHECKED_IN']],
    ['out without re-entry: refused', oneDay(), [scan(ASHA, DAY1), scan(ASHA, DAY1_LATER, 'OUT')], ['CHECKED_IN', 'NOT_INSIDE']],
    [
      're-entry: in, out, in again',
      oneDay(true),
      [scan(ASHA, DAY1), scan(ASHA, DAY1, 'OUT'), scan(ASHA, DAY1_LATER)],
      ['CHECKED_IN', 'CHECKED_OUT', 'CHECKED_IN'],
    ],
    ['re-entry: out before coming in', oneDay(true), [scan(ASHA, DAY1, 'OUT')], ['NOT_INSIDE']],
    ['two days: in on each', twoDays(), [scan(ASHA, DAY1), scan(ASHA, DAY2)], ['CHECKED_IN', 'CHECKED_IN']],
    ['two days: twice on day 2', twoDays(), [scan(ASHA, DAY2), scan(ASHA, DAY2)], ['CHECKED_IN', 'ALREADY_CHECKED_IN']],
    ['a code of no ticket', oneDay(), [scan('9999', DAY1)], ['UNKNOWN_TICKET']],
  ])('%s', (_, list, scans, results) => expect(offline(list, scans).results).toEqual(results))

  it('an answer carries the holder, their door answers and (several days) the day; a refusal changes nothing', () => {
    const first = decideOffline(twoDays(), ASHA, scan(ASHA, DAY2, 'IN', 'South'))
    expect(first.answer).toMatchObject({
      result: 'CHECKED_IN',
      offline: true,
      code: ASHA,
      checked_in_at: DAY2,
      day: '2026-11-28',
      attendee: { name: 'Asha Rao', door_answers: [{ label: 'Food', answer: 'Veg' }] },
    })
    const again = decideOffline(first.list!, ASHA, scan(ASHA, DAY2))
    expect(again.answer).toMatchObject({ result: 'ALREADY_CHECKED_IN', checked_in_at: DAY2, gate: 'South', message: 'This ticket is already checked in.' })
    expect(again.list).toBeUndefined()
  })

  it.each([
    ['a code given back says so', GIVEN_BACK, 'This ticket was given back: its code no longer works.'],
    ['any other code is no ticket', '9999', 'No ticket of this event has this code.'],
  ])('%s', (_, code, message) => expect(decideOffline(oneDay(), code, scan(code, DAY1)).answer).toMatchObject({ result: 'UNKNOWN_TICKET', message }))

  it.each([
    ['without re-entry', false, 'No re-entry here: set the gate to In.'],
    ['with re-entry', true, 'Not inside: set the gate to In.'],
  ])('a scan out of a ticket not inside, %s, names the fix', (_, reentry, message) =>
    expect(decideOffline(oneDay(reentry), ASHA, scan(ASHA, DAY1, 'OUT')).answer).toMatchObject({ result: 'NOT_INSIDE', message }),
  )
})

describe('countsOn: the day’s counts from the one list', () => {
  const { list } = offline(twoDays(true), [scan(ASHA, DAY1, 'IN', 'North'), scan(KABIR, DAY1, 'IN', 'South'), scan(KABIR, DAY1_LATER, 'OUT'), scan(ASHA, DAY2)])
  it.each([
    ['day 1 at North', '2026-11-27', 'North', { checkedIn: 2, inside: 1, atGate: 1 }],
    ['day 1 at South', '2026-11-27', 'South', { checkedIn: 2, inside: 1, atGate: 1 }],
    ['day 2 at North', '2026-11-28', 'North', { checkedIn: 1, inside: 1, atGate: 1 }],
    ['day 2 at South', '2026-11-28', 'South', { checkedIn: 1, inside: 1, atGate: 0 }],
  ])('%s', (_, day, gate, counts) => expect(countsOn(list, day, gate)).toEqual(counts))
  it('a single-day list’s check-in (no admissions listed) counts for its one day', () => {
    const kept = listOf({ tickets: [ticket(ASHA, 'Asha Rao', { checked_in_at: DAY1, gate: 'North' })], as_of: DAY1, days: FEST_DAYS.slice(0, 1) })
    expect(countsOn(kept, '2026-11-27', 'North')).toEqual({ checkedIn: 1, inside: 1, atGate: 1 })
  })
})

const attendee = { name: 'Asha Rao', photo_url: null, team: null }
const admissionsOf = (list: DoorList, code = ASHA) => list.tickets.get(code)?.admissions

describe('withAnswer: a live scan’s answer applied to the list', () => {
  it.each<[string, ScanResult, unknown]>([
    [
      'CHECKED_IN: in today at this gate',
      { error: false, result: 'CHECKED_IN', attendee, checked_in_at: DAY1 },
      [{ day: '2026-11-27', checked_in_at: DAY1, gate: 'North', inside: true }],
    ],
    [
      'ALREADY_CHECKED_IN: in today, when and where the server says',
      { error: true, message: 'x', result: 'ALREADY_CHECKED_IN', attendee, checked_in_at: DAY1, gate: 'East' },
      [{ day: '2026-11-27', checked_in_at: DAY1, gate: 'East', inside: true }],
    ],
    ['NOT_CHECKED_IN: not in that day', { error: true, message: 'x', result: 'NOT_CHECKED_IN', attendee }, []],
  ])('%s', (_, answer, admissions) => expect(admissionsOf(withAnswer(oneDay(), ASHA, answer, scan(ASHA, DAY1)))).toEqual(admissions))

  it('CHECKED_OUT: out of today’s admission (re-entry); an answer that changes nothing leaves the same list', () => {
    const { list } = offline(oneDay(true), [scan(ASHA, DAY1)])
    const out = withAnswer(list, ASHA, { error: false, result: 'CHECKED_OUT', attendee, checked_out_at: DAY1_LATER }, scan(ASHA, DAY1_LATER, 'OUT'))
    expect(admissionsOf(out)).toEqual([{ day: '2026-11-27', checked_in_at: DAY1, gate: 'North', inside: false }])
    const unknown = withAnswer(list, ASHA, { error: true, message: 'x', result: 'UNKNOWN_TICKET' }, scan(ASHA, DAY1))
    expect(unknown).toBe(list)
  })
})

describe('settled: a sync’s answers applied to the list, and what the volunteer must hear of', () => {
  const inBoth = () => offline(oneDay(), [scan(ASHA, DAY1), scan(KABIR, DAY1)])

  const inAt = (checked_in_at: string, gate: string) => [{ day: '2026-11-27', checked_in_at, gate, inside: true }]
  it.each<[string, ScanResult, unknown, boolean]>([
    ['CHECKED_IN: as let in here, nothing to hear', { error: false, result: 'CHECKED_IN', attendee, checked_in_at: DAY1 }, inAt(DAY1, 'North'), false],
    [
      'ALREADY_CHECKED_IN: another gate first; the list takes its time and gate',
      { error: true, message: 'x', result: 'ALREADY_CHECKED_IN', attendee, checked_in_at: '2026-11-27T12:45:00.000Z', gate: 'East' },
      inAt('2026-11-27T12:45:00.000Z', 'East'),
      true,
    ],
    ['TRANSFERRED: the code is dropped from the list', { error: true, message: 'x', result: 'TRANSFERRED' }, 'dropped', true],
    ['EXPIRED_CODE: the admission this scan made is taken back', { error: true, message: 'x', result: 'EXPIRED_CODE' }, [], true],
  ])('%s', (_, answer, ashaAfter, heard) => {
    const { list } = inBoth()
    // The scan sent is the one that let Asha in offline (at DAY1, at North).
    const after = settled(list, [scan(ASHA, DAY1)], [answer])
    expect(after.list.tickets.has(ASHA) ? admissionsOf(after.list) : 'dropped').toEqual(ashaAfter)
    expect(after.list.tickets.get(KABIR)).toBe(list.tickets.get(KABIR))
    expect(after.conflicts).toEqual(heard ? [{ ...answer, code: ASHA }] : [])
  })

  it('EXPIRED_CODE of a later scan leaves the day’s first admission; a time-coded text is its ticket', () => {
    const { list } = inBoth()
    const later = [scan(`${ASHA}-123456`, DAY1_LATER)]
    const after = settled(list, later, [{ error: true, message: 'x', result: 'EXPIRED_CODE' }])
    expect(admissionsOf(after.list)).toEqual(admissionsOf(list))
    expect(after.conflicts).toEqual([{ error: true, message: 'x', result: 'EXPIRED_CODE', code: ASHA }])
  })

  it('ALREADY_CHECKED_IN of a scan out is not a conflict; a code not on the list is still heard of', () => {
    const { list } = inBoth()
    const scans = [scan(ASHA, DAY1_LATER, 'OUT'), scan('9999', DAY1)]
    const after = settled(list, scans, [
      { error: true, message: 'x', result: 'ALREADY_CHECKED_IN', attendee, checked_in_at: DAY1, gate: 'North' },
      { error: true, message: 'x', result: 'TRANSFERRED' },
    ])
    expect(after.conflicts.map((c) => c.code)).toEqual(['9999'])
  })
})

describe('withQueue: scans still queued stay applied to a fresh list, in the order they were made', () => {
  it.each([
    ['in, then out (queued out of order)', [scan(ASHA, DAY1_LATER, 'OUT'), scan(ASHA, DAY1)], false],
    ['out, then in again', [scan(ASHA, DAY1), scan(ASHA, '2026-11-27T14:00:00.000Z', 'OUT'), scan(`${ASHA}-654321`, DAY1_LATER)], true],
  ])('%s', (_, queue, inside) => expect(admissionsOf(withQueue(oneDay(true), queue))?.[0]?.inside).toBe(inside))
  it('no queue: the same list', () => {
    const list = oneDay()
    expect(withQueue(list, [])).toBe(list)
  })
})

describe('the list as kept, and undone', () => {
  it('keptOf and listOf round-trip what the phone keeps', () => {
    const { list } = offline(twoDays(true), [scan(ASHA, DAY1)])
    const kept = keptOf(list)
    expect(kept).toEqual({ tickets: [...list.tickets.values()], as_of: DAY1, released: [], days: FEST_DAYS, reentry: true })
    expect(listOf(structuredClone(kept))).toEqual(list)
    expect(listOf()).toMatchObject({ asOf: null, days: [], reentry: false })
    expect(listOf().tickets.size).toBe(0)
  })
  it('undone removes the day’s admission only', () => {
    const { list } = offline(twoDays(), [scan(ASHA, DAY1), scan(ASHA, DAY2)])
    expect(admissionsOf(undone(list, ASHA, '2026-11-28'))?.map((a) => a.day)).toEqual(['2026-11-27'])
  })
})
