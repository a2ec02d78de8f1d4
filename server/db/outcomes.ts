// What a repository answers besides a value: a domain refusal, named for what happened, never for an HTTP status.
// The routes layer has the one table that turns each into a status and a student-readable message
// (server/routes/outcomes.ts).

export type Refusal =
  | 'eventNotFound'
  // Paid events (issue 35)
  | 'eventCancelled'
  | 'paymentNotFound'
  | 'noHeldPlace'
  | 'alreadyPaid'
  | 'awaitingConfirmation'
  | 'holdExpired'
  | 'utrUsed'
  | 'amountMismatch'
  | 'methodNotOffered'
  | 'gatewayUnavailable'
  | 'badSignature'
  | 'notYourPayment'
  | 'refundClosed'
  // The organiser's payment settings, refunds and cancel (issue 35 items 1-6)
  | 'razorpayNotConfigured'
  | 'upiNotSet'
  | 'feeLocked'
  | 'notRefundable'
  | 'notRefundPending'
  | 'refundAtGateway'
  | 'notPaidEvent'
  | 'webhookMismatch'
  // The console's payments and the desk (server/db/payments/org.ts, server/db/payments/desk.ts)
  | 'notConfirmable'
  | 'deskKeyReused'
  | 'registrationNotOpen'
  | 'teamEvent'
  | 'alreadyRegistered'
  | 'ticketsNotOpen'
  | 'notRegistered'
  | 'alreadyHasTicket'
  | 'soldOut'
  | 'teamIncomplete'
  // A fair opening's draw still not run after a claim past draw_at ran it a few times (server/db/tickets/claims.ts)
  | 'drawRunning'
  | 'notCompleted'
  | 'notParticipant'
  | 'individualEvent'
  | 'createClosed'
  | 'joinClosed'
  | 'changeClosed'
  | 'nameTaken'
  | 'unknownCode'
  | 'full'
  | 'teamNotFound'
  | 'teamNotInEvent'
  | 'notAMember'
  | 'leaderOnlyRemove'
  | 'leaderNotRemovable'
  | 'memberNotFound'
  | 'leaderOnlyDelete'
  | 'codesExhausted'
  | 'userNotFound'
  | 'phoneTaken'
  | 'rollTaken'
  // The organiser console (server/db/org/org.ts and its parts; the event rules of contract/event-rules.ts)
  | 'notOrganiser'
  | 'adminOnly'
  | 'nameRequired'
  | 'organizerRequired'
  | 'councilNotFound'
  | 'parentNotFound'
  | 'parentSelf'
  | 'parentNotTopLevel'
  | 'parentOfChildren'
  | 'minAboveMax'
  | 'externalLinkMissing'
  | 'ticketCountBelowSold'
  | 'teamModeLocked'
  | 'teamsTooBig'
  | 'fairStartLocked'
  | 'personNotFound'
  // A registration answer that breaks its question's rule: the message (naming the question) rides along.
  | 'invalidAnswer'
  | 'releaseClosed'
  | 'noTicket'
  | 'alreadyCheckedIn'
  | 'waitlistClosed'
  | 'notSoldOut'
  | 'notifyLimit'
  | 'notDoor'
  // Ticket transfer (issue 25, server/db/tickets/transfers.ts)
  | 'transfersClosed'
  | 'ticketUsed'
  | 'transferLimit'
  | 'friendCannotReceive'
  | 'transferToSelf'
  | 'doorClosed'
  | 'scanIdReused'
  | 'unknownTicket'
  // Push (server/db/people/push.ts)
  | 'endpointTaken'
  // Uploads (server/db/events/uploads.ts)
  | 'uploadQuota'
  | 'notCheckedIn'
  | 'noTicketToRate'
  | 'notCheckedInToRate'
  | 'certificateNotReady'
  | 'certificateNotCheckedIn'
  | 'certificateCodesExhausted'
  // Activity points (server/db/points/points.ts)
  | 'pointsCategoryUnknown'
  | 'winnersAfterEvent'
  | 'winnerNotParticipant'
  | 'studentNotFound'

/**
 * `message`, when present, replaces the table's message (a refusal whose words depend on the data);
 * `retryAfter`, the seconds until a limited call may succeed again (sent as Retry-After).
 */
export type Outcome<T = void> = { ok: true; value: T } | { ok: false; refusal: Refusal; message?: string; retryAfter?: number }

export const done = <T>(value: T): Outcome<T> => ({ ok: true, value })
export const refused = (refusal: Refusal, message?: string): { ok: false; refusal: Refusal; message?: string } =>
  message === undefined ? { ok: false, refusal } : { ok: false, refusal, message }

/** Thrown inside a transaction to roll it back; `outcomeOf` turns it into a refusal at the repository's edge. */
export class Refused extends Error {
  constructor(
    readonly refusal: Refusal,
    /** The words to answer instead of the table's (see Outcome). */
    readonly detail?: string,
    /** Seconds until the call may succeed again (see Outcome). */
    readonly retryAfter?: number,
  ) {
    super(refusal)
  }
}

export async function outcomeOf<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return done(await work())
  } catch (err) {
    if (err instanceof Refused)
      return err.retryAfter === undefined ? refused(err.refusal, err.detail) : { ...refused(err.refusal, err.detail), retryAfter: err.retryAfter }
    throw err
  }
}

/** PostgreSQL's unique_violation, from postgres.js or PGlite (possibly wrapped by Drizzle). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  return hasCode(err, '23505', constraint)
}

/** PostgreSQL's check_violation, from either driver. */
export function isCheckViolation(err: unknown, constraint?: string): boolean {
  return hasCode(err, '23514', constraint)
}

function hasCode(err: unknown, code: string, constraint?: string): boolean {
  for (let e: any = err; e; e = e.cause) {
    if (e.code === code) return !constraint || e.constraint_name === constraint || e.constraint === constraint
  }
  return false
}

/**
 * The database could not be reached or dropped the connection (issue 27: a PostgreSQL restart, a killed backend, a
 * full connection table): nothing about the request was wrong, and the same request a moment later can succeed.
 * PostgreSQL's classes 08 (connection exception) and 57P (operator intervention: admin shutdown, crash shutdown,
 * cannot connect now), 53300 (too many connections), and the driver's and the socket's own codes.
 */
const UNAVAILABLE = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
])

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e: any = err, depth = 0; e && depth < 5; e = e.cause, depth++) {
    const code = typeof e.code === 'string' ? e.code : ''
    if (UNAVAILABLE.has(code) || code.startsWith('08')) return true
  }
  return false
}

/** Rows of a raw query: postgres.js answers an array, PGlite an object with `rows`. */
export function rowsOf(result: unknown): unknown[] {
  return Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])
}
