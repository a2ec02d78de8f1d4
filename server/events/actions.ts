// The student's writes on an event: register, claim a ticket, rate. Each write that can race is one
// conditional statement, or one transaction whose statements carry their own conditions; the reads that
// follow a refused write only choose the message, they never decide whether the write happens.
import { randomBytes } from 'node:crypto'
import { and, eq, exists, sql } from 'drizzle-orm'
import type { Db } from '../db/index.ts'
import { events, participants } from '../db/schema.ts'
import { HttpError, conflict, forbidden, isCheckViolation, isUniqueViolation, notFound } from '../errors.ts'

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
  ticketClaimed: 'Ticket claimed!',
  ratingInvalid: 'Rating must be a whole number from 1 to 5.',
  notCompleted: 'You can rate an event once it is completed.',
  notParticipant: 'Only participants of this event can rate it.',
  rated: 'Thank you for your feedback!',
} as const

async function eventOrNotFound(db: Db, eventId: number) {
  const [event] = await db.select().from(events).where(eq(events.id, eventId))
  if (!event) throw notFound(MESSAGES.eventNotFound)
  return event
}

/** Registers the caller for an individual event that is open for registration. */
export async function registerForEvent(db: Db, userId: number, eventId: number): Promise<void> {
  // One statement: the row is written only if the event is open and individual, and the unique key on
  // (event, user) turns a second registration, however concurrent, into no row rather than a duplicate.
  // (Raw SQL: Drizzle's insert-from-select lists every column of the table.)
  const inserted = rowsOf(
    await db.execute(sql`
      INSERT INTO ${participants} (${sql.identifier(participants.eventId.name)}, ${sql.identifier(participants.userId.name)})
      SELECT ${events.id}, ${userId}::int FROM ${events}
      WHERE ${events.id} = ${eventId} AND ${events.state} = 'REGISTRATION_OPEN' AND ${events.maPpt} = 1
      ON CONFLICT (${sql.identifier(participants.eventId.name)}, ${sql.identifier(participants.userId.name)}) DO NOTHING
      RETURNING ${sql.identifier(participants.id.name)}`),
  )
  if (inserted.length > 0) return

  const event = await eventOrNotFound(db, eventId)
  if (event.state !== 'REGISTRATION_OPEN') throw forbidden(MESSAGES.registrationNotOpen)
  if (event.maPpt > 1) throw forbidden(MESSAGES.teamEvent)
  throw conflict(MESSAGES.alreadyRegistered)
}

/**
 * 16 random decimal digits: about 53 bits, so codes cannot be guessed, and all digits so the barcode uses
 * Code 128 set C (two digits a symbol), the shortest symbol to scan at a gate. Bytes of 250 and above are
 * dropped so that every digit is equally likely.
 */
export function newTicketCode(length = 16): string {
  let code = ''
  while (code.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 250 && code.length < length) code += String(byte % 10)
    }
  }
  return code
}

/** Rows of a raw query: postgres.js answers an array, PGlite an object with `rows`. */
function rowsOf(result: unknown): unknown[] {
  return Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])
}

type ClaimStatus = 'claimed' | 'not_found' | 'not_open' | 'not_registered' | 'already' | 'sold_out'

/** The refusal for each answer of claim_tickets() other than 'claimed'. */
const CLAIM_REFUSALS: Record<Exclude<ClaimStatus, 'claimed'>, () => HttpError> = {
  not_found: () => notFound(MESSAGES.eventNotFound),
  not_open: () => forbidden(MESSAGES.ticketsNotOpen),
  not_registered: () => forbidden(MESSAGES.notRegistered),
  already: () => conflict(MESSAGES.alreadyHasTicket),
  sold_out: () => conflict(MESSAGES.soldOut),
}

/** The RAISE of claim_tickets() when the counter did not move after a participant row was updated. */
function isCounterRefusal(err: unknown): boolean {
  for (let e: any = err; e; e = e.cause) if (e.code === 'P0001' && e.hint === 'claim_ticket_refused') return true
  return false
}

/**
 * Claims the caller's ticket; never more than ticket_count in total, never two for one student.
 * The claim is decided by the database function claim_tickets() (migrations 0001/0002), one statement that
 * takes the event's row lock and commits once for a whole batch of claims: the claims for an event that
 * arrive while the previous batch is in the database wait in `batches` and go together in the next call.
 * (One claim at a time, the 500 claims that sell the tickets of a rush each waited for the previous one's
 * commit behind the event's row lock.) If a batch fails as a whole, each of its claims is tried alone.
 */
export async function claimTicket(db: Db, userId: number, eventId: number): Promise<string> {
  let batched = true
  for (let attempt = 0; ; attempt++) {
    const code = newTicketCode()
    let status: ClaimStatus
    try {
      status = batched ? await batches.claim(db, eventId, userId, code) : (await callClaimTickets(db, eventId, [userId], [code]))[0]
    } catch (err) {
      // The whole batch was rolled back (a colliding code or a deadlock elsewhere in it): this claim alone.
      if (batched) {
        batched = false
        continue
      }
      // Rolled back inside the database: the counter did not move (cannot happen under the row lock).
      if (isCounterRefusal(err)) throw await eventRefusal(db, eventId)
      // The CHECK constraint is the backstop if the conditional update were ever wrong.
      if (isCheckViolation(err, 'events_tickets_within_count')) throw conflict(MESSAGES.soldOut)
      // Two equal 16-digit codes are all but impossible; if it happens, draw again rather than fail.
      if (isUniqueViolation(err, 'participants_ticket_code') && attempt < 4) continue
      throw err
    }
    if (status === 'claimed') return code
    const refusal = CLAIM_REFUSALS[status]
    if (!refusal) throw new Error(`claim_tickets answered ${String(status)}`)
    throw refusal()
  }
}

