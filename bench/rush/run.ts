// `npm run bench:rush` (issues 6 and 15): the ticket rush on PostgreSQL through the REAL HTTP server, against the
// server's floor.
//
// One fresh database with 8,000 registered students and one event of 2,000 tickets per round. A round: every
// student claims once (10% of them twice, at the same time, as a double tap), 200 claims in flight at a time:
// 2,000 succeed (200) and the rest are refused (409 sold out or already yours): the mix of a real rush. (Rounds of
// 2,200 claims lasted 0.1-0.2 s, a few ticks of the CPU clock; 8,800 make each round's figures steadier.)
// The floor (issue 15 item 4): a bare Fastify process (bench/rush/floor.ts) with one trivial route answering 200,
// driven by the same load generator with the same requests (body, bearer header) and concurrency. Floor rounds
// and claim rounds alternate (RUSH_ROUNDS of each, the order swapped every round); the medians over the rounds of
// p50, p99 and requests/s are compared: targets p99 ≤ 1.2× and throughput ≥ 0.8× the floor's (reported, not a
// test). Before the timed rounds, one counting round on its own event counts the Redis commands the server sends
// per claim (MONITOR of a private redis-server this bench starts, unless REDIS_URL is given).
// Then two instances on one PostgreSQL and one Redis (requests round-robin), the paid events' rush beside free ones
// (issue 35: holds per second and p99 against free claims on the same server), and the negative control: the same
// harness against a deliberately unsafe read-then-write claim that exists only in this file, which must oversell.
// Prints tickets sold, refusals by reason, 5xx, latency, claims per second, CPU ms per claim (servers, database,
// Redis, load generator), log bytes per claim and the load average; writes bench-results/rush.json.
//
// Environment: DATABASE_URL or TEST_DATABASE_URL (an admin URL: fresh databases are created next to it and
// dropped after), REDIS_URL (default: a private redis-server), RUSH_STUDENTS, RUSH_TICKETS, RUSH_CONCURRENCY,
// RUSH_ROUNDS (5), RUSH_LOG_LEVEL (the servers' LOG_LEVEL, default info as in production), RUSH_ONLY ("1", "2",
// "paid" or "unsafe": one scenario, for profiling; with RUSH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"),
// RUSH_SCRAPE_MS (issue 27: scrape the first instance's /metrics this often during the timed rounds; the figures,
// bench-results/rush-metrics.json and the three graphs, bench-results/rush-graphs.svg), BENCH_SERVER (another build).
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { cpus, loadavg } from 'node:os'
import Fastify from 'fastify'
import postgres from 'postgres'
import { accessTokens } from '../../server/auth/tokens.ts'
import { newTicketCode } from '../../server/db/tickets/claims.ts'
import { openDatabase, schema } from '../../server/db/index.ts'
import { type Child, cpuMsOf, databases, freePort, median, percentile, privateRedis, SERVER, spawnNode, spawnServer, uptime } from '../support.ts'
import { graphs, scraper, type Point } from './scrape.ts'

const ONLY = process.env.RUSH_ONLY
const ADMIN_URL = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://root@127.0.0.1:5432/test'
const STUDENTS = Number(process.env.RUSH_STUDENTS ?? 8000)
const TICKETS = Number(process.env.RUSH_TICKETS ?? 2000)
const CONCURRENCY = Number(process.env.RUSH_CONCURRENCY ?? 200)
const ROUNDS = Number(process.env.RUSH_ROUNDS ?? 5)
const LOG_LEVEL = process.env.RUSH_LOG_LEVEL ?? 'info'
const DOUBLE_TAP = 0.1
const SCRAPE_MS = Number(process.env.RUSH_SCRAPE_MS ?? 0)
const JWT_SECRET = randomBytes(32).toString('base64url')
const P99_RATIO_TARGET = 1.2
const THROUGHPUT_RATIO_TARGET = 0.8
const PAID_FEE = 300

const dbs = databases(ADMIN_URL, 'rush')
const admin = dbs.admin
const ownRedis = process.env.REDIS_URL ? null : await privateRedis()
const REDIS_URL = process.env.REDIS_URL || ownRedis!.url

