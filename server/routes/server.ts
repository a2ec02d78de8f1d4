// What the server says about itself: the proxy's health check (200 while this instance takes requests;
// plugins/overload.ts answers 503 first when it would refuse them), the OpenAPI document, and the operator's calls
// of issue 27: liveness, readiness (the database answers with every migration applied) and the Prometheus metrics.
// The three operator calls are answered even while the instance sheds load (plugins/overload.ts `unshed`).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { CALLS } from '../../contract/api.ts'
import { bearerMatches, within } from '../plugins/metrics.ts'
import { opsRepository } from '../db/ops.ts'
import type { Database } from '../db/index.ts'
import { HttpError, notFound } from '../errors.ts'
import { declared } from './declare.ts'

export const HEALTH_PATH = `/api/v1${CALLS.health.path}`
/** Answered even while the instance sheds load: an orchestrator's probes and the scraper must see it then. */
export const UNSHED_PATHS: ReadonlySet<string> = new Set([CALLS.healthLive.path, CALLS.healthReady.path, CALLS.metrics.path].map((p) => `/api/v1${p}`))
/** The operator's paths as orchestrators and Prometheus expect them by default, without the API prefix. */
export const OPS_ALIASES: ReadonlyMap<string, string> = new Map(
  [CALLS.healthLive.path, CALLS.healthReady.path, CALLS.metrics.path].map((p) => [p, `/api/v1${p}`]),
)

/** How long readiness waits for the database before answering 503. */
export const READY_TIMEOUT_MS = 2000

export const READY_MESSAGES = {
  closing: 'This instance is shutting down.',
  unreachable: 'The database does not answer.',
  migrations: 'The database lacks migrations of this release: they are applied when an instance of this release starts.',
} as const

/**
 * Who may read GET /api/v1/metrics on the API's port: `token` (METRICS_TOKEN set: that bearer only), `off` (in
 * production without a token, or when METRICS_PORT serves them: 404 here), `open` (development and tests).
 */
export type MetricsAccess = { kind: 'open' } | { kind: 'off' } | { kind: 'token'; token: string }

export function metricsAccessOf(config: { production: boolean; metrics: { token?: string; port?: number } }): MetricsAccess {
  if (config.metrics.token) return { kind: 'token', token: config.metrics.token }
  if (config.production || config.metrics.port !== undefined) return { kind: 'off' }
  return { kind: 'open' }
}

const serverRoutes: FastifyPluginAsyncZod<{ database: Database; metricsAccess: MetricsAccess }> = async (app, { database, metricsAccess }) => {
  app.route({ ...declared(CALLS.health), handler: async () => ({ error: false as const, status: 'ok' as const }) })
  app.route({ ...declared(CALLS.openApi), handler: async () => app.swagger() as unknown as Record<string, unknown> })

  app.route({ ...declared(CALLS.healthLive), handler: async () => ({ error: false as const, status: 'live' as const }) })

  const ops = opsRepository(database.db, database)
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.route({
    ...declared(CALLS.healthReady),
    handler: async () => {
      const notReady = (message: string) => new HttpError(503, 'UNAVAILABLE', message, { 'retry-after': '5' })
      if (closing) throw notReady(READY_MESSAGES.closing)
      let applied: boolean
      try {
        applied = await within(ops.migrationsApplied(), READY_TIMEOUT_MS, 'the database')
      } catch {
        throw notReady(READY_MESSAGES.unreachable)
      }
      if (!applied) throw notReady(READY_MESSAGES.migrations)
      return { error: false as const, status: 'ready' as const }
    },
  })

  app.route({
    ...declared(CALLS.metrics),
    handler: async (request, reply) => {
      if (metricsAccess.kind === 'off') throw notFound('NOT_FOUND', 'No such API call.')
      if (metricsAccess.kind === 'token' && !bearerMatches(request.headers.authorization, metricsAccess.token)) {
        throw new HttpError(401, 'INVALID_TOKEN', 'Invalid Token', { 'www-authenticate': 'Bearer realm="metrics"' })
      }
      const text = await app.metrics.registry.metrics()
      return reply.type(app.metrics.registry.contentType).header('cache-control', 'no-store').send(text)
    },
  })
}

export default serverRoutes
