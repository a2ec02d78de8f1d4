// The occurrences of an event in a calendar: one per date of `dates` (a multi-day event is booked day by day, never
// as one block spanning them). Shared by the app's add-to-calendar links and the server's calendar feed, so both
// book the same times. Pure: no zod, no DOM, nothing of either side.

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

export interface Occurrence {
  /** Position among the event's dates, from 0 (part of the feed's stable UID). */
  index: number
  start: number
  end: number
}

/**
 * Each usable date starts an occurrence that ends at its own end time (`dateEnds`, in the order of `dates`, issue
 * 22 item 7) when it has one after its start; else at the event's `ends_at` when that falls on the occurrence's day
 * (within 24 hours after its start); else after one hour. Dates that do not parse are left out.
 */
export function occurrences(dates: readonly string[], endsAt?: string | null, dateEnds: readonly (string | null)[] = []): Occurrence[] {
  const ends = endsAt ? Date.parse(endsAt) : Number.NaN
  const out: Occurrence[] = []
  dates.forEach((date, index) => {
    const start = Date.parse(date)
    if (!Number.isFinite(start)) return
    const own = Date.parse(dateEnds[index] ?? '')
    const end = own > start ? own : ends > start && ends - start <= DAY_MS ? ends : start + HOUR_MS
    out.push({ index, start, end })
  })
  return out
}