/** Migrates, then inserts a council, `events` events and the students, registered for every event, in bulk. */
async function seed(url: string, events: number, feeOf: (i: number) => number = () => 0): Promise<{ eventIds: number[]; userIds: number[] }> {
  const database = await openDatabase({ url, max: 2 })
  const db = database.db
  const [council] = await db.insert(schema.councils).values({ slug: 'bench', name: 'Bench Council' }).returning({ id: schema.councils.id })
  const rows = await db
    .insert(schema.events)
    .values(
      Array.from({ length: events }, (_, i) => ({
        slug: `rush-${i}`,
        name: `The Rush ${i}`,
        organizerId: council.id,
        state: 'TICKET_OPEN' as const,
        isTicketFeatureEnabled: true,
        ticketCount: TICKETS,
        fee: feeOf(i),
        dates: ['2026-12-01T19:00:00+05:30'],
      })),
    )
    .returning({ id: schema.events.id })
  const eventIds = rows.map((r) => r.id)
  const userIds: number[] = []
  for (let i = 0; i < STUDENTS; i += 500) {
    const users = await db
      .insert(schema.users)
      .values(
        Array.from({ length: Math.min(500, STUDENTS - i) }, (_, j) => ({
          issuer: 'bench',
          subject: `s${i + j}`,
          email: `s${i + j}@example.edu`,
          name: `Student ${i + j}`,
        })),
      )
      .returning({ id: schema.users.id })
    for (const eventId of eventIds) await db.insert(schema.participants).values(users.map((r) => ({ eventId, userId: r.id })))
    userIds.push(...users.map((r) => r.id))
  }
  await database.close()
  return { eventIds, userIds }
}

interface Answer {
  status: number
  message: string
  ms: number
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })

function post(url: URL, path: string, body: string, headers: Record<string, string>): Promise<Answer> {
  const started = performance.now()
  return new Promise((resolve) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (d) => (text += d))
        res.on('end', () => {
          let message = ''
          try {
            message = JSON.parse(text).message ?? ''
          } catch {
            message = text.slice(0, 80)
          }
          resolve({ status: res.statusCode!, message, ms: performance.now() - started })
        })
      },
    )
    req.on('error', (err) => resolve({ status: 0, message: `network: ${err.message}`, ms: performance.now() - started }))
    req.end(body)
  })
}

/** Runs every job with at most CONCURRENCY in flight; answers in job order. */
async function pool<T>(jobs: (() => Promise<T>)[]): Promise<{ answers: T[]; seconds: number }> {
  const answers: T[] = new Array(jobs.length)
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++
        answers[i] = await jobs[i]()
      }
    }),
  )
  return { answers, seconds: (performance.now() - started) / 1000 }
}

/** Every student once, 10% twice at once (a double tap), in a shuffled order. */
function claimOrder(userIds: number[]): number[] {
  const order = [...userIds]
  for (let i = 0; i < userIds.length * DOUBLE_TAP; i++) order.push(userIds[i * Math.floor(1 / DOUBLE_TAP)])
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[order[i], order[j]] = [order[j], order[i]]
  }
  return order
}

const round1 = (n: number) => Math.round(n * 10) / 10
const round3 = (n: number) => Math.round(n * 1000) / 1000

function latency(answers: Answer[]) {
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b)
  if (ms.length === 0) return null
  return { p50: round1(percentile(ms, 50)), p95: round1(percentile(ms, 95)), p99: round1(percentile(ms, 99)), max: round1(ms[ms.length - 1]) }
}

function summarize(answers: Answer[], seconds: number) {
  const refusals: Record<string, number> = {}
  for (const a of answers) if (a.status !== 200) refusals[`${a.status} ${a.message}`] = (refusals[`${a.status} ${a.message}`] ?? 0) + 1
  return {
    requests: answers.length,
    ok: answers.filter((a) => a.status === 200).length,
    refusals,
    refusalsAll409: answers.every((a) => a.status === 200 || (a.status === 409 && a.message.length > 0)),
    fiveXX: answers.filter((a) => a.status >= 500 || a.status === 0).length,
    latencyMs: latency(answers)!,
    seconds: round1(seconds),
    claimsPerSecond: round1(answers.length / seconds),
  }
}

async function soldIn(databaseUrl: string, eventIds: number[]) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  const rows = await sql`
    SELECT e.id, e.ticket_count AS count, e.tickets_sold AS counter,
      (SELECT count(*)::int FROM participants p WHERE p.event_id = e.id AND p.ticket_collected) AS collected,
      (SELECT count(DISTINCT p.ticket_code)::int FROM participants p WHERE p.event_id = e.id AND p.ticket_collected) AS codes
    FROM events e WHERE e.id IN ${sql(eventIds)} ORDER BY e.id`
  await sql.end()
  const events = rows.map((row) => ({
    eventId: row.id as number,
    ticketCount: row.count as number,
    counter: row.counter as number,
    collected: row.collected as number,
    distinctCodes: row.codes as number,
    oversold: Math.max(0, (row.collected as number) - (row.count as number)),
  }))
  return {
    events: events.length,
    everyEventExact: events.every((e) => e.collected === e.ticketCount && e.counter === e.ticketCount && e.distinctCodes === e.collected),
    collected: events.reduce((n, e) => n + e.collected, 0),
    ticketCount: events.reduce((n, e) => n + e.ticketCount, 0),
    oversold: events.reduce((n, e) => n + e.oversold, 0),
    perEvent: events,
  }
}

