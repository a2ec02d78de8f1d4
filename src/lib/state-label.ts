// A short label for an event's state, on the cards of a parent's children and in a parent's list of them: the
// trending labels of Home (SPEC §2) for the four states it names, plain words for the other three.
import type { EventState } from '../../contract/constants.ts'
import { TRENDING_LABELS } from './home-sections.ts'

const OTHER_LABELS: Partial<Record<EventState, string>> = {
  REGISTRATION_CLOSED: 'Registration Closed',
  TICKET_CLOSED: 'RSVP Closed',
  COMPLETED: 'Completed',
}

export const stateLabel = (state: EventState): string => TRENDING_LABELS[state] ?? OTHER_LABELS[state] ?? state
