// `npm run bench:points` (issue 26; run by `npm run bench:scale` too): the activity points record at a college's
// size. 20,000 students (four graduation years, the branches of SPEC §3), 300 events that give points (one in five
// per day over three days), about five check-ins each (100,000 participants, door scans for the per-day ones), door
// volunteers and winners; one student with 200 entries. Measured through inject (server time, no network): the
// student's POST /user/p/points (p50/p95 over BENCH_RUNS), the admin's CSV export of all 20,000 students and of one
// year, and the below-target list of a year; with each answer's bytes. On PostgreSQL when TEST_DATABASE_URL or
// DATABASE_URL names one (an admin URL: a database is created and dropped here), else on PGlite. Prints the load
// average before and after. Never fails on a figure. POINTS_KEEP_DB=<name> keeps the database under that name (for
// EXPLAIN; drop it afterwards).
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import postgres from 'postgres'
import { buildApp } from '../../server/app.ts'
import { accessTokens } from '../../server/auth/tokens.ts'
import { loadConfig } from '../../server/config.ts'
import { openDatabase, type Database } from '../../server/db/index.ts'

const ADMIN_URL = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL
const RUNS = Number(process.env.BENCH_RUNS ?? 20)
const STUDENTS = Number(process.env.POINTS_STUDENTS ?? 20_000)
const EVENTS = 300
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

async function openBenchDatabase(): Promise<{ db: Database; kind: string; drop: () => Promise<void> }> {
  if (!ADMIN_URL) return { db: await openDatabase({}), kind: 'PGlite (in memory)', drop: async () => {} }
  const name = process.env.POINTS_KEEP_DB || `bench_points_${randomBytes(4).toString('hex')}`
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} })
  await admin.unsafe(`CREATE DATABASE ${name}`)
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return {
    db: await openDatabase({ url: url.toString(), max: 10 }),
    kind: 'PostgreSQL',
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    },
  }
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!