/**
 * CPU spent by the given processes, by the PostgreSQL backends of the bench database, by the private Redis, and by this load
 * generator: on a shared 2-core machine latency moves with whatever else runs, CPU per request much less, so
 * it shows what a change to the claim path did even on a noisy run.
 */
async function cpuMeter(databaseUrl: string | null, processes: Child[], redisPid?: number) {
  const database = databaseUrl ? new URL(databaseUrl).pathname.slice(1) : null
  const backends = async () => (database ? (await admin`SELECT pid FROM pg_stat_activity WHERE datname = ${database}`).map((r) => r.pid as number) : [])
  const startBackends = new Map((await backends()).map((pid) => [pid, cpuMsOf(pid)]))
  const startProcesses = processes.map((s) => cpuMsOf(s.child.pid))
  const startRedis = cpuMsOf(redisPid)
  const startSelf = process.cpuUsage()
  return async () => {
    const self = process.cpuUsage(startSelf)
    const server = processes.reduce((sum, s, i) => sum + cpuMsOf(s.child.pid) - startProcesses[i], 0)
    let db = 0
    for (const pid of await backends()) db += cpuMsOf(pid) - (startBackends.get(pid) ?? 0)
    const redis = redisPid ? cpuMsOf(redisPid) - startRedis : 0
    return { servers: server, database: db, redis, loadGenerator: (self.user + self.system) / 1000 }
  }
}

type Cpu = Awaited<ReturnType<Awaited<ReturnType<typeof cpuMeter>>>>
const perRequest = (cpu: Cpu[], requests: number) => {
  const sum = (k: keyof Cpu) => round3(cpu.reduce((n, c) => n + c[k], 0) / requests)
  return { servers: sum('servers'), database: sum('database'), redis: sum('redis'), loadGenerator: sum('loadGenerator') }
}

interface RoundResult {
  answers: Answer[]
  seconds: number
  cpu: Cpu
}

/** A paid event's rush (issue 35): every place held once, nothing sold, one live payment per holder. */
async function heldIn(databaseUrl: string, eventIds: number[]) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  const rows = await sql`
    SELECT e.id, e.ticket_count AS count, e.tickets_sold AS sold, e.tickets_held AS held,
      (SELECT count(*)::int FROM payments y WHERE y.event_id = e.id AND y.status = 'PENDING') AS pending,
      (SELECT count(DISTINCT y.user_id)::int FROM payments y WHERE y.event_id = e.id) AS holders,
      (SELECT count(*)::int FROM participants p WHERE p.event_id = e.id AND p.ticket_collected) AS collected
    FROM events e WHERE e.id IN ${sql(eventIds)} ORDER BY e.id`
  await sql.end()
  return {
    events: rows.length,
    everyEventExact: rows.every((r) => r.held === r.count && r.pending === r.count && r.holders === r.count && r.sold === 0 && r.collected === 0),
    held: rows.reduce((n, r) => n + (r.held as number), 0),
    ticketCount: rows.reduce((n, r) => n + (r.count as number), 0),
    overheld: rows.reduce((n, r) => n + Math.max(0, (r.pending as number) - (r.count as number)), 0),
  }
}

/**
 * Half the event's holds pass pay_by; waits for the server's payments tick to expire them (every 2 s), then `rush`
 * claims again. Answers how many expired, how many of the freed places were held again, and whether the event is
 * within its count (held + sold never above ticket_count, one live payment per student).
 */
async function expireHalfAndRush(databaseUrl: string, eventId: number, rush: () => Promise<RoundResult>) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  try {
    const passed = await sql`
      UPDATE payments SET pay_by = now() - interval '1 second'
       WHERE id IN (SELECT id FROM payments WHERE event_id = ${eventId} AND status = 'PENDING' ORDER BY id LIMIT ${Math.floor(TICKETS / 2)})
      RETURNING id`
    const started = Date.now()
    let left = passed.length
    while (left > 0 && Date.now() - started < 30_000) {
      await new Promise((r) => setTimeout(r, 500))
      ;[{ left }] = await sql`SELECT count(*)::int AS left FROM payments WHERE id IN ${sql(passed.map((r) => r.id as number))} AND status = 'PENDING'`
    }
    const released = await rush()
    const [state] = await sql`
      SELECT e.ticket_count AS count, e.tickets_sold AS sold, e.tickets_held AS held,
        (SELECT count(*)::int FROM payments y WHERE y.event_id = e.id AND y.status = 'PENDING') AS pending,
        (SELECT count(*)::int FROM payments y WHERE y.event_id = e.id AND y.status = 'EXPIRED') AS expired,
        (SELECT count(*)::int FROM (SELECT user_id FROM payments y WHERE y.event_id = e.id AND y.status IN ('PENDING', 'AWAITING_CONFIRMATION', 'PAID') GROUP BY user_id HAVING count(*) > 1) d) AS doubled
      FROM events e WHERE e.id = ${eventId}`
    return {
      holdsPassed: passed.length,
      expiredByTheTick: state.expired as number,
      expiredWithinMs: Date.now() - started,
      heldAgain: released.answers.filter((a) => a.status === 200).length,
      heldAfter: state.held as number,
      ticketCount: state.count as number,
      withinCount: (state.held as number) + (state.sold as number) <= (state.count as number) && state.pending === state.held,
      studentsWithTwoLivePayments: state.doubled as number,
    }
  } finally {
    await sql.end()
  }
}

