// `npm run bench:scale` (issue 15): the events list at the size of a real college.
//
// For 1×, 10× and 100× catalogues (20, 200 and 2,000 events: ten years of a college's events at 100×, with
// 200 students per 1× and about 2.5 registrations each), generated here with varied, realistic text so
// compression is not flattered, on PGlite and (with TEST_DATABASE_URL or DATABASE_URL, an admin URL) on
// PostgreSQL: POST /event/p/get without fields (every event, Part 1) and with {scope: 'home'} (what Home
// shows), {month} (the calendar) and {parent_id}; for each, the answer's bytes (raw and brotli at the
// quality @fastify/compress uses, 4) and the server time (inject, p50/p95 over BENCH_RUNS runs). Prints
// the load average beside the figures. SCALE_ONLY=1|10|100 runs one size; SCALE_DB=pglite|postgres one kind.
// Home visible on '3G': on one kind of database (SCALE_3G_DB, default PostgreSQL when given, else PGlite), the
// compiled server (build/, dist/: `npm run build`, run here if missing) started on the database holding that
// catalogue, a signed-in student with a complete profile, cold starts of `/` on the '3G' profile measured as
// bench:load measures them (bench/support/phone.ts); the median of SCALE_3G_RUNS (default 3) and its ratio to
// the 1× figure (target ≤ 1.10× at 100×). SCALE_3G=0 leaves it out.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, constants } from 'node:zlib'
import postgres from 'postgres'
import { buildApp } from '../../server/app.ts'
import { accessTokens } from '../../server/auth/tokens.ts'
import { loadConfig } from '../../server/config.ts'
import { importCatalogue } from '../../server/db/events/catalogue.ts'
import { openDatabase, schema, type Database } from '../../server/db/index.ts'
import { startServer } from '../../test/e2e/support/server.ts'
import { launchChromium, measureCold, median, onboard, type Run } from '../support/phone.ts'

const ADMIN_URL = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL
const RUNS = Number(process.env.BENCH_RUNS ?? 40)
const SCALES = process.env.SCALE_ONLY ? [Number(process.env.SCALE_ONLY)] : [1, 10, 100]
const KINDS = (process.env.SCALE_DB ? [process.env.SCALE_DB] : ['postgres', 'pglite']).filter((k) => k === 'pglite' || ADMIN_URL)
/** The kind of database the '3G' starts run on (none with SCALE_3G=0). */
const PHONE_KIND = process.env.SCALE_3G === '0' ? null : (process.env.SCALE_3G_DB ?? (ADMIN_URL ? 'postgres' : 'pglite'))
const PHONE_RUNS = Math.max(1, Number(process.env.SCALE_3G_RUNS ?? 3))
/** Issue 15 item 1: home on '3G' at 100× within 10% of the 1× figure. */
const PHONE_TARGET_RATIO = 1.1

// ---- The generator: a seeded PRNG over word lists, so every run writes the same catalogue ----

function prng(seed: number) {
  let s = seed >>> 0
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]! }
}

const KINDS_OF_EVENT = [
  'Hackathon',
  'Workshop',
  'Quiz',
  'Talk',
  'Concert',
  'Open Mic',
  'Debate',
  'Film Screening',
  'Treasure Hunt',
  'Robotics Race',
  'Case Study',
  'Dance Battle',
  'Photo Walk',
  'Coding Contest',
  'Panel',
  'Bootcamp',
  'Startup Pitch',
  'Cricket League',
  'Art Exhibition',
  'Book Club',
]
const TOPICS = [
  'Machine Learning',
  'Web3',
  'Cloud Native',
  'Embedded Systems',
  'Street Photography',
  'Classical Music',
  'Indie Rock',
  'Stand-up Comedy',
  'Public Policy',
  'Product Design',
  'Competitive Programming',
  'Sustainable Energy',
  'Bollywood',
  'Data Visualisation',
  'Cybersecurity',
  'Creative Writing',
  'Game Development',
  'Finance',
  'Mental Health',
  'Space Technology',
  'Chess',
  'Theatre',
  'Entrepreneurship',
  'Open Source',
]
const ADJECTIVES = [
  'annual',
  'inter-college',
  'beginner-friendly',
  'hands-on',
  'overnight',
  'weekend',
  'flagship',
  'informal',
  'fast-paced',
  'collaborative',
  'invite-only',
  'open',
]
const VERBS = [
  'build',
  'learn',
  'compete',
  'meet mentors',
  'pitch ideas',
  'perform',
  'network with alumni',
  'win prizes',
  'explore',
  'debate',
  'present',
  'prototype',
]
const VENUES = [
  'Main Auditorium',
  'Seminar Hall 2',
  'Ground Floor Lab 104',
  'Open Air Theatre',
  'Library Conference Room',
  'Sports Complex',
  'Amphitheatre',
  'Innovation Centre',
  'Room 512, B Block',
  'Cafeteria Lawns',
]
const TAGS = ['Tech', 'Cultural', 'Sports', 'Fest', 'Workshop', 'Competition', 'Music', 'Dance', 'Literature', 'Design', 'Finance', 'Social']

