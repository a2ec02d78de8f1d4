// The organiser console's decisions, as tables and pure functions (no DOM, no I/O): which state each scheduled
// time starts, the next scheduled move, the states' names and IST date-time inputs (what students see after a
// move: state-moves.ts; the participants' screen: participants.ts).
import type { AnyEventState } from '../../contract/constants.ts'
import { SCHEDULE_STEPS as STEPS, type ScheduleKey } from '../../contract/schedule-steps.ts'
import type { Schedule } from '../../contract/types.ts'
import { formatIST } from './dates.ts'

/** What the console calls each time of the schedule. */
const STEP_LABELS: Record<ScheduleKey, string> = {
  registration_opens_at: 'Registration opens',
  registration_closes_at: 'Registration closes',
  tickets_open_at: 'Tickets open',
  tickets_close_at: 'Tickets close',
  starts_at: 'Event starts',
  ends_at: 'Event ends',
}

/** Each time of the schedule and the state it starts (contract/schedule-steps.ts), in the order they pass, with its name. */
export const SCHEDULE_STEPS: readonly { key: ScheduleKey; state: AnyEventState; label: string }[] = STEPS.map(([key, state]) => ({
  key,
  state,
  label: STEP_LABELS[key],
}))

export const EMPTY_SCHEDULE = Object.fromEntries(STEPS.map(([key]) => [key, null])) as Schedule

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

/**
 * The console's line for the next move: 'Next: registration opens on Fri, 4 Dec, 6:00 PM', the state named only where
 * the step's name does not already say it ('Next: event starts (Ongoing) on …'; issue 37 item 7: 'registration opens
 * (Registration open)' said it twice).
 */
export function nextMoveText(next: NextMove): string {
  const name = STATE_NAMES[next.state]
  const said = name.split(' ')[0] === next.label.split(' ')[0]
  return `Next: ${next.label.toLowerCase()}${said ? '' : ` (${name})`} on ${formatMoment(next.at)}`
}
