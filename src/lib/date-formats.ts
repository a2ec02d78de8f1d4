// The date formats and day arithmetic beyond the first screen's (lib/dates.ts): times, day keys, ordinals. Same
// rules: IST whatever the phone's zone, '' for an unparseable instant.
import { formatIST, type Instant, render, renderer, TOKENS, toMs } from './dates.ts'

const MS_PER_DAY = 86_400_000

/** The same, in UTC (for machine formats such as calendar links). */
export const formatUTC = (at: Instant, pattern: string) => render(pattern, toMs(at))

/** The IST calendar day of an instant, 'YYYY-MM-DD' ('' if unparseable). */
export const istDayKey = (at: Instant) => formatIST(at, '{YYYY}-{MM}-{DD}')

/** Today's IST day key. */
export const todayKeyIST = (now: number = Date.now()) => istDayKey(now)

/** 'hh:mm A' in IST, e.g. '06:30 PM'. */
export const formatTime = (at: Instant) => formatIST(at, '{hh}:{mm} {A}')

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

const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** formatIST's tokens plus the full names, `{dddd}` (Saturday) and `{MMMM}` (November). */
const renderWithNames = renderer({ ...TOKENS, dddd: (d) => DAY_NAMES[d.getDay()]!, MMMM: (d) => MONTH_NAMES[d.getMonth()]! })

/** Formats a day key with formatIST's patterns and the full names, e.g. '{dddd} {D} {MMMM} {YYYY}'. */
export const formatDayKey = (key: string, pattern: string) => renderWithNames(pattern, keyToUTC(key))
