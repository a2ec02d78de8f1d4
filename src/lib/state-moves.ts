// What students see once an event is in a state (SPEC §4's button per state), for the organiser console's
// confirmation of a manual move. A file of its own so only the state control's chunk carries these sentences.
import type { AnyEventState } from '../../contract/constants.ts'

/** What students see once the event is in a state (SPEC §4's button per state), for the move's confirmation. */
export const STUDENTS_SEE: Record<AnyEventState, string> = {
  DRAFT: 'Students no longer see this event: it leaves every list and its page answers "not found".',
  UPCOMING: "Students see the event with a disabled 'Registrations Opening Soon' button.",
  REGISTRATION_OPEN: "Students can register now: the 'Register' button appears on the event's page.",
  REGISTRATION_CLOSED: "Students can no longer register: the button reads 'Registration Closed'.",
  TICKET_OPEN: "Registered students can collect their tickets: the button reads 'RSVP for this event'.",
  TICKET_CLOSED: "No more tickets can be collected: the button reads 'RSVP closed'; collected tickets stay valid.",
  ONGOING: 'The event shows as ongoing (with the activity link when it has one).',
  COMPLETED: "The event shows as completed and participants can rate it ('Give Feedback').",
}
