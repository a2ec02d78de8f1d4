// The calendar screen's arithmetic: the 42-cell month grid, which events fall on which IST day, the dots
// and the day's schedule. Pure: day keys are 'YYYY-MM-DD' civil dates, handled as UTC midnights.
import type { EventSummary } from '../../contract/types.ts'
import { formatDayKey, formatTime, istDayKey, keyToUTC, ordinal, utcToKey } from './date-formats.ts'
import { eventHref } from './event-href.ts'

// Still importable from here (its own module keeps the first load of `/` free of the calendar arithmetic).
export { eventHref }

/** A calendar month; `month` is 1–12 like the key, not JavaScript's 0–11. */
export interface Month {
  year: number
  month: number
}

export interface DayCell {
  key: string
  day: number
  inMonth: boolean
}

export type Dot = 'grey' | 'green' | 'red'

export interface ScheduleItem {
  id: number
  title: string
  organizerImage: string | null
  ordinalDay: string
  startTime: string
  href: string
}

export const GRID_CELLS = 42
export const MAX_DOTS = 3
const MS_PER_DAY = 86_400_000

/** Six weeks starting on the Sunday on or before the 1st, so every month fits and the grid never jumps. */
export function monthGrid(year: number, month: number): DayCell[] {
  const first = Date.UTC(year, month - 1, 1)
  const start = first - new Date(first).getUTCDay() * MS_PER_DAY
  const cells: DayCell[] = []
  for (let i = 0; i < GRID_CELLS; i++) {
    const d = new Date(start + i * MS_PER_DAY)
    cells.push({
      key: utcToKey(d.getTime()),
      day: d.getUTCDate(),
      inMonth: d.getUTCMonth() === month - 1 && d.getUTCFullYear() === year,
    })
  }
  return cells
}

/** The month `n` months after `m` (negative goes back), across year ends. */
export function addMonths(m: Month, n: number): Month {
  const index = m.year * 12 + (m.month - 1) + n
  return { year: Math.floor(index / 12), month: (((index % 12) + 12) % 12) + 1 }
}

/** Whether `value` (from the address, so anything) is the key of a real day: '2026-11-21' yes, '2026-02-30' no. */
export const isDayKey = (value: unknown): value is string => typeof value === 'string' && !Number.isNaN(keyToUTC(value)) && utcToKey(keyToUTC(value)) === value

/** The month a day key belongs to. */
export const monthOfKey = (key: string): Month => ({ year: +key.slice(0, 4), month: +key.slice(5, 7) })

/** 'November 2026'. */
export const monthTitle = (m: Month) => formatDayKey(`${m.year}-${String(m.month).padStart(2, '0')}-01`, '{MMMM} {YYYY}')

/** IST day key → the events held that day; an event counts once on each distinct day of its `dates`. */
export function eventsByDay<E extends Pick<EventSummary, 'dates'>>(events: readonly E[]): Map<string, E[]> {
  const byDay = new Map<string, E[]>()
  for (const event of events) {
    const days = new Set(event.dates.map(istDayKey))
    for (const key of days) {
      if (!key) continue // an unparseable date shows nowhere rather than on a bogus day
      const list = byDay.get(key)
      if (list) list.push(event)
      else byDay.set(key, [event])
    }
  }
  return byDay
}

/** Up to 3 dots for a day: grey for a past day, else green for REGISTRATION_OPEN and red for any other state. */
export function dotsFor(events: readonly Pick<EventSummary, 'state'>[], dayKey: string, todayKey: string): Dot[] {
  const past = dayKey < todayKey // 'YYYY-MM-DD' strings sort like the dates they name
  return events.slice(0, MAX_DOTS).map((e) => (past ? 'grey' : e.state === 'REGISTRATION_OPEN' ? 'green' : 'red'))
}

/** The first instant of `event` that falls on `dayKey` in IST (NaN if none). */
function startOn(event: Pick<EventSummary, 'dates'>, dayKey: string): number {
  let best = NaN
  for (const iso of event.dates) {
    const ms = Date.parse(iso)
    if (istDayKey(ms) === dayKey && !(ms >= best)) best = ms
  }
  return best
}

/** The day's schedule, earliest start first; the time shown is the event's start on that day. */
export function scheduleFor(events: readonly EventSummary[], dayKey: string): ScheduleItem[] {
  const day = new Date(keyToUTC(dayKey)).getUTCDate()
  return events
    .map((event) => ({ event, start: startOn(event, dayKey) }))
    .filter((x) => Number.isFinite(x.start))
    .sort((a, b) => a.start - b.start || a.event.id - b.event.id)
    .map(({ event, start }) => ({
      id: event.id,
      title: event.name,
      organizerImage: event.organizer.photo_url,
      ordinalDay: ordinal(day),
      startTime: formatTime(start),
      href: eventHref(event),
    }))
}

/** SPEC §2 Calendar empty text: 'No events on {date}', the date as on event cards ('Sat, 21 Nov 2026'). */
export const noEventsText = (dayKey: string) => `No events on ${formatDayKey(dayKey, '{ddd}, {D} {MMM} {YYYY}')}`
