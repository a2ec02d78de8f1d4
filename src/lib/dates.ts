// Dates and times as students read them: always Asia/Kolkata (IST, UTC+05:30, no DST), whatever zone the
// phone is set to. tinydate reads the local getters of the Date it is given, so we hand it a stand-in whose
// "local" getters are the UTC getters of the instant shifted by +330 minutes: the result never depends on TZ.
import tinydate from 'tinydate'

const IST_OFFSET_MS = 330 * 60_000
const MS_PER_DAY = 86_400_000

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

export type Instant = string | number | Date

const pad2 = (n: number) => (n < 10 ? '0' : '') + n

/** A Date look-alike whose local getters report the UTC fields of `ms` (tinydate only calls getters). */
function wallClock(ms: number): Date {
  const u = new Date(ms)
  return {
    getFullYear: () => u.getUTCFullYear(),
    getYear: () => u.getUTCFullYear() - 1900, // tinydate's {YY}
    getMonth: () => u.getUTCMonth(),
    getDate: () => u.getUTCDate(),
    getDay: () => u.getUTCDay(),
    getHours: () => u.getUTCHours(),
    getMinutes: () => u.getUTCMinutes(),
    getSeconds: () => u.getUTCSeconds(),
    getMilliseconds: () => u.getUTCMilliseconds(),
  } as unknown as Date
}

// tinydate knows only YYYY YY MM DD HH mm ss fff; these add the 12-hour clock and names.
const hours12 = (d: Date) => d.getHours() % 12 || 12
const EXTRA = {
  hh: (d: Date) => pad2(hours12(d)),
  h: (d: Date) => hours12(d),
  A: (d: Date) => (d.getHours() < 12 ? 'AM' : 'PM'),
  D: (d: Date) => d.getDate(),
  ddd: (d: Date) => WEEKDAYS[d.getDay()].slice(0, 3),
  dddd: (d: Date) => WEEKDAYS[d.getDay()],
  MMM: (d: Date) => MONTHS[d.getMonth()].slice(0, 3),
  MMMM: (d: Date) => MONTHS[d.getMonth()],
}

const compiled = new Map<string, (d: Date) => string>()
function render(pattern: string, ms: number): string {
  if (!Number.isFinite(ms)) return ''
  let fn = compiled.get(pattern)
  if (!fn) compiled.set(pattern, (fn = tinydate(pattern, EXTRA)))
  return fn(wallClock(ms))
}

const toMs = (at: Instant) => (at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at))

/**
 * Formats an instant in IST with a tinydate pattern: `{YYYY} {YY} {MM} {DD} {HH} {mm} {ss}` plus
 * `{hh}`/`{h}` (12-hour), `{A}` (AM/PM), `{D}` (unpadded day), `{ddd}`/`{dddd}` (Sat/Saturday),
 * `{MMM}`/`{MMMM}` (Nov/November). `formatIST(iso, '{hh}:{mm} {A}')` → '06:30 PM'.
 * An unparseable instant gives '' rather than 'NaN' on screen.
 */
export const formatIST = (at: Instant, pattern: string) => render(pattern, toMs(at) + IST_OFFSET_MS)

/** The same, in UTC (for machine formats such as calendar links). */
export const formatUTC = (at: Instant, pattern: string) => render(pattern, toMs(at))

/** The IST calendar day of an instant, 'YYYY-MM-DD' ('' if unparseable). */
export const istDayKey = (at: Instant) => formatIST(at, '{YYYY}-{MM}-{DD}')

/** Today's IST day key. */
export const todayKeyIST = (now: number = Date.now()) => istDayKey(now)

/** 'hh:mm A' in IST, e.g. '06:30 PM'. */
export const formatTime = (at: Instant) => formatIST(at, '{hh}:{mm} {A}')

/** Card date in IST, e.g. 'Sat, 21 Nov 2026'. */
export const formatDate = (at: Instant) => formatIST(at, '{ddd}, {D} {MMM} {YYYY}')

/** Details date-time in IST, e.g. '21 Nov 2026, 06:30 PM'. */
export const formatDateTime = (at: Instant) => formatIST(at, '{D} {MMM} {YYYY}, {hh}:{mm} {A}')

/** 1st 2nd 3rd 4th … 11th 12th 13th … 21st 22nd 23rd … 101st 111th. */
export function ordinal(n: number): string {
  const tens = n % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')
  return n + suffix
}

// Day keys are civil dates with no zone: they are handled as UTC midnights so arithmetic never meets a DST gap.

/** Milliseconds of a day key's UTC midnight (NaN if the key is malformed). */
export function keyToUTC(key: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key)
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3]) : NaN
}

/** The key of a UTC midnight. */
export const utcToKey = (ms: number) => render('{YYYY}-{MM}-{DD}', ms)

/** A day key moved by whole days. */
export const addDays = (key: string, days: number) => utcToKey(keyToUTC(key) + days * MS_PER_DAY)

/** Formats a day key with the same patterns as formatIST, e.g. '{dddd} {D} {MMMM} {YYYY}'. */
export const formatDayKey = (key: string, pattern: string) => render(pattern, keyToUTC(key))
