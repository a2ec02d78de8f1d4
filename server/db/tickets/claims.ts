// Ticket claims: never more than ticket_count in total, never two for one student. The claim is decided by the
// database function claim_tickets() (server/db/functions/claim_tickets.sql; the counter itself is moved by the participants triggers), one statement that takes the event's row lock and
// commits once for a whole batch of claims: the claims for an event that arrive while the previous batch is in
// the database wait here and go together in the next call. (One claim at a time, the 500 claims that sell the
// tickets of a rush each waited for the previous one's commit behind the event's row lock.) If a batch fails as
// a whole, each of its claims is tried alone. Kept in-house: no library batches a PL/pgSQL call per row lock.
import { randomFillSync } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { Db } from '../index.ts'
import { done, isCheckViolation, isUniqueViolation, refused, rowsOf, type Outcome, type Refusal } from '../outcomes.ts'

/**
 * 16 random decimal digits: about 53 bits, so codes cannot be guessed, and all digits so the barcode uses
 * Code 128 set C (two digits a symbol), the shortest symbol to scan at a gate. Bytes of 250 and above are
 * dropped so that every digit is equally likely.
 */
export function newTicketCode(length = 16): string {
  let code = ''
  while (code.length < length) {
    const byte = randomByte()
    if (byte < 250) code += String(byte % 10)
  }
  return code
}

// The random bytes come from the system's CSPRNG in blocks (issue 15: a randomBytes call and its buffer for each
// claim, sold out or not, was a visible share of a rush's CPU and garbage); each byte is used once, then dropped.
const RANDOM_BLOCK = 4096
const randomPool = Buffer.alloc(RANDOM_BLOCK)
let randomAt = RANDOM_BLOCK

function randomByte(): number {
  if (randomAt === RANDOM_BLOCK) {
    randomFillSync(randomPool)
    randomAt = 0
  }
  return randomPool[randomAt++]
}

type ClaimStatus =
  | 'claimed'
  | 'not_found'
  | 'cancelled'
  | 'not_open'
  | 'not_registered'
  | 'already'
  | 'team_incomplete'
  | 'sold_out'
  | 'draw_pending'
  | `in_draw:${string}`
  | `held:${string}`

/**
 * What a claim that was not refused did: collected a ticket, or entered the event's draw (a fair opening's window,
 * migration 0011: the entry stands, a second one changes nothing).
 */
export type Claim = { kind: 'ticket'; code: string } | { kind: 'entered'; drawAt: string } | { kind: 'held'; payBy: string }

/** One call of claim_tickets() may also find the window closed and the draw not yet run: `claim` then runs it. */
type Attempt = Claim | { kind: 'drawPending' }

/**
 * Runs an event's draw now if it is due, waiting for another instance's run of it rather than skipping it
 * (server/plugins/scheduler.ts `fairDraws.drawNow`: counted and logged there).
 */
export type DrawNow = (eventId: number) => Promise<unknown>

/** How many times a claim after draw_at runs the draw and claims again before it is refused drawRunning. */
const DRAW_TRIES = 3
/** Seconds a claim refused drawRunning is asked to wait (Retry-After): a draw takes well under a second. */
const DRAW_RETRY_AFTER = 1

/** The refusal for each answer of claim_tickets() other than 'claimed'. */
const CLAIM_REFUSALS: Record<Exclude<ClaimStatus, 'claimed' | 'draw_pending' | `in_draw:${string}` | `held:${string}`>, Refusal> = {
  not_found: 'eventNotFound',
  cancelled: 'eventCancelled',
  not_open: 'ticketsNotOpen',
  not_registered: 'notRegistered',
  already: 'alreadyHasTicket',
  team_incomplete: 'teamIncomplete',
  sold_out: 'soldOut',
}

/** A draw nonce (API.md Part 3): 32 lowercase hex digits, 128 bits of the system's CSPRNG from the same pool as the codes. */
export function newDrawNonce(): string {
  let nonce = ''
  for (let i = 0; i < 16; i++) nonce += randomByte().toString(16).padStart(2, '0')
  return nonce
}

/** Claims of one batch: at most this many students in one call (a call holds the event's row lock). */
export const CLAIM_BATCH = 100

interface Waiting {
  userId: number
  code: string
  nonce: string
  resolve(status: ClaimStatus): void
  reject(err: unknown): void
}

interface Queue {
  waiting: Waiting[]
  running: boolean
}

