// `npm run test:faults` (issue 27 item 1): faults during a rush of ticket claims, on the deployment docs/deployment.md
// describes — two instances of the compiled server with the recipe's settings, behind nginx with the documented
// configuration, on one PostgreSQL and one Redis — driven by the app's own client (its retries and timeout) and, for
// the door, by the door's own store (its offline queue and the retries of its sync):
//   (a) PostgreSQL restarted (a private cluster, `pg_ctl restart -m immediate`: a crash and its recovery), killed
//       with SIGKILL and left down for 14 s (every answer by the 10 s deadline: issue 36 item 9), and backends killed
//       with pg_terminate_backend (this suite's own database on the shared server);
//   (b) Redis stopped and started (a private redis-server);
//   (c) one of the two instances killed with SIGKILL while claims are in flight on it;
//   (d) the door syncing its offline scans when the instance serving the sync dies.
// Each case ends with: 0 oversold; every claim answered 200 holds that ticket in the database; every other answer
// agrees with the database; every claim the fault left undecided, sent again, gets 200 or 409; tickets_sold equals
// the holders; no request outlived the client's timeout; and the instances serve again within 5 s of the fault's end
// without being restarted. Each case prints its counts.
import { mkdtempSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest'
import { HANDLER_TIMEOUT_MS } from '../../server/app.ts'
import { freePort } from '../e2e/support/server.ts'
import { sample } from '../fixtures/prometheus.ts'
import { answersOf, type Claim, counters, retryUndecided, rush, seedRush, TIMEOUT_MS, verify } from './rush.ts'
import {
  databases,
  type Instance,
  killAll,
  missing,
  type PrivatePostgres,
  type PrivateRedis,
  privatePostgres,
  privateRedis,
  secrets,
  startInstance,
  startNginx,
  until,
} from './support.ts'

const STUDENTS = Number(process.env.FAULTS_STUDENTS ?? 600)
const TICKETS = Number(process.env.FAULTS_TICKETS ?? 300)
/** The rush's students arrive over this many seconds; the fault comes FAULT_AT seconds in. */
const RUSH_SECONDS = 6
const FAULT_AT = 2
/** The issue's bound: serving again within 5 s of the fault's end. */
const RECOVERY_LIMIT_S = 5
/** Issue 36 item 9: how long PostgreSQL stays down after its SIGKILL (the red team's outage was about 14 s). */
const DOWN_SECONDS = 14
/** Past the answer deadline, what the proxy and a loaded machine may add to an answer. */
const DEADLINE_SLACK_MS = 2000

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')
const why = missing()
const SECRETS = secrets()

interface Report {
  case: string
  claims: number
  requests: number
  acknowledged: number
  sold: number
  retries: number
  undecidedThenRetried: number
  answers: Record<string, number>
  /** Every HTTP answer the phones got (the retries' included), by status. */
  responses?: Record<string, number>
  faultSeconds: number
  recoverySeconds: number
  hung: number
  load: string
  notes?: string
}
const reports: Report[] = []

/** Two instances with the recipe's settings behind nginx with the documented configuration, on `databaseUrl`. */
async function deployment(databaseUrl: string, redisUrl: string) {
  const proxyPort = await freePort()
  const ports = [await freePort(), await freePort()]
  const uploads = mkdtempSync(join(tmpdir(), 'campus-faults-uploads-'))
  const values = (name: string): Record<string, string> => ({
    NODE_ENV: 'production',
    APP_URL: `http://127.0.0.1:${proxyPort}`,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    JWT_SECRET: SECRETS.JWT_SECRET,
    GOOGLE_CLIENT_ID: 'faults-suite.apps.googleusercontent.com',
    GOOGLE_CLIENT_SECRET: 'not-used-by-this-suite',
    ALLOWED_EMAIL_DOMAINS: 'example.edu',
    VAPID_PUBLIC_KEY: SECRETS.VAPID_PUBLIC_KEY,
    VAPID_PRIVATE_KEY: SECRETS.VAPID_PRIVATE_KEY,
    VAPID_SUBJECT: 'mailto:events@example.edu',
    TRUST_PROXY: '127.0.0.1',
    DATA_DIR: mkdtempSync(join(tmpdir(), `campus-faults-data-${name}-`)),
    UPLOADS_DIR: uploads,
    METRICS_TOKEN: SECRETS.METRICS_TOKEN,
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'info',
  })
  const instances = await Promise.all(['a', 'b'].map((name, i) => startInstance(name, values(name), ports[i])))
  // A failing case shows what the instances logged (warnings and errors: the recipe's LOG_LEVEL=info).
  onTestFailed(() => {
    for (const i of instances) console.log(`--- instance ${i.name} (pid ${i.child.pid}) logged:\n${i.log().split('\n').slice(-60).join('\n')}`)
  })
  const nginx = await startNginx(
    proxyPort,
    instances.map((i) => i.url),
  )
  return {
    url: nginx.url,
    instances,
    async stop() {
      await nginx.stop()
      await Promise.all(instances.map((i) => i.stop()))
    },
  }
}

const ready = (instance: Instance) => fetch(new URL('/api/v1/health/ready', instance.url)).then((r) => r.ok)
const alive = (instance: Instance) => instance.child.exitCode === null && instance.child.signalCode === null

/** The checks every case ends with, and its line of the report. */
async function conclude(
  name: string,
  world: Awaited<ReturnType<typeof seedRush>>,
  baseUrl: string,
  first: Claim[],
  count: ReturnType<typeof counters>,
  fault: { seconds: number; recovery: number; notes?: string },
) {
  const { claims, retried } = await retryUndecided(baseUrl, world, first, count)
  const verdict = await verify(world, claims)
  const report: Report = {
    case: name,
    claims: first.length,
    requests: count.requests,
    acknowledged: verdict.acknowledged,
    sold: verdict.sold,
    retries: count.requests - first.length - retried.length,
    undecidedThenRetried: retried.length,
    answers: answersOf(first),
    responses: count.statuses,
    faultSeconds: Math.round(fault.seconds * 100) / 100,
    recoverySeconds: Math.round(fault.recovery * 100) / 100,
    hung: count.timedOut,
    load: load(),
    notes: fault.notes,
  }
  reports.push(report)
  console.log(`\n== ${name}\n${JSON.stringify(report, null, 2)}`)
  expect(verdict.oversold, 'oversold').toBe(0)
  expect(verdict.contradictions, 'answers the database contradicts').toEqual([])
  expect(verdict.undecided, 'claims still undecided after being sent again').toBe(0)
  expect(verdict.ticketsSold, 'tickets_sold').toBe(verdict.sold)
  // Demand is twice the supply and every student got a decision: every ticket is sold, none twice.
  expect(verdict.sold).toBe(world.tickets)
  expect(count.hung, 'requests that outlived the client timeout').toEqual([])
  expect(count.longestMs).toBeLessThan(TIMEOUT_MS)
  expect(count.loggedOut, 'students signed out by the fault').toBe(0)
  expect(fault.recovery, 'seconds to serve again after the fault').toBeLessThan(RECOVERY_LIMIT_S)
}

describe('faults during a rush, on the documented deployment', () => {
  if (why.common) {
    console.warn(`\n*** test:faults SKIPPED: ${why.common} ***\n`)
    it.skip(`SKIPPED: ${why.common}`, () => {})
    return
  }
  let redis: PrivateRedis
  let shared: ReturnType<typeof databases> | null = null
  let cluster: PrivatePostgres | null = null
  let clusterDbs: ReturnType<typeof databases> | null = null

  beforeAll(async () => {
    redis = await privateRedis()
    if (!why.sharedPostgres) shared = databases(process.env.TEST_DATABASE_URL!, 'faults')
    if (!why.privatePostgres) {
      cluster = await privatePostgres()
      clusterDbs = databases(cluster.url(), 'faults')
    }
  }, 120_000)

  afterAll(async () => {
    await redis?.stop()
    await shared?.dropAll()
    await clusterDbs?.dropAll()
    cluster?.stop()
    const left = killAll()
    if (left > 0) console.warn(`test:faults: ${left} processes were still running after the cases and were killed`)
    if (reports.length > 0) {
      console.log('\n== test:faults summary (claims = students claiming; retries = the clients’ own; recovery = seconds from the fault’s end to serving)')
      console.table(
        reports.map((r) => ({
          case: r.case,
          claims: r.claims,
          acknowledged: r.acknowledged,
          sold: r.sold,
          retries: r.retries,
          're-sent after': r.undecidedThenRetried,
          'fault s': r.faultSeconds,
          'recovery s': r.recoverySeconds,
          hung: r.hung,
          load: r.load,
        })),
      )
    }
  })

  const needs = (what: string | null) => (what ? it.skip : it)
  const skipped = (what: string | null, title: string) => (what ? `${title} — SKIPPED: ${what}` : title)

  needs(why.privatePostgres)(
    skipped(why.privatePostgres, '(a) PostgreSQL restarted (pg_ctl restart -m immediate, a private cluster) during the rush'),
    async () => {
      const world = await seedRush(await clusterDbs!.fresh(), SECRETS.JWT_SECRET, { students: STUDENTS, tickets: TICKETS })
      const d = await deployment(world.databaseUrl, redis.url)
      try {
        const count = counters()
        const claims = rush(d.url, world, RUSH_SECONDS, count)
        await sleep(FAULT_AT * 1000)
        const down = await cluster!.restart('immediate')
        const recovery = await until('both instances ready after the restart', async () => (await Promise.all(d.instances.map(ready))).every(Boolean))
        await conclude('(a) PostgreSQL restarted', world, d.url, await claims, count, {
          seconds: down,
          recovery,
          notes: `pg_ctl restart -m immediate took ${down.toFixed(2)} s; neither instance was restarted`,
        })
        expect(d.instances.every(alive)).toBe(true)
      } finally {
        await d.stop()
      }
    },
    180_000,
  )

  // Issue 36 item 9: with PostgreSQL killed mid-rush and down ~14 s, claims that reached an instance after the kill
  // were answered 10-17 s later (after the database came back), never 503 at the deadline.
  needs(why.privatePostgres)(
    skipped(
      why.privatePostgres,
      `(a) PostgreSQL killed (SIGKILL) and down ${DOWN_SECONDS} s during the rush: every answer by the ${HANDLER_TIMEOUT_MS / 1000} s deadline`,
    ),
    async () => {
      const world = await seedRush(await clusterDbs!.fresh(), SECRETS.JWT_SECRET, { students: STUDENTS, tickets: TICKETS })
      const d = await deployment(world.databaseUrl, redis.url)
      try {
        const count = counters()
        const claims = rush(d.url, world, RUSH_SECONDS, count)
        await sleep(FAULT_AT * 1000)
        const down = await cluster!.killFor(DOWN_SECONDS)
        const recovery = await until('both instances ready after the kill', async () => (await Promise.all(d.instances.map(ready))).every(Boolean))
        const first = await claims
        const longest = count.longestMs
        await conclude('(a) PostgreSQL killed and down', world, d.url, first, count, {
          seconds: down,
          recovery,
          notes: `SIGKILL to the server and its backends, started again ${down.toFixed(2)} s later; the longest answer took ${(longest / 1000).toFixed(2)} s; neither instance was restarted`,
        })
        expect(count.statuses[503] ?? 0, 'claims answered 503 while the database was away').toBeGreaterThan(0)
        // The deadline, with room for a loaded machine and the proxy: before, answers came up to 17 s after the request.
        expect(longest, 'the longest answer (ms)').toBeLessThan(HANDLER_TIMEOUT_MS + DEADLINE_SLACK_MS)
        expect(d.instances.every(alive)).toBe(true)
      } finally {
        await d.stop()
      }
    },
    180_000,
  )

  needs(why.sharedPostgres)(
    skipped(why.sharedPostgres, '(a) every backend of the database killed with pg_terminate_backend, three times, during the rush'),
    async () => {
      const world = await seedRush(await shared!.fresh(), SECRETS.JWT_SECRET, { students: STUDENTS, tickets: TICKETS })
      const d = await deployment(world.databaseUrl, redis.url)
      const name = new URL(world.databaseUrl).pathname.slice(1)
      try {
        const count = counters()
        const claims = rush(d.url, world, RUSH_SECONDS, count)
        await sleep(FAULT_AT * 1000)
        let killed = 0
        const started = performance.now()
        for (let i = 0; i < 3; i++) {
          // Only this suite's own database's backends (never another engineer's), and not this connection.
          const rows = await shared!.admin`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = ${name} AND pid <> pg_backend_pid()`
          killed += rows.filter((r) => r.ok).length
          await sleep(500)
        }
        const seconds = (performance.now() - started) / 1000
        const recovery = await until('both instances ready after the kills', async () => (await Promise.all(d.instances.map(ready))).every(Boolean))
        await conclude('(a) backends killed (pg_terminate_backend)', world, d.url, await claims, count, {
          seconds,
          recovery,
          notes: `${killed} backends terminated`,
        })
        expect(killed).toBeGreaterThan(0)
        expect(d.instances.every(alive)).toBe(true)
      } finally {
        await d.stop()
      }
    },
    180_000,
  )

  needs(why.sharedPostgres)(
    skipped(why.sharedPostgres, '(b) Redis stopped for 2 s and started again during the rush'),
    async () => {
      const world = await seedRush(await shared!.fresh(), SECRETS.JWT_SECRET, { students: STUDENTS, tickets: TICKETS })
      const d = await deployment(world.databaseUrl, redis.url)
      const redisUp = async (instance: Instance) => sample(await (await fetch(instance.metricsUrl)).text(), 'campus_redis_up') === 1
      try {
        expect((await Promise.all(d.instances.map(redisUp))).every(Boolean)).toBe(true)
        const count = counters()
        const claims = rush(d.url, world, RUSH_SECONDS, count)
        await sleep(FAULT_AT * 1000)
        const stopped = performance.now()
        await redis.stop()
        await until('both instances see Redis gone', async () => (await Promise.all(d.instances.map(redisUp))).every((up) => !up), 10_000)
        await sleep(2000)
        await redis.start()
        const seconds = (performance.now() - stopped) / 1000
        const recovery = await until('both instances connected to Redis again', async () => (await Promise.all(d.instances.map(redisUp))).every(Boolean))
        const first = await claims
        const outageEnd = stopped + seconds * 1000
        const answeredDuring = first.filter((c) => c.endedAt > stopped && c.endedAt < outageEnd && (c.status === 200 || c.status === 409)).length
        await conclude('(b) Redis stopped and started', world, d.url, first, count, {
          seconds,
          recovery,
          notes: `${answeredDuring} claims answered 200/409 while Redis was down (the limits let requests through)`,
        })
        expect(answeredDuring).toBeGreaterThan(0)
        expect(d.instances.every(alive)).toBe(true)
      } finally {
        await d.stop()
      }
    },
    180_000,
  )

  needs(why.sharedPostgres)(
    skipped(why.sharedPostgres, '(c) one of the two instances killed with SIGKILL while claims are in flight on it'),
    async () => {
      const world = await seedRush(await shared!.fresh(), SECRETS.JWT_SECRET, { students: STUDENTS, tickets: TICKETS })
      const d = await deployment(world.databaseUrl, redis.url)
      const [victim, survivor] = d.instances
      // Two connections: one holds the event's row in a transaction while the other watches pg_stat_activity.
      const sql = postgres(world.databaseUrl, { max: 2, onnotice: () => {} })
      try {
        const count = counters()
        // The event's row held from before the rush until the victim's claims stand on it, so that claims are in
        // flight on both instances when one dies. (Taken FAULT_AT seconds into the rush, the lock came after the
        // sell-out on a loaded machine, and a sold-out claim waits on nothing: seen failing at load 11.)
        let claims: Promise<Claim[]> = Promise.resolve([])
        let inFlightAtKill = 0
        await sql.begin(async (tx) => {
          await tx`SELECT id FROM events WHERE id = ${world.eventId} FOR UPDATE`
          claims = rush(d.url, world, RUSH_SECONDS, count)
          await until(
            'claims of the victim waiting on the event',
            async () => {
              const [row] =
                await sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE ${`% ${victim.child.pid}`} AND wait_event_type = 'Lock'`
              return row.n > 0
            },
            30_000,
          )
          await sleep(300)
          const [row] = await sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name LIKE 'campus-events %' AND wait_event_type = 'Lock'`
          inFlightAtKill = row.n
          victim.child.kill('SIGKILL')
          await new Promise((r) => victim.child.once('exit', r))
        })
        const killedAt = performance.now()
        // Served again through the proxy: five readiness checks in a row (round robin tries the dead one too).
        const recovery = await until('the proxy serving from the survivor', async () => {
          for (let i = 0; i < 5; i++) if (!(await fetch(`${d.url}/api/v1/health/ready`)).ok) return false
          return true
        })
        const first = await claims
        const viaDead = first.filter((c) => c.requests > 1 && c.startedAt < killedAt).length
        await conclude('(c) an instance killed (SIGKILL)', world, d.url, first, count, {
          seconds: 0,
          recovery,
          notes: `${inFlightAtKill} claim batches waiting in the database when the instance died; ${viaDead} students' clients retried across the kill; the survivor never restarted`,
        })
        expect(alive(survivor)).toBe(true)
        expect(await ready(survivor)).toBe(true)
      } finally {
        await sql.end({ timeout: 5 })
        await d.stop()
      }
    },
    180_000,
  )

  needs(why.sharedPostgres)(
    skipped(why.sharedPostgres, '(d) the door syncing its offline scans when the instance serving the sync dies'),
    async () => {
      const { doorCase } = await import('./door-case.ts')
      const databaseUrl = await shared!.fresh()
      const result = await doorCase(databaseUrl, SECRETS.JWT_SECRET, () => deployment(databaseUrl, redis.url))
      reports.push({
        case: '(d) the door syncing when its instance dies',
        claims: result.scans,
        requests: result.requests,
        acknowledged: result.checkedIn,
        sold: result.checkedIn,
        retries: result.retries,
        undecidedThenRetried: 0,
        answers: result.answers,
        faultSeconds: 0,
        recoverySeconds: Math.round(result.recovery * 100) / 100,
        hung: result.timedOut,
        load: load(),
        notes: result.notes,
      })
      console.log(`\n== (d) the door syncing when its instance dies\n${JSON.stringify(result, null, 2)}`)
      expect(result.recovery).toBeLessThan(RECOVERY_LIMIT_S)
    },
    180_000,
  )
})
