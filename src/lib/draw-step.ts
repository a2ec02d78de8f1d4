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