function sentence(r: ReturnType<typeof prng>, topic: string) {
  return `A ${r.pick(ADJECTIVES)} ${r.pick(KINDS_OF_EVENT).toLowerCase()} on ${topic.toLowerCase()} where students ${r.pick(VERBS)} and ${r.pick(VERBS)}; ${r.int(40) + 10} seats, ${r.pick(['snacks provided', 'certificates for all', 'bring your laptop', 'no experience needed', 'teams of up to four', 'prizes worth ₹' + (r.int(90) + 10) + ',000'])}.`
}

const STATES_FUTURE = ['UPCOMING', 'REGISTRATION_OPEN', 'REGISTRATION_CLOSED', 'TICKET_OPEN', 'TICKET_CLOSED'] as const

/** `scale` × 20 events spread over `scale` / 10 years (at least a term) ending a few weeks ahead of today. */
export function generateCatalogue(scale: number, now = new Date()) {
  const r = prng(20261122 + scale)
  const councils = Array.from({ length: 12 }, (_, i) => ({
    slug: `council-${i}`,
    name: `${r.pick(TOPICS)} ${r.pick(['Society', 'Club', 'Council', 'Circle', 'Chapter'])} ${i}`,
    photo_url: `/demo/council-${i % 6}.svg`,
  }))
  const n = 20 * scale
  const spanDays = Math.max(120, Math.round((scale / 10) * 365))
  const events: Record<string, unknown>[] = []
  for (let i = 0; i < n; i++) {
    // Most events in the past; the last ~18 of every catalogue are around today (as in the 1× demo).
    const recent = i >= n - 18
    const offsetDays = recent ? r.int(40) - 10 : -(r.int(spanDays) + 11)
    const day = new Date(now.getTime() + offsetDays * 86_400_000)
    const date = `${day.toISOString().slice(0, 10)}T${String(9 + r.int(10)).padStart(2, '0')}:${r.pick(['00', '30'])}:00+05:30`
    const days = 1 + (r.next() < 0.2 ? r.int(3) : 0)
    const dates = Array.from({ length: days }, (_, d) =>
      date.replace(/^\d{4}-\d{2}-\d{2}/, new Date(day.getTime() + d * 86_400_000).toISOString().slice(0, 10)),
    )
    const state = offsetDays < -1 ? 'COMPLETED' : offsetDays <= 0 ? 'ONGOING' : r.pick(STATES_FUTURE)
    const topic = r.pick(TOPICS)
    const kind = r.pick(KINDS_OF_EVENT)
    const tickets = state === 'TICKET_OPEN' || state === 'TICKET_CLOSED' || r.next() < 0.3
    // One event in ten is a child of the one before it (a fest's sub-events).
    const parent = i > 0 && r.next() < 0.1 && !(events[i - 1] as { parent: string | null }).parent ? (events[i - 1] as { slug: string }).slug : null
    events.push({
      slug: `e${scale}-${i}`,
      name: `${topic} ${kind} ${2016 + Math.floor((i / n) * 10)}`,
      description: sentence(r, topic),
      long_description: Array.from({ length: 4 }, () => sentence(r, r.pick(TOPICS))).join(' '),
      event_page_image_url: `/demo/event-${i % 9}.svg`,
      banner_url: `/demo/event-${i % 9}.svg`,
      dates,
      venue: r.pick(VENUES),
      tags: [r.pick(TAGS), r.pick(TAGS)].filter((t, k, a) => a.indexOf(t) === k),
      organizer: r.pick(councils).slug,
      parent,
      state,
      fee: r.next() < 0.3 ? (r.int(5) + 1) * 50 : 0,
      ma_ppt: r.next() < 0.3 ? r.int(4) + 2 : 1,
      ...(r.next() < 0.15
        ? { registration_type: 'EXTERNAL', external_registration_link: `https://forms.example.com/${topic.toLowerCase().replace(/\W+/g, '-')}-${i}` }
        : { registration_type: 'ONPLATFORM', external_registration_link: null }),
      is_ticket_feature_enabled: tickets,
      ticket_count: tickets ? (r.int(20) + 1) * 25 : 0,
    })
  }
  return { councils, events }
}

