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
// Environment: DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL admin URL; a fresh database is made beside it and
// dropped after; default postgres://root@127.0.0.1:5432/test), ABUSE_SECONDS (each phase, default 15),
// ABUSE_ROUNDS (default 3), ABUSE_STUDENTS (students polling, default 4), ABUSE_ONLY=door|uploads|readers (one slow
// caller only).
import { spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
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
  return { eventId: event!.id, organiser: organiser!, door: door!, students }
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

try {
  const rounds: {
    alone: ReturnType<typeof summary>
    beside: ReturnType<typeof summary>
    slowCallers: ReturnType<typeof slowCallers>['done']
    cpuMs: { alone: number; beside: number }
  }[] = []
  const line = (label: string, s: ReturnType<typeof summary>) =>
    console.log(
      `   ${label.padEnd(30)} ${s.requests} requests ${JSON.stringify(s.statuses)}  p50 ${s.p50} ms  p95 ${s.p95} ms  p99 ${s.p99} ms  max ${s.max} ms`,
    )
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
      `   round ${round}: the slow callers got syncs ${JSON.stringify(attack.done.syncs)}, uploads ${JSON.stringify(attack.done.uploads)}, readers opened ${attack.done.readers}; server CPU ${Math.round(cpu1 - cpu0)} ms alone, ${Math.round(cpu2 - cpu1)} ms beside (3 s more); load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    )
  }
  const medianOf = (values: number[]) => median(values)
  const aloneP99 = medianOf(rounds.map((r) => r.alone.p99))
  const besideP99 = medianOf(rounds.map((r) => r.beside.p99))
  const ratio = Math.round((besideP99 / Math.max(aloneP99, 0.1)) * 100) / 100
  const shed = rounds.reduce((n, r) => n + (r.beside.statuses[503] ?? 0) + (r.alone.statuses[503] ?? 0), 0)
  console.log(
    `   p99, median of the rounds: ${aloneP99} ms alone, ${besideP99} ms with the slow callers: ${ratio}× (target ≤ ${RATIO_TARGET}×: ${ratio <= RATIO_TARGET ? 'PASS' : 'FAIL'}); 503s to the students: ${shed} (target 0: ${shed === 0 ? 'PASS' : 'FAIL'})`,
  )
  console.log(`   load after: ${uptime()}`)
  mkdirSync('bench-results', { recursive: true })
  writeFileSync(
    'bench-results/abuse.json',
    `${JSON.stringify({ how, rounds, p99MedianMs: { alone: aloneP99, beside: besideP99 }, p99Ratio: ratio, studentShed: shed, loadAfter: uptime() }, null, 2)}\n`,
  )
} finally {
  await server.stop()
  await dbs.dropAll()
}
