// `npm run bench:rush` (issue 6): the ticket rush on PostgreSQL through the REAL HTTP server.
//
// For each scenario (one server instance, then two on one PostgreSQL and one Redis, requests round-robin):
// a fresh database, 2,000 registered students, an event with 500 tickets, and every student claiming once
// (10% of them twice, at the same time, as a double tap), 200 claims in flight at a time. Then the negative
// control: the same harness and load against a deliberately unsafe read-then-write claim that exists only
// in this file, which must oversell (proof that the harness would see an oversell).
// Prints tickets sold, refusals by reason, 5xx, latency p50/p95/p99 and claims per second, and writes
// bench-results/rush.json.
//
// Environment: DATABASE_URL or TEST_DATABASE_URL (an admin URL: fresh databases are created next to it and
// dropped after), REDIS_URL (default redis://127.0.0.1:6379), RUSH_STUDENTS, RUSH_TICKETS, RUSH_CONCURRENCY.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import Fastify from 'fastify'
import postgres from 'postgres'
import { accessTokens } from '../../server/auth/tokens.ts'
import { newTicketCode } from '../../server/db/claims.ts'
import { openDatabase, schema } from '../../server/db/index.ts'
import { freePort } from '../../test/e2e/support/server.ts'

const ONLY = process.env.RUSH_ONLY // "1", "2" or "unsafe": one scenario, for profiling
const ADMIN_URL = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://root@127.0.0.1:5432/test'
const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379'
const STUDENTS = Number(process.env.RUSH_STUDENTS ?? 2000)
const TICKETS = Number(process.env.RUSH_TICKETS ?? 500)
const CONCURRENCY = Number(process.env.RUSH_CONCURRENCY ?? 200)
const DOUBLE_TAP = 0.1
const JWT_SECRET = randomBytes(32).toString('base64url')

const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} })
const created: string[] = []

async function freshDatabase(label: string): Promise<string> {
  const name = `rush_${label}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
  await admin.unsafe(`CREATE DATABASE ${name}`)
  created.push(name)
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return url.toString()
}

/** Migrates, then inserts a council, the event and the registered students in bulk. */
async function seed(url: string): Promise<{ eventId: number; userIds: number[] }> {
  const database = await openDatabase({ url, max: 2 })
  const db = database.db
  const [council] = await db.insert(schema.councils).values({ slug: 'bench', name: 'Bench Council' }).returning({ id: schema.councils.id })
  const [event] = await db
    .insert(schema.events)
    .values({
      slug: 'rush',
      name: 'The Rush',
      organizerId: council.id,
      state: 'TICKET_OPEN',
      isTicketFeatureEnabled: true,
      ticketCount: TICKETS,
      dates: ['2026-12-01T19:00:00+05:30'],
    })
    .returning({ id: schema.events.id })
  const userIds: number[] = []
  for (let i = 0; i < STUDENTS; i += 500) {
    const rows = await db
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
    await db.insert(schema.participants).values(rows.map((r) => ({ eventId: event.id, userId: r.id })))
    userIds.push(...rows.map((r) => r.id))
  }
  await database.close()
  return { eventId: event.id, userIds }
}

interface Instance {
  url: URL
  child?: ChildProcess
  stop(): Promise<void>
}

/** The compiled server, as `npm start` runs it (npm run bench:rush builds it first). */
const SERVER = 'build/server/main.js'

async function startInstance(databaseUrl: string): Promise<Instance> {
  const port = await freePort()
  let log = ''
  // RUSH_NODE_ARGS: extra flags for the servers, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile them.
  const nodeArgs = (process.env.RUSH_NODE_ARGS ?? '').split(' ').filter(Boolean)
  const child = spawn(process.execPath, [...nodeArgs, SERVER], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      REDIS_URL,
      JWT_SECRET,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'rush-')),
      STATIC_DIR: join(tmpdir(), 'rush-no-static'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  const url = new URL(`http://127.0.0.1:${port}`)
  for (const deadline = Date.now() + 60_000; ; ) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`)
    try {
      if ((await fetch(new URL('/api/v1/health', url))).ok) break
    } catch {}
    if (Date.now() > deadline) throw new Error(`server did not start:\n${log}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
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

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

function summarize(answers: Answer[], seconds: number) {
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b)
  const refusals: Record<string, number> = {}
  for (const a of answers) if (a.status !== 200) refusals[`${a.status} ${a.message}`] = (refusals[`${a.status} ${a.message}`] ?? 0) + 1
  return {
    requests: answers.length,
    ok: answers.filter((a) => a.status === 200).length,
    refusals,
    refusalsAll409: answers.every((a) => a.status === 200 || (a.status === 409 && a.message.length > 0)),
    fiveXX: answers.filter((a) => a.status >= 500 || a.status === 0).length,
    latencyMs: { p50: round(percentile(ms, 50)), p95: round(percentile(ms, 95)), p99: round(percentile(ms, 99)), max: round(ms[ms.length - 1]) },
    seconds: round(seconds),
    claimsPerSecond: round(answers.length / seconds),
  }
}
const round = (n: number) => Math.round(n * 10) / 10

