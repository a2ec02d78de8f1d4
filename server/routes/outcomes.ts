// The one table from the repositories' domain outcomes (server/db/outcomes.ts) to HTTP: a status and the message a
// student reads in the toast. The success messages of the calls live here too, beside their refusals.
import { TICKET_CLAIMED } from '../../contract/claim-messages.ts'
import { MESSAGES as FORM_MESSAGES } from '../../contract/messages.ts'
import { ORG_MESSAGES as ORG_FORM } from '../../contract/org.ts'
import { POINTS_MESSAGES } from '../../contract/points.ts'
import { TRANSFERS_PER_TICKET } from '../../contract/transfer.ts'
import { EXPIRED_CODE_MESSAGE } from '../../contract/time-code-check.ts'
import type { RefusalCode } from '../../contract/refusal-codes.ts'
import type { ScanAnswer } from '../db/door/door.ts'
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
  ticketClaimed: TICKET_CLAIMED,
  /** A fair opening's entry (issue 24): when the result comes, in the app's time zone. */
  inDraw: (drawAt: string) => `You are in the draw. Results at ${kolkataTime(drawAt)}.`,
  drawRunning: 'The draw is being made: try again in a moment.',
  /** A paid event's held place (issue 35, API.md Part 4): when it must be paid, in the app's time zone. */
  payBy: (payBy: string) => `Your place is held: pay by ${kolkataTime(payBy)} to get your ticket.`,
  notDrawnYet: 'This event’s draw has not been made: its keys are published once it has.',
  notCompleted: 'You can rate an event once it is completed.',
  notParticipant: 'Only participants of this event can rate it.',
  rated: 'Thank you for your feedback!',
  noTicket: 'Only students who collected a ticket can rate this event.',
  notCheckedInToRate: 'Only students checked in at the door can rate this event.',
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

export const DOOR_MESSAGES = {
  notDoor: 'Only the door team of this event, its council’s organisers and admins can check tickets here.',
  doorClosed: 'Tickets are checked at the door only while the event is in TICKET_OPEN, TICKET_CLOSED or ONGOING.',
  scanIdReused: 'This scan_id was already used for another ticket: make a new one for each scan.',
  unknownTicket: 'No ticket of this event has this code.',
  transferred: 'This ticket was given to a friend: this code no longer works. The friend’s ticket has a new code.',
  expiredCode: EXPIRED_CODE_MESSAGE,
  notCheckedIn: 'This ticket is not checked in.',
  alreadyCheckedIn: 'This ticket is already checked in.',
  checkedIn: 'Checked in.',
  undone: 'Check-in undone: the ticket can be scanned again.',
  otherEvent: (name: string) => `This ticket is for another event: ${name}.`,
  givenBack: 'This ticket was given back: its code no longer works.',
  undoneScan: 'This scan’s check-in was undone: the ticket is not checked in. Scan it again to check it in.',
  checkedOut: 'Checked out: the ticket can come in again today.',
  notInside: 'This ticket is not inside now: scan it with the gate set to In.',
  reentryOff: 'This event has no re-entry: tickets are not scanned out. Set the gate to In.',
} as const

// The door's rows (issue 38 item 1): what a scan answered (ScanAnswer, server/db/door/tickets.ts: a value of the
// repository, not a refusal) to its status and, for an answer that refuses, the message the volunteer reads; the two
// whose words depend on the answer choose them from it. The answer's own fields go on the wire beside them.
type LetThrough = Extract<ScanAnswer, { result: 'CHECKED_IN' | 'CHECKED_OUT' }>
const SCAN_ANSWERS: {
  [R in ScanAnswer['result']]: R extends LetThrough['result']
    ? { status: 200 }
    : { status: 404 | 409 | 410; message: string | ((answer: ScanAnswer) => string) }
} = {
  CHECKED_IN: { status: 200 },
  CHECKED_OUT: { status: 200 },
  ALREADY_CHECKED_IN: { status: 409, message: DOOR_MESSAGES.alreadyCheckedIn },
  // A repeated scan_id whose check-in was undone since (issue 21 item 13).
  NOT_CHECKED_IN: { status: 409, message: DOOR_MESSAGES.undoneScan },
  NOT_INSIDE: { status: 409, message: (a) => ('reentry_off' in a && a.reentry_off ? DOOR_MESSAGES.reentryOff : DOOR_MESSAGES.notInside) },
  UNKNOWN_TICKET: {
    status: 404,
    message: (a) =>
      'given_back' in a && a.given_back
        ? DOOR_MESSAGES.givenBack
        : 'other_event' in a && a.other_event
          ? DOOR_MESSAGES.otherEvent(a.other_event)
          : DOOR_MESSAGES.unknownTicket,
  },
  TRANSFERRED: { status: 404, message: DOOR_MESSAGES.transferred },
  EXPIRED_CODE: { status: 410, message: DOOR_MESSAGES.expiredCode },
}

