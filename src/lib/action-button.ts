// The bottom action button of Event details: SPEC §4 "Main action button per state", as one pure function.
// Rows are checked in the table's order; the first that matches decides.
import type { EventDetail, EventSummary } from '../../contract/types.ts'

export type Action = 'none' | 'register' | 'team-register' | 'team-details' | 'claim-ticket' | 'view-ticket' | 'external' | 'activity' | 'feedback'

export interface ActionButton {
  label: string
  action: Action
  disabled: boolean
}

// Transient labels and toasts of the Register and RSVP flows (SPEC §4 Flows).
export const REGISTERING = 'Registering'
export const RSVPING = 'RSVPing'
export const REGISTER_TOAST = 'Registration Successful!!'
export const RSVP_TOAST = 'Ticket collected!'
/** A given-back place offered to a waitlisted student, seen by the others (the panel below says until when). */
export const HELD = 'Held for the waitlist'
/** A fair opening's entry (issue 24): the button until the draw. */
export const IN_DRAW = 'In the draw'
/** A place held for its payment (issue 35): the pay step above the button is the way on. */
export const PAYING = 'Payment pending'

type ButtonEvent = Pick<
  EventDetail | EventSummary,
  | 'state'
  | 'ma_ppt'
  | 'Participant'
  | 'is_ticket_feature_enabled'
  | 'ticket_count'
  | 'tickets_sold'
  | 'registration_type'
  | 'external_registration_link'
  | 'start_in_event_activity'
  | 'in_event_activity'
> & { held_until?: string | null }

/**
 * SPEC §4's redirects between the registration screens: the screen an event's registration lives on. An individual
 * event has no teams; a student in a team belongs on its page, any other student on team-register (also where a
 * student lands after removing themself). The button above sends a registered student to team-details; here only
 * a team counts: a registration without one cannot arise for a team event, and sending it to team-details would
 * bounce straight back.
 */
export const screenOf = (event: Pick<ButtonEvent, 'ma_ppt' | 'Participant'>) =>
  event.ma_ppt < 2 ? 'event-details' : event.Participant && event.Participant.team ? 'team-details' : 'team-register'

const go = (label: string, action: Action): ActionButton => ({ label, action, disabled: false })
const off = (label: string): ActionButton => ({ label, action: 'none', disabled: true })

export function actionFor(event: ButtonEvent): ActionButton {
  const p = event.Participant
  const registered = p !== false
  const collected = p !== false && p.ticket_collected
  const team = event.ma_ppt > 1

  switch (event.state) {
    case 'REGISTRATION_OPEN':
      if (team) return registered ? go('View Team', 'team-details') : go('Register', 'team-register')
      return registered ? off('Registered') : go('Register', 'register')
    case 'REGISTRATION_CLOSED':
      return off(registered ? 'Already registered' : 'Registration Closed')
    // biome-ignore lint/suspicious/noFallthroughSwitchClause: without the ticket feature TICKET_OPEN falls through to TICKET_CLOSED
    case 'TICKET_OPEN':
      if (event.is_ticket_feature_enabled) {
        if (!registered) return off('Not registered for this event')
        if (collected) return go('View Ticket', 'view-ticket')
        // Entered in a fair opening's draw that has not run yet: nothing to do but wait for the result.
        if ('draw' in p && p.draw?.result === 'PENDING') return off(IN_DRAW)
        if ('payment' in p && (p.payment?.status === 'PENDING' || p.payment?.status === 'AWAITING_CONFIRMATION')) return off(PAYING)
        if (event.tickets_sold >= event.ticket_count) return off('Tickets Sold Out')
        // The places left are held for waitlisted students (issue 22 item 11): only the one with the offer may claim.
        if (event.held_until && !('waitlist' in p && p.waitlist?.offer_expires_at)) return off(HELD)
        return go('RSVP for this event', 'claim-ticket')
      }
    // A TICKET_OPEN event without the ticket feature reads like TICKET_CLOSED.
    // falls through
    case 'TICKET_CLOSED':
      return collected ? go('View Ticket', 'view-ticket') : off('RSVP closed')
    case 'UPCOMING':
      return off('Registrations Opening Soon')
    case 'ONGOING':
      // A button that opens nothing would look broken, so a missing link disables it.
      if (event.registration_type === 'EXTERNAL') return link('Register', 'external', event.external_registration_link)
      if (event.start_in_event_activity) return link('Follow Activity', 'activity', event.in_event_activity)
      return off('Event is Ongoing')
    case 'COMPLETED':
      // SPEC §4 "any": every student gets the button; the popup (lib/feedback.ts) tells one the rating rule leaves
      // out who may rate.
      return go('Give Feedback', 'feedback')
    default:
      return off('')
  }
}

function link(label: string, action: Action, href: string | null): ActionButton {
  return href ? go(label, action) : { label, action: 'none', disabled: true }
}