/**
 * `paid` (issue 35): the same rush on paid events beside free ones on the same server, rounds alternating: a paid
 * event's claim holds the place (a payment row, tickets_held) where a free one issues the ticket. Target: holds per
 * second ≥ 0.8× the free claims' and p99 within 1.2×.
 */
async function realScenario(instances: number, paid = false) {
  const databaseUrl = await dbs.fresh(paid ? 'paid' : `${instances}i`)
  // Event 0: the counting round; then one event per timed round (and, paid, one paid event per round after those).
  const { eventIds, userIds } = await seed(databaseUrl, paid ? 2 * ROUNDS + 1 : ROUNDS + 1, (i) => (paid && i > ROUNDS ? PAID_FEE : 0))
  const nodeArgs = (process.env.RUSH_NODE_ARGS ?? '').split(' ').filter(Boolean)
  const env = { REDIS_URL, JWT_SECRET, LOG_LEVEL, LOG_FORMAT: 'json' }
  const servers = await Promise.all(Array.from({ length: instances }, () => spawnServer(databaseUrl, env, nodeArgs)))
  const floor =
    instances === 1 && !paid ? await spawnNode({ script: 'bench/rush/floor.ts', nodeArgs: ['--import', 'tsx'], ready: '/floor', readyBody: '{}' }) : null
  try {
    // Every student signed in as the app does it: the access token names its session (sid), so the bearer check
    // asks whether that session was revoked (issue 10), as it does for every real student.
    const sign = accessTokens(new TextEncoder().encode(JWT_SECRET)).sign
    const bearer = new Map<number, string>()
    for (const id of userIds) bearer.set(id, `Bearer ${await sign(id, randomUUID())}`)
    const target = (i: number) => servers[i % instances].url
    // Warm-up: open connections and load the code paths, with reads that change nothing.
    await pool(
      Array.from(
        { length: CONCURRENCY },
        (_, i) => () => post(target(i), `/api/v1/event/p/get/${eventIds[0]}`, 'true', { authorization: bearer.get(userIds[i])! }),
      ),
    )
    // ... and the claim path (the handler, the database function and its prepared statement on each pooled
    // connection) with claims for an event that does not exist: 404, nothing written. A server in a real rush
    // has been up for a while; a fresh child's first claims would otherwise pay compilation, not the claim.
    // Each uses one to three of its student's 30 writes a minute; the rounds then send at most two each.
    const missing = JSON.stringify({ event_id: eventIds[eventIds.length - 1] + 1_000_000 })
    // On a loaded machine a fresh server may shed some of these with 503 (plugins/overload.ts): those are sent
    // again, up to three times in all.
    let waiting = userIds.slice(0, CONCURRENCY).map((id, i) => ({ id, i }))
    for (let attempt = 1; waiting.length > 0; attempt++) {
      const warm = await pool(
        waiting.map(
          ({ id, i }) =>
            () =>
              post(target(i), '/api/v1/event/p/claim-ticket', missing, { authorization: bearer.get(id)! }),
        ),
      )
      const statuses = new Set(warm.answers.map((a) => a.status))
      if ([...statuses].some((s) => s !== 404 && s !== 503) || (attempt === 3 && statuses.has(503)))
        throw new Error(`claim warm-up: expected 404 for an unknown event, got ${[...statuses]}`)
      waiting = waiting.filter((_, j) => warm.answers[j].status === 503)
      if (waiting.length > 0) await new Promise((r) => setTimeout(r, 2000))
    }
    if (floor) await pool(Array.from({ length: CONCURRENCY }, (_, i) => () => post(floor.url, '/floor', missing, { authorization: bearer.get(userIds[i])! })))
    if (ROUNDS * (paid ? 4 : 2) + (paid ? 2 : 0) + 2 + 3 > 30) throw new Error('RUSH_ROUNDS too high: every student has 30 writes a minute')

    const claimRound = async (eventId: number): Promise<RoundResult> => {
      const body = JSON.stringify({ event_id: eventId })
      const order = claimOrder(userIds)
      const cpu = await cpuMeter(databaseUrl, servers, ownRedis?.pid)
      const { answers, seconds } = await pool(
        order.map((id, i) => () => post(target(i), '/api/v1/event/p/claim-ticket', body, { authorization: bearer.get(id)! })),
      )
      return { answers, seconds, cpu: await cpu() }
    }
    const floorRound = async (eventId: number): Promise<RoundResult> => {
      const body = JSON.stringify({ event_id: eventId })
      const order = claimOrder(userIds)
      const cpu = await cpuMeter(null, [floor!])
      const { answers, seconds } = await pool(order.map((id) => () => post(floor!.url, '/floor', body, { authorization: bearer.get(id)! })))
      return { answers, seconds, cpu: await cpu() }
    }

    // The counting round (untimed): Redis commands the servers send per claim.
    const monitor = await ownRedis?.monitor()
    const counting = await claimRound(eventIds[0])
    const seen = await monitor?.stop()
    const redisCommandsPerClaim = seen ? round3(seen.commands / counting.answers.length) : null
    const redisCommandsByName = seen?.byCommand ?? null

    const loadAverage = Math.round(loadavg()[0] * 100) / 100 // the 1-minute load of the whole machine: others' work shows here
    const uptimeBefore = uptime()
    const logBytesBefore = servers.reduce((n, s) => n + s.logBytes(), 0)
    const claims: RoundResult[] = []
    const floors: RoundResult[] = []
    const scraping = SCRAPE_MS > 0 ? scraper(new URL('/api/v1/metrics', servers[0].url).toString(), SCRAPE_MS) : null
    const holds: RoundResult[] = []
    for (let r = 0; r < ROUNDS; r++) {
      const eventId = eventIds[r + 1]
      if (floor && r % 2 === 1) floors.push(await floorRound(eventId))
      if (paid && r % 2 === 1) holds.push(await claimRound(eventIds[ROUNDS + 1 + r]))
      claims.push(await claimRound(eventId))
      if (floor && r % 2 === 0) floors.push(await floorRound(eventId))
      if (paid && r % 2 === 0) holds.push(await claimRound(eventIds[ROUNDS + 1 + r]))
    }
    if (scraping) showScrapes(scraping.stop().points, instances)
    // Issue 35: half the holds of the last paid event pass their pay_by; the server's tick releases them, and the
    // students without a place rush again for them (untimed): never more held than the count.
    const paidDatabase = paid ? await heldIn(databaseUrl, eventIds.slice(ROUNDS + 1)) : null
    const expiry = paid ? await expireHalfAndRush(databaseUrl, eventIds[2 * ROUNDS], () => claimRound(eventIds[2 * ROUNDS])) : null
    const logBytes = servers.reduce((n, s) => n + s.logBytes(), 0) - logBytesBefore
    const all = claims.flatMap((c) => c.answers)
    const rounds = (results: RoundResult[]) => {
      const each = results.map((c) => ({ ...latency(c.answers)!, perSecond: round1(c.answers.length / c.seconds) }))
      return {
        each,
        median: { p50: median(each.map((e) => e.p50)), p99: median(each.map((e) => e.p99)), perSecond: median(each.map((e) => e.perSecond)) },
        cpuMsPerRequest: perRequest(
          results.map((c) => c.cpu),
          results.reduce((n, c) => n + c.answers.length, 0),
        ),
      }
    }
    const claimRounds = rounds(claims)
    const floorRounds = floor ? rounds(floors) : null
    const holdRounds = paid ? rounds(holds) : null
    const paidAgainstFree = holdRounds
      ? {
          p99: round3(holdRounds.median.p99 / claimRounds.median.p99),
          throughput: round3(holdRounds.median.perSecond / claimRounds.median.perSecond),
        }
      : null
    const ratios = floorRounds
      ? {
          p50: round3(claimRounds.median.p50 / floorRounds.median.p50),
          p99: round3(claimRounds.median.p99 / floorRounds.median.p99),
          throughput: round3(claimRounds.median.perSecond / floorRounds.median.perSecond),
        }
      : null
    return {
      scenario: paid ? 'paid events beside free ones, one instance (issue 35)' : `${instances} instance${instances > 1 ? 's' : ''} of the server`,
      instances,
      rounds: ROUNDS,
      ...summarize(
        all,
        claims.reduce((n, c) => n + c.seconds, 0),
      ),
      latencyMsByAnswer: { ok: latency(all.filter((a) => a.status === 200)), refused: latency(all.filter((a) => a.status !== 200)) },
      claimRounds,
      floorRounds,
      ratios,
      cpuMsPerClaim: claimRounds.cpuMsPerRequest,
      redisCommandsPerClaim,
      redisCommandsByName,
      logBytesPerClaim: round1(logBytes / all.length),
      loadAverage,
      uptime: uptimeBefore,
      uptimeAfter: uptime(),
      database: await soldIn(databaseUrl, eventIds.slice(0, ROUNDS + 1)),
      holdRounds,
      paidAgainstFree,
      paidDatabase,
      expiry,
    }
  } finally {
    await Promise.all([...servers.map((s) => s.stop()), floor?.stop()])
  }
}