/**
 * A scan's answer as the door's calls send it: its status, and its body: `error`, the message and the code when it
 * refuses (the code is the answer's result, issue 38 item 3), then the answer's fields (the notes the repository keeps
 * to choose the message, such as `given_back`, are outside the declared answers, so they are never sent).
 */
export function doorReply(answer: ScanAnswer) {
  if (answer.result === 'CHECKED_IN' || answer.result === 'CHECKED_OUT')
    return { status: SCAN_ANSWERS[answer.result].status, body: { error: false as const, ...answer } }
  const { status, message } = SCAN_ANSWERS[answer.result]
  return { status, body: { error: true as const, message: typeof message === 'string' ? message : message(answer), ...coded(answer) } }
}

/** A refusing answer with its code, which is its result (declared in contract/refusal-codes.ts). */
type Coded<A> = A extends { result: infer R } ? A & { code: R } : never
// TypeScript does not see the code and the result move together across the answers' union: the type says it once.
const coded = <A extends { result: RefusalCode }>(answer: A) => ({ ...answer, code: answer.result }) as Coded<A>

export const USER_MESSAGES = {
  updated: 'Profile updated',
  notYours: 'You can only update your own profile.',
} as const

export const ORG_MESSAGES = {
  notOrganiser: 'Only organisers of this event’s council can do this.',
  adminOnly: 'Only admins can do this.',
  councilNotFound: 'Council not found.',
  parentNotFound: 'The parent event was not found.',
  personNotFound: 'No one has signed in with this e-mail yet: ask them to sign in once, then add them.',
  ticketCountBelowSold: 'ticket_count cannot be below the number of tickets already collected.',
  teamModeLocked: 'Students have registered: the event cannot switch between individual and team registration now.',
  teamsTooBig: 'ma_ppt cannot be below the size of a team already formed.',
  fairStartLocked: 'fair_start cannot change once tickets have opened.',
} as const

const KOLKATA_TIME = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Kolkata', hour: 'numeric', minute: '2-digit' })

/** 6:01 PM: a time as students read it (API.md: times are shown in Asia/Kolkata). */
export const kolkataTime = (iso: string) => KOLKATA_TIME.format(new Date(iso)).replace(/\u202f/g, ' ')

/**
 * Each domain refusal's status, its stable code (contract/refusal-codes.ts: what a client decides by) and the words a
 * student reads. A refusal without a row, or a row without a declared code, does not compile.
 */
