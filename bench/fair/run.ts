// `npm run bench:fair` (issue 24): a fair opening on PostgreSQL through the REAL HTTP server (build/server).
//
// 1. The rush with the draw on: FAIR_ENTRANTS (20,000) registered students each claim once in the window (10% twice
//    at once, a double tap), FAIR_CONCURRENCY (200) in flight: entries per second and latency (every answer must be
//    200 IN_DRAW). Then the draw of those 20,000 for FAIR_TICKETS (2,000) tickets, timed in this process through the
//    server's own code (server/db/tickets/fair.ts drawNow: one transaction, fair_draw() set-based), with the server stopped so
//    that its scheduler does not take the draw first; and FAIR_DRAWS more draws of 20,000 entrants seeded by SQL, for
//    a median. Checked after each: tickets_sold = holders = tickets, waitlist = entrants - tickets, keys sorted.
// 2. The fairness rounds: FAIR_STUDENTS (2,000) students, half behind a '3G' round trip (300 ms) and half behind
//    10 ms, all tap at the same instant for FAIR_ROUND_TICKETS (500) tickets, FAIR_ROUNDS (10; 0 skips this part) rounds first come,
//    first served and as many with a draw window of FAIR_WINDOW (15) s (longer than the server takes to answer 2,000 claims on a loaded machine: a claim answered after the window is first come, first served): each group's share of the tickets.
// Prints every figure with `uptime`'s load average beside it; writes bench-results/fair.json. Never fails on a figure.
//
// Environment: DATABASE_URL or TEST_DATABASE_URL (an admin URL; fresh databases are made beside it and dropped).
import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { loadavg } from 'node:os'
import postgres from 'postgres'
import { accessTokens } from '../../server/auth/tokens.ts'
import { fairRepository } from '../../server/db/tickets/fair.ts'
import { openDatabase, schema } from '../../server/db/index.ts'
import { databases, median, percentile, spawnServer, uptime } from '../support.ts'

const ADMIN_URL = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://root@127.0.0.1:5432/test'
const ENTRANTS = Number(process.env.FAIR_ENTRANTS ?? 20_000)
const TICKETS = Number(process.env.FAIR_TICKETS ?? 2_000)
const CONCURRENCY = Number(process.env.FAIR_CONCURRENCY ?? 200)
const DRAWS = Number(process.env.FAIR_DRAWS ?? 3)
const STUDENTS = Number(process.env.FAIR_STUDENTS ?? 2_000)
const ROUND_TICKETS = Number(process.env.FAIR_ROUND_TICKETS ?? 500)
const ROUNDS = Number(process.env.FAIR_ROUNDS ?? 10)
const WINDOW = Number(process.env.FAIR_WINDOW ?? 15)
const SLOW_RTT = 300
const FAST_RTT = 10
const JWT_SECRET = randomBytes(32).toString('base64url')
const sign = accessTokens(new TextEncoder().encode(JWT_SECRET)).sign

const dbs = databases(ADMIN_URL, 'fair')
const round1 = (n: number) => Math.round(n * 10) / 10
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Answer {
  status: number
  result?: string
  message: string
  ms: number
}

