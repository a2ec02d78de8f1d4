// The personal calendar feed as RFC 5545 text: lines ended by CRLF and folded at 75 octets (never inside a UTF-8
// character), TEXT values escaped, times in TZID Asia/Kolkata with its VTIMEZONE. Pure: the route gives it the rows.
// Kept hand-written (issue 38 item 6): ical-generator writes a TZID time through the server's own time zone (a wall
// time in its daylight-saving gap moves an hour) unless luxon, moment or dayjs come too, keeps control characters
// in TEXT, and still needs this VTIMEZONE; it was no faster (531 against 543 µs for 60 events).
import { occurrences } from '../../contract/occurrences.ts'
import type { FeedEvent } from '../db/events/feeds.ts'

const IST_OFFSET_MS = 5.5 * 3_600_000
const pad = (n: number) => String(n).padStart(2, '0')

/** 'YYYYMMDDTHHMMSS' of a UTC time; with `Z` for UTC values, without for TZID-local ones. */
function stamp(ms: number, utc: boolean): string {
  const d = new Date(utc ? ms : ms + IST_OFFSET_MS)
  const s = `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
  return utc ? `${s}Z` : s
}

/** A TEXT value (RFC 5545 §3.3.11): backslash, semicolon, comma and newlines escaped; other controls dropped. */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\r\n?/g, '\n')
      .replace(/[\\;,]/g, (c) => `\\${c}`)
      .replace(/\n/g, '\\n')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this removes
      .replace(/[\u0000-\u001f\u007f]/g, '')
  )
}

/** The UTF-8 octets of one character (a code point, as for...of gives them; a lone surrogate is written as U+FFFD). */
function octetsOf(char: string): number {
  const code = char.codePointAt(0) ?? 0
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
}

/**
 * One content line folded at 75 octets (§3.1): continuation lines start with a space; characters stay whole. A line
 * that fits is kept as it is; a longer one is measured character by character without encoding it (a TextEncoder
 * call per character made a feed of 60 events take 40 ms: issue 38 item 6).
 */
export function fold(line: string): string {
  if (Buffer.byteLength(line) <= 75) return line
  const parts: string[] = []
  let current = ''
  let octets = 0
  let limit = 75
  for (const char of line) {
    const size = octetsOf(char)
    if (octets + size > limit) {
      parts.push(current)
      current = ''
      octets = 0
      limit = 74 // the leading space of a continuation line counts
    }
    current += char
    octets += size
  }
  parts.push(current)
  return parts.join('\r\n ')
}

const VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Asia/Kolkata',
  'X-LIC-LOCATION:Asia/Kolkata',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0530',
  'TZOFFSETTO:+0530',
  'TZNAME:IST',
  'DTSTART:19700101T000000',
  'END:STANDARD',
  'END:VTIMEZONE',
]

/**
 * The feed. UIDs are `event-<id>-<date index>@<host>`: the same event date keeps its UID across fetches, so a
 * calendar app replaces it when the event changes (SEQUENCE and LAST-MODIFIED rise) instead of adding a copy.
 */
export function calendarFeed(events: FeedEvent[], options: { host: string; appUrl: string; name: string }): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Campus Events//Personal feed//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(options.name)}`,
    'X-WR-TIMEZONE:Asia/Kolkata',
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
    ...VTIMEZONE,
  ]
  for (const event of events) {
    const days = occurrences(event.dates, event.endsAt, event.dateEnds)
    const url = `${options.appUrl}/event-details/${event.id}`
    const modified = stamp(event.modifiedAt.getTime(), true)
    for (const day of days) {
      const summary = days.length > 1 ? `${event.name} (day ${days.indexOf(day) + 1} of ${days.length})` : event.name
      const description = [event.description, url].filter(Boolean).join('\n\n')
      lines.push(
        'BEGIN:VEVENT',
        `UID:event-${event.id}-${day.index}@${options.host}`,
        `DTSTAMP:${modified}`,
        `LAST-MODIFIED:${modified}`,
        `SEQUENCE:${event.sequence}`,
        `DTSTART;TZID=Asia/Kolkata:${stamp(day.start, false)}`,
        `DTEND;TZID=Asia/Kolkata:${stamp(day.end, false)}`,
        `SUMMARY:${escapeText(summary)}`,
        ...(description ? [`DESCRIPTION:${escapeText(description)}`] : []),
        ...(event.venue ? [`LOCATION:${escapeText(event.venue)}`] : []),
        `URL:${url}`,
        'STATUS:CONFIRMED',
        'TRANSP:OPAQUE',
        'END:VEVENT',
      )
    }
  }
  lines.push('END:VCALENDAR')
  return `${lines.map(fold).join('\r\n')}\r\n`
}
