// `npm run bench:abuse` (issue 21 item 1): students polling POST /event/p/get through the compiled server, first
// alone, then with the three slow callers of the issue beside them, each within its limits:
// - a door volunteer's /door/p/sync calls, 30 in flight, each of 100 codes of no ticket, paced at the door's limit
//   (600 a minute);
// - an organiser's uploads of a 4 MB photo, two at a time, each body sent at a phone's pace (~0.9 MB/s, ~4.5 s);
// - a client opening GET /uploads/<a 12 MB image> every 50 ms with a tiny receive window (4 KB, SO_RCVBUF: a helper
//   in Python, tiny-window-reader.py) and reading nothing, giving up after 3 s.
// The two phases alternate over ABUSE_ROUNDS rounds (the machine is shared: one round's p99 is a handful of
// samples at the mercy of whatever else runs). Prints the students' p50/p95/p99 in each phase of each round, the
// ratio of the medians of the rounds' p99s (target <= 1.5x), the students' 503s (target 0), what the slow callers
// got done, the server's CPU, the database and the load average; writes bench-results/abuse.json. It reports and
// never fails.
//
// Two more parts (issue 36):
// - keys (item 3): 30 parallel loops of POST /event/p/get/{id} {keys: true} (as fetch sends it: gzip, deflate, br)
//   on a drawn fair opening of 20,000 entrants, by one student (a fresh one each round), beside the polling students
//   from their first request on (no warm-up: the flood's first answers count); the p99 ratio (target <= 1.5x), what
//   the flood got (statuses, bytes) and the server's CPU. ABUSE_KEY_FLOODERS=30 spreads the loops over 30 students.
// - export (item 2): 60,000 students with activity points on PostgreSQL; the admin's points export (?year=) and the
//   participants CSV of an event all 60,000 registered for, downloaded as a browser does (gzip) while the students
//   poll and the slow callers above run: status, lines against the file's, whether it arrived whole or the client
//   saw an error, seconds.
//
// Environment: DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL admin URL; a fresh database is made beside it and
// dropped after; default postgres://root@127.0.0.1:5432/test), ABUSE_SECONDS (each phase, default 15),
// ABUSE_ROUNDS (default 3), ABUSE_STUDENTS (students polling, default 4), ABUSE_ONLY=door|uploads|readers (one slow
// caller only), ABUSE_PARTS (a comma list of slow, keys, export; default all three), ABUSE_KEY_ENTRANTS (20,000),
// ABUSE_EXPORT_STUDENTS (60,000). BENCH_SERVER names another build's server (the figures before a change).
import { spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { sql } from 'drizzle-orm'
import { accessTokens } from '../../server/auth/tokens.ts'
import { openDatabase, schema } from '../../server/db/index.ts'
import { cpuMsOf, databases, median, percentile, spawnServer, uptime } from '../support.ts'

const ADMIN_URL = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://root@127.0.0.1:5432/test'
const SECONDS = Number(process.env.ABUSE_SECONDS ?? 15)
const ROUNDS = Number(process.env.ABUSE_ROUNDS ?? 3)
const STUDENTS = Number(process.env.ABUSE_STUDENTS ?? 4)
const THINK_MS = 100
const DOOR_IN_FLIGHT = 30
const DOOR_PER_MINUTE = 600
const UNKNOWN_CODES = 100
const UPLOADERS = 2
const READER_EVERY_MS = 50
const READER_GIVES_UP_MS = 3000
const RATIO_TARGET = 1.5
/** ABUSE_ONLY=door|uploads|readers: one slow caller alone (to see what each costs). */
const ONLY = process.env.ABUSE_ONLY
const PARTS = new Set((process.env.ABUSE_PARTS ?? 'slow,keys,export').split(','))
const KEY_ENTRANTS = Number(process.env.ABUSE_KEY_ENTRANTS ?? 20_000)
const FLOOD_LOOPS = 30
const KEY_FLOODERS = Number(process.env.ABUSE_KEY_FLOODERS ?? 1)
const EXPORT_STUDENTS = Number(process.env.ABUSE_EXPORT_STUDENTS ?? 60_000)
const EXPORT_ROUNDS = 2
const JWT_SECRET = randomBytes(32).toString('base64url')

const dbs = databases(ADMIN_URL, 'abuse')
const databaseUrl = await dbs.fresh()
const uploadsDir = mkdtempSync(join(tmpdir(), 'bench-abuse-uploads-'))

/** A council with an organiser, an event in TICKET_OPEN with a door volunteer, and the students. */
async function seed() {
  const database = await openDatabase({ url: databaseUrl, max: 2 })
  const db = database.db
  const [council] = await db.insert(schema.councils).values({ slug: 'abuse', name: 'Abuse Council' }).returning({ id: schema.councils.id })
  const [event] = await db
    .insert(schema.events)
    .values({ slug: 'abuse-event', name: 'Door Night', organizerId: council!.id, state: 'TICKET_OPEN', isTicketFeatureEnabled: true, ticketCount: 100 })
    .returning({ id: schema.events.id })
  const users = await db
    .insert(schema.users)
    .values(Array.from({ length: STUDENTS + 2 }, (_, i) => ({ issuer: 'bench', subject: `a${i}`, email: `a${i}@example.edu`, name: `Person ${i}` })))
    .returning({ id: schema.users.id })
  const [organiser, door, ...students] = users.map((u) => u.id)
  await db.insert(schema.councilOrganizers).values({ councilId: council!.id, userId: organiser! })
  await db.insert(schema.eventStaff).values({ eventId: event!.id, userId: door! })
  await database.close()
  return { councilId: council!.id, eventId: event!.id, organiser: organiser!, door: door!, students }
}

/** New users (`prefix` + n), answering their ids; `admin` makes them admins. */
async function newUsers(db: Awaited<ReturnType<typeof openDatabase>>['db'], prefix: string, n: number, admin = false): Promise<number[]> {
  const rows = await db
    .insert(schema.users)
    .values(
      Array.from({ length: n }, (_, i) => ({
        issuer: 'bench',
        subject: `${prefix}${i}`,
        email: `${prefix}${i}@example.edu`,
        name: `${prefix} ${i}`,
        isAdmin: admin,
      })),
    )
    .returning({ id: schema.users.id })
  return rows.map((r) => r.id)
}

/** Issue 36 item 3: a fair opening drawn with KEY_ENTRANTS keys, and the students who will flood it (one set a round). */
async function seedDrawnEvent(councilId: number) {
  const database = await openDatabase({ url: databaseUrl, max: 2 })
  const db = database.db
  const seed = randomBytes(32).toString('hex')
  const [event] = await db
    .insert(schema.events)
    .values({
      slug: 'abuse-draw',
      name: 'The Draw',
      organizerId: councilId,
      state: 'TICKET_OPEN',
      isTicketFeatureEnabled: true,
      ticketCount: 500,
      fairWindowSeconds: 60,
      fairSeed: seed,
      fairDrawnAt: new Date(),
      fairEntrantCount: KEY_ENTRANTS,
    })
    .returning({ id: schema.events.id })
  // The published record as fair_draw() writes it: one 64-hex key per entrant, sorted.
  await db.execute(sql`
    INSERT INTO fair_draws (event_id, seed, entrants, winners, waitlisted, keys)
    SELECT ${event!.id}, ${seed}, ${KEY_ENTRANTS}, 500, ${KEY_ENTRANTS - 500}, array_agg(k ORDER BY k)
      FROM (SELECT encode(sha256(convert_to(${seed} || g, 'UTF8')), 'hex') AS k FROM generate_series(1, ${KEY_ENTRANTS}) g) x`)
  const flooders: number[][] = []
  for (let r = 0; r < ROUNDS; r++) flooders.push(await newUsers(db, `flood${r}-`, KEY_FLOODERS))
  await database.close()
  return { eventId: event!.id, flooders }
}

/**
 * Issue 36 item 2: EXPORT_STUDENTS students of one graduation year, three check-ins each at events that give points,
 * all registered (ticket collected) for one more event; and an admin.
 */
async function seedExport(councilId: number) {
  const database = await openDatabase({ url: databaseUrl, max: 2 })
  const db = database.db
  await db.execute(sql`
    INSERT INTO events (slug, name, organizer_id, state, dates, ticket_count, is_ticket_feature_enabled, activity_points)
    SELECT 'px' || g, 'Points ' || g, ${councilId}, 'COMPLETED', jsonb_build_array('2026-02-01T10:00:00+05:30'), 100000, true,
           jsonb_build_object('category', (ARRAY['Technical','Cultural','Sports','Social service/NSS','Entrepreneurship','Professional body'])[1 + g % 6],
                              'points', 2 + g % 9, 'per_day', false, 'winner', 10, 'volunteer', 5, 'organiser', 8)
      FROM generate_series(1, 60) g`)
  const [all] = await db
    .insert(schema.events)
    .values({
      slug: 'abuse-everyone',
      name: 'Everyone',
      organizerId: councilId,
      state: 'TICKET_OPEN',
      isTicketFeatureEnabled: true,
      ticketCount: EXPORT_STUDENTS,
    })
    .returning({ id: schema.events.id })
  await db.execute(sql`
    INSERT INTO users (issuer, subject, email, name, phone_number, roll_number, year, branch)
    SELECT 'export', 'e' || g, 'e' || g || '@example.edu', 'Student ' || g, (8000000000 + g)::text, 'E' || g, 2027,
           (ARRAY['Computer_Engineering','Information_Technology','Mechanical','Electronics_And_Telecommunications'])[1 + g % 4]
      FROM generate_series(1, ${EXPORT_STUDENTS}) g`)
  await db.execute(sql`
    INSERT INTO participants (event_id, user_id, ticket_collected, ticket_code, ticket_collected_at, checked_in_at)
    SELECT DISTINCT ON (e.id, u.id) e.id, u.id, true, 'X' || u.id || '-' || e.id, '2026-01-01T00:00:00Z', '2026-02-01T10:05:00+05:30'
      FROM users u CROSS JOIN generate_series(1, 3) k JOIN events e ON e.slug = 'px' || (1 + (u.id * 7 + k * 13) % 60)
     WHERE u.issuer = 'export'`)
  await db.execute(sql`
    INSERT INTO participants (event_id, user_id, ticket_collected, ticket_code, ticket_collected_at)
    SELECT ${all!.id}, id, true, 'A' || id, now() FROM users WHERE issuer = 'export'`)
  await db.execute(sql`ANALYZE`)
  const [admin] = await newUsers(db, 'export-admin', 1, true)
  await database.close()
  return { everyone: all!.id, admin: admin! }
}

const seeded = await seed()
const server = await spawnServer(databaseUrl, { JWT_SECRET, UPLOADS_DIR: uploadsDir, LOG_LEVEL: 'warn' })
const url = server.url
const sign = accessTokens(new TextEncoder().encode(JWT_SECRET)).sign
const bearer = async (id: number) => `Bearer ${await sign(id, randomUUID())}`
const [organiserAuth, doorAuth] = [await bearer(seeded.organiser), await bearer(seeded.door)]
const studentAuths = await Promise.all(seeded.students.map(bearer))

// A large stored image (12 MB, as an organiser's upload is not, but a file anyone could find is), so that a reader
// that reads nothing keeps its answer unfinished.
const bigImage = `${randomBytes(16).toString('hex')}.webp`
mkdirSync(uploadsDir, { recursive: true })
writeFileSync(join(uploadsDir, bigImage), randomBytes(12 * 1024 * 1024))
const photo = await sharp({ create: { width: 2600, height: 1950, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
  .jpeg({ quality: 88 })
  .toBuffer()

interface Sample {
  status: number
  ms: number
}

/** One student: POST /event/p/get, then a think time, until `until`. */
async function student(authorization: string, until: number, samples: Sample[]) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  while (Date.now() < until) {
    const started = performance.now()
    const status = await new Promise<number>((resolve) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/api/v1/event/p/get',
          method: 'POST',
          agent,
          headers: { authorization, 'content-type': 'application/json', 'content-length': 4 },
        },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.on('error', () => resolve(0))
      req.end('true')
    })
    samples.push({ status, ms: performance.now() - started })
    await new Promise((r) => setTimeout(r, THINK_MS))
  }
  agent.destroy()
}

async function students(seconds: number): Promise<Sample[]> {
  const samples: Sample[] = []
  const until = Date.now() + seconds * 1000
  await Promise.all(studentAuths.map((a) => student(a, until, samples)))
  return samples
}

/** The three slow callers, until stopped; what each got done. */
function slowCallers() {
  let running = true
  const done = { syncs: {} as Record<number, number>, uploads: {} as Record<number, number>, readers: 0 }
  const count = (into: Record<number, number>, status: number) => (into[status] = (into[status] ?? 0) + 1)
  const work: Promise<unknown>[] = []

  // Door syncs: 30 in flight, started no faster than the door's limit allows.
  let next = Date.now()
  const gap = 60_000 / DOOR_PER_MINUTE
  const doorAgent = new Agent({ keepAlive: true, maxSockets: DOOR_IN_FLIGHT })
  const sync = async () => {
    while (running) {
      const at = Math.max(next, Date.now())
      next = at + gap
      await new Promise((r) => setTimeout(r, at - Date.now()))
      if (!running) return
      const body = JSON.stringify({
        event_id: seeded.eventId,
        scans: Array.from({ length: UNKNOWN_CODES }, () => ({
          ticket_code: `X${randomBytes(6).toString('hex')}`,
          scan_id: randomUUID(),
          gate: 'North',
          scanned_at: new Date().toISOString(),
        })),
      })
      const status = await new Promise<number>((resolve) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: '/api/v1/door/p/sync',
            method: 'POST',
            agent: doorAgent,
            headers: { authorization: doorAuth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume()
            res.on('end', () => resolve(res.statusCode ?? 0))
          },
        )
        req.on('error', () => resolve(0))
        req.end(body)
      })
      count(done.syncs, status)
    }
  }
  if (!ONLY || ONLY === 'door') for (let i = 0; i < DOOR_IN_FLIGHT; i++) work.push(sync())

  // Uploads at a phone's pace: 64 KB every 70 ms.
  const upload = () =>
    new Promise<void>((resolve) => {
      const boundary = `----b${randomBytes(8).toString('hex')}`
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
        photo,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ])
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: '/api/v1/org/p/upload',
          method: 'POST',
          headers: { authorization: organiserAuth, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': body.length },
        },
        (res) => {
          count(done.uploads, res.statusCode ?? 0)
          res.resume()
          res.on('end', resolve)
        },
      )
      req.on('error', () => resolve())
      let at = 0
      const send = () => {
        if (at >= body.length) return void req.end()
        req.write(body.subarray(at, at + 64 * 1024))
        at += 64 * 1024
        setTimeout(send, 70)
      }
      send()
    })
  for (let i = 0; i < (!ONLY || ONLY === 'uploads' ? UPLOADERS : 0); i++)
    work.push(
      (async () => {
        while (running) await upload()
      })(),
    )

  // Readers with a tiny receive window that read nothing (a helper process: Node cannot set SO_RCVBUF).
  const readers =
    !ONLY || ONLY === 'readers'
      ? spawn(
          'python3',
          [
            join(import.meta.dirname, 'tiny-window-reader.py'),
            url.hostname,
            url.port,
            `/uploads/${bigImage}`,
            String(READER_EVERY_MS),
            String(READER_GIVES_UP_MS),
          ],
          {
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        )
      : null
  let readersOut = ''
  readers?.stdout?.on('data', (d) => (readersOut += d))

  return {
    done,
    async stop() {
      running = false
      if (readers) {
        readers.kill('SIGTERM')
        await new Promise((r) => readers.once('exit', r))
        done.readers = Number(readersOut.trim()) || 0
      }
      await Promise.all(work)
      doorAgent.destroy()
    },
  }
}