/**
 * The negative control: the claim the API.md "holes" section warns about — read the counter, check it, then
 * write — served by a tiny Fastify app in this process, on its own fresh database, under the same load.
 */
async function unsafeScenario() {
  const databaseUrl = await dbs.fresh('unsafe')
  const {
    eventIds: [eventId],
    userIds,
  } = await seed(databaseUrl, 1)
  const sql = postgres(databaseUrl, { max: 10, onnotice: () => {} })
  const app = Fastify()
  app.post('/unsafe-claim', async (request, reply) => {
    const userId = Number(request.headers['x-user-id'])
    const [event] = await sql`SELECT tickets_sold, ticket_count FROM events WHERE id = ${eventId}`
    if (event.tickets_sold >= event.ticket_count) return reply.status(409).send({ error: true, message: 'Tickets are sold out.' })
    const [mine] = await sql`SELECT ticket_collected FROM participants WHERE event_id = ${eventId} AND user_id = ${userId}`
    if (!mine) return reply.status(403).send({ error: true, message: 'You are not registered for this event.' })
    if (mine.ticket_collected) return reply.status(409).send({ error: true, message: 'You already have a ticket for this event.' })
    await sql`UPDATE participants SET ticket_collected = true, ticket_code = ${newTicketCode()} WHERE event_id = ${eventId} AND user_id = ${userId}`
    // Writes back what it read plus one: concurrent claims overwrite each other, so the counter stays under
    // the CHECK constraint while more students than tickets hold one.
    await sql`UPDATE events SET tickets_sold = ${event.tickets_sold + 1} WHERE id = ${eventId}`
    return { error: false, message: 'Ticket claimed!' }
  })
  const port = await freePort()
  await app.listen({ port, host: '127.0.0.1' })
  try {
    const url = new URL(`http://127.0.0.1:${port}`)
    const body = JSON.stringify({ event_id: eventId })
    const { answers, seconds } = await pool(claimOrder(userIds).map((id) => () => post(url, '/unsafe-claim', body, { 'x-user-id': String(id) })))
    return {
      scenario: 'negative control: unsafe read-then-write claim (bench-only route)',
      instances: 1,
      ...summarize(answers, seconds),
      database: await soldIn(databaseUrl, [eventId]),
    }
  } finally {
    await app.close()
    await sql.end()
  }
}

