// The organiser console's decisions, as tables and pure functions (no DOM, no I/O): which state each scheduled
// time starts, the next scheduled move, what students see after a manual move, IST date-time inputs, the
// participants' search, teams against min_ppt, and the ratings' bars.
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

/** What students see once the event is in a state (SPEC §4's button per state), for the move's confirmation. */
export const STUDENTS_SEE: Record<AnyEventState, string> = {
  DRAFT: 'Students no longer see this event: it leaves every list and its page answers "not found".',
  UPCOMING: "Students see the event with a disabled 'Registrations Opening Soon' button.",
  REGISTRATION_OPEN: "Students can register now: the 'Register' button appears on the event's page.",
  REGISTRATION_CLOSED: "Students can no longer register: the button reads 'Registration Closed'.",
  TICKET_OPEN: "Registered students can collect their tickets: the button reads 'RSVP for this event'.",
  TICKET_CLOSED: "No more tickets can be collected: the button reads 'RSVP closed'; collected tickets stay valid.",
  ONGOING: 'The event shows as ongoing (with the activity link when it has one).',
  COMPLETED: "The event shows as completed and participants can rate it ('Give Feedback').",
}

/** An ISO instant as the value of an `<input type="datetime-local">` in IST ('' for none). */
export const toLocalInput = (iso: string | null | undefined) => (iso ? formatIST(iso, '{YYYY}-{MM}-{DD}T{HH}:{mm}') : '')

/** A datetime-local value read as IST wall-clock time, as an ISO date-time with offset (null for empty). */
export const fromLocalInput = (value: string): string | null => (value ? `${value.length === 16 ? `${value}:00` : value}+05:30` : null)

/** IST, e.g. 'Fri, 21 Nov, 6:00 PM'. */
export const formatMoment = (iso: string) => formatIST(iso, '{ddd}, {D} {MMM}, {h}:{mm} {A}')

// ---- Participants -------------------------------------------------------------------------------------------

export interface ParticipantRow {
  user: { id: number; name: string; email: string; roll_number: string | null; phone_number?: string | null; branch: string | null; year: number | null }
  team: { id: number; name: string } | null
  answers?: Record<string, string>
}

/** Whether a participant matches a search: every word in name, roll number, e-mail, branch, team or answers. */
export function matchesSearch(p: ParticipantRow, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (!words.length) return true
  const hay = [p.user.name, p.user.roll_number, p.user.email, p.user.branch, p.user.year, p.team?.name, ...Object.values(p.answers ?? {})]
    .filter((v) => v != null)
    .join(' ')
    .toLowerCase()
  return words.every((w) => hay.includes(w))
}

export interface TeamGroup<P extends ParticipantRow> {
  id: number
  name: string
  members: P[]
  /** Whether the team has at least min_ppt members (and so may collect tickets). */
  complete: boolean
}

/** The teams of an event's participants, by name, with their members and whether they meet the minimum. */
export function teamsOf<P extends ParticipantRow>(participants: readonly P[], minPpt: number): TeamGroup<P>[] {
  const byId = new Map<number, TeamGroup<P>>()
  for (const p of participants) {
    if (!p.team) continue
    let group = byId.get(p.team.id)
    if (!group) byId.set(p.team.id, (group = { id: p.team.id, name: p.team.name, members: [], complete: false }))
    group.members.push(p)
  }
  const teams = [...byId.values()]
  for (const t of teams) t.complete = t.members.length >= Math.max(1, minPpt)
  return teams.sort((a, b) => a.name.localeCompare(b.name))
}

/** The five bars of the ratings' distribution, 5 stars first, each with its share of the largest (0–100). */
export function ratingBars(byStar: readonly number[]): { stars: number; count: number; percent: number }[] {
  const max = Math.max(0, ...byStar)
  return [5, 4, 3, 2, 1].map((stars) => {
    const count = byStar[stars - 1] ?? 0
    return { stars, count, percent: max ? Math.round((count / max) * 100) : 0 }
  })
}

/** The file name of an event's participants export: its name in safe characters. */
export const csvFileName = (eventName: string, id: number) =>
  `${
    eventName
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'event'
  }-${id}-participants.csv`
