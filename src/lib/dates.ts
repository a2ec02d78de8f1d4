// Dates and times as students read them: always Asia/Kolkata (IST, UTC+05:30, no DST), whatever zone the
// phone is set to. tinydate renders the patterns (`{YYYY}-{MM}-{DD}`); the tokens it lacks (12-hour clock, AM/PM,
// unpadded day, day and month names) come in its custom dictionary. Only what the first screen uses is here (the
// cards' date, the next step's time); the full names, other formats, ordinals and the calendar's day arithmetic are
// in lib/date-formats.ts, which loads with the screens that use them.
import tinydate, { type Dictionary } from 'tinydate'

const IST_OFFSET_MS = 330 * 60_000

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
/** Day and month names, three letters each (the first screen's; the full names are lib/date-formats.ts's). */
const DAYS = 'SunMonTueWedThuFriSat'
const MONTHS = 'JanFebMarAprMayJunJulAugSepOctNovDec'
const third = (names: string, i: number) => names.slice(i * 3, i * 3 + 3)

/** The tokens tinydate has no word for. A dictionary entry pads its own value (tinydate's README). */
export const TOKENS: Dictionary = {
  YY: (d) => String(d.getFullYear()).slice(-2), // tinydate's reads getYear(), which WallClock leaves local
  hh: (d) => String(hours12(d)).padStart(2, '0'),
  h: hours12,
  A: (d) => (d.getHours() < 12 ? 'AM' : 'PM'),
  D: (d) => d.getDate(),
  ddd: (d) => third(DAYS, d.getDay()),
  MMM: (d) => third(MONTHS, d.getMonth()),
}

/**
 * A renderer of patterns with tinydate's tokens and `tokens`, each pattern compiled once: `pattern` filled from the
 * UTC fields of `ms` ('' if `ms` is not a time).
 */
export function renderer(tokens: Dictionary): (pattern: string, ms: number) => string {
  const compiled: Record<string, (date: Date) => string> = {}
  return (pattern, ms) => (Number.isFinite(ms) ? (compiled[pattern] ??= tinydate(pattern, tokens))(new WallClock(ms)) : '')
}

export const render = renderer(TOKENS)

export const toMs = (at: Instant) => (at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at))

/**
 * Formats an instant in IST with a pattern: tinydate's `{YYYY} {YY} {MM} {DD} {HH} {mm} {ss} {fff}` plus
 * `{hh}`/`{h}` (12-hour), `{A}` (AM/PM), `{D}` (unpadded day), `{ddd}` (Sat) and `{MMM}` (Nov).
 * `formatIST(iso, '{hh}:{mm} {A}')` → '06:30 PM'. Full names ({dddd}, {MMMM}): formatDayKey of lib/date-formats.ts.
 * An unparseable instant gives '' rather than 'NaN' on screen.
 */
export const formatIST = (at: Instant, pattern: string) => render(pattern, toMs(at) + IST_OFFSET_MS)

/** Card date in IST, e.g. 'Sat, 21 Nov 2026'. */
export const formatDate = (at: Instant) => formatIST(at, '{ddd}, {D} {MMM} {YYYY}')
