// The event page's bottom button (SPEC §4): the row of lib/action-button for the event as the store holds it, or
// the flow under way; a tap starts the flow (register, claim), opens the questions or the rating, or follows a link.
import type { EventDetail } from '../../../contract/types.ts'
import type { ActionButton } from '../../lib/action-button.ts'
import type { Flow, PendingButton } from '../../stores/event-detail.ts'

/** A link that opens outside the app. */
export const external = (href: string | null) => ({ href: href ?? undefined, target: '_blank', rel: 'noopener noreferrer' })

export interface ActionBarProps {
  event: EventDetail
  button: ActionButton | PendingButton
  /** Starts a flow of the store (register, claim a ticket). */
  run: (which: Flow) => unknown
  /** Opens the registration questions (an event that asks them). */
  ask: () => void
  /** Opens the rating popup. */
  rate: () => void
}

export function ActionBar({ event, button, run, ask, rate }: ActionBarProps) {
  if ('busy' in button) {
    return (
      <button type="button" class="button" disabled aria-busy="true">
        <span class="spinner spinner-sm" aria-hidden="true" />
        {button.label}
      </button>
    )
  }
  if (button.disabled) {
    return (
      <button type="button" class="button" disabled>
        {button.label}
      </button>
    )
  }
  switch (button.action) {
    case 'register':
    case 'claim-ticket': {
      const which = button.action
      return (
        <button type="button" class="button" onClick={() => (which === 'register' && event.questions?.length ? ask() : run(which))}>
          {button.label}
        </button>
      )
    }
    case 'feedback':
      return (
        <button type="button" class="button" onClick={() => rate()}>
          {button.label}
        </button>
      )
    case 'external':
      return (
        <a class="button" {...external(event.external_registration_link)}>
          {button.label}
        </a>
      )
    case 'activity':
      return (
        <a class="button" {...external(event.in_event_activity)}>
          {button.label}
        </a>
      )
    default: {
      const to = { 'team-register': 'team-register', 'team-details': 'team-details', 'view-ticket': 'ticket' }[
        button.action as 'team-register' | 'team-details' | 'view-ticket'
      ]
      return to ? (
        <a class="button" href={`/${to}/${event.id}`}>
          {button.label}
        </a>
      ) : (
        <button type="button" class="button" disabled>
          {button.label}
        </button>
      )
    }
  }
}
