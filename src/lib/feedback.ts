// Who may rate an event, for the Give Feedback popup: the server's rule for POST /event/p/rate, decided here
// so the popup offers stars only to a student whose rating will be accepted, and says who can rate otherwise.
// Today: participants (registered students) of a COMPLETED event. As the server's rule tightens (issue 12:
// ticket holders where tickets were enabled; once the door checked anyone in, only those checked in), this is
// the one place the app follows it.
import type { EventDetail } from '../../contract/types.ts'

export type Feedback =
  /** Stars to choose; `rating` is the student's earlier rating (null before they rate). */
  | { canRate: true; rating: number | null }
  /** No stars: `reason` says who can rate. */
  | { canRate: false; reason: string }

export const FEEDBACK_NOT_YET = 'Feedback opens once the event is completed.'
export const FEEDBACK_PARTICIPANTS_ONLY = 'Only students who were registered for this event can rate it.'
export const FEEDBACK_TICKET_HOLDERS_ONLY = 'Only students who collected a ticket can rate this event.'
export const FEEDBACK_CHECKED_IN_ONLY = 'Only students checked in at the door can rate this event.'

export function feedbackFor(
  event: Pick<EventDetail, 'state' | 'Participant'> & Partial<Pick<EventDetail, 'is_ticket_feature_enabled' | 'door_checked_in'>>,
): Feedback {
  if (event.state !== 'COMPLETED') return { canRate: false, reason: FEEDBACK_NOT_YET }
  const p = event.Participant
  if (!p) return { canRate: false, reason: FEEDBACK_PARTICIPANTS_ONLY }
  if (event.is_ticket_feature_enabled && !p.ticket_collected) return { canRate: false, reason: FEEDBACK_TICKET_HOLDERS_ONLY }
  if (event.door_checked_in && !p.checked_in_at) return { canRate: false, reason: FEEDBACK_CHECKED_IN_ONLY }
  // A copy kept offline from before the server sent `rating` has none: nothing to show yet.
  return { canRate: true, rating: p.rating ?? null }
}
