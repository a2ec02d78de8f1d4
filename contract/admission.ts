// Who the door lets in, per day (issue 25 item 3): the one home of the rule, used by the server's check-in, check-out
// and sync (server/db/door/door.ts) and by the door's offline check (src/lib/door-list.ts), so both decide alike. Pure: no
// zod, no DOM, nothing of either side.
//
// - A ticket admits once per event day: the Asia/Kolkata (IST) day of each of the event's `dates`. A single-day event
//   has one day, so every scan counts for it (the door as before issue 25).
// - A scan's day: the day of the date whose time span (start to its end, contract/occurrences.ts) holds the scan, so
//   a night that runs past midnight stays that date's; else the scan's IST day when the event has a date that day;
//   else the next event day (the evening before day 1 counts for day 1, a day between two dates for the next one);
//   after the last day, the last day. No scan is refused for its day: a phone with the wrong date still gets an
//   answer that the volunteer can read ("Day 2 · 28 Nov"), and no one is let in twice on one day.
// - Re-entry (the organiser's `reentry`): the door scans out and in. Out needs the ticket inside today; in after an
//   out is a re-entry (CHECKED_IN again, the day's first entry unchanged). Without re-entry there is no out.
import { occurrences } from './occurrences.ts'

const IST_OFFSET_MS = 330 * 60_000

/** The IST calendar day of an instant, 'YYYY-MM-DD'. */
export function istDay(ms: number): string {
  return new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 10)
}

/** One event day: its IST day and the span of its date(s) on that day, in ms. */
export interface EventDay {
  day: string
  start: number
  end: number
}

/** The event's days, in order: one per IST day of its dates (two dates on one day are one day). */
export function eventDays(dates: readonly string[], endsAt?: string | null, dateEnds: readonly (string | null)[] = []): EventDay[] {
  const byDay = new Map<string, EventDay>()
  for (const o of occurrences(dates, endsAt, dateEnds)) {
    const day = istDay(o.start)
    const seen = byDay.get(day)
    if (seen) {
      seen.start = Math.min(seen.start, o.start)
      seen.end = Math.max(seen.end, o.end)
    } else byDay.set(day, { day, start: o.start, end: o.end })
  }
  return [...byDay.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))
}

/** Which event day a scan at `at` counts for (see the head of this file); '' for an event with no dates. */
export function dayOf(days: readonly EventDay[], at: number): string {
  if (days.length === 0) return ''
  if (days.length === 1) return days[0].day
  const held = days.find((d) => d.start <= at && at <= d.end)
  if (held) return held.day
  const today = istDay(at)
  return (days.find((d) => d.day >= today) ?? days[days.length - 1]).day
}

/** How far past the moment a sync is received a scan's time may lie (a phone's clock a little fast). */
export const SCAN_CLOCK_SLACK_MS = 2 * 60_000

/**
 * Whether an offline scan's time can be believed (issue 36 item 6): not before the ticket's door opened (the moment
 * the ticket was issued: no door could read it earlier) and not after the sync's receipt plus SCAN_CLOCK_SLACK_MS. A
 * scan "of year 1" or "three days ahead" is neither: a time code can be replayed at any time a phone claims, so such
 * a scan admits nobody (before, it was clamped into the window and checked in).
 */
export function scanTimeBelievable(at: number, opensAt: number, receivedAt: number): boolean {
  return Number.isFinite(at) && at >= opensAt && at <= receivedAt + SCAN_CLOCK_SLACK_MS
}

/** A ticket's admission on one day, as the door list carries it and the server stores it. */
export interface Admission {
  day: string
  /** The day's first entry. */
  checked_in_at: string
  gate: string | null
  /** In now (without re-entry: true once admitted). */
  inside: boolean
}

export type Direction = 'IN' | 'OUT'

/**
 * What a scan does to a ticket, given its admission on the scan's day (or none):
 * ADMIT (the day's first entry), REENTER (in again after an out), ALREADY_IN, OUT, NOT_INSIDE (out, but not in),
 * NO_REENTRY (out, on an event without re-entry).
 */
export type Decision = 'ADMIT' | 'REENTER' | 'ALREADY_IN' | 'OUT' | 'NOT_INSIDE' | 'NO_REENTRY'

export function decide(today: Pick<Admission, 'inside'> | null | undefined, direction: Direction, reentry: boolean): Decision {
  if (direction === 'OUT') return !reentry ? 'NO_REENTRY' : today?.inside ? 'OUT' : 'NOT_INSIDE'
  if (!today) return 'ADMIT'
  return reentry && !today.inside ? 'REENTER' : 'ALREADY_IN'
}

/** The label of an event day on the door and in the console: "Day 2 · 28 Nov" ('' for a single-day event). */
export function dayLabel(days: readonly { day: string }[], day: string): string {
  const i = days.findIndex((d) => d.day === day)
  if (days.length < 2 || i < 0) return ''
  const [, m, d] = day.split('-').map(Number)
  return `Day ${i + 1} · ${d} ${'JanFebMarAprMayJunJulAugSepOctNovDec'.slice((m - 1) * 3, m * 3)}`
}