// ---- Measuring ----

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
const brotli = (text: string) => brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }).length
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`

interface BenchDatabase extends Database {
  /** What the compiled server needs in its environment to open this database. */
  serverEnv: Record<string, string>
  /** Lets go of this process's hold on the database (PGlite's folder lock) and keeps the data, for the server. */
  handOver(): Promise<void>
}

/** A new database of `kind`; `forServer` (PGlite): in a folder the compiled server can open after this process. */
async function database(kind: string, forServer: boolean): Promise<BenchDatabase> {
  if (kind === 'pglite') {
    const dataDir = forServer ? mkdtempSync(join(tmpdir(), 'scale-pglite-')) : undefined
    const db = await openDatabase(dataDir ? { dataDir } : {})
    let open = true
    const closeClient = async () => {
      if (open) await db.close()
      open = false
    }
    return {
      ...db,
      serverEnv: { DATA_DIR: dataDir ?? '', DATABASE_URL: '' },
      handOver: closeClient,
      async close() {
        await closeClient()
        if (dataDir) rmSync(dataDir, { recursive: true, force: true })
      },
    }
  }
  const admin = postgres(ADMIN_URL!, { max: 1, onnotice: () => {} })
  const name = `scale_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
  await admin.unsafe(`CREATE DATABASE ${name}`)
  const url = new URL(ADMIN_URL!)
  url.pathname = `/${name}`
  const db = await openDatabase({ url: url.toString(), max: 10 })
  return {
    ...db,
    serverEnv: { DATABASE_URL: url.toString() },
    handOver: async () => {},
    async close() {
      await db.close()
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    },
  }
}

/** Cold starts of `/` on '3G' by the compiled server on `db`, which holds the catalogue. */
async function homeOn3G(db: BenchDatabase): Promise<Run[]> {
  await db.handOver()
  const server = await startServer(db.serverEnv)
  const browser = await launchChromium()
  try {
    await onboard(server.url)
    const runs: Run[] = []
    for (let i = 0; i < PHONE_RUNS; i++) runs.push(await measureCold(browser, server.url, '3G'))
    return runs
  } finally {
    await browser.close()
    await server.stop()
  }
}

/** Home visible on '3G' (median ms) per kind and scale, for the ratio to 1×. */
const visible = new Map<string, number>()