function summary(samples: Sample[]) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b)
  const round = (n: number | undefined) => Math.round((n ?? 0) * 10) / 10
  const statuses: Record<number, number> = {}
  for (const s of samples) statuses[s.status] = (statuses[s.status] ?? 0) + 1
  return {
    requests: samples.length,
    statuses,
    p50: round(percentile(ms, 50)),
    p95: round(percentile(ms, 95)),
    p99: round(percentile(ms, 99)),
    max: round(ms.at(-1)),
  }
}

const how = {
  database: ADMIN_URL.replace(/\/\/[^@]*@/, '//…@'),
  server:
    'build/server/main.js (the compiled server as npm start runs it), NODE_ENV=test with the demo catalogue, production overload and rate-limit settings, LOG_LEVEL=warn',
  students: `${STUDENTS} students, each POST /event/p/get then ${THINK_MS} ms, keep-alive`,
  phases: `${ROUNDS} rounds of ${SECONDS} s alone, then ${SECONDS} s with the slow callers (after 3 s of them alone)${ONLY ? `; ABUSE_ONLY=${ONLY}: that slow caller only` : ''}`,
  slowCallers: `door: ${DOOR_IN_FLIGHT} /door/p/sync in flight, ${UNKNOWN_CODES} unknown codes each, at most ${DOOR_PER_MINUTE}/min; uploads: ${UPLOADERS} at a time, a ${(photo.length / 1e6).toFixed(1)} MB JPEG at 64 KB / 70 ms; readers: GET /uploads/<12 MB> every ${READER_EVERY_MS} ms with a 4 KB receive buffer, nothing read, dropped after ${READER_GIVES_UP_MS} ms`,
  cpus: cpus().length,
  node: process.version,
  startedAt: new Date().toISOString(),
  loadBefore: uptime(),
}
console.log(
  `abuse: ${how.students}; ${how.phases}\n   slow callers: ${how.slowCallers}\n   ${how.server}; database ${how.database}; ${how.cpus} CPUs, Node ${how.node}\n   load: ${how.loadBefore}`,
)

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')
const line = (label: string, s: ReturnType<typeof summary>) =>
  console.log(`   ${label.padEnd(30)} ${s.requests} requests ${JSON.stringify(s.statuses)}  p50 ${s.p50} ms  p95 ${s.p95} ms  p99 ${s.p99} ms  max ${s.max} ms`)
