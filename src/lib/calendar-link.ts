// "Add to calendar" on Event details: Google Calendar template links (SPEC §2), zone Asia/Kolkata. A template link
// books one entry, so a multi-day event gets one link per date (contract/occurrences.ts, the same times as the
// calendar feed) instead of one block spanning the days.
import { TIME_ZONE } from '../../contract/constants.ts'
import { occurrences } from '../../contract/occurrences.ts'
import { formatDate } from './dates.ts'

// Google reads 'YYYYMMDDTHHmmssZ' as UTC and shows it in `ctz`, so the link is right from any phone zone.
// '2026-11-21T13:00:00.000Z' → '20261121T130000Z' (the dates are usable ones: occurrences() drops the others).
const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]|\.\d+/g, '')

export interface CalendarEvent {
  name: string
  description: string
  dates: readonly string[]
  schedule?: { ends_at: string | null } | null
}

export interface CalendarLink {
  /** 'Add to calendar', or 'Add day 2 (Sat, 21 Nov 2026) to calendar' for a multi-day event. */
  label: string
  href: string
}

/** One link per usable date of the event, in order; empty when no date parses. */
export function calendarLinks(event: CalendarEvent): CalendarLink[] {
  const days = occurrences(event.dates, event.schedule?.ends_at)
  const q = (s: string) => encodeURIComponent(s)
  return days.map((day, i) => {
    const title = days.length > 1 ? `${event.name} (day ${i + 1} of ${days.length})` : event.name
    return {
      label: days.length > 1 ? `Add day ${i + 1} (${formatDate(day.start)}) to calendar` : 'Add to calendar',
      href:
        'https://calendar.google.com/calendar/render?action=TEMPLATE' +
        `&text=${q(title)}&details=${q(event.description)}` +
        `&dates=${stamp(day.start)}/${stamp(day.end)}&ctz=${q(TIME_ZONE)}`,
    }
  })
}

/** The link for the event's first date (SPEC §2), or null when it has no usable date. */
export function calendarLink(event: CalendarEvent): string | null {
  return calendarLinks(event)[0]?.href ?? null
}