/** Issue 27: the scraped figures, as a table and the three graphs (bench-results/rush-metrics*.json, rush-graphs*.svg). */
function showScrapes(points: Point[], instances: number) {
  const moving = points.filter((p) => p.claimedPerSecond + p.soldOutPerSecond + p.alreadyPerSecond > 0)
  console.log(`\n   /metrics of instance 1, every ${SCRAPE_MS} ms during the timed rounds (${points.length} intervals, ${moving.length} with claims):`)
  console.log('   t s    claimed/s  sold_out/s  already/s  p50 ms  p99 ms  shed/s  5xx/s  db active  CPU %')
  for (const p of moving.slice(0, 40))
    console.log(
      `   ${String(p.t).padEnd(6)} ${String(p.claimedPerSecond).padStart(9)} ${String(p.soldOutPerSecond).padStart(11)} ${String(p.alreadyPerSecond).padStart(10)} ${String(p.p50 ?? '-').padStart(7)} ${String(p.p99 ?? '-').padStart(7)} ${String(p.shedPerSecond).padStart(7)} ${String(p.fiveXXPerSecond).padStart(6)} ${String(p.dbActive).padStart(10)} ${String(p.cpuPercent).padStart(6)}`,
    )
  mkdirSync('bench-results', { recursive: true })
  const suffix = instances === 1 ? '' : `-${instances}`
  writeFileSync(`bench-results/rush-metrics${suffix}.json`, `${JSON.stringify({ scrapeMs: SCRAPE_MS, uptime: uptime(), points }, null, 2)}\n`)
  writeFileSync(
    `bench-results/rush-graphs${suffix}.svg`,
    graphs(points, `npm run bench:rush, instance 1 of ${instances}, /metrics every ${SCRAPE_MS} ms (${new Date().toISOString().slice(0, 10)})`),
  )
  console.log(`   written: bench-results/rush-metrics${suffix}.json, bench-results/rush-graphs${suffix}.svg`)
}

