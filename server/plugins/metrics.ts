// Prometheus metrics (issue 27), with prom-client: requests by route (count and latency histogram), the product's
// own counters (ticket claims, door check-ins, fair-start draws), requests shed by plugins/overload.ts, and figures
// read at each scrape: the database (up, this instance's connections, the pool's size), the push outbox's depth
// (NaN while the database does not answer),
// the scheduler's lag and whether Redis is connected; plus the process's own (CPU, memory, event loop, GC).
// Served at GET /api/v1/metrics (server/routes/server.ts: open outside production, behind METRICS_TOKEN when it is
// set) and, with METRICS_PORT, on a port of their own (this file). docs/deployment.md "Metrics" has the graphs.
import { timingSafeEqual } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance, onResponseHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { Database } from '../db/index.ts'
import { opsRepository, type DatabaseGauges } from '../db/ops.ts'
import type { Refusal } from '../db/outcomes.ts'

/** Why plugins/overload.ts refused a request with 503. */
export type ShedReason = 'in_flight' | 'queue_delay' | 'event_loop' | 'closing'

/** The door's answers to a scan, as counted. */
type CheckInResult = 'CHECKED_IN' | 'ALREADY_CHECKED_IN' | 'UNKNOWN_TICKET' | 'NOT_CHECKED_IN' | 'TRANSFERRED' | 'CHECKED_OUT' | 'NOT_INSIDE' | 'EXPIRED_CODE'

export interface Metrics {
  registry: Registry
  /** A ticket claim answered: `claimed`, `in_draw` (a fair opening's entry), or the refusal (sold_out, ...). */
  claim(outcome: { ok: true; entered?: boolean } | { ok: false; refusal: Refusal }): void
  /** A scan answered at the door, online (`scan`) or from a device's offline queue (`sync`). */
  checkIn(result: CheckInResult, via: 'scan' | 'sync'): void
  /**
   * Fair-start draws run (API.md Part 3 "a fair opening"): the draw increments this once per event drawn, with its
   * entrants, when it runs. Declared here so that dashboards and alerts exist before the feature does.
   */
  draws: Counter
  drawEntrants: Counter
  /** A request refused by plugins/overload.ts (the counter hook it calls). */
  shed(reason: ShedReason): void
  /** The scheduler (plugins/scheduler.ts): started, a tick finished without error, and how late a move landed. */
  scheduler: { started(): void; ticked(): void; moved(lateSeconds: number): void }
}