export function claimsRepository(db: Db, drawNow: DrawNow) {
  /** Per event: the claims waiting for the next call, and whether a call is in the database. */
  const queues = new Map<number, Queue>()

  function batched(eventId: number, userId: number, code: string, nonce: string): Promise<ClaimStatus> {
    let queue = queues.get(eventId)
    if (!queue) queues.set(eventId, (queue = { waiting: [], running: false }))
    const q = queue
    const promise = new Promise<ClaimStatus>((resolve, reject) => q.waiting.push({ userId, code, nonce, resolve, reject }))
    if (!q.running) void run(eventId, q)
    return promise
  }

  async function run(eventId: number, queue: Queue) {
    queue.running = true
    while (queue.waiting.length > 0) {
      const batch = queue.waiting.splice(0, CLAIM_BATCH)
      try {
        const statuses = await callClaimTickets(
          db,
          eventId,
          batch.map((w) => w.userId),
          batch.map((w) => w.code),
          batch.map((w) => w.nonce),
        )
        batch.forEach((w, i) => w.resolve(statuses[i]))
      } catch (err) {
        for (const w of batch) w.reject(err)
      }
    }
    queue.running = false
    queues.delete(eventId) // nothing kept for an event once its claims are answered
  }

  /** One claim through claim_tickets(), batched with the others of its event. */
  async function claimOnce(userId: number, eventId: number, nonce: string): Promise<Outcome<Attempt>> {
    let inBatch = true
    for (let attempt = 0; ; attempt++) {
      const code = newTicketCode()
      let status: ClaimStatus
      try {
        status = inBatch ? await batched(eventId, userId, code, nonce) : (await callClaimTickets(db, eventId, [userId], [code], [nonce]))[0]
      } catch (err) {
        // The whole batch was rolled back (a colliding code or a deadlock elsewhere in it): this claim alone.
        if (inBatch) {
          inBatch = false
          continue
        }
        // The CHECK constraint is the backstop if the conditional update were ever wrong.
        if (isCheckViolation(err, 'events_tickets_within_count')) return refused('soldOut')
        // Two equal 16-digit codes are all but impossible; if it happens, draw again rather than fail.
        if ((isUniqueViolation(err, 'participants_ticket_code') || isUniqueViolation(err, 'payments_reference')) && attempt < 4) continue
        throw err
      }
      if (status === 'claimed') return done({ kind: 'ticket', code })
      if (status === 'draw_pending') return done({ kind: 'drawPending' })
      if (status.startsWith('in_draw:')) return done({ kind: 'entered', drawAt: status.slice('in_draw:'.length) })
      // A paid event (issue 35): the place is held until pay_by; the ticket comes once it is paid.
      if (status.startsWith('held:')) return done({ kind: 'held', payBy: status.slice('held:'.length) })
      const refusal = CLAIM_REFUSALS[status as keyof typeof CLAIM_REFUSALS]
      if (!refusal) throw new Error(`claim_tickets answered ${String(status)}`)
      return refused(refusal)
    }
  }

  return {
    /**
     * Claims the caller's ticket (or enters the draw in a fair opening's window), or why not. `nonce`: the draw nonce
     * the app made (API.md Part 3); the server makes one when the app sent none, used only if this claim is an entry.
     * A fair opening whose window has closed but whose draw has not run yet: runs it (or waits for the instance
     * running it), then claims what is left, first come, first served; refused drawRunning when the draw still has
     * not run after a few tries. Once drawn, a claim never meets this.
     */
    async claim(userId: number, eventId: number, nonce: string = newDrawNonce()): Promise<Outcome<Claim>> {
      let outcome = await claimOnce(userId, eventId, nonce)
      for (let tries = 0; outcome.ok && outcome.value.kind === 'drawPending' && tries < DRAW_TRIES; tries++) {
        await drawNow(eventId)
        outcome = await claimOnce(userId, eventId, nonce)
      }
      if (!outcome.ok) return outcome
      const claim = outcome.value
      return claim.kind === 'drawPending' ? { ...refused('drawRunning'), retryAfter: DRAW_RETRY_AFTER } : done(claim)
    },
  }
}

export type ClaimsRepository = ReturnType<typeof claimsRepository>

/** The driver's own query call, where the driver is postgres.js (the `$client` Drizzle keeps). */
type PostgresJs = { unsafe(query: string, params: unknown[], options: { prepare: boolean }): Promise<Record<string, unknown>[]> }

function postgresJsOf(db: Db): PostgresJs | null {
  const client = (db as unknown as { $client?: unknown }).$client
  return typeof client === 'function' && typeof (client as unknown as Partial<PostgresJs>).unsafe === 'function' ? (client as unknown as PostgresJs) : null
}

const CLAIM_SQL = 'SELECT claim_tickets($1::int, $2::text::int[], $3::text::text[], $4::text::text[]) AS statuses'

/**
 * One call of claim_tickets(). On PostgreSQL a named prepared statement: through db.execute, Drizzle asks
 * postgres.js for an unnamed statement, which postgres.js sends in two round trips (Describe to learn the
 * parameter types, then Bind/Execute); prepared, it is described once per connection and then each call is
 * one round trip. PGlite (in process, no round trips) goes through Drizzle. The arrays travel as array
 * literals in text (ids are integers, codes digits, nonces hex), the same for both drivers.
 */
async function callClaimTickets(db: Db, eventId: number, userIds: number[], codes: string[], nonces: string[]): Promise<ClaimStatus[]> {
  const ids = `{${userIds.join(',')}}`
  const codeList = `{${codes.join(',')}}`
  const nonceList = `{${nonces.join(',')}}`
  const client = postgresJsOf(db)
  const rows = client
    ? await client.unsafe(CLAIM_SQL, [eventId, ids, codeList, nonceList], { prepare: true })
    : rowsOf(
        await db.execute(sql`SELECT claim_tickets(${eventId}::int, ${ids}::text::int[], ${codeList}::text::text[], ${nonceList}::text::text[]) AS statuses`),
      )
  const statuses = (rows[0] as { statuses: unknown }).statuses
  if (!Array.isArray(statuses) || statuses.length !== userIds.length) throw new Error('claim_tickets answered an unexpected value')
  return statuses as ClaimStatus[]
}
