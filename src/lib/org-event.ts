// The organiser console's decisions, as tables and pure functions (no DOM, no I/O): which state each scheduled
// time starts, the next scheduled move, the states' names and IST date-time inputs (what students see after a
// move: state-moves.ts; the participants' screen: participants.ts).
import type { AnyEventState } from '../../contract/constants.ts'
import type { Schedule } from '../../contract/types.ts'
import { formatIST } from './dates.ts'

/** Each time of the schedule and the state it starts (API.md Part 2 "Event lifecycle"), in the order they pass. */
export const SCHEDULE_STEPS: readonly { key: keyof Schedule; state: AnyEventState; label: string }[] = [
  { key: 'registration_opens_at', state: 'REGISTRATION_OPEN', label: 'Registration opens' },
  { key: 'registration_closes_at', state: 'REGISTRATION_CLOSED', label: 'Registration closes' },
  { key: 'tickets_open_at', state: 'TICKET_OPEN', label: 'Tickets open' },
  { key: 'tickets_close_at', state: 'TICKET_CLOSED', label: 'Tickets close' },
  { key: 'starts_at', state: 'ONGOING', label: 'Event starts' },
  { key: 'ends_at', state: 'COMPLETED', label: 'Event ends' },
]

export const EMPTY_SCHEDULE: Schedule = {
  registration_opens_at: null,
  registration_closes_at: null,
  tickets_open_at: null,
  tickets_close_at: null,
  starts_at: null,
  ends_at: null,
}

export interface NextMove {
  state: AnyEventState
  label: string
  at: string
}

/**
 * The next move the schedule will make: the earliest time still ahead. A draft never moves by itself (students
 * must not meet an event nobody published), so it has none.
 */
export function nextMove(schedule: Schedule | null | undefined, state: AnyEventState, now = Date.now()): NextMove | null {
  if (!schedule || state === 'DRAFT') return null
  let best: NextMove | null = null
  for (const step of SCHEDULE_STEPS) {
    const at = schedule[step.key]
    const ms = at ? Date.parse(at) : NaN
    if (!(ms > now)) continue
    if (!best || ms < Date.parse(best.at)) best = { state: step.state, label: step.label, at: at! }
  }
  return best
}

/** Names of the states as an organiser reads them. */
export const STATE_NAMES: Record<AnyEventState, string> = {
  DRAFT: 'Draft',
  UPCOMING: 'Upcoming',
  REGISTRATION_OPEN: 'Registration open',
  REGISTRATION_CLOSED: 'Registration closed',
  TICKET_OPEN: 'Tickets open',
  TICKET_CLOSED: 'Tickets closed',
  ONGOING: 'Ongoing',
  COMPLETED: 'Completed',
}

/** An ISO instant as the value of an `<input type="datetime-local">` in IST ('' for none). */
export const toLocalInput = (iso: string | null | undefined) => (iso ? formatIST(iso, '{YYYY}-{MM}-{DD}T{HH}:{mm}') : '')

/** A datetime-local value read as IST wall-clock time, as an ISO date-time with offset (null for empty). */
export const fromLocalInput = (value: string): string | null => (value ? `${value.length === 16 ? `${value}:00` : value}+05:30` : null)

/** IST, e.g. 'Fri, 21 Nov, 6:00 PM'. */
export const formatMoment = (iso: string) => formatIST(iso, '{ddd}, {D} {MMM}, {h}:{mm} {A}')