/** Latency buckets (s): a claim answers in tens of ms; 1 s is where plugins/overload.ts starts shedding. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

/** The metrics of one app (tests build many apps in one process: each has its own registry). */
export function createMetrics({ processMetrics = true }: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry()
  if (processMetrics) collectDefaultMetrics({ register: registry })
  const claims = new Counter({
    name: 'campus_ticket_claims_total',
    help: 'Ticket claims answered, by result: claimed, or the refusal (sold_out, already_has_ticket, not_registered, ...).',
    labelNames: ['result'] as const,
    registers: [registry],
  })
  const checkIns = new Counter({
    name: 'campus_check_ins_total',
    help: 'Scans answered at the door, by result (CHECKED_IN, ALREADY_CHECKED_IN, UNKNOWN_TICKET, NOT_CHECKED_IN: a repeated scan whose check-in was undone, TRANSFERRED: an old code of a ticket given to a friend, CHECKED_OUT and NOT_INSIDE: scans out on an event with re-entry, EXPIRED_CODE: a time code missing or over a step old) and via (scan: online; sync: a device’s offline queue).',
    labelNames: ['result', 'via'] as const,
    registers: [registry],
  })
  const draws = new Counter({
    name: 'campus_fair_draws_total',
    help: 'Fair-start draws run (one per event whose opening window closed).',
    registers: [registry],
  })
  const drawEntrants = new Counter({
    name: 'campus_fair_draw_entrants_total',
    help: 'Students entered in the fair-start draws run.',
    registers: [registry],
  })
  const shed = new Counter({
    name: 'campus_shed_requests_total',
    help: 'Requests refused with 503 by this instance’s overload protection, by reason (queue_delay, event_loop, in_flight, closing).',
    labelNames: ['reason'] as const,
    registers: [registry],
  })
  const moveDelay = new Histogram({
    name: 'campus_scheduler_move_delay_seconds',
    help: 'How long after its scheduled time each state move was applied by the scheduler.',
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 2, 5, 30, 60, 300],
    registers: [registry],
  })
  let schedulerAt: number | null = null
  // Only on an instance whose scheduler runs (SCHEDULER_INTERVAL_MS=0 turns it off): made when it starts.
  const schedulerLag = () =>
    new Gauge({
      name: 'campus_scheduler_lag_seconds',
      help: 'Seconds since this instance’s scheduler last finished a tick without error (about 1 s or less when healthy; it grows while the database is unreachable).',
      registers: [registry],
      collect() {
        if (schedulerAt !== null) this.set((Date.now() - schedulerAt) / 1000)
      },
    })
  return {
    registry,
    claim: (outcome) => claims.inc({ result: outcome.ok ? (outcome.entered ? 'in_draw' : 'claimed') : snake(outcome.refusal) }),
    checkIn: (result, via) => checkIns.inc({ result, via }),
    draws,
    drawEntrants,
    shed: (reason) => shed.inc({ reason }),
    scheduler: {
      started: () => {
        if (schedulerAt !== null) return
        schedulerAt = Date.now()
        schedulerLag()
      },
      ticked: () => void (schedulerAt = Date.now()),
      moved: (late) => moveDelay.observe(Math.max(0, late)),
    },
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics
    /** Where METRICS_PORT's listener listens once the app is ready (null without METRICS_PORT). */
    metricsAddress: () => AddressInfo | null
  }
}

export interface MetricsOptions {
  metrics: Metrics
  database: Database
  /** METRICS_PORT: /metrics on a listener of its own (0: a free port, tests), on `host`. */
  port?: number
  host?: string
}

/** A promise that rejects after `ms`: a scrape or a readiness check never waits on a database that does not answer. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}

/** A scrape reads the database once, at most this long. */
const SCRAPE_DB_TIMEOUT_MS = 1000