async function run(kind: string, scale: number) {
  const phone = kind === PHONE_KIND
  const db = await database(kind, phone)
  try {
    const catalogue = generateCatalogue(scale)
    const { events: eventIds } = await importCatalogue(db.db, catalogue)
    // Students and registrations in bulk: 200 per 1×, about 2.5 registrations each, one in five with a ticket.
    const r = prng(scale)
    const students = 200 * scale
    const ids = Object.values(eventIds)
    let me = 0
    for (let i = 0; i < students; i += 1000) {
      const rows = await db.db
        .insert(schema.users)
        .values(
          Array.from({ length: Math.min(1000, students - i) }, (_, j) => ({
            issuer: 'bench',
            subject: `s${i + j}`,
            email: `s${i + j}@example.edu`,
            name: `Student ${i + j}`,
          })),
        )
        .returning({ id: schema.users.id })
      me ||= rows[0]!.id
      const regs = new Map<string, { eventId: number; userId: number }>()
      for (const u of rows)
        for (let k = 0; k < 1 + r.int(4); k++) {
          const eventId = r.pick(ids)
          regs.set(`${eventId}:${u.id}`, { eventId, userId: u.id })
        }
      await db.db.insert(schema.participants).values([...regs.values()])
    }
    const config = loadConfig({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'scale-')),
      APP_URL: 'http://app.test',
      JWT_SECRET: 'bench-' + randomBytes(8).toString('hex'),
      STATIC_DIR: join(tmpdir(), 'none'),
    })
    const app = await buildApp({ config, database: db, rateLimits: false, overload: { maxInFlight: 1e9, maxQueueDelayMs: 0, maxEventLoopDelayMs: 0 } })
    await app.ready()
    const token = await accessTokens(new TextEncoder().encode(config.jwtSecret!)).sign(me)
    const month = new Date().toISOString().slice(0, 7)
    const parent = catalogue.events.find((e) => e.parent)?.parent as string | undefined
    const queries: [string, unknown][] = [
      ['every event (true)', true],
      ["{scope:'home'}", { scope: 'home' }],
      [`{month:'${month}'}`, { month }],
      ...(parent ? ([['{parent_id}', { parent_id: eventIds[parent] }]] as [string, unknown][]) : []),
    ]
    for (const [label, body] of queries) {
      const times: number[] = []
      let payload = ''
      for (let i = 0; i < RUNS + 3; i++) {
        const started = process.hrtime.bigint()
        const res = await app.inject({
          method: 'POST',
          url: '/api/v1/event/p/get',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        })
        const ms = Number(process.hrtime.bigint() - started) / 1e6
        if (res.statusCode !== 200) throw new Error(`${label}: ${res.statusCode} ${res.body}`)
        if (i >= 3) times.push(ms) // three warm-up runs
        payload = res.body
      }
      times.sort((a, b) => a - b)
      const count = Object.values(JSON.parse(payload).events as Record<string, unknown[]>).flat().length
      console.log(
        `${kind.padEnd(8)} ${String(scale).padStart(3)}× ${String(catalogue.events.length).padStart(5)} events  ${label.padEnd(22)} ${String(count).padStart(5)} listed  ${kb(payload.length).padStart(9)} raw  ${kb(brotli(payload)).padStart(8)} br  p50 ${quantile(times, 0.5).toFixed(1).padStart(6)} ms  p95 ${quantile(times, 0.95).toFixed(1).padStart(6)} ms  load ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
      )
    }
    await app.close()
    if (phone) {
      const runs = await homeOn3G(db)
      const ms = median(runs.map((r) => r.homeVisible))
      visible.set(`${kind} ${scale}`, ms)
      const base = visible.get(`${kind} 1`)
      const ratio = base ? ms / base : null
      const verdict =
        ratio === null ? '' : scale === 100 ? `  target ≤ ${PHONE_TARGET_RATIO.toFixed(2)}× at 100×: ${ratio <= PHONE_TARGET_RATIO ? 'PASS' : 'FAIL'}` : ''
      console.log(
        `${kind.padEnd(8)} ${String(scale).padStart(3)}× ${String(catalogue.events.length).padStart(5)} events  home visible on '3G' (cold, compiled server) median ${ms} ms of ${runs
          .map((r) => r.homeVisible)
          .join('/')}  (code+data ready ${runs.map((r) => r.codeDataReady).join('/')} ms, ${median(runs.map((r) => r.bytes))} B)  ${
          ratio === null ? 'ratio to 1×: n/a (no 1× figure)' : `ratio to 1×: ${ratio.toFixed(2)}×`
        }${verdict}  load ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
      )
    }
  } finally {
    await db.close()
  }
}

console.log(`bench:scale — ${RUNS} runs per figure (after 3 warm-up), server time through inject (no network), brotli quality 4`)
if (PHONE_KIND) {
  if (!existsSync('dist/index.html') || !existsSync('build/server/main.js')) execFileSync('npm', ['run', 'build'], { stdio: 'inherit' })
  console.log(`home on '3G': ${PHONE_RUNS} cold start(s) per scale on ${PHONE_KIND}, Pixel 7 viewport, CPU 4× slower (as bench:load)`)
}
for (const kind of KINDS) for (const scale of SCALES) await run(kind, scale)
if (!ADMIN_URL) console.log('(PostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL to an admin URL)')
