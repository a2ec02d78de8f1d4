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

export function feedbackFor(event: Pick<EventDetail, 'state' | 'Participant'>): Feedback {
  if (event.state !== 'COMPLETED') return { canRate: false, reason: FEEDBACK_NOT_YET }
  const p = event.Participant
  if (!p) return { canRate: false, reason: FEEDBACK_PARTICIPANTS_ONLY }
  // A copy kept offline from before the server sent `rating` has none: nothing to show yet.
  return { canRate: true, rating: p.rating ?? null }
}