const ratioOf = (alone: number, beside: number) => Math.round((beside / Math.max(alone, 0.1)) * 100) / 100

/** The students beside slow callers, as issue 21 item 1 measured them. */
async function slowPart() {
  const rounds: {
    alone: ReturnType<typeof summary>
    beside: ReturnType<typeof summary>
    slowCallers: ReturnType<typeof slowCallers>['done']
    cpuMs: { alone: number; beside: number }
  }[] = []
  console.log('\n== students polling /event/p/get')
  for (let round = 1; round <= ROUNDS; round++) {
    const cpu0 = cpuMsOf(server.child.pid)
    const alone = summary(await students(SECONDS))
    const cpu1 = cpuMsOf(server.child.pid)
    const attack = slowCallers()
    await new Promise((r) => setTimeout(r, 3000))
    const beside = summary(await students(SECONDS))
    await attack.stop()
    const cpu2 = cpuMsOf(server.child.pid)
    rounds.push({ alone, beside, slowCallers: attack.done, cpuMs: { alone: Math.round(cpu1 - cpu0), beside: Math.round(cpu2 - cpu1) } })
    line(`round ${round}, alone`, alone)
    line(`round ${round}, with the slow callers`, beside)
    console.log(
      `   round ${round}: the slow callers got syncs ${JSON.stringify(attack.done.syncs)}, uploads ${JSON.stringify(attack.done.uploads)}, readers opened ${attack.done.readers}; server CPU ${Math.round(cpu1 - cpu0)} ms alone, ${Math.round(cpu2 - cpu1)} ms beside (3 s more); load ${load()}`,
    )
  }
  const aloneP99 = median(rounds.map((r) => r.alone.p99))
  const besideP99 = median(rounds.map((r) => r.beside.p99))
  const ratio = ratioOf(aloneP99, besideP99)
  const shed = rounds.reduce((n, r) => n + (r.beside.statuses[503] ?? 0) + (r.alone.statuses[503] ?? 0), 0)
  console.log(
    `   p99, median of the rounds: ${aloneP99} ms alone, ${besideP99} ms with the slow callers: ${ratio}× (target ≤ ${RATIO_TARGET}×: ${ratio <= RATIO_TARGET ? 'PASS' : 'FAIL'}); 503s to the students: ${shed} (target 0: ${shed === 0 ? 'PASS' : 'FAIL'})`,
  )
  return { rounds, p99MedianMs: { alone: aloneP99, beside: besideP99 }, p99Ratio: ratio, studentShed: shed }
}