async function soldIn(databaseUrl: string, eventId: number) {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} })
  const [row] = await sql`
    SELECT e.ticket_count AS count, e.tickets_sold AS counter,
      (SELECT count(*)::int FROM participants p WHERE p.event_id = e.id AND p.ticket_collected) AS collected,
      (SELECT count(DISTINCT p.ticket_code)::int FROM participants p WHERE p.event_id = e.id AND p.ticket_collected) AS codes
    FROM events e WHERE e.id = ${eventId}`
  await sql.end()
  return {
    ticketCount: row.count as number,
    counter: row.counter as number,
    collected: row.collected as number,
    distinctCodes: row.codes as number,
    oversold: Math.max(0, (row.collected as number) - (row.count as number)),
  }
}

/** CPU time (user + system, ms) a process has used so far, from /proc; 0 where /proc is not there. */
function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // utime + stime, in USER_HZ (100) ticks
  } catch {
    return 0
  }
}

/**
 * CPU spent per claim by the servers, by the PostgreSQL backends of the bench database, and by this load
 * generator: on a shared 2-core machine latency moves with whatever else runs, CPU per claim much less, so
 * it shows what a change to the claim path did even on a noisy run.
 */
async function cpuMeter(databaseUrl: string, servers: Instance[]) {
  const database = new URL(databaseUrl).pathname.slice(1)
  const backends = async () => (await admin`SELECT pid FROM pg_stat_activity WHERE datname = ${database}`).map((r) => r.pid as number)
  const startBackends = new Map((await backends()).map((pid) => [pid, cpuMsOf(pid)]))
  const startServers = servers.map((s) => cpuMsOf(s.child?.pid))
  const startSelf = process.cpuUsage()
  return {
    async perClaim(claims: number) {
      const self = process.cpuUsage(startSelf)
      const server = servers.reduce((sum, s, i) => sum + cpuMsOf(s.child?.pid) - startServers[i], 0)
      let db = 0
      for (const pid of await backends()) db += cpuMsOf(pid) - (startBackends.get(pid) ?? 0)
      const per = (ms: number) => Math.round((ms / claims) * 1000) / 1000
      return { servers: per(server), database: per(db), loadGenerator: per((self.user + self.system) / 1000) }
    },
  }
}

async function realScenario(instances: number) {
  const databaseUrl = await freshDatabase(`${instances}i`)
  const { eventId, userIds } = await seed(databaseUrl)
  const servers = await Promise.all(Array.from({ length: instances }, () => startInstance(databaseUrl)))
  try {
    const sign = accessTokens(new TextEncoder().encode(JWT_SECRET)).sign
    const bearer = new Map<number, string>()
    for (const id of userIds) bearer.set(id, `Bearer ${await sign(id)}`)
    // Warm-up: open connections and load the code paths, with reads that change nothing.
    await pool(
      Array.from(
        { length: CONCURRENCY },
        (_, i) => () => post(servers[i % instances].url, '/api/v1/event/p/get/' + eventId, 'true', { authorization: bearer.get(userIds[i])! }),
      ),
    )
    // ... and the claim path (the handler, the database function and its prepared statement on each pooled
    // connection) with claims for an event that does not exist: 404, nothing written. A server in a real rush
    // has been up for a while; a fresh child's first claims would otherwise pay compilation, not the claim.
    // Each uses one of its student's 30 writes a minute; the rush then sends at most two.
    const missing = JSON.stringify({ event_id: eventId + 1_000_000 })
    const warm = await pool(
      Array.from(
        { length: CONCURRENCY },
        (_, i) => () => post(servers[i % instances].url, '/api/v1/event/p/claim-ticket', missing, { authorization: bearer.get(userIds[i])! }),
      ),
    )
    if (!warm.answers.every((a) => a.status === 404))
      throw new Error(`claim warm-up: expected 404 for an unknown event, got ${[...new Set(warm.answers.map((a) => a.status))]}`)

    const body = JSON.stringify({ event_id: eventId })
    const order = claimOrder(userIds)
    const loadAverage = Math.round(loadavg()[0] * 100) / 100 // the 1-minute load of the whole machine: others' work shows here
    const cpu = await cpuMeter(databaseUrl, servers)
    const { answers, seconds } = await pool(
      order.map((id, i) => () => post(servers[i % instances].url, '/api/v1/event/p/claim-ticket', body, { authorization: bearer.get(id)! })),
    )
    const cpuMsPerClaim = await cpu.perClaim(answers.length)
    return {
      scenario: `${instances} instance${instances > 1 ? 's' : ''} of the server`,
      instances,
      ...summarize(answers, seconds),
      cpuMsPerClaim,
      loadAverage,
      database: await soldIn(databaseUrl, eventId),
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
  }
}

/**
 * The negative control: the claim the API.md "holes" section warns about — read the counter, check it, then
 * write — served by a tiny Fastify app in this process, on its own fresh database, under the same load.
 */
async function unsafeScenario() {
  const databaseUrl = await freshDatabase('unsafe')
  const { eventId, userIds } = await seed(databaseUrl)
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
      database: await soldIn(databaseUrl, eventId),
    }
  } finally {
    await app.close()
    await sql.end()
  }
}