type Real = Awaited<ReturnType<typeof realScenario>>
type Result = Awaited<ReturnType<typeof unsafeScenario>> & Partial<Real>

const PASS = (ok: boolean) => (ok ? 'PASS' : 'FAIL')

function print(r: Result) {
  console.log(`\n== ${r.scenario}${r.rounds ? ` — ${r.rounds} rounds, one event each` : ''}`)
  console.log(
    `   tickets sold: ${r.database.collected} of ${r.database.ticketCount} over ${r.database.events} event(s), oversold: ${r.database.oversold}${r.database.events > 1 ? `; every event exact (counter and codes): ${r.database.everyEventExact}` : ''}`,
  )
  console.log(`   answers: ${r.requests} claims, ${r.ok} OK, 5xx/network: ${r.fiveXX}; every refusal a 409 with a message: ${r.refusalsAll409}`)
  for (const [reason, n] of Object.entries(r.refusals)) console.log(`   refused ${n}× ${reason}`)
  console.log(`   latency ms (all rounds) p50 ${r.latencyMs.p50}  p95 ${r.latencyMs.p95}  p99 ${r.latencyMs.p99}  max ${r.latencyMs.max}`)
  if (r.latencyMsByAnswer) {
    const { ok, refused } = r.latencyMsByAnswer
    if (ok) console.log(`     200 claimed   p50 ${ok.p50}  p99 ${ok.p99}`)
    if (refused) console.log(`     409 refused   p50 ${refused.p50}  p99 ${refused.p99}`)
  }
  console.log(`   ${r.claimsPerSecond} claims/s over ${r.seconds} s`)
  if (r.claimRounds) {
    const show = (label: string, x: NonNullable<Real['floorRounds']>) =>
      console.log(
        `   ${label} median of rounds: p50 ${x.median.p50} ms, p99 ${x.median.p99} ms, ${x.median.perSecond}/s  (rounds p99: ${x.each.map((e) => e.p99).join(', ')}; /s: ${x.each.map((e) => e.perSecond).join(', ')}); CPU ms per request: server ${x.cpuMsPerRequest.servers}`,
      )
    show('claims', r.claimRounds)
    if (r.floorRounds) show('floor ', r.floorRounds)
    if (r.holdRounds) show('holds ', r.holdRounds)
    if (r.expiry)
      console.log(
        `   half the last paid event's holds passed: ${r.expiry.holdsPassed} passed, ${r.expiry.expiredByTheTick} expired by the server's tick, then a rush: ${r.expiry.heldAgain} answered 200 (new holds and retries); held ${r.expiry.heldAfter} of ${r.expiry.ticketCount}, within the count: ${r.expiry.withinCount}, students with two live payments: ${r.expiry.studentsWithTwoLivePayments}`,
      )
    if (r.paidAgainstFree && r.paidDatabase)
      console.log(
        `   paid holds against free claims: p99 ${r.paidAgainstFree.p99}× (target ≤ ${P99_RATIO_TARGET}×: ${PASS(r.paidAgainstFree.p99 <= P99_RATIO_TARGET)}), throughput ${r.paidAgainstFree.throughput}× (target ≥ ${THROUGHPUT_RATIO_TARGET}×: ${PASS(r.paidAgainstFree.throughput >= THROUGHPUT_RATIO_TARGET)}); places held ${r.paidDatabase.held} of ${r.paidDatabase.ticketCount}, over-held ${r.paidDatabase.overheld}, every paid event exact (held, one pending payment per holder, nothing sold): ${r.paidDatabase.everyEventExact}`,
      )
    if (r.ratios)
      console.log(
        `   against the floor: p50 ${r.ratios.p50}×, p99 ${r.ratios.p99}× (target ≤ ${P99_RATIO_TARGET}×: ${PASS(r.ratios.p99 <= P99_RATIO_TARGET)}), throughput ${r.ratios.throughput}× (target ≥ ${THROUGHPUT_RATIO_TARGET}×: ${PASS(r.ratios.throughput >= THROUGHPUT_RATIO_TARGET)})`,
      )
  }
  if (r.cpuMsPerClaim) {
    const c = r.cpuMsPerClaim
    const redisCpu = ownRedis ? `, Redis ${c.redis}` : ', Redis not measured (shared REDIS_URL)'
    console.log(`   CPU ms per claim: servers ${c.servers}, database ${c.database}${redisCpu}, load generator ${c.loadGenerator}`)
    console.log(
      `   Redis commands per claim (sent by the servers; a script is one): ${r.redisCommandsPerClaim ?? 'not counted (shared REDIS_URL)'} ${JSON.stringify(r.redisCommandsByName ?? {})}; log bytes per claim: ${r.logBytesPerClaim}`,
    )
    console.log(`   load: ${r.uptime}\n   after: ${r.uptimeAfter}`)
  }
}

