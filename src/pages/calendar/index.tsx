// Calendar (SPEC §2): the month grid with previous/next/Today, every event of the events store, and the
// schedule of the selected day (today in IST by default).
// The selected day is kept in the address (/calendar?day=2026-11-21, replaced as the student picks days), so Back
// from an event of the schedule returns to the day they were looking at; the Calendar tab opens on today.
import { useEffect, useMemo, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { MonthCalendar } from '../../components/month-calendar/index.tsx'
import { addMonths, isDayKey, monthOfKey, noEventsText, scheduleFor } from '../../lib/calendar.ts'
import { formatDayKey, todayKeyIST } from '../../lib/date-formats.ts'
import { buildEventLists, monthQuery } from '../../stores/event-lists.ts'
import { room, events } from '../../models.ts'
import s from './style.module.css'

const eventLists = room(buildEventLists)

export default function CalendarPage() {
  const { query, route } = useLocation()
  const todayKey = todayKeyIST()
  const selected = isDayKey(query.day) ? query.day : todayKey
  const [month, setMonth] = useState(() => monthOfKey(selected))
  const setSelected = (key: string) => route(`/calendar?day=${key}`, true)
  // The month's events (issue 15), fetched as the month is shown; Home's list stands in until they arrive.
  const shown = monthQuery(month)
  useEffect(() => {
    eventLists.load(shown)
  }, [shown.month])
  const all = eventLists.list(shown) ?? events.all.value
  const schedule = useMemo(() => scheduleFor(all, selected), [all, selected])

  return (
    <>
      <h1 class="visually-hidden">Calendar</h1>
      <MonthCalendar
        month={month}
        events={all}
        selectedKey={selected}
        todayKey={todayKey}
        onSelect={setSelected}
        onPrev={() => setMonth((m) => addMonths(m, -1))}
        onNext={() => setMonth((m) => addMonths(m, 1))}
        onToday={() => {
          setMonth(monthOfKey(todayKey))
          setSelected(todayKey)
        }}
      />
      <section class={s.schedule} aria-labelledby="schedule-title" aria-live="polite">
        <h2 id="schedule-title" class={s.title}>
          {formatDayKey(selected, '{dddd}, {D} {MMMM} {YYYY}')}
        </h2>
        {schedule.length === 0 ? (
          <p class={s.empty}>{noEventsText(selected)}</p>
        ) : (
          <ul class={s.list}>
            {schedule.map((item) => (
              <li key={item.id}>
                <a class={s.item} href={item.href}>
                  <span class={s.day}>{item.ordinalDay}</span>
                  {item.organizerImage ? (
                    <img src={item.organizerImage} alt="" width={40} height={40} loading="lazy" decoding="async" />
                  ) : (
                    <span class={s.noImage} aria-hidden="true" />
                  )}
                  <span class={s.text}>
                    <span class={s.name}>{item.title}</span>
                    <span class={s.time}>{item.startTime}</span>
                  </span>
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  )
}
