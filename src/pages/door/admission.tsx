// The door's per-day and re-entry parts (issue 25 item 3): today's count on a multi-day event ("Day 2 · 28 Nov: 140
// of 400 in"), who is inside now, and the gate's In/Out switch on an event with re-entry. A scan out is never made by
// the scan itself: the volunteer sets the gate to Out, so a double read at the entrance cannot check anyone out.
// Loaded in a chunk of its own (see the door page); it is given the store's signals, so it shares no code with it.
import type { Signal } from '@preact/signals'
import type { Direction } from '../../../contract/admission.ts'
import s from './admission.module.css'

export function DayCounts(p: { label: string; checkedIn: number; total: number; reentry: boolean; inside: number }) {
  if (!p.label && !p.reentry) return null
  return (
    <p class={s.days} aria-live="polite">
      {p.label && (
        <span data-testid="day-count">
          {p.label}: {p.checkedIn} of {p.total} in
        </span>
      )}
      {p.reentry && <span data-testid="inside-count">Inside now: {p.inside}</span>}
    </p>
  )
}

export function GateDirection({ reentry, direction }: { reentry: boolean; direction: Signal<Direction> }) {
  if (!reentry) return null
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
