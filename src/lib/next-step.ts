// When an event moves on by itself (API.md Part 2 "Event lifecycle"): the next step of its schedule, said the way a
// student reads it ("Registration opens Fri 6:00 PM"; in the last hour a countdown, "Registration opens in 12 min").
// Pure: the screens pass the time; the event-detail store refetches the event at `at`.
import type { Schedule } from '../../contract/types.ts'
import { formatIST } from './dates.ts'

const STEPS: [keyof Schedule, string, string][] = [
  ['registration_opens_at', 'REGISTRATION_OPEN', 'Registration opens'],
  ['registration_closes_at', 'REGISTRATION_CLOSED', 'Registration closes'],
  ['tickets_open_at', 'TICKET_OPEN', 'Tickets open'],
  ['tickets_close_at', 'TICKET_CLOSED', 'Tickets close'],
  ['starts_at', 'ONGOING', 'Starts'],
  ['ends_at', 'COMPLETED', 'Ends'],
]

const HOUR = 3_600_000

export interface NextStep {
  /** When it happens (ms since the epoch). */
  at: number
  /** "Registration opens Fri 6:00 PM", or "Registration opens in 12 min" in the last hour. */
  text: string
}

/** The soonest step still to come that changes the event's state, or null. */
export function nextStep(event: { state?: string; schedule?: Schedule | null }, now: number = Date.now()): NextStep | null {
  if (!event.schedule) return null
  let best: { at: number; label: string } | null = null
  for (const [key, state, label] of STEPS) {
    const value = event.schedule[key]
    if (!value || state === event.state) continue
    const at = Date.parse(value)
    if (Number.isNaN(at) || at <= now) continue
    if (!best || at < best.at) best = { at, label }
  }
  if (!best) return null
  const left = best.at - now
  if (left <= HOUR) {
    const minutes = Math.ceil(left / 60_000)
    return { at: best.at, text: minutes <= 1 ? `${best.label} in less than a minute` : `${best.label} in ${minutes} min` }
  }
  const sameWeek = left < 6 * 24 * HOUR
  return { at: best.at, text: `${best.label} ${formatIST(best.at, sameWeek ? '{ddd} {h}:{mm} {A}' : '{D} {MMM}, {h}:{mm} {A}')}` }
}
