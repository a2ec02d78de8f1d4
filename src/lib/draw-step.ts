// A fair opening's draw on the event page (issue 24): for a student in a draw that has not run, the next thing to
// happen is the result, "Results at 6:01 PM", and the page fetches the event at that time. Apart from next-step.ts,
// which the Home cards use in the first load: no list carries a student's draw.
import type { DrawEntry, FairStart } from '../../contract/types.ts'
import { formatIST } from './dates.ts'
import type { NextStep } from './next-step.ts'

export interface DrawStepEvent {
  state?: string
  fair_start?: Pick<FairStart, 'draw_at'> | null
  Participant?: false | { ticket_collected?: boolean; draw?: Pick<DrawEntry, 'result'> | null }
}

/** When the student's draw result comes, or null (no draw, not entered, already drawn). */
export function drawStep(event: DrawStepEvent, now: number = Date.now()): NextStep | null {
  const at = event.fair_start?.draw_at ? Date.parse(event.fair_start.draw_at) : Number.NaN
  if (event.state !== 'TICKET_OPEN' || !event.Participant || event.Participant.draw?.result !== 'PENDING' || !(at > now)) return null
  return { at, text: `Results at ${formatIST(at, '{h}:{mm} {A}')}` }
}

export interface HeldStepEvent {
  state?: string
  held_until?: string | null
  Participant?: false | { waitlist?: { offer_expires_at: string | null } | null }
}

/**
 * A given-back place held for the waitlist (issue 22 item 11): until when, for a student it is not held for (the
 * one it is held for sees their offer and claims it), or null. The page fetches the event when the hold ends.
 */
export function heldStep(event: HeldStepEvent, now: number = Date.now()): NextStep | null {
  const at = event.held_until ? Date.parse(event.held_until) : Number.NaN
  if (event.state !== 'TICKET_OPEN' || !(at > now) || (event.Participant && event.Participant.waitlist?.offer_expires_at)) return null
  return { at, text: `Held for the waitlist until ${formatIST(at, '{h}:{mm} {A}')}` }
}
