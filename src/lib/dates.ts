// Dates and times as students read them: always Asia/Kolkata (IST, UTC+05:30, no DST), whatever zone the
// phone is set to. tinydate renders the patterns (`{YYYY}-{MM}-{DD}`); the tokens it lacks (12-hour clock, AM/PM,
// unpadded day, day and month names) come in its custom dictionary. Only what the first screen uses is here (the
// cards' date, the next step's time); the other formats and the calendar's day arithmetic are in
// lib/date-formats.ts, which loads with the screens that use them.
import tinydate, { type Dictionary } from 'tinydate'

const IST_OFFSET_MS = 330 * 60_000

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

export type Instant = string | number | Date

/**
 * A Date whose local-time getters (the ones tinydate's tokens call) answer with its UTC fields: built at an instant
 * moved by +05:30 it reads as the wall clock in India, and the phone's own zone and DST rules never apply.
 */
class WallClock extends Date {}
for (const field of ['FullYear', 'Month', 'Date', 'Day', 'Hours', 'Minutes', 'Seconds', 'Milliseconds'] as const) {
  WallClock.prototype[`get${field}`] = Date.prototype[`getUTC${field}`]
}

const hours12 = (d: Date) => d.getHours() % 12 || 12

/** The tokens tinydate has no word for. A dictionary entry pads its own value (tinydate's README). */
const MORE: Dictionary = {
  YY: (d) => String(d.getFullYear()).slice(-2), // tinydate's reads getYear(), which WallClock leaves local
  hh: (d) => String(hours12(d)).padStart(2, '0'),
  h: hours12,
  A: (d) => (d.getHours() < 12 ? 'AM' : 'PM'),
  D: (d) => d.getDate(),
  ddd: (d) => WEEKDAYS[d.getDay()].slice(0, 3),
  dddd: (d) => WEEKDAYS[d.getDay()],
  MMM: (d) => MONTHS[d.getMonth()].slice(0, 3),
  MMMM: (d) => MONTHS[d.getMonth()],
}

/** Each pattern compiled once (tinydate returns a renderer for it). */
const renderers: Record<string, (date: Date) => string> = {}

/** `pattern` rendered from the UTC fields of `ms` ('' if `ms` is not a time). */
export function render(pattern: string, ms: number): string {
  if (!Number.isFinite(ms)) return ''
  renderers[pattern] ??= tinydate(pattern, MORE)
  return renderers[pattern](new WallClock(ms))
}

export const toMs = (at: Instant) => (at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at))

/**
 * Formats an instant in IST with a pattern: tinydate's `{YYYY} {YY} {MM} {DD} {HH} {mm} {ss} {fff}` plus
 * `{hh}`/`{h}` (12-hour), `{A}` (AM/PM), `{D}` (unpadded day), `{ddd}`/`{dddd}` (Sat/Saturday),
 * `{MMM}`/`{MMMM}` (Nov/November). `formatIST(iso, '{hh}:{mm} {A}')` → '06:30 PM'.
 * An unparseable instant gives '' rather than 'NaN' on screen.
 */
export const formatIST = (at: Instant, pattern: string) => render(pattern, toMs(at) + IST_OFFSET_MS)

/** Card date in IST, e.g. 'Sat, 21 Nov 2026'. */
export const formatDate = (at: Instant) => formatIST(at, '{ddd}, {D} {MMM} {YYYY}')