/** One loop of the keys flood: the event with keys: true, as fetch asks for it, until stopped; what it got. */
async function floodLoop(eventId: number, authorization: string, running: () => boolean, got: { statuses: Record<number, number>; bytes: number }) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const body = '{"keys":true}'
  while (running()) {
    const status = await new Promise<number>((resolve) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: `/api/v1/event/p/get/${eventId}`,
          method: 'POST',
          agent,
          headers: { authorization, 'content-type': 'application/json', 'content-length': body.length, 'accept-encoding': 'gzip, deflate, br' },
        },
        (res) => {
          res.on('data', (d: Buffer) => (got.bytes += d.length))
          res.on('end', () => resolve(res.statusCode ?? 0))
          res.on('error', () => resolve(0))
        },
      )
      req.on('error', () => resolve(0))
      req.end(body)
    })
    got.statuses[status] = (got.statuses[status] ?? 0) + 1
  }
  agent.destroy()
}

/** Issue 36 item 3: the students beside 30 loops of the event with keys: true. */
async function keysPart(councilId: number) {
  const drawn = await seedDrawnEvent(councilId)
  console.log(
    `\n== students polling /event/p/get beside ${FLOOD_LOOPS} loops of POST /event/p/get/${drawn.eventId} {keys: true} (${KEY_ENTRANTS.toLocaleString('en')} keys; ${KEY_FLOODERS} student${KEY_FLOODERS > 1 ? 's' : ''}, fresh each round; no warm-up)`,
  )
  const rounds: {
    alone: ReturnType<typeof summary>
    beside: ReturnType<typeof summary>
    flood: { statuses: Record<number, number>; bytes: number }
    cpuMs: { alone: number; beside: number }
  }[] = []
  for (let round = 1; round <= ROUNDS; round++) {
    const auths = await Promise.all(drawn.flooders[round - 1]!.map(bearer))
    const cpu0 = cpuMsOf(server.child.pid)
    const alone = summary(await students(SECONDS))
    const cpu1 = cpuMsOf(server.child.pid)
    let running = true
    const flood = { statuses: {} as Record<number, number>, bytes: 0 }
    const loops = Array.from({ length: FLOOD_LOOPS }, (_, i) => floodLoop(drawn.eventId, auths[i % auths.length]!, () => running, flood))
    const beside = summary(await students(SECONDS))
    running = false
    await Promise.all(loops)
    const cpu2 = cpuMsOf(server.child.pid)
    rounds.push({ alone, beside, flood, cpuMs: { alone: Math.round(cpu1 - cpu0), beside: Math.round(cpu2 - cpu1) } })
    line(`round ${round}, alone`, alone)
    line(`round ${round}, beside the flood`, beside)
    console.log(
      `   round ${round}: the flood got ${JSON.stringify(flood.statuses)}, ${(flood.bytes / 1e6).toFixed(1)} MB; server CPU ${Math.round(cpu1 - cpu0)} ms alone, ${Math.round(cpu2 - cpu1)} ms beside; load ${load()}`,
    )
  }
  const aloneP99 = median(rounds.map((r) => r.alone.p99))
  const besideP99 = median(rounds.map((r) => r.beside.p99))
  const ratio = ratioOf(aloneP99, besideP99)
  console.log(
    `   p99, median of the rounds: ${aloneP99} ms alone, ${besideP99} ms beside the flood: ${ratio}× (target ≤ ${RATIO_TARGET}×: ${ratio <= RATIO_TARGET ? 'PASS' : 'FAIL'}); load ${uptime()}`,
  )
  return { rounds, p99MedianMs: { alone: aloneP99, beside: besideP99 }, p99Ratio: ratio }
}