const how = {
  students: STUDENTS,
  tickets: TICKETS,
  rounds: ROUNDS,
  doubleTapShare: DOUBLE_TAP,
  concurrency: CONCURRENCY,
  logLevel: LOG_LEVEL,
  server: SERVER,
  scrapeMs: SCRAPE_MS,
  transport:
    'HTTP/1.1 keep-alive from this process to build/server/main.js child processes (the compiled server, as npm start runs it; output to a file); round-robin across instances. Floor: bench/rush/floor.ts, a bare Fastify process with one POST route answering 200, same load generator, requests and concurrency, rounds alternating with the claim rounds',
  database: ADMIN_URL.replace(/\/\/[^@]*@/, '//…@'),
  redis: ownRedis ? 'a private redis-server started by the bench' : REDIS_URL,
  cpus: cpus().length,
  node: process.version,
  startedAt: new Date().toISOString(),
}
console.log(
  `rush: ${STUDENTS} registered students, ${TICKETS} tickets an event, ${ROUNDS} rounds, ${CONCURRENCY} claims in flight, ${Math.round(DOUBLE_TAP * 100)}% double taps, servers at LOG_LEVEL=${LOG_LEVEL}; ${how.cpus} CPUs, Node ${how.node}`,
)

const results: Result[] = []
try {
  for (const instances of [1, 2]) {
    if (ONLY && ONLY !== String(instances)) continue
    const r = await realScenario(instances)
    print(r)
    results.push(r)
  }
  if (!ONLY || ONLY === 'paid') {
    const paid = await realScenario(1, true)
    print(paid)
    results.push(paid)
  }
  if (!ONLY || ONLY === 'unsafe') {
    const control = await unsafeScenario()
    print(control)
    results.push(control)
  }
} finally {
  agent.destroy()
  await dbs.dropAll()
  ownRedis?.stop()
}

if (ONLY) process.exit(0) // a single scenario, for profiling: no targets, no results file
const [one, two, paid, control] = results
const exact = (r: Result) => r.database.everyEventExact
const targets = {
  exactTicketsEveryEventOneInstance: exact(one),
  exactTicketsEveryEventTwoInstances: exact(two),
  zeroOversold: one.database.oversold === 0 && two.database.oversold === 0,
  zero5xx: one.fiveXX === 0 && two.fiveXX === 0,
  everyRefusalA409WithMessage: one.refusalsAll409 && two.refusalsAll409,
  p99Within250ms: one.latencyMs.p99 <= 250 && two.latencyMs.p99 <= 250,
  p99WithinFloorRatio: (one.ratios?.p99 ?? Number.POSITIVE_INFINITY) <= P99_RATIO_TARGET,
  throughputWithinFloorRatio: (one.ratios?.throughput ?? 0) >= THROUGHPUT_RATIO_TARGET,
  redisOneCommandPerClaimAtMost: one.redisCommandsPerClaim === null || one.redisCommandsPerClaim === undefined || one.redisCommandsPerClaim <= 1,
  negativeControlOversold: control.database.oversold > 0,
  paidEveryPlaceHeldOnce: paid.paidDatabase?.everyEventExact === true && paid.fiveXX === 0,
  paidHalfExpiredNeverOversold:
    paid.expiry?.withinCount === true && paid.expiry.studentsWithTwoLivePayments === 0 && paid.expiry.expiredByTheTick === paid.expiry.holdsPassed,
  paidHoldsThroughputWithinFreeRatio: (paid.paidAgainstFree?.throughput ?? 0) >= THROUGHPUT_RATIO_TARGET,
  paidHoldsP99WithinFreeRatio: (paid.paidAgainstFree?.p99 ?? Number.POSITIVE_INFINITY) <= P99_RATIO_TARGET,
}
console.log(
  '\ntargets:',
  Object.entries(targets)
    .map(([k, v]) => `${PASS(v)} ${k}`)
    .join('\n         '),
)
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/rush.json', `${JSON.stringify({ how, results, targets }, null, 2)}\n`)
console.log('written: bench-results/rush.json')
// Speed targets are reported, not enforced: the exit code says whether the rush was correct.
const SPEED = new Set([
  'p99Within250ms',
  'p99WithinFloorRatio',
  'throughputWithinFloorRatio',
  'redisOneCommandPerClaimAtMost',
  'paidHoldsThroughputWithinFreeRatio',
  'paidHoldsP99WithinFreeRatio',
])
const correctness = Object.entries(targets)
  .filter(([k]) => !SPEED.has(k))
  .every(([, v]) => v)
process.exit(correctness ? 0 : 1)
