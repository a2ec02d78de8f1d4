// The door's per-day and re-entry parts (issue 25 item 3): today's count on a multi-day event ("Day 2 · 28 Nov: 140
// of 400 in"), who is inside now, and the gate's In/Out switch on an event with re-entry. A scan out is never made by
// the scan itself: the volunteer sets the gate to Out, so a double read at the entrance cannot check anyone out.
// The way into the payment desk (issue 35) lives here too, on an event that takes its fee at the door: the desk is
// a chunk of its own (desk.tsx), loaded when it is opened.
// Loaded in a chunk of its own (see the door page); it is given the door model and imports only its type, so it shares
// no code with it.
import { useState } from 'preact/hooks'
import type { Door } from '../../stores/door.ts'
import s from './admission.module.css'

/** What the parts read of the door model, and its one action here. */
export type DoorState = Pick<
  Door,
  'days' | 'today' | 'totalCheckedIn' | 'ticketTotal' | 'reentry' | 'insideNow' | 'direction' | 'setDirection' | 'events' | 'eventId'
>

export function AdmissionParts({ door }: { door: DoorState }) {
  const label = door.days.value.find((d) => d.day === door.today.value)?.label
  const reentry = door.reentry.value
  const out = door.direction.value === 'OUT'
  const event = door.events.value?.find((e) => e.id === door.eventId.value)
  const [desk, setDesk] = useState<typeof import('./desk.tsx') | null>(null)
  return (
    <>
      {event?.desk_fee !== undefined &&
        (desk ? (
          <desk.default eventId={event.id} fee={event.desk_fee} onClose={() => setDesk(null)} />
        ) : (
          <button type="button" class={s.deskButton} onClick={() => void import('./desk.tsx').then(setDesk, () => {})}>
            Payment desk
          </button>
        ))}
      {(label || reentry) && (
        <p class={s.days} aria-live="polite">
          {label && (
            <span data-testid="day-count">
              {label}: {door.totalCheckedIn} of {door.ticketTotal} in
            </span>
          )}
          {reentry && <span data-testid="inside-count">Inside now: {door.insideNow}</span>}
        </p>
      )}
      {reentry && (
        <fieldset class={`${s.direction} ${out ? s.out : ''}`}>
          <legend>This gate scans people</legend>
          {(['IN', 'OUT'] as const).map((d) => (
            <label key={d} class={s.choice}>
              <input type="radio" name="direction" value={d} checked={door.direction.value === d} onChange={() => door.setDirection(d)} />
              {d === 'IN' ? 'In' : 'Out'}
            </label>
          ))}
          {out && <p class={s.note}>Scanning people OUT: they can come back in today.</p>}
        </fieldset>
      )}
    </>
  )
}