/** A file downloaded as a browser does (gzip): its status, the lines that arrived, and whether the client saw it end whole. */
async function download(path: string, authorization: string) {
  const started = performance.now()
  const res = await fetch(new URL(path, url), { headers: { authorization, 'accept-encoding': 'gzip' } })
  let lines = 0
  let error: string | null = null
  try {
    const reader = res.body!.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      for (const byte of value) if (byte === 10) lines++
    }
  } catch (err) {
    error = String((err as Error & { cause?: Error }).cause?.message ?? (err as Error).message)
  }
  return { status: res.status, lines, whole: error === null, error, seconds: Math.round((performance.now() - started) / 100) / 10 }
}

/** Issue 36 item 2: the two CSV exports of 60,000 students while the students poll and the slow callers run. */
async function exportPart(councilId: number) {
  const started = performance.now()
  const seeded = await seedExport(councilId)
  console.log(
    `\n== the admin's exports of ${EXPORT_STUDENTS.toLocaleString('en')} students (seeded in ${((performance.now() - started) / 1000).toFixed(1)} s), downloaded (gzip) while the students poll and the slow callers run`,
  )
  const admin = await bearer(seeded.admin)
  // Each file: a line per student, and the header.
  const files = [
    { name: 'points export', path: '/api/v1/org/p/points/export.csv?year=2027', lines: EXPORT_STUDENTS + 1 },
    { name: 'participants CSV', path: `/api/v1/org/p/event/${seeded.everyone}/participants.csv`, lines: EXPORT_STUDENTS + 1 },
  ]
  const results: (Awaited<ReturnType<typeof download>> & { name: string; expected: number; round: number; load: string })[] = []
  for (let round = 1; round <= EXPORT_ROUNDS; round++) {
    const attack = slowCallers()
    const polling = students(SECONDS * 4)
    for (const file of files) {
      const got = await download(file.path, admin)
      results.push({ name: file.name, expected: file.lines, round, ...got, load: load() })
      console.log(
        `   round ${round}, ${file.name.padEnd(16)} ${got.status}  ${got.lines.toLocaleString('en')} of ${file.lines.toLocaleString('en')} lines  ${got.whole ? 'arrived whole' : `the client saw an error: ${got.error}`}  ${got.seconds} s  load ${load()}`,
      )
    }
    const beside = summary(await polling)
    await attack.stop()
    line(`round ${round}, students beside`, beside)
  }
  const cut = results.filter((r) => r.status === 200 && r.lines < r.expected && r.whole).length
  console.log(
    `   answered 200 but short, with no error to the client: ${cut} (target 0: ${cut === 0 ? 'PASS' : 'FAIL'}); arrived whole: ${results.filter((r) => r.whole && r.lines === r.expected).length} of ${results.length}; load ${uptime()}`,
  )
  return { results, shortWithoutError: cut }
}

try {
  const report: Record<string, unknown> = { how }
  if (PARTS.has('slow')) report.slow = await slowPart()
  if (PARTS.has('keys')) report.keys = await keysPart(seeded.councilId)
  if (PARTS.has('export')) report.export = await exportPart(seeded.councilId)
  console.log(`   load after: ${uptime()}`)
  mkdirSync('bench-results', { recursive: true })
  writeFileSync('bench-results/abuse.json', `${JSON.stringify({ ...report, loadAfter: uptime() }, null, 2)}\n`)
} finally {
  await server.stop()
  await dbs.dropAll()
}
