// The event editor's ticket options of issue 25, shown with tickets on: when giving a ticket to a friend closes
// (minutes before the first date; empty: until the holder is checked in), and whether the ticket shows a code that
// changes every 30 s (off for printed tickets, whose plain code the door then accepts).
import type { JSX } from 'preact'
import type { EventForm } from './rules.ts'

type Key = 'transfer_closes_minutes' | 'rotating_codes'

interface Props {
  form: EventForm
  set: <K extends Key>(k: K, value: EventForm[K]) => void
  /** The editor's labelled field (label, hint, control, message). */
  field: (k: 'transfer_closes_minutes', label: string, control: JSX.Element, hint?: string) => JSX.Element
}

export function TicketFields({ form, set, field }: Props) {
  if (!form.is_ticket_feature_enabled) return null
  return (
    <>
      {field(
        'transfer_closes_minutes',
        'Transfers close (minutes before the start)',
        <input
          type="number"
          inputMode="numeric"
          min={0}
          value={form.transfer_closes_minutes}
          onInput={(e) => set('transfer_closes_minutes', e.currentTarget.value)}
        />,
        'Students may give their ticket to a friend until then. Empty: until they are checked in.',
      )}
      <label class="m-check">
        <input type="checkbox" checked={form.rotating_codes} onChange={(e) => set('rotating_codes', e.currentTarget.checked)} /> Ticket code changes every 30
        seconds (a screenshot is refused at the door; turn off for printed tickets)
      </label>
    </>
  )
}
