// A ticket rush driven by the app's own client (src/api/client.ts: its retries of passing failures, with jitter and a
// bound, and its timeout), one client per student as on their phones, against the deployment under a fault; then
// what the issue asks of every case, checked against the database: 0 oversold, every claim answered 200 holds that
// very ticket, every refusal matches what the database holds, every claim the fault refused succeeds or gets 409
// when sent again, tickets_sold equals the holders, and no request outlived its timeout.
import { randomUUID } from 'node:crypto'
import postgres from 'postgres'
import { createCalls } from '../../src/api/all-calls.ts'
import { ApiError, createClient } from '../../src/api/client.ts'
import { ACCESS_TOKEN, REFRESH_TOKEN } from '../../src/api/token-keys.ts'
import { accessTokens } from '../../server/auth/tokens.ts'
import { openDatabase, schema } from '../../server/db/index.ts'

/** The client's timeout in this suite: a request with no answer after this long is given up (and counted). */
export const TIMEOUT_MS = 15_000
const SOLD_OUT = 'Tickets are sold out.'
const ALREADY = 'You already have a ticket for this event.'

export interface RushWorld {
  databaseUrl: string
  eventId: number
  tickets: number
  students: { id: number; token: string }[]
}

/** A ticketed event in TICKET_OPEN with `tickets` tickets and `students` registered students, each signed in. */
export async function seedRush(databaseUrl: string, jwtSecret: string, { students, tickets }: { students: number; tickets: number }): Promise<RushWorld> {
  const database = await openDatabase({ url: databaseUrl, max: 2 })
  try {
    const db = database.db
    const [council] = await db.insert(schema.councils).values({ slug: 'faults', name: 'Faults Council' }).returning({ id: schema.councils.id })
    const [event] = await db
      .insert(schema.events)
      .values({
        slug: 'the-rush',
        name: 'The Rush',
        organizerId: council.id,
        state: 'TICKET_OPEN',
        isTicketFeatureEnabled: true,
        ticketCount: tickets,
        dates: ['2026-12-01T19:00:00+05:30'],
      })
      .returning({ id: schema.events.id })
    const sign = accessTokens(new TextEncoder().encode(jwtSecret)).sign
    const out: RushWorld['students'] = []
    for (let i = 0; i < students; i += 500) {
      const users = await db
        .insert(schema.users)
        .values(
          Array.from({ length: Math.min(500, students - i) }, (_, j) => ({
            issuer: 'faults',
            subject: `s${i + j}`,
            email: `s${i + j}@example.edu`,
            name: `Student ${i + j}`,
          })),
        )
        .returning({ id: schema.users.id })
      await db.insert(schema.participants).values(users.map((u) => ({ eventId: event.id, userId: u.id })))
      // Signed in as the app does it: the token names its session, whose revocation the server asks Redis about.
      for (const u of users) out.push({ id: u.id, token: await sign(u.id, randomUUID()) })
    }
    return { databaseUrl, eventId: event.id, tickets, students: out }
  } finally {
    await database.close()
  }
}

/** What one student's claim ended with, after the client's own retries. */
export interface Claim {
  userId: number
  status: number
  message: string
  code?: string
  /** HTTP requests the client sent for it (1 + its retries). */
  requests: number
  startedAt: number
  endedAt: number
}

export interface Counters {
  requests: number
  timedOut: number
  loggedOut: number
  longestMs: number
  /** The requests that outlived the timeout: when they were sent (ms since the rush began) and where. */
  hung: string[]
  /** Every HTTP answer the phones got, by status (`network` for none): what the retries answered. */
  statuses: Record<string, number>
}

const suiteStart = performance.now()
export const counters = (): Counters => ({ requests: 0, timedOut: 0, loggedOut: 0, longestMs: 0, hung: [], statuses: {} })

/** A student's phone: the app's calls over the app's client, with that student's token, counting what it sends. */
export function phone(baseUrl: string, token: string, count: Counters) {
  const memory = new Map([
    [ACCESS_TOKEN, token],
    [REFRESH_TOKEN, 'not-used'],
  ])
  let sent = 0
  const client = createClient({
    baseUrl,
    storage: { getItem: (k) => memory.get(k) ?? null, setItem: (k, v) => void memory.set(k, v), removeItem: (k) => void memory.delete(k) },
    onLogout: () => void (count.loggedOut += 1),
    lock: (run) => run(),
    timeoutMs: TIMEOUT_MS,
    fetch: async (input, init) => {
      sent += 1
      count.requests += 1
      const started = performance.now()
      try {
        const res = await fetch(input, init)
        count.statuses[res.status] = (count.statuses[res.status] ?? 0) + 1
        return res
      } catch (err) {
        count.statuses.network = (count.statuses.network ?? 0) + 1
        if ((err as Error).name === 'TimeoutError' || init?.signal?.aborted) {
          count.timedOut += 1
          count.hung.push(`${String(input)} sent at ${Math.round(started - suiteStart)} ms`)
        }
        throw err
      } finally {
        count.longestMs = Math.max(count.longestMs, performance.now() - started)
      }
    },
  })
  return { api: createCalls(client), sent: () => sent }
}