/** Claims of one batch: at most this many students in one call (a call holds the event's row lock). */
export const CLAIM_BATCH = 100

interface Waiting {
  userId: number
  code: string
  resolve(status: ClaimStatus): void
  reject(err: unknown): void
}

/** Per database and event: the claims waiting for the next call, and whether a call is in the database. */
const batches = {
  queues: new WeakMap<Db, Map<number, { waiting: Waiting[]; running: boolean }>>(),
  claim(db: Db, eventId: number, userId: number, code: string): Promise<ClaimStatus> {
    let perEvent = this.queues.get(db)
    if (!perEvent) this.queues.set(db, (perEvent = new Map()))
    let queue = perEvent.get(eventId)
    if (!queue) perEvent.set(eventId, (queue = { waiting: [], running: false }))
    const promise = new Promise<ClaimStatus>((resolve, reject) => queue.waiting.push({ userId, code, resolve, reject }))
    if (!queue.running) void this.run(db, eventId, perEvent, queue)
    return promise
  },
  async run(db: Db, eventId: number, perEvent: Map<number, { waiting: Waiting[]; running: boolean }>, queue: { waiting: Waiting[]; running: boolean }) {
    queue.running = true
    while (queue.waiting.length > 0) {
      const batch = queue.waiting.splice(0, CLAIM_BATCH)
      try {
        const statuses = await callClaimTickets(db, eventId, batch.map((w) => w.userId), batch.map((w) => w.code))
        batch.forEach((w, i) => w.resolve(statuses[i]))
      } catch (err) {
        for (const w of batch) w.reject(err)
      }
    }
    queue.running = false
    perEvent.delete(eventId) // nothing kept for an event once its claims are answered
  },
}

/** The driver's own query call, where the driver is postgres.js (the `$client` Drizzle keeps). */
type PostgresJs = { unsafe(query: string, params: unknown[], options: { prepare: boolean }): Promise<Record<string, unknown>[]> }

function postgresJsOf(db: Db): PostgresJs | null {
  const client = (db as unknown as { $client?: unknown }).$client
  return typeof client === 'function' && typeof (client as unknown as Partial<PostgresJs>).unsafe === 'function' ? (client as unknown as PostgresJs) : null
}

const CLAIM_SQL = 'SELECT claim_tickets($1::int, $2::text::int[], $3::text::text[]) AS statuses'

/**
 * One call of claim_tickets(). On PostgreSQL a named prepared statement: through db.execute, Drizzle asks
 * postgres.js for an unnamed statement, which postgres.js sends in two round trips (Describe to learn the
 * parameter types, then Bind/Execute); prepared, it is described once per connection and then each call is
 * one round trip. PGlite (in process, no round trips) goes through Drizzle. The arrays travel as array
 * literals in text (ids are integers, codes digits), the same for both drivers.
 */
async function callClaimTickets(db: Db, eventId: number, userIds: number[], codes: string[]): Promise<ClaimStatus[]> {
  const ids = `{${userIds.join(',')}}`
  const codeList = `{${codes.join(',')}}`
  const client = postgresJsOf(db)
  const rows = client
    ? await client.unsafe(CLAIM_SQL, [eventId, ids, codeList], { prepare: true })
    : rowsOf(await db.execute(sql`SELECT claim_tickets(${eventId}::int, ${ids}::text::int[], ${codeList}::text::text[]) AS statuses`))
  const statuses = (rows[0] as { statuses: unknown }).statuses
  if (!Array.isArray(statuses) || statuses.length !== userIds.length) throw new Error('claim_tickets answered an unexpected value')
  return statuses as ClaimStatus[]
}

/** Why the counter did not move: read after the rollback, only to choose the words. */
async function eventRefusal(db: Db, eventId: number): Promise<HttpError> {
  const event = await eventOrNotFound(db, eventId)
  if (event.state !== 'TICKET_OPEN' || !event.isTicketFeatureEnabled) return forbidden(MESSAGES.ticketsNotOpen)
  return conflict(MESSAGES.soldOut)
}

/** A whole number 1..5, given as a number or as a numeric string; anything else is a 400. */
export function ratingFrom(value: unknown): number {
  const n = typeof value === 'string' && /^\s*\d\s*$/.test(value) ? Number(value) : value
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 5) throw new HttpError(400, MESSAGES.ratingInvalid)
  return n
}

/** Records the caller's rating of a completed event they took part in; a second rating replaces the first. */
export async function rateEvent(db: Db, userId: number, eventId: number, rating: number): Promise<void> {
  const updated = await db
    .update(participants)
    .set({ rating, ratedAt: sql`now()` })
    .where(
      and(
        eq(participants.eventId, eventId),
        eq(participants.userId, userId),
        exists(
          db
            .select({ one: sql`1` })
            .from(events)
            .where(and(eq(events.id, eventId), eq(events.state, 'COMPLETED'))),
        ),
      ),
    )
    .returning({ id: participants.id })
  if (updated.length > 0) return
  const event = await eventOrNotFound(db, eventId)
  if (event.state !== 'COMPLETED') throw forbidden(MESSAGES.notCompleted)
  throw forbidden(MESSAGES.notParticipant)
}
