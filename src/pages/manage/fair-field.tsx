// The event editor's draw window (issue 24): for this many seconds after tickets open, every RSVP enters a draw
// instead of a race (0: first come, first served; a new ticketed event gets 60). Shown with tickets on, locked once
// tickets have opened (the server's 409 then shows under the field, like any message that names it).
import type { JSX } from 'preact'
import { buildOrg } from '../../stores/org.ts'
import { room } from '../../models.ts'
import type { EventForm } from './rules.ts'

const org = room(buildOrg)

interface Props {
  id?: number
  form: EventForm
  set: (k: 'fair_start', value: string) => void
  /** The editor's labelled field (label, hint, control, message). */
  field: (k: 'fair_start', label: string, control: JSX.Element, hint?: string) => JSX.Element
}

export function FairField({ id, form, set, field }: Props) {
  if (!form.is_ticket_feature_enabled) return null
  const event = id ? org.events.value?.find((e) => e.id === id) : null
  const locked = !!event && (event.state === 'TICKET_OPEN' || !!event.fair_start?.draw_at || !!event.fair_start?.seed)
  return field(
    'fair_start',
    'Draw window (seconds)',
    <input type="number" inputMode="numeric" min={0} value={form.fair_start} disabled={locked} onInput={(e) => set('fair_start', e.currentTarget.value)} />,
    locked
      ? 'Locked: tickets have opened.'
      : 'For this long after tickets open, every RSVP enters a draw instead of a race, so a slow network is no disadvantage. 0 = first come, first served; 60 is the default.',
  )
}