async function main() {
  console.log(`bench:points: ${STUDENTS} students, ${EVENTS} events; load average before: ${load()}`)
  const { db: database, kind, drop } = await openBenchDatabase()
  const db = database.db
  const started = Date.now()
  // Deterministic data, written by the database itself (generate_series): seconds, not minutes, for 100,000 rows.
  await db.execute(sql`INSERT INTO councils (slug, name) SELECT 'c' || g, 'Council ' || g FROM generate_series(1, 10) g`)
  await db.execute(sql`
    INSERT INTO events (slug, name, organizer_id, state, dates, ticket_count, is_ticket_feature_enabled, activity_points)
    SELECT 'e' || g, 'Event ' || g, 1 + g % 10, 'COMPLETED',
           CASE WHEN g % 5 = 0
             THEN jsonb_build_array('2026-01-10T10:00:00+05:30', '2026-01-11T10:00:00+05:30', '2026-01-12T10:00:00+05:30')
             ELSE jsonb_build_array('2026-02-01T10:00:00+05:30') END,
           100000, true,
           jsonb_build_object('category', (ARRAY['Technical','Cultural','Sports','Social service/NSS','Entrepreneurship','Professional body'])[1 + g % 6],
                              'points', 2 + g % 9, 'per_day', g % 5 = 0, 'winner', 10, 'volunteer', 5, 'organiser', 8)
      FROM generate_series(1, ${EVENTS}) g`)
  await db.execute(sql`
    INSERT INTO users (issuer, subject, email, name, phone_number, roll_number, year, branch, is_admin)
    SELECT 'bench', 's' || g, 's' || g || '@example.edu', 'Student ' || g, (9000000000 + g)::text, 'R' || g,
           2025 + g % 4, (ARRAY['Computer_Engineering','Information_Technology','Mechanical','Electronics_And_Telecommunications'])[1 + g % 4], g = 1
      FROM generate_series(1, ${STUDENTS}) g`)
  // About five check-ins per student (events chosen by a hash of the student), student 2 at 200 events.
  await db.execute(sql`
    INSERT INTO participants (event_id, user_id, ticket_collected, ticket_code, ticket_collected_at, checked_in_at)
    SELECT DISTINCT ON (e, u) e, u, true, 'T' || u || '-' || e, '2026-01-01T00:00:00Z', '2026-01-10T10:05:00+05:30'
      FROM (SELECT 1 + ((u * 7919 + k * 104729) % ${EVENTS}) AS e, u FROM generate_series(3, ${STUDENTS}) u, generate_series(1, 5) k
            UNION ALL SELECT e, 2 FROM generate_series(1, 200) e) x`)
  // Re-entry scans on the second day of per-day events.
  await db.execute(sql`
    INSERT INTO door_scans (scan_id, event_id, ticket_code, gate, answer, scanned_at, offline)
    SELECT gen_random_uuid(), p.event_id, p.ticket_code, 'A', '{"result":"ALREADY_CHECKED_IN"}'::jsonb, '2026-01-11T10:05:00+05:30', true
      FROM participants p WHERE p.event_id % 5 = 0`)
  await db.execute(sql`INSERT INTO event_staff (event_id, user_id) SELECT g, 10 + g FROM generate_series(1, ${EVENTS}) g`)
  await db.execute(sql`INSERT INTO event_winners (event_id, user_id) SELECT event_id, min(user_id) FROM participants GROUP BY event_id`)
  await db.execute(sql`ANALYZE`)
  console.log(`data on ${kind}: ${((Date.now() - started) / 1000).toFixed(1)} s`)

  const config = loadConfig({ DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-points-')), JWT_SECRET: 'bench-points-secret', APP_URL: 'http://app.test' })
  // Overload shedding off, as bench:scale: a 400-entry transcript keeps the event loop busy long enough that the
  // next call would get plugins/overload.ts's 503 instead of being measured.
  const app = await buildApp({
    config,
    database,
    rateLimits: false,
    processMetrics: false,
    scheduler: false,
    aroundIntervalMs: false,
    overload: { maxInFlight: 1e9, maxQueueDelayMs: 0, maxEventLoopDelayMs: 0 },
  })
  await app.ready()
  const tokens = accessTokens(new TextEncoder().encode(config.jwtSecret!))
  const admin = { authorization: `Bearer ${await tokens.sign(1)}` }
  const heavy = { authorization: `Bearer ${await tokens.sign(2)}` }
  const typical = { authorization: `Bearer ${await tokens.sign(3)}` }

  const time = async (label: string, runs: number, request: () => Promise<{ statusCode: number; rawPayload: Buffer }>) => {
    const ms: number[] = []
    let bytes = 0
    let status = 0
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now()
      const res = await request()
      ms.push(performance.now() - t0)
      bytes = res.rawPayload.length
      if (res.statusCode !== 200 && status !== res.statusCode)
        console.log(`${label}: run ${i + 1} answered ${res.statusCode} ${res.rawPayload.toString().slice(0, 200)}`)
      status = res.statusCode
    }
    console.log(
      `${label.padEnd(48)} ${String(status).padEnd(4)} p50 ${pct(ms, 50).toFixed(1).padStart(8)} ms  p95 ${pct(ms, 95).toFixed(1).padStart(8)} ms  ${bytes.toLocaleString('en')} bytes  (${runs} runs)`,
    )
  }
  const record = await app.inject({ method: 'POST', url: '/api/v1/user/p/points', headers: heavy, payload: {} })
  console.log(`the heavy student's record: ${record.json().record.entries.length} entries, ${record.json().record.total} points`)
  await time('POST /user/p/points (200 entries)', RUNS, () => app.inject({ method: 'POST', url: '/api/v1/user/p/points', headers: heavy, payload: {} }))
  await time('POST /user/p/points (about 5 entries)', RUNS, () => app.inject({ method: 'POST', url: '/api/v1/user/p/points', headers: typical, payload: {} }))
  await time(`GET /org/p/points/export.csv (all ${STUDENTS.toLocaleString('en')})`, 3, () =>
    app.inject({ method: 'GET', url: '/api/v1/org/p/points/export.csv', headers: admin }),
  )
  await time('GET /org/p/points/export.csv?year=2027', 3, () => app.inject({ method: 'GET', url: '/api/v1/org/p/points/export.csv?year=2027', headers: admin }))
  await time('POST /org/p/points/below-target {year: 2027}', 3, () =>
    app.inject({ method: 'POST', url: '/api/v1/org/p/points/below-target', headers: admin, payload: { year: 2027 } }),
  )
  await time('GET /user/p/points/transcript.pdf (200 entries)', 3, () =>
    app.inject({ method: 'GET', url: '/api/v1/user/p/points/transcript.pdf', headers: heavy }),
  )
  await app.close()
  await database.close()
  if (process.env.POINTS_KEEP_DB) console.log('database kept (POINTS_KEEP_DB)')
  else await drop()
  console.log(`load average after: ${load()}`)
}

main().catch((err) => {
  console.error(err)
  process.exitCode = 1
})
