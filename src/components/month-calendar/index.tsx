// The month grid of the Calendar screen: 42 day buttons with up to 3 dots each, month controls, and
// keyboard use (roving tabindex, arrows by day/week, Home/End by week, PageUp/PageDown by month).
// It shows what it is given; the screen owns the month, the selection and the events.
import { useEffect, useMemo, useRef } from 'preact/hooks'
import type { EventSummary } from '../../../contract/types.ts'
import { addMonths, dotsFor, eventsByDay, monthGrid, monthOfKey, monthTitle, type Month } from '../../lib/calendar.ts'
import { addDays, formatDayKey } from '../../lib/date-formats.ts'
import s from './style.module.css'

export interface MonthCalendarProps {
  month: Month
  events: readonly EventSummary[]
  selectedKey: string | null
  todayKey: string
  /** A day was chosen. When it lies in another month, onPrev/onNext is called as well, to show it. */
  onSelect: (key: string) => void
  onPrev: () => void
  onNext: () => void
  onToday: () => void
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']
const count = (n: number) => (n === 0 ? 'no events' : n === 1 ? '1 event' : `${n} events`)
const monthIndex = (m: Month) => m.year * 12 + m.month

/** The key the same day-of-month lands on `n` months away, clamped to that month's length. */
function shiftMonth(key: string, n: number): string {
  const m = addMonths(monthOfKey(key), n)
  const last = new Date(Date.UTC(m.year, m.month, 0)).getUTCDate()
  return `${m.year}-${String(m.month).padStart(2, '0')}-${String(Math.min(+key.slice(8), last)).padStart(2, '0')}`
}

export function MonthCalendar({ month, events, selectedKey, todayKey, onSelect, onPrev, onNext, onToday }: MonthCalendarProps) {
  const cells = useMemo(() => monthGrid(month.year, month.month), [month.year, month.month])
  const byDay = useMemo(() => eventsByDay(events), [events])
  const grid = useRef<HTMLDivElement>(null)
  // The day a keyboard move chose, until it has the focus.
  const refocus = useRef<string | null>(null)

  // After a keyboard move the chosen day may be a new element (another month): give it the focus. The key is
  // kept in the ref, not read from this render: an effect still pending from an earlier render (a click just
  // before the key press) runs first, and would otherwise focus the old day and use up the request.
  useEffect(() => {
    const key = refocus.current
    const day = key && grid.current?.querySelector<HTMLElement>(`[data-key="${key}"]`)
    if (!day) return // not drawn yet (another month): a later render's effect will find it
    refocus.current = null
    day.focus()
  })

  const choose = (key: string) => {
    const delta = monthIndex(monthOfKey(key)) - monthIndex(month)
    onSelect(key)
    if (delta < 0) onPrev()
    else if (delta > 0) onNext()
  }

  // The one tabbable day: the selection if shown, else today if shown, else the 1st.
  const inView = (k: string | null) => k !== null && cells.some((c) => c.inMonth && c.key === k)
  const focusKey = inView(selectedKey) ? selectedKey : inView(todayKey) ? todayKey : cells.find((c) => c.inMonth)!.key

  const onKeyDown = (e: KeyboardEvent) => {
    const key = (e.target as HTMLElement).dataset?.key
    if (!key) return
    const weekday = new Date(key + 'T00:00:00Z').getUTCDay()
    const moves: Record<string, () => string> = {
      ArrowLeft: () => addDays(key, -1),
      ArrowRight: () => addDays(key, 1),
      ArrowUp: () => addDays(key, -7),
      ArrowDown: () => addDays(key, 7),
      Home: () => addDays(key, -weekday),
      End: () => addDays(key, 6 - weekday),
      PageUp: () => shiftMonth(key, -1),
      PageDown: () => shiftMonth(key, 1),
    }
    const move = moves[e.key]
    if (!move) return
    e.preventDefault()
    const next = move()
    refocus.current = next
    choose(next)
  }

  const title = monthTitle(month)
  return (
    <section class={s.calendar} aria-label="Calendar">
      <div class={s.bar}>
        <button type="button" class={s.nav} aria-label="Previous month" onClick={onPrev}>
          ‹
        </button>
        <h2 class={s.title} aria-live="polite">
          {title}
        </h2>
        <button type="button" class={s.nav} aria-label="Next month" onClick={onNext}>
          ›
        </button>
        <button type="button" class={s.today} onClick={onToday}>
          Today
        </button>
      </div>
      <div role="grid" aria-label={title} class={s.grid} ref={grid} onKeyDown={onKeyDown}>
        <div role="row" class={s.row}>
          {WEEKDAYS.map((d) => (
            <div role="columnheader" class={s.weekday} key={d} aria-label={d}>
              {d.slice(0, 3)}
            </div>
          ))}
        </div>
        {[0, 1, 2, 3, 4, 5].map((w) => (
          <div role="row" class={s.row} key={w}>
            {cells.slice(w * 7, w * 7 + 7).map((c) => {
              const dayEvents = byDay.get(c.key) ?? []
              const dots = dotsFor(dayEvents, c.key, todayKey)
              const tip = count(dayEvents.length)
              const selected = c.key === selectedKey
              return (
                <div role="gridcell" aria-selected={selected} key={c.key}>
                  <button
                    type="button"
                    data-key={c.key}
                    data-tip={dayEvents.length ? tip : undefined}
                    title={dayEvents.length ? tip : undefined}
                    tabIndex={c.key === focusKey ? 0 : -1}
                    aria-label={`${formatDayKey(c.key, '{dddd} {D} {MMMM} {YYYY}')}, ${tip}`}
                    aria-current={c.key === todayKey ? 'date' : undefined}
                    class={[s.day, !c.inMonth && s.outside, selected && s.selected, c.key === todayKey && s.isToday].filter(Boolean).join(' ')}
                    onClick={() => choose(c.key)}
                  >
                    {c.day}
                    <span class={s.dots} aria-hidden="true">
                      {dots.map((colour, i) => (
                        <i key={i} class={s[colour]} />
                      ))}
                    </span>
                  </button>
                </div>
              )
            })}
          </div>
        ))}
      </div>
    </section>
  )
}
