// Dates and times as students read them: always Asia/Kolkata (IST, UTC+05:30, no DST), whatever zone the
// phone is set to. An instant is shifted by +330 minutes and its UTC fields are read as the wall clock in IST:
// the result never depends on TZ. Patterns are tinydate's (`{YYYY}-{MM}-{DD}`), written out here with the
// 12-hour clock and names added: a few lines cheaper on the first load than the library and a Date stand-in.
// Only what the first screen uses is here (the cards' date, the next step's time); the other formats and the
// day arithmetic of the calendar are in lib/date-formats.ts, which loads with the screens that use them.

const IST_OFFSET_MS = 330 * 60_000

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

export type Instant = string | number | Date

const pad2 = (n: number) => (n < 10 ? '0' : '') + n
const hours12 = (d: Date) => d.getUTCHours() % 12 || 12

/** Each `{token}` of a pattern, read off a Date whose UTC fields are the wall clock wanted. */
const TOKENS: Record<string, (d: Date) => string | number> = {
  YYYY: (d) => d.getUTCFullYear(),
  YY: (d) => pad2(d.getUTCFullYear() % 100),
  MM: (d) => pad2(d.getUTCMonth() + 1),
  DD: (d) => pad2(d.getUTCDate()),
  HH: (d) => pad2(d.getUTCHours()),
  mm: (d) => pad2(d.getUTCMinutes()),
  ss: (d) => pad2(d.getUTCSeconds()),
  fff: (d) => String(d.getUTCMilliseconds()).padStart(3, '0'),
  hh: (d) => pad2(hours12(d)),
  h: hours12,
  A: (d) => (d.getUTCHours() < 12 ? 'AM' : 'PM'),
  D: (d) => d.getUTCDate(),
  ddd: (d) => WEEKDAYS[d.getUTCDay()].slice(0, 3),
  dddd: (d) => WEEKDAYS[d.getUTCDay()],
  MMM: (d) => MONTHS[d.getUTCMonth()].slice(0, 3),
  MMMM: (d) => MONTHS[d.getUTCMonth()],
}

/** `pattern` with its tokens filled from the UTC fields of `ms` ('' if `ms` is not a time). */
export function render(pattern: string, ms: number): string {
  if (!Number.isFinite(ms)) return ''
  const d = new Date(ms)
  return pattern.replace(/\{(\w+)\}/g, (all, token: string) => (TOKENS[token] ? String(TOKENS[token](d)) : all))
}

export const toMs = (at: Instant) => (at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at))

/**
 * Formats an instant in IST with a pattern: `{YYYY} {YY} {MM} {DD} {HH} {mm} {ss}` plus
 * `{hh}`/`{h}` (12-hour), `{A}` (AM/PM), `{D}` (unpadded day), `{ddd}`/`{dddd}` (Sat/Saturday),
 * `{MMM}`/`{MMMM}` (Nov/November). `formatIST(iso, '{hh}:{mm} {A}')` → '06:30 PM'.
 * An unparseable instant gives '' rather than 'NaN' on screen.
 */
export const formatIST = (at: Instant, pattern: string) => render(pattern, toMs(at) + IST_OFFSET_MS)

/** Card date in IST, e.g. 'Sat, 21 Nov 2026'. */
export const formatDate = (at: Instant) => formatIST(at, '{ddd}, {D} {MMM} {YYYY}')
