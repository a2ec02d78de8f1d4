// "Add to calendar" on Event details: a Google Calendar template link (SPEC §2), zone Asia/Kolkata.
import { TIME_ZONE } from '../../contract/constants.ts'
import { formatUTC } from './dates.ts'

const HOUR_MS = 3_600_000

// Google reads 'YYYYMMDDTHHmmssZ' as UTC and shows it in `ctz`, so the link is right from any phone zone.
const stamp = (ms: number) => formatUTC(ms, '{YYYY}{MM}{DD}T{HH}{mm}{ss}Z')

/**
 * The link for an event's first date; it ends at the second date when that comes later, else one hour on.
 * null when the event has no usable date (a link to a dateless entry would only confuse).
 */
export function calendarLink(event: { name: string; description: string; dates: readonly string[] }): string | null {
  const start = Date.parse(event.dates[0] ?? '')
  if (!Number.isFinite(start)) return null
  const second = Date.parse(event.dates[1] ?? '')
  const end = second > start ? second : start + HOUR_MS
  const q = (s: string) => encodeURIComponent(s)
  return (
    'https://calendar.google.com/calendar/render?action=TEMPLATE' +
    `&text=${q(event.name)}&details=${q(event.description)}` +
    `&dates=${stamp(start)}/${stamp(end)}&ctz=${q(TIME_ZONE)}`
  )
}
