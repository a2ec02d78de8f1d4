// The door's per-day and re-entry parts (issue 25 item 3): today's count on a multi-day event ("Day 2 · 28 Nov: 140
// of 400 in"), who is inside now, and the gate's In/Out switch on an event with re-entry. A scan out is never made by
// the scan itself: the volunteer sets the gate to Out, so a double read at the entrance cannot check anyone out.
import { dayLabel } from '../../../contract/admission.ts'
import { direction, eventDayList, insideNow, reentry, ticketTotal, today, totalCheckedIn } from '../../stores/door.ts'
import s from './admission.module.css'

export function DayCounts() {
  const label = dayLabel(eventDayList.value, today.value)
  if (!label && !reentry.value) return null
  return (
    <p class={s.days} aria-live="polite">
      {label && (
        <span data-testid="day-count">
          {label}: {totalCheckedIn.value} of {ticketTotal.value} in
        </span>
      )}
      {reentry.value && <span data-testid="inside-count">Inside now: {insideNow.value}</span>}
    </p>
  )
}

export function GateDirection() {
  if (!reentry.value) return null
  const out = direction.value === 'OUT'
  return (
    <fieldset class={`${s.direction} ${out ? s.out : ''}`}>
      <legend>This gate scans people</legend>
      {(['IN', 'OUT'] as const).map((d) => (
        <label key={d} class={s.choice}>
          <input type="radio" name="direction" value={d} checked={direction.value === d} onChange={() => (direction.value = d)} />
          {d === 'IN' ? 'In' : 'Out'}
        </label>
      ))}
      {out && <p class={s.note}>Scanning people OUT: they can come back in today.</p>}
    </fieldset>
  )
}
