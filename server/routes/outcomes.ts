// The one table from the repositories' domain outcomes (server/db/outcomes.ts) to HTTP: a status and the message a
// student reads in the toast. The success messages of the calls live here too, beside their refusals.
import { MESSAGES as FORM_MESSAGES } from '../../contract/messages.ts'
import type { Outcome, Refusal } from '../db/outcomes.ts'
import { HttpError } from '../errors.ts'

export const MESSAGES = {
  eventNotFound: 'Event not found.',
  registrationNotOpen: 'Registration is not open for this event.',
  teamEvent: 'This is a team event: create or join a team to register.',
  alreadyRegistered: 'You are already registered for this event.',
  registered: 'Registration Successful!!',
  ticketsNotOpen: 'Tickets are not open for this event.',
  notRegistered: 'You are not registered for this event.',
  alreadyHasTicket: 'You already have a ticket for this event.',
  soldOut: 'Tickets are sold out.',
  teamIncomplete: 'Your team is not complete yet: it needs more members before tickets can be collected.',
  ticketClaimed: 'Ticket claimed!',
  notCompleted: 'You can rate an event once it is completed.',
  notParticipant: 'Only participants of this event can rate it.',
  rated: 'Thank you for your feedback!',
} as const

export const TEAM_MESSAGES = {
  eventNotFound: 'Event not found.',
  individualEvent: 'This event is for individual participants: register for it without a team.',
  createClosed: 'Teams can only be created while registration is open.',
  joinClosed: 'Teams can only be joined while registration is open.',
  changeClosed: 'Teams can only be changed while registration is open.',
  nameTaken: 'A team with this name already exists for this event.',
  alreadyRegistered: 'You are already registered for this event.',
  unknownCode: 'No team with this invite code.',
  full: 'This team is full.',
  teamNotFound: 'Team not found.',
  teamNotInEvent: 'Team not found for this event.',
  notAMember: 'Only members of this team can remove its members.',
  leaderOnlyRemove: 'Only the team leader can remove other members.',
  leaderNotRemovable: 'The team leader cannot be removed. Delete the team instead.',
  memberNotFound: 'This student is not a member of the team.',
  leaderOnlyDelete: 'Only the team leader can delete the team.',
  codesExhausted: 'Could not create the team right now. Please try again.',
  created: 'Team created',
  joined: 'Joined team',
  removed: 'Member removed',
  deleted: 'Team deleted',
} as const

export const USER_MESSAGES = {
  updated: 'Profile updated',
  notYours: 'You can only update your own profile.',
} as const

const REFUSALS: Record<Refusal, { status: number; message: string }> = {
  eventNotFound: { status: 404, message: MESSAGES.eventNotFound },
  registrationNotOpen: { status: 403, message: MESSAGES.registrationNotOpen },
  teamEvent: { status: 403, message: MESSAGES.teamEvent },
  alreadyRegistered: { status: 409, message: MESSAGES.alreadyRegistered },
  ticketsNotOpen: { status: 403, message: MESSAGES.ticketsNotOpen },
  notRegistered: { status: 403, message: MESSAGES.notRegistered },
  alreadyHasTicket: { status: 409, message: MESSAGES.alreadyHasTicket },
  soldOut: { status: 409, message: MESSAGES.soldOut },
  teamIncomplete: { status: 409, message: MESSAGES.teamIncomplete },
  notCompleted: { status: 403, message: MESSAGES.notCompleted },
  notParticipant: { status: 403, message: MESSAGES.notParticipant },
  individualEvent: { status: 403, message: TEAM_MESSAGES.individualEvent },
  createClosed: { status: 403, message: TEAM_MESSAGES.createClosed },
  joinClosed: { status: 403, message: TEAM_MESSAGES.joinClosed },
  changeClosed: { status: 403, message: TEAM_MESSAGES.changeClosed },
  nameTaken: { status: 409, message: TEAM_MESSAGES.nameTaken },
  unknownCode: { status: 404, message: TEAM_MESSAGES.unknownCode },
  full: { status: 409, message: TEAM_MESSAGES.full },
  teamNotFound: { status: 404, message: TEAM_MESSAGES.teamNotFound },
  teamNotInEvent: { status: 404, message: TEAM_MESSAGES.teamNotInEvent },
  notAMember: { status: 403, message: TEAM_MESSAGES.notAMember },
  leaderOnlyRemove: { status: 403, message: TEAM_MESSAGES.leaderOnlyRemove },
  leaderNotRemovable: { status: 403, message: TEAM_MESSAGES.leaderNotRemovable },
  memberNotFound: { status: 404, message: TEAM_MESSAGES.memberNotFound },
  leaderOnlyDelete: { status: 403, message: TEAM_MESSAGES.leaderOnlyDelete },
  // Five taken codes in a row: a passing condition, worth a retry, not the student's mistake.
  codesExhausted: { status: 503, message: TEAM_MESSAGES.codesExhausted },
  // A valid token of a user who no longer exists is as good as no token.
  userNotFound: { status: 401, message: 'Invalid Token' },
  // The onboarding matches these messages to show them under the field to change (contract/messages.ts).
  phoneTaken: { status: 409, message: FORM_MESSAGES.phoneTaken },
  rollTaken: { status: 409, message: FORM_MESSAGES.rollTaken },
  certificateNotReady: { status: 403, message: 'Certificates are ready once the event is completed.' },
  notCheckedIn: { status: 403, message: 'Certificates are for participants checked in at the event: yours was not scanned at the door.' },
  // Three taken codes in a row: a passing condition, worth a retry.
  certificateCodesExhausted: { status: 503, message: 'Could not make the certificate right now. Please try again.' },
}

/** The HTTP refusal for a domain refusal. */
export function refusal(reason: Refusal): HttpError {
  const { status, message } = REFUSALS[reason]
  return new HttpError(status, message)
}

/** The value of a successful outcome; a refusal is thrown as its HTTP error, for the error handler to send. */
export function valueOf<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value
  throw refusal(outcome.refusal)
}