type Result = Omit<Awaited<ReturnType<typeof realScenario>>, 'cpuMsPerClaim' | 'loadAverage'> &
  Partial<Pick<Awaited<ReturnType<typeof realScenario>>, 'cpuMsPerClaim' | 'loadAverage'>>

function print(r: Result) {
  console.log(`\n== ${r.scenario}`)
  console.log(
    `   tickets sold: ${r.database.collected} of ${r.database.ticketCount} (counter ${r.database.counter}, distinct codes ${r.database.distinctCodes}), oversold: ${r.database.oversold}`,
  )
  console.log(`   answers: ${r.requests} claims, ${r.ok} OK, 5xx/network: ${r.fiveXX}; every refusal a 409 with a message: ${r.refusalsAll409}`)
  for (const [reason, n] of Object.entries(r.refusals)) console.log(`   refused ${n}× ${reason}`)
  console.log(`   latency ms p50 ${r.latencyMs.p50}  p95 ${r.latencyMs.p95}  p99 ${r.latencyMs.p99}  max ${r.latencyMs.max}`)
  console.log(`   ${r.claimsPerSecond} claims/s over ${r.seconds} s`)
  if (r.cpuMsPerClaim) {
    const c = r.cpuMsPerClaim
    console.log(`   CPU ms per claim: servers ${c.servers}, database ${c.database}, load generator ${c.loadGenerator}; load average before ${r.loadAverage}`)
  }
}

const how = {
  students: STUDENTS,
  tickets: TICKETS,
  doubleTapShare: DOUBLE_TAP,
  concurrency: CONCURRENCY,
  transport:
    'HTTP/1.1 keep-alive from this process to build/server/main.js child processes (the compiled server, as npm start runs it); round-robin across instances',
  database: ADMIN_URL.replace(/\/\/[^@]*@/, '//…@'),
  redis: REDIS_URL,
  cpus: cpus().length,
  node: process.version,
  startedAt: new Date().toISOString(),
}
console.log(
  `rush: ${STUDENTS} registered students, ${TICKETS} tickets, ${CONCURRENCY} claims in flight, ${Math.round(DOUBLE_TAP * 100)}% double taps; ${how.cpus} CPUs, Node ${how.node}`,
)

const results = []
try {
  for (const instances of [1, 2]) {
    if (ONLY && ONLY !== String(instances)) continue
    const r = await realScenario(instances)
    print(r)
    results.push(r)
  }
  if (!ONLY || ONLY === 'unsafe') {
    const control = await unsafeScenario()
    print(control)
    results.push(control)
  }
} finally {
  agent.destroy()
  for (const name of created) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  await admin.end()
}

if (ONLY) process.exit(0) // a single scenario, for profiling: no targets, no results file
const [one, two, control] = results
const targets = {
  exactTicketsOneInstance: one.database.collected === TICKETS && one.database.counter === TICKETS,
  exactTicketsTwoInstances: two.database.collected === TICKETS && two.database.counter === TICKETS,
  zeroOversold: one.database.oversold === 0 && two.database.oversold === 0,
  zero5xx: one.fiveXX === 0 && two.fiveXX === 0,
  everyRefusalA409WithMessage: one.refusalsAll409 && two.refusalsAll409,
  p99Within250ms: one.latencyMs.p99 <= 250 && two.latencyMs.p99 <= 250,
  negativeControlOversold: control.database.oversold > 0,
}
console.log(
  '\ntargets:',
  Object.entries(targets)
    .map(([k, v]) => `${v ? 'PASS' : 'FAIL'} ${k}`)
    .join('\n         '),
)
mkdirSync('bench-results', { recursive: true })
writeFileSync('bench-results/rush.json', JSON.stringify({ how, results, targets }, null, 2) + '\n')
console.log('written: bench-results/rush.json')
const correctness = Object.entries(targets)
  .filter(([k]) => k !== 'p99Within250ms')
  .every(([, v]) => v)
process.exit(correctness ? 0 : 1)