/** One claim through a phone: its final answer after the client's retries. */
export async function claimOnce(baseUrl: string, world: RushWorld, student: RushWorld['students'][number], count: Counters): Promise<Claim> {
  const p = phone(baseUrl, student.token, count)
  const startedAt = performance.now()
  try {
    const answer = await p.api.claimTicket(world.eventId)
    return {
      userId: student.id,
      status: 200,
      message: answer.message,
      code: 'ticket_code' in answer ? answer.ticket_code : undefined,
      requests: p.sent(),
      startedAt,
      endedAt: performance.now(),
    }
  } catch (err) {
    const status = err instanceof ApiError ? err.status : -1
    return { userId: student.id, status, message: (err as Error).message, requests: p.sent(), startedAt, endedAt: performance.now() }
  }
}

/** Every student claims once, arriving evenly spread over `seconds` in a shuffled order (the rush). */
export async function rush(baseUrl: string, world: RushWorld, seconds: number, count: Counters): Promise<Claim[]> {
  const order = [...world.students]
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[order[i], order[j]] = [order[j], order[i]]
  }
  const gap = (seconds * 1000) / order.length
  return Promise.all(order.map((s, i) => new Promise<Claim>((resolve) => setTimeout(() => resolve(claimOnce(baseUrl, world, s, count)), i * gap))))
}

/** The answers a fault left without a decision (not 200, not 409), sent again now: each must get 200 or 409. */
export async function retryUndecided(baseUrl: string, world: RushWorld, claims: Claim[], count: Counters): Promise<{ claims: Claim[]; retried: Claim[] }> {
  const byId = new Map(world.students.map((s) => [s.id, s]))
  const retried = await Promise.all(
    claims.filter((c) => c.status !== 200 && c.status !== 409).map((c) => claimOnce(baseUrl, world, byId.get(c.userId)!, count)),
  )
  const again = new Map(retried.map((c) => [c.userId, c]))
  return { claims: claims.map((c) => again.get(c.userId) ?? c), retried }
}

export interface Verdict {
  claims: number
  acknowledged: number
  sold: number
  ticketCount: number
  ticketsSold: number
  oversold: number
  /** Answers the database contradicts (each named): must be none. */
  contradictions: string[]
  undecided: number
}

/** The database against every final answer. */
export async function verify(world: RushWorld, claims: Claim[]): Promise<Verdict> {
  const sql = postgres(world.databaseUrl, { max: 1, onnotice: () => {} })
  try {
    const [event] = await sql`SELECT ticket_count, tickets_sold FROM events WHERE id = ${world.eventId}`
    const rows = await sql`SELECT user_id, ticket_code FROM participants WHERE event_id = ${world.eventId} AND ticket_collected`
    const held = new Map(rows.map((r) => [Number(r.user_id), String(r.ticket_code)]))
    const contradictions: string[] = []
    for (const c of claims) {
      const code = held.get(c.userId)
      if (c.status === 200 && code !== c.code)
        contradictions.push(`student ${c.userId} was answered 200 with ticket ${c.code}; the database holds ${code ?? 'none'}`)
      if (c.status === 409 && c.message === ALREADY && !code)
        contradictions.push(`student ${c.userId} was told they already have a ticket; the database holds none`)
      if (c.status === 409 && c.message === SOLD_OUT && code)
        contradictions.push(`student ${c.userId} was told tickets are sold out; the database holds their ticket ${code}`)
      if (c.status === 409 && c.message !== ALREADY && c.message !== SOLD_OUT) contradictions.push(`student ${c.userId}: an unexpected 409 "${c.message}"`)
    }
    return {
      claims: claims.length,
      acknowledged: claims.filter((c) => c.status === 200).length,
      sold: held.size,
      ticketCount: Number(event.ticket_count),
      ticketsSold: Number(event.tickets_sold),
      oversold: Math.max(0, held.size - Number(event.ticket_count)),
      contradictions,
      undecided: claims.filter((c) => c.status !== 200 && c.status !== 409).length,
    }
  } finally {
    await sql.end({ timeout: 5 })
  }
}

/** Final answers by kind, for the report: `200`, `409 sold out`, `503`... */
export function answersOf(claims: Claim[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const c of claims) {
    const key = c.status === 409 ? `409 ${c.message === SOLD_OUT ? 'sold out' : c.message === ALREADY ? 'already has one' : c.message}` : String(c.status)
    out[key] = (out[key] ?? 0) + 1
  }
  return out
}