export const metricsPlugin = fp(
  async (app: FastifyInstance, { metrics, database, port, host = '0.0.0.0' }: MetricsOptions) => {
    const { registry } = metrics
    app.decorate('metrics', metrics)

    // Requests by route: one histogram (its _count is the request count), observed by a hook each route gets as
    // it is registered, which knows its route's label without looking it up on every request.
    const durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request’s arrival to its answer, by method, route (the declared path; "unmatched" for no route) and status code.',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    })
    app.addHook('onRoute', (route) => {
      const label = route.url
      const observe: onResponseHookHandler = (request, reply, done) => {
        durations.observe({ method: request.method, route: label, status_code: reply.statusCode }, reply.elapsedTime / 1000)
        done()
      }
      route.onResponse = route.onResponse === undefined ? [observe] : [...[route.onResponse].flat(), observe]
    })
    // Requests no route matched (scanners, mistyped URLs): one label for all, so the series stay few.
    app.addHook('onResponse', (request, reply, done) => {
      if (request.is404) durations.observe({ method: request.method, route: 'unmatched', status_code: reply.statusCode }, reply.elapsedTime / 1000)
      done()
    })

    // Read at each scrape: one database round trip shared by the gauges below, bounded in time.
    const ops = opsRepository(database.db, database)
    let probe: { at: number; result: Promise<{ gauges: DatabaseGauges; seconds: number } | null> } | null = null
    const readDatabase = () => {
      if (probe && Date.now() - probe.at < 250) return probe.result
      const started = performance.now()
      const result = within(ops.gauges(), SCRAPE_DB_TIMEOUT_MS, 'the database')
        .then((gauges) => ({ gauges, seconds: (performance.now() - started) / 1000 }))
        .catch(() => null)
      probe = { at: Date.now(), result }
      return result
    }
    new Gauge({
      name: 'campus_db_up',
      help: 'Whether the database answered this scrape’s query within 1 s (1) or not (0).',
      registers: [registry],
      async collect() {
        this.set((await readDatabase()) ? 1 : 0)
      },
    })
    new Gauge({
      name: 'campus_db_scrape_query_seconds',
      help: 'How long this scrape’s database query took: the database’s round trip as this instance sees it.',
      registers: [registry],
      async collect() {
        this.set((await readDatabase())?.seconds ?? Number.NaN)
      },
    })
    new Gauge({
      name: 'campus_db_pool_max',
      help: 'Connections this instance’s database pool may open (1: the embedded database, one in-process session).',
      registers: [registry],
    }).set(database.poolMax)
    new Gauge({
      name: 'campus_db_pool_connections',
      help: 'This instance’s open PostgreSQL connections by state (pg_stat_activity: active, idle, idle in transaction); active near campus_db_pool_max means queries wait for a connection.',
      labelNames: ['state'] as const,
      registers: [registry],
      async collect() {
        this.reset()
        const connections = (await readDatabase())?.gauges.connections
        if (connections) for (const [state, n] of Object.entries(connections)) this.set({ state }, n)
      },
    })
    new Gauge({
      name: 'campus_push_outbox_depth',
      help: 'Push notifications waiting in the outbox (all instances share it).',
      registers: [registry],
      async collect() {
        this.set((await readDatabase())?.gauges.outbox ?? Number.NaN)
      },
    })
    new Gauge({
      name: 'campus_push_outbox_due',
      help: 'Push notifications in the outbox whose time has come: a number that stays high means sending is behind.',
      registers: [registry],
      async collect() {
        this.set((await readDatabase())?.gauges.outboxDue ?? Number.NaN)
      },
    })
    // Only with a Redis (REDIS_URL): the redis plugin is registered after this one, so this is made once ready.
    app.addHook('onReady', async () => {
      const redis = app.redis
      if (!redis) return
      new Gauge({
        name: 'campus_redis_up',
        help: 'Whether this instance is connected to Redis (1) or not (0): while 0, rate limits let requests through and revocations are not seen.',
        registers: [registry],
        collect() {
          this.set(redis.status === 'ready' ? 1 : 0)
        },
      })
    })

    // METRICS_PORT: the metrics on a port of their own, for a scraper on the private network; no token there.
    let listener: Server | null = null
    app.decorate('metricsAddress', () => (listener?.address() as AddressInfo | null) ?? null)
    if (port !== undefined) {
      app.addHook('onReady', async () => {
        listener = createServer((req, res) => {
          const path = (req.url ?? '/').split('?')[0]
          if (req.method !== 'GET' || (path !== '/metrics' && path !== '/api/v1/metrics')) {
            res
              .writeHead(404, { 'content-type': 'application/json; charset=utf-8' })
              .end(JSON.stringify({ error: true, message: 'Not found: the metrics are at /metrics.' }))
            return
          }
          registry.metrics().then(
            (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
            (err) => {
              app.log.error({ err }, 'metrics could not be collected')
              res
                .writeHead(500, { 'content-type': 'application/json; charset=utf-8' })
                .end(JSON.stringify({ error: true, message: 'The metrics could not be collected.' }))
            },
          )
        })
        listener.requestTimeout = 10_000
        await new Promise<void>((resolve, reject) => {
          listener!.once('error', reject)
          listener!.listen(port, host, () => resolve())
        })
      })
      app.addHook('onClose', async () => {
        if (!listener) return
        const closing = new Promise<void>((resolve) => listener!.close(() => resolve()))
        listener.closeAllConnections()
        await closing
      })
    }
  },
  { name: 'metrics' },
)

/** Whether an Authorization header carries this bearer token (compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false
  const given = Buffer.from(header.slice(7))
  const wanted = Buffer.from(token)
  return given.length === wanted.length && timingSafeEqual(given, wanted)
}