export const REFUSALS: Record<Refusal, { status: number; code: RefusalCode; message: string }> = {
  eventNotFound: { status: 404, code: 'EVENT_NOT_FOUND', message: MESSAGES.eventNotFound },
  registrationNotOpen: { status: 403, code: 'REGISTRATION_NOT_OPEN', message: MESSAGES.registrationNotOpen },
  teamEvent: { status: 403, code: 'TEAM_EVENT', message: MESSAGES.teamEvent },
  alreadyRegistered: { status: 409, code: 'ALREADY_REGISTERED', message: MESSAGES.alreadyRegistered },
  ticketsNotOpen: { status: 403, code: 'TICKETS_NOT_OPEN', message: MESSAGES.ticketsNotOpen },
  notRegistered: { status: 403, code: 'NOT_REGISTERED', message: MESSAGES.notRegistered },
  alreadyHasTicket: { status: 409, code: 'ALREADY_HAS_TICKET', message: MESSAGES.alreadyHasTicket },
  soldOut: { status: 409, code: 'SOLD_OUT', message: MESSAGES.soldOut },
  teamIncomplete: { status: 409, code: 'TEAM_INCOMPLETE', message: MESSAGES.teamIncomplete },
  // A passing condition (the draw is being made): worth a retry in a second, the Retry-After the claim sends.
  drawRunning: { status: 503, code: 'DRAW_RUNNING', message: MESSAGES.drawRunning },
  notCompleted: { status: 403, code: 'EVENT_NOT_COMPLETED', message: MESSAGES.notCompleted },
  notParticipant: { status: 403, code: 'NOT_PARTICIPANT', message: MESSAGES.notParticipant },
  individualEvent: { status: 403, code: 'INDIVIDUAL_EVENT', message: TEAM_MESSAGES.individualEvent },
  createClosed: { status: 403, code: 'TEAM_CREATE_CLOSED', message: TEAM_MESSAGES.createClosed },
  joinClosed: { status: 403, code: 'TEAM_JOIN_CLOSED', message: TEAM_MESSAGES.joinClosed },
  changeClosed: { status: 403, code: 'TEAM_CHANGE_CLOSED', message: TEAM_MESSAGES.changeClosed },
  nameTaken: { status: 409, code: 'TEAM_NAME_TAKEN', message: TEAM_MESSAGES.nameTaken },
  unknownCode: { status: 404, code: 'UNKNOWN_INVITE_CODE', message: TEAM_MESSAGES.unknownCode },
  full: { status: 409, code: 'TEAM_FULL', message: TEAM_MESSAGES.full },
  teamNotFound: { status: 404, code: 'TEAM_NOT_FOUND', message: TEAM_MESSAGES.teamNotFound },
  teamNotInEvent: { status: 404, code: 'TEAM_NOT_IN_EVENT', message: TEAM_MESSAGES.teamNotInEvent },
  notAMember: { status: 403, code: 'NOT_A_MEMBER', message: TEAM_MESSAGES.notAMember },
  leaderOnlyRemove: { status: 403, code: 'LEADER_ONLY_REMOVE', message: TEAM_MESSAGES.leaderOnlyRemove },
  leaderNotRemovable: { status: 403, code: 'LEADER_NOT_REMOVABLE', message: TEAM_MESSAGES.leaderNotRemovable },
  memberNotFound: { status: 404, code: 'MEMBER_NOT_FOUND', message: TEAM_MESSAGES.memberNotFound },
  leaderOnlyDelete: { status: 403, code: 'LEADER_ONLY_DELETE', message: TEAM_MESSAGES.leaderOnlyDelete },
  // Paid events (issue 35, API.md Part 4).
  eventCancelled: { status: 403, code: 'EVENT_CANCELLED', message: 'This event was cancelled: its payments are being refunded.' },
  paymentNotFound: { status: 404, code: 'PAYMENT_NOT_FOUND', message: 'Payment not found.' },
  noHeldPlace: { status: 409, code: 'NO_HELD_PLACE', message: 'No place is held for you at this event: claim one first.' },
  alreadyPaid: { status: 409, code: 'ALREADY_PAID', message: 'Your place is already paid: your ticket is in the app.' },
  awaitingConfirmation: {
    status: 409,
    code: 'AWAITING_CONFIRMATION',
    message: 'Your UPI payment is waiting for the council to confirm it: nothing more to pay.',
  },
  holdExpired: { status: 409, code: 'HOLD_EXPIRED', message: 'Your held place was not paid in time and has been released: claim again if places are left.' },
  utrUsed: { status: 409, code: 'UTR_USED', message: 'This UTR was already given for another payment: check the 12 digits in your UPI app.' },
  amountMismatch: { status: 400, code: 'AMOUNT_MISMATCH', message: 'The amount paid is not the fee of this place.' },
  methodNotOffered: { status: 403, code: 'METHOD_NOT_OFFERED', message: 'This event does not take payments this way: choose another way to pay.' },
  // The gateway did not answer: a passing condition, worth a retry (Retry-After).
  gatewayUnavailable: { status: 503, code: 'GATEWAY_UNAVAILABLE', message: 'Payments are briefly unavailable: nothing was charged. Try again in a minute.' },
  badSignature: {
    status: 400,
    code: 'BAD_SIGNATURE',
    message: 'The payment could not be verified: nothing was recorded. If money left your account, it is refunded automatically.',
  },
  notYourPayment: { status: 403, code: 'NOT_YOUR_PAYMENT', message: 'This payment belongs to another student’s place.' },
  refundClosed: {
    status: 403,
    code: 'REFUND_CLOSED',
    message: 'Paid tickets of this event can no longer be given back for a refund: you can still transfer yours to a friend.',
  },
  // The organiser's payment settings, refunds and cancel (issue 35 items 1-6).
  razorpayNotConfigured: {
    status: 400,
    code: 'RAZORPAY_NOT_CONFIGURED',
    message: 'payment.methods: RAZORPAY is not available: this server has no Razorpay keys (README: taking payments). Choose UPI or DESK.',
  },
  upiNotSet: {
    status: 400,
    code: 'UPI_NOT_SET',
    message: 'payment.methods: UPI needs the council’s UPI id and payee name: an admin sets them in the council’s settings first.',
  },
  feeLocked: {
    status: 409,
    code: 'FEE_LOCKED',
    message: 'The fee cannot change: students have already paid or are paying this one. Cancel the event to refund everyone instead.',
  },
  notRefundable: { status: 409, code: 'NOT_REFUNDABLE', message: 'Only a paid payment can be refunded.' },
  notRefundPending: { status: 409, code: 'NOT_REFUND_PENDING', message: 'This payment is not waiting for a refund.' },
  refundAtGateway: {
    status: 409,
    code: 'REFUND_AT_GATEWAY',
    message: 'This payment was made through Razorpay: its refund is made by Razorpay automatically, not by hand.',
  },
  notPaidEvent: { status: 409, code: 'NOT_PAID_EVENT', message: 'This event has no fee: there is nothing to refund.' },
  webhookMismatch: { status: 400, code: 'WEBHOOK_MISMATCH', message: 'The webhook does not match the order it names.' },
  notConfirmable: {
    status: 409,
    code: 'PAYMENT_NOT_CONFIRMABLE',
    message: 'This payment has no UTR waiting for confirmation: only a UPI payment with a UTR given can be confirmed or sent back.',
  },
  deskKeyReused: { status: 409, code: 'DESK_KEY_REUSED', message: 'This desk payment’s key was already used for another student: start a new payment.' },
  // Five taken codes in a row: a passing condition, worth a retry, not the student's mistake.
  codesExhausted: { status: 503, code: 'INVITE_CODES_EXHAUSTED', message: TEAM_MESSAGES.codesExhausted },
  // A valid token of a user who no longer exists is as good as no token.
  userNotFound: { status: 401, code: 'INVALID_TOKEN', message: 'Invalid Token' },
  // The onboarding shows these under the field to change, found by their code (contract/messages.ts has the words).
  phoneTaken: { status: 409, code: 'PHONE_TAKEN', message: FORM_MESSAGES.phoneTaken },
  rollTaken: { status: 409, code: 'ROLL_TAKEN', message: FORM_MESSAGES.rollTaken },
  // The organiser console.
  notOrganiser: { status: 403, code: 'NOT_ORGANISER', message: ORG_MESSAGES.notOrganiser },
  adminOnly: { status: 403, code: 'ADMIN_ONLY', message: ORG_MESSAGES.adminOnly },
  nameRequired: { status: 400, code: 'NAME_REQUIRED', message: ORG_FORM.nameRequired },
  organizerRequired: { status: 400, code: 'ORGANIZER_REQUIRED', message: ORG_FORM.organizerRequired },
  councilNotFound: { status: 404, code: 'COUNCIL_NOT_FOUND', message: ORG_MESSAGES.councilNotFound },
  parentNotFound: { status: 404, code: 'PARENT_NOT_FOUND', message: ORG_MESSAGES.parentNotFound },
  parentSelf: { status: 400, code: 'PARENT_SELF', message: ORG_FORM.parentSelf },
  parentNotTopLevel: { status: 400, code: 'PARENT_NOT_TOP_LEVEL', message: ORG_FORM.parentNotTopLevel },
  parentOfChildren: { status: 409, code: 'PARENT_OF_CHILDREN', message: ORG_FORM.parentOfChildren },
  minAboveMax: { status: 400, code: 'MIN_ABOVE_MAX', message: ORG_FORM.minAboveMax },
  externalLinkMissing: { status: 400, code: 'EXTERNAL_LINK_MISSING', message: ORG_FORM.externalLink },
  ticketCountBelowSold: { status: 409, code: 'TICKET_COUNT_BELOW_SOLD', message: ORG_MESSAGES.ticketCountBelowSold },
  fairStartLocked: { status: 409, code: 'FAIR_START_LOCKED', message: ORG_MESSAGES.fairStartLocked },
  teamModeLocked: { status: 409, code: 'TEAM_MODE_LOCKED', message: ORG_MESSAGES.teamModeLocked },
  teamsTooBig: { status: 409, code: 'TEAMS_TOO_BIG', message: ORG_MESSAGES.teamsTooBig },
  personNotFound: { status: 404, code: 'PERSON_NOT_FOUND', message: ORG_MESSAGES.personNotFound },
  // Always answered with the message naming the question (contract/questions.ts); this one is never shown.
  invalidAnswer: { status: 400, code: 'INVALID_ANSWER', message: 'An answer to a registration question is not valid.' },
  // Give back and waitlist, organiser messages (API.md Part 2 "Around the event").
  releaseClosed: { status: 403, code: 'RELEASE_CLOSED', message: 'Tickets can only be given back while tickets are open.' },
  noTicket: { status: 409, code: 'NO_TICKET', message: 'You do not hold a ticket for this event.' },
  alreadyCheckedIn: { status: 409, code: 'ALREADY_CHECKED_IN', message: 'Your ticket was already used at the door, so it cannot be given back.' },
  waitlistClosed: { status: 403, code: 'WAITLIST_CLOSED', message: 'The waitlist is only open while tickets are.' },
  notSoldOut: { status: 409, code: 'NOT_SOLD_OUT', message: 'Tickets are still available: collect yours now.' },
  notifyLimit: { status: 429, code: 'NOTIFY_LIMIT', message: 'At most 5 messages a day can be sent for an event. Try again tomorrow.' },
  // A push endpoint is one browser's: another student's stays theirs (issue 21 item 4). The app makes a new one.
  // An organiser's images over UPLOAD_QUOTA_MB (issue 21 item 9); the route's message names the quota.
  uploadQuota: { status: 413, code: 'UPLOAD_QUOTA', message: 'Your images have reached the most one organiser may keep.' },
  endpointTaken: {
    status: 409,
    code: 'ENDPOINT_TAKEN',
    message: 'These notifications are registered to another account on this browser. Turn notifications off and on again.',
  },
  notDoor: { status: 403, code: 'NOT_DOOR', message: DOOR_MESSAGES.notDoor },
  // Ticket transfer (issue 25): a wrong state or a closed window is 403, as for the other calls outside their states.
  transfersClosed: { status: 403, code: 'TRANSFERS_CLOSED', message: 'Tickets of this event cannot be transferred now.' },
  ticketUsed: { status: 409, code: 'TICKET_USED', message: 'Your ticket was already used at the door, so it cannot be transferred.' },
  transferLimit: {
    status: 409,
    code: 'TRANSFER_LIMIT',
    message: `This ticket has already changed hands ${TRANSFERS_PER_TICKET} times: it cannot be transferred again.`,
  },
  // One answer for every friend who cannot receive the ticket (issue 36 item 5): three answers told anyone whether an
  // e-mail had an account here, and whether its owner was registered or held a ticket.
  friendCannotReceive: {
    status: 409,
    code: 'FRIEND_CANNOT_RECEIVE',
    message:
      'Your friend cannot receive this ticket. They must have signed in to the app once with this e-mail, be registered for this event (in your team, for a team event), and not hold a ticket for it.',
  },
  transferToSelf: { status: 400, code: 'TRANSFER_TO_SELF', message: 'This is your own e-mail: enter your friend’s.' },
  // A wrong state is 403 (API.md's conventions), as for the other calls outside their states.
  doorClosed: { status: 403, code: 'DOOR_CLOSED', message: DOOR_MESSAGES.doorClosed },
  scanIdReused: { status: 409, code: 'SCAN_ID_REUSED', message: DOOR_MESSAGES.scanIdReused },
  unknownTicket: { status: 404, code: 'UNKNOWN_TICKET', message: DOOR_MESSAGES.unknownTicket },
  notCheckedIn: { status: 409, code: 'NOT_CHECKED_IN', message: DOOR_MESSAGES.notCheckedIn },
  noTicketToRate: { status: 403, code: 'NO_TICKET_TO_RATE', message: MESSAGES.noTicket },
  notCheckedInToRate: { status: 403, code: 'NOT_CHECKED_IN_TO_RATE', message: MESSAGES.notCheckedInToRate },
  certificateNotReady: { status: 403, code: 'CERTIFICATE_NOT_READY', message: 'Certificates are ready once the event is completed.' },
  certificateNotCheckedIn: {
    status: 403,
    code: 'CERTIFICATE_NOT_CHECKED_IN',
    message: 'Certificates are for participants checked in at the event: yours was not scanned at the door.',
  },
  // Three taken codes in a row: a passing condition, worth a retry.
  certificateCodesExhausted: { status: 503, code: 'CERTIFICATE_CODES_EXHAUSTED', message: 'Could not make the certificate right now. Please try again.' },
  // Activity points (issue 26): the category's message lists the college's categories (server/db/points/points.ts).
  pointsCategoryUnknown: { status: 400, code: 'POINTS_CATEGORY_UNKNOWN', message: POINTS_MESSAGES.categoryUnknown([]) },
  winnersAfterEvent: { status: 403, code: 'WINNERS_AFTER_EVENT', message: POINTS_MESSAGES.winnersAfterEvent },
  winnerNotParticipant: { status: 404, code: 'WINNER_NOT_PARTICIPANT', message: POINTS_MESSAGES.notParticipant },
  studentNotFound: { status: 404, code: 'STUDENT_NOT_FOUND', message: POINTS_MESSAGES.studentNotFound },
}

export const AROUND_MESSAGES = {
  released: 'Ticket given back. Thank you: it goes to the next student on the waitlist.',
  /** A paid ticket given back before the refund cut-off (issue 35): the refund is on its way. */
  releasedRefund: (amount: string) =>
    `Ticket given back: your ${amount} is on its way back to you. Thank you: the place goes to the next student on the waitlist.`,
  joined: 'You are on the waitlist. We will tell you when a ticket is held for you.',
  left: 'You have left the waitlist.',
  notOnList: 'You are not on the waitlist.',
  transferred: (to: string) => `Your ticket is now ${to}’s: the code on this phone no longer works.`,
} as const

/** The HTTP refusal for a domain refusal (with Retry-After when the domain says how long to wait): its words may vary, its code not. */
export function refusal(reason: Refusal, detail?: string, retryAfter?: number): HttpError {
  const { status, code, message } = REFUSALS[reason]
  return new HttpError(status, code, detail ?? message, retryAfter === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(retryAfter))) })
}

/** The value of a successful outcome; a refusal is thrown as its HTTP error, for the error handler to send. */
export function valueOf<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value
  throw refusal(outcome.refusal, outcome.message, outcome.retryAfter)
}