function post(agent: Agent, url: URL, path: string, body: string, token: string): Promise<Answer> {
  const started = performance.now()
  return new Promise((resolve) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${token}` },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (d) => (text += d))
        res.on('end', () => {
          let parsed: { message?: string; result?: string } = {}
          try {
            parsed = JSON.parse(text)
          } catch {}
          resolve({ status: res.statusCode!, result: parsed.result, message: parsed.message ?? text.slice(0, 80), ms: performance.now() - started })
        })
      },
    )
    req.on('error', (err) => resolve({ status: 0, message: `network: ${err.message}`, ms: performance.now() - started }))
    req.end(body)
  })
}

async function pool<T>(jobs: (() => Promise<T>)[], concurrency: number): Promise<{ answers: T[]; seconds: number }> {
  const answers: T[] = new Array(jobs.length)
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: Math.min(concurrency, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++
        answers[i] = await jobs[i]()
      }
    }),
  )
  return { answers, seconds: (performance.now() - started) / 1000 }
}

/** `n` students (one insert per 1,000). */
async function students(db: Awaited<ReturnType<typeof openDatabase>>['db'], n: number, prefix: string): Promise<number[]> {
  const ids: number[] = []
  for (let i = 0; i < n; i += 1000) {
    const rows = await db
      .insert(schema.users)
      .values(
        Array.from({ length: Math.min(1000, n - i) }, (_, j) => ({
          issuer: 'bench',
          subject: `${prefix}${i + j}`,
          email: `${prefix}${i + j}@x.edu`,
          name: 'S',
        })),
      )
      .returning({ id: schema.users.id })
    ids.push(...rows.map((r) => r.id))
  }
  return ids
}

/** A ticketed event in REGISTRATION_CLOSED with a draw window (0: first come, first served), every student registered. */
async function event(sql: postgres.Sql, councilId: number, tickets: number, window: number, userIds: number[]): Promise<number> {
  const [row] = await sql`
    INSERT INTO events (slug, name, organizer_id, state, is_ticket_feature_enabled, ticket_count, fair_window_seconds, fair_seed)
    VALUES (${`e-${randomBytes(5).toString('hex')}`}, 'Bench', ${councilId}, 'REGISTRATION_CLOSED', true, ${tickets}, ${window},
            ${window > 0 ? randomBytes(32).toString('hex') : null})
    RETURNING id`
  await sql`INSERT INTO participants (event_id, user_id) SELECT ${row.id}, u FROM unnest(${sql.array(userIds)}::int[]) AS u`
  return Number(row.id)
}

async function check(sql: postgres.Sql, eventId: number) {
  const [r] = await sql`
    SELECT e.tickets_sold, e.ticket_count,
      (SELECT count(*)::int FROM participants p WHERE p.event_id = e.id AND p.ticket_collected) AS holders,
      (SELECT count(*)::int FROM waitlist w WHERE w.event_id = e.id) AS waitlist,
      (SELECT entrants FROM fair_draws d WHERE d.event_id = e.id) AS entrants,
      (SELECT keys = (SELECT array_agg(k ORDER BY k) FROM unnest(keys) k) FROM fair_draws d WHERE d.event_id = e.id) AS sorted
    FROM events e WHERE e.id = ${eventId}`
  return r
}

async function main() {
  const url = await dbs.fresh('main')
  const database = await openDatabase({ url, max: 4 })
  const sql = postgres(url, { max: 4, onnotice: () => {} })
  const [council] = await database.db.insert(schema.councils).values({ slug: 'bench', name: 'Bench' }).returning({ id: schema.councils.id })
  const results: Record<string, unknown> = { startedAt: new Date().toISOString(), loadBefore: loadavg() }

  // ---- 1. 20,000 entries through the server, then the draw ----
  const entrants = await students(database.db, ENTRANTS, 'a')
  const rush = await event(sql, council.id, TICKETS, 3600, entrants)
  const tokens = new Map<number, string>()
  for (const id of entrants) tokens.set(id, await sign(id))
  const server = await spawnServer(url, { JWT_SECRET, LOG_LEVEL: 'warn', SCHEDULER_INTERVAL_MS: '1000' })
  await sql`UPDATE events SET state = 'TICKET_OPEN' WHERE id = ${rush}`
  const order = [...entrants, ...entrants.slice(0, Math.floor(ENTRANTS / 10))]
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1))
    ;[order[i], order[j]] = [order[j], order[i]]
  }
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const body = JSON.stringify({ event_id: rush })
  console.log(`entries: ${order.length} claims of ${ENTRANTS} students in the window, ${CONCURRENCY} in flight; ${uptime()}`)
  const { answers, seconds } = await pool(
    order.map((id) => () => post(agent, server.url, '/api/v1/event/p/claim-ticket', body, tokens.get(id)!)),
    CONCURRENCY,
  )
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b)
  const entry = {
    claims: answers.length,
    inDraw: answers.filter((a) => a.status === 200 && a.result === 'IN_DRAW').length,
    other: answers.filter((a) => !(a.status === 200 && a.result === 'IN_DRAW')).length,
    otherByStatus: {} as Record<string, number>,
    seconds: round1(seconds),
    perSecond: round1(answers.length / seconds),
    latencyMs: { p50: round1(percentile(ms, 50)), p99: round1(percentile(ms, 99)), max: round1(ms[ms.length - 1]) },
    load: uptime(),
  }
  for (const a of answers)
    if (!(a.status === 200 && a.result === 'IN_DRAW'))
      entry.otherByStatus[`${a.status} ${a.message}`] = (entry.otherByStatus[`${a.status} ${a.message}`] ?? 0) + 1
  console.log('entries:', JSON.stringify(entry))
  const [{ n: rows }] = await sql`SELECT count(*)::int AS n FROM fair_entrants WHERE event_id = ${rush}`
  console.log(`entries: ${rows} rows in fair_entrants (one per student)`)
  await server.stop()

  // The draw, timed here through the server's own code, with no server running (nobody else takes it).
  const fair = fairRepository(database.db)
  const draws: { entrants: number; ms: number; load: string }[] = []
  const drawOnce = async (eventId: number) => {
    await sql`UPDATE events SET fair_draw_at = now() - interval '1 second' WHERE id = ${eventId}`
    const started = performance.now()
    const done = await fair.drawNow(eventId)
    const took = performance.now() - started
    const c = await check(sql, eventId)
    const d = { entrants: done?.entrants ?? 0, ms: round1(took), load: uptime(), ...c }
    console.log('draw:', JSON.stringify(d))
    draws.push(d)
  }
  await drawOnce(rush)
  for (let i = 0; i < DRAWS; i++) {
    const id = await event(sql, council.id, TICKETS, 3600, entrants)
    await sql`UPDATE events SET state = 'TICKET_OPEN' WHERE id = ${id}`
    await sql`INSERT INTO fair_entrants (event_id, user_id) SELECT ${id}, u FROM unnest(${sql.array(entrants)}::int[]) AS u`
    await drawOnce(id)
  }
  results.entries = entry
  results.draws = draws
  console.log(`draw of ${ENTRANTS}: median ${median(draws.map((d) => d.ms))} ms over ${draws.length} draws`)

  // ---- 2. Fairness: two groups tapping at once, first come vs the draw (FAIR_ROUNDS=0: the rush and draw only) ----
  if (ROUNDS > 0) await fairness(url, database, sql, council.id, tokens, results)

  await sql.end()
  await database.close()
  await dbs.dropAll()
  mkdirSync('bench-results', { recursive: true })
  writeFileSync('bench-results/fair.json', `${JSON.stringify({ ...results, loadAfter: loadavg() }, null, 2)}\n`)
}

async function fairness(
  url: string,
  database: Awaited<ReturnType<typeof openDatabase>>,
  sql: postgres.Sql,
  councilId: number,
  tokens: Map<number, string>,
  results: Record<string, unknown>,
) {
  const council = { id: councilId }
  const group = await students(database.db, STUDENTS, 'b')
  const slow = new Set(group.slice(0, STUDENTS / 2))
  for (const id of group) tokens.set(id, await sign(id))
  const server = await spawnServer(url, { JWT_SECRET, LOG_LEVEL: 'warn', SCHEDULER_INTERVAL_MS: '200' })
  const wide = new Agent({ keepAlive: true, maxSockets: STUDENTS })
  // Warm the connections, so that no group pays a TCP handshake the other does not.
  await pool(
    group.map((id) => () => post(wide, server.url, '/api/v1/event/p/get', 'true', tokens.get(id)!)),
    STUDENTS,
  )
  const shares: { mode: string; round: number; slowShare: number; fastShare: number; load: string }[] = []
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? ['first come', 'draw'] : ['draw', 'first come']) {
      const id = await event(sql, council.id, ROUND_TICKETS, mode === 'draw' ? WINDOW : 0, group)
      await sql`UPDATE events SET state = 'TICKET_OPEN' WHERE id = ${id}`
      const b = JSON.stringify({ event_id: id })
      // Each student's request leaves after half their round trip and its answer arrives half a round trip later.
      await Promise.all(
        group.map(async (u) => {
          const rtt = slow.has(u) ? SLOW_RTT : FAST_RTT
          await sleep(rtt / 2)
          await post(wide, server.url, '/api/v1/event/p/claim-ticket', b, tokens.get(u)!)
          await sleep(rtt / 2)
        }),
      )
      if (mode === 'draw') {
        for (let i = 0; i < 200; i++) {
          const [e] = await sql`SELECT fair_drawn_at FROM events WHERE id = ${id}`
          if (e.fair_drawn_at) break
          await sleep(100)
        }
      }
      const holders = await sql`SELECT user_id FROM participants WHERE event_id = ${id} AND ticket_collected`
      const slowWon = holders.filter((h) => slow.has(Number(h.user_id))).length
      const s = {
        mode,
        round,
        slowShare: round1((100 * slowWon) / holders.length),
        fastShare: round1((100 * (holders.length - slowWon)) / holders.length),
        load: uptime(),
      }
      console.log('fairness:', JSON.stringify(s))
      shares.push(s)
    }
  }
  await server.stop()
  const summary = (mode: string) => {
    const list = shares.filter((s) => s.mode === mode)
    return {
      slowMedian: median(list.map((s) => s.slowShare)),
      slowMin: Math.min(...list.map((s) => s.slowShare)),
      slowMax: Math.max(...list.map((s) => s.slowShare)),
    }
  }
  results.fairness = {
    rounds: shares,
    firstCome: summary('first come'),
    draw: summary('draw'),
    groupShareOfEntrants: 50,
    target: 'draw within 5 points of 50%',
  }
  console.log(
    `fairness: the 3G group's share of tickets, first come: ${JSON.stringify(summary('first come'))}; with the draw: ${JSON.stringify(summary('draw'))} (its share of entrants: 50%); ${uptime()}`,
  )
}

await main()
