// Builds the Fastify app (plugins and routes) without listening, so tests can `inject` into it.
import { createHash } from 'node:crypto'
import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify'
import cookie from '@fastify/cookie'
import compress from '@fastify/compress'
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod'
import { CALLS } from '../contract/api.ts'
import type { Config } from './config.ts'
import type { Database } from './db/index.ts'
import { loadSecret } from './auth/tokens.ts'
import { errorBody } from './errors.ts'
import { auth } from './plugins/auth.ts'
import { corsForApp } from './plugins/cors.ts'
import { deadline } from './plugins/deadline.ts'
import { errors, frameworkErrors } from './plugins/errors.ts'
import { input } from './plugins/input.ts'
import { answerMessages, loggerOptions, RequestLog, requestChildLogger } from './plugins/logging.ts'
import { overload, OVERLOAD, type OverloadOptions } from './plugins/overload.ts'
import { rateLimit, RATE_LIMITS, type RateLimits } from './plugins/rate-limit.ts'
import { redis, type Redis } from './plugins/redis.ts'
import { database, repositories } from './plugins/repositories.ts'
import { securityHeaders } from './plugins/security-headers.ts'
import { apiDocs, openApi } from './plugins/openapi.ts'
import { staticApp } from './plugins/static.ts'
import serverRoutes, { metricsAccessOf, OPS_ALIASES, UNSHED_PATHS } from './routes/server.ts'
import { createMetrics, metricsPlugin } from './plugins/metrics.ts'
import authRoutes from './routes/auth.ts'
import userRoutes from './routes/user.ts'
import eventRoutes from './routes/events.ts'
import teamRoutes from './routes/teams.ts'
import councilRoutes from './routes/councils.ts'
import orgRoutes from './routes/org.ts'
import scheduler from './plugins/scheduler.ts'
import { uploads, uploadsDirOf } from './plugins/uploads.ts'
import { control } from './plugins/control.ts'
import { payments } from './plugins/payments.ts'
import { paymentAdminRoutes } from './routes/payment-admin.ts'
import { paymentRoutes, razorpayWebhookRoutes } from './routes/payments.ts'
import { paymentsOrgRoutes } from './routes/payments-org.ts'
import { deskRoutes } from './routes/desk.ts'
import { around } from './plugins/around.ts'
import { aroundPublicRoutes, aroundSignedInRoutes } from './routes/around.ts'
import doorRoutes from './routes/door.ts'
import { feedRoutes, publicFeedRoutes, shortVerifyRoute } from './routes/feeds.ts'
import pointsRoutes from './routes/points.ts'

export const BODY_LIMIT = 16 * 1024
/** A whole request, headers and body, must arrive within this (docs/deployment.md "Timeouts"). */
export const REQUEST_TIMEOUT_MS = 10_000
/** The longest a request may take from its first hook to its answer (plugins/deadline.ts). */
export const HANDLER_TIMEOUT_MS = 10_000
export const API_PREFIX = '/api/v1'

export interface AppOptions {
  config: Config
  database: Database
  logger?: boolean | object
  /** Test hook: a shorter access-token lifetime. */
  accessTokenSeconds?: number
  /** Redis for the shared counters; by default one is opened from REDIS_URL (config.redisUrl) when set. */
  redis?: Redis
  /** Key prefix in Redis (tests use a unique one each). */
  redisPrefix?: string
  /** Rate limits; `false` turns them off (the fuzz test, which sends thousands of writes as a few students). */
  rateLimits?: RateLimits | false
  overload?: Partial<OverloadOptions>
  /** Test hook: sees every route as it is registered (the OpenAPI coverage test). */
  onRoute?: (route: RouteOptions) => void
  /** The scheduler of event states (server/plugins/scheduler.ts); `false` turns it off. */
  scheduler?: false | { intervalMs?: number }
  /** The waitlist/push tick's period (ms); `false`: no timer (tests call app.aroundJobs.tick()). */
  aroundIntervalMs?: number | false
  /** The payments tick's interval (plugins/payments.ts; default 2 s); false: none (tests call app.paymentJobs.tick()). */
  paymentsIntervalMs?: number | false
  /** Razorpay's calls' timeout, ms (default 10 s). */
  gatewayTimeoutMs?: number
  /**
   * The process's own metrics (CPU, memory, event loop, GC) beside the app's; tests that build many apps in one
   * process turn them off (each set watches the whole process).
   */
  processMetrics?: boolean
  /** Test hook: a shorter handler timeout than HANDLER_TIMEOUT_MS. */
  handlerTimeoutMs?: number
  /** Test hook: how long a streamed answer may wait for its next chunk (the handler timeout when absent). */
  streamIdleMs?: number
}

// The contract's paths that end with a slash (the team calls) answer without it too (API.md); the router's
// ignoreTrailingSlash would do it for every path, so these are rewritten to their declared form instead.
const SLASHED = new Map(
  Object.values(CALLS)
    .filter((c) => c.path.endsWith('/'))
    .map((c) => [API_PREFIX + c.path.slice(0, -1), API_PREFIX + c.path]),
)

function withDeclaredSlash(url: string): string {
  const q = url.indexOf('?')
  const path = q < 0 ? url : url.slice(0, q)
  // The operator's calls also answer where orchestrators and Prometheus look by default (/health/live, /metrics).
  const declared = SLASHED.get(path) ?? OPS_ALIASES.get(path)
  return declared ? declared + (q < 0 ? '' : url.slice(q)) : url
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, logger = false } = options
  const app = Fastify({
    // Masking of tokens and phone numbers is part of every logger this app gets (plugins/logging.ts).
    logger: logger === false ? false : loggerOptions(typeof logger === 'object' ? (logger as Record<string, unknown>) : {}),
    // Fastify's "incoming request" and "request completed" lines for every request are replaced by RequestLog
    // (plugins/logging.ts): one line for the requests worth one, none for a rush's 2xx and 409 at info.
    logController: new RequestLog(),
    // Each request's child logger is made at its first line, not for every request (plugins/logging.ts).
    childLoggerFactory: logger === false ? undefined : requestChildLogger,
    bodyLimit: BODY_LIMIT,
    // A whole request (headers and a body of at most 16 KB) must arrive within 10 s: a slow-body client is cut off
    // with 408. Node checks its connections against these timeouts every `connectionsCheckingInterval` (30 s by
    // default, which let a trickling body live for up to 40 s, and the headers' own default is 60 s): every half
    // second here, so the cut comes by 10.5 s (issue 21 item 2, test/server/slow-bodies.test.ts).
    requestTimeout: REQUEST_TIMEOUT_MS,
    http: { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS, connectionsCheckingInterval: 500 },
    connectionTimeout: 30_000,
    keepAliveTimeout: 10_000,
    // Off unless TRUST_PROXY names the proxies (server/config.ts): otherwise any client could choose the address
    // every per-address limit counts it under. The address a proxy hands over is checked again (clientAddress).
    // A hop count is given as a function: Fastify treats a bare number as "trust nobody" (it cannot check the
    // peer), so with a count the instances must be reachable only through the proxies (docs/deployment.md).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // Requests during shutdown get 503 from plugins/overload.ts, in the JSON error shape with Retry-After.
    return503OnClosing: false,
    // A URL Fastify cannot decode is answered before routing, outside the error handler (found by the fuzz test).
    frameworkErrors,
    rewriteUrl: (request) => withDeclaredSlash(request.url ?? '/'),
  }).withTypeProvider<ZodTypeProvider>()

  if (options.onRoute) app.addHook('onRoute', options.onRoute)
  // Requests are validated and answers serialised by the contract's schemas (contract/api.ts).
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)

  const secret = await loadSecret(config.jwtSecret, config.dataDir)

  // Metrics first: its hooks see every route as it is registered (no request hook of its own runs before overload's).
  const metrics = createMetrics({ processMetrics: options.processMetrics })
  await app.register(metricsPlugin, { metrics, database: options.database, port: config.metrics.port, host: config.host })
  // Order matters: the overload check is the first hook of every request, so a refusal costs nothing.
  await app.register(overload, {
    ...OVERLOAD,
    ...(config.maxInFlight ? { maxInFlight: config.maxInFlight } : {}),
    onShed: metrics.shed,
    unshed: UNSHED_PATHS,
    ...options.overload,
  })
  // No request waits for ever on something behind it (issue 27: queries queued for a database that is restarting):
  // past 10 s its answer is a 503 with Retry-After (plugins/errors.ts), which the app's writes retry.
  await app.register(deadline, { ms: options.handlerTimeoutMs ?? HANDLER_TIMEOUT_MS, streamIdleMs: options.streamIdleMs })
  await app.register(errors)
  await app.register(answerMessages)
  await app.register(securityHeaders, {
    staticDir: config.staticDir,
    apiOrigin: config.apiOrigin,
    checkout: config.razorpay ? { script: config.razorpay.checkoutUrl, api: config.razorpay.apiUrl } : undefined,
  })
  await app.register(input)
  await app.register(redis, { url: config.redisUrl, client: options.redis, prefix: options.redisPrefix })
  await app.register(auth, { secret, accessTokenSeconds: options.accessTokenSeconds })
  await app.register(rateLimit, { limits: options.rateLimits === false ? false : rateLimitsOf(config, options.rateLimits ?? RATE_LIMITS) })
  await app.register(database, { database: options.database })
  for (const repository of repositories)
    await app.register(repository, { reuseGraceSeconds: config.refreshReuseGraceSeconds, razorpay: Boolean(config.razorpay) })
  // The embedded database on disk: `npm run cli -- backup` while this server runs (plugins/control.ts).
  await app.register(control, { database: options.database, uploadsDir: uploadsDirOf(config), passphrase: config.backupPassphrase })
  await app.register(scheduler, { intervalMs: options.scheduler === false ? 0 : (options.scheduler?.intervalMs ?? config.schedulerIntervalMs) })
  await app.register(around, { config, intervalMs: options.aroundIntervalMs })
  await app.register(payments, { config, intervalMs: options.paymentsIntervalMs, timeoutMs: options.gatewayTimeoutMs })
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] })
  await app.register(openApi)

  await app.register(
    async (api) => {
      // CORS for the API only: a Vary: Origin on the app's own files would keep the service worker's cache from
      // matching them (the Cache API honours Vary), and they are never fetched from another origin.
      await api.register(corsForApp, { appUrl: config.appUrl })
      api.setNotFoundHandler((_req, reply) => reply.status(404).send(errorBody('NOT_FOUND', 'No such API call.')))
      await api.register(serverRoutes, { database: options.database, metricsAccess: metricsAccessOf(config) })
      // Cookies (the signed sign-in state) exist on the sign-in routes only: no other call reads or sets one, so
      // the cookie plugin's two hooks run there and nowhere else (issue 15: nothing on a claim's path but the claim).
      // Its secret signs cookies and is never the JWT secret itself.
      await api.register(async (signIn) => {
        await signIn.register(cookie, { secret: createHash('sha256').update('cookie:').update(secret).digest('base64url') })
        await signIn.register(authRoutes, { config })
      })
      await api.register(publicFeedRoutes, { config, secret })
      // Every /p/ call: the bearer check, registered once for all of them.
      await api.register(async (signedIn) => {
        signedIn.addHook('onRequest', signedIn.authenticate)
        await signedIn.register(userRoutes)
        await signedIn.register(eventRoutes)
        await signedIn.register(teamRoutes)
        await signedIn.register(councilRoutes)
        await signedIn.register(orgRoutes, { uploadsDir: uploadsDirOf(config), uploadQuotaMb: config.uploadQuotaMb })
        await signedIn.register(aroundSignedInRoutes)
        await signedIn.register(doorRoutes)
        await signedIn.register(feedRoutes, { config, secret })
        await signedIn.register(pointsRoutes, { config })
        await signedIn.register(paymentRoutes)
        await signedIn.register(paymentAdminRoutes)
        await signedIn.register(paymentsOrgRoutes, { config })
        await signedIn.register(deskRoutes)
      })
      await api.register(aroundPublicRoutes)
      await api.register(razorpayWebhookRoutes)
    },
    { prefix: API_PREFIX },
  )
  // Anything else (another method on an app path, /api/v2/…) answers the JSON 404 too, never Fastify's own shape.
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(errorBody('NOT_FOUND', /^\/api(\/|$|\?)/.test(request.url) ? 'No such API call.' : 'Not found.')),
  )
  await app.register(apiDocs)
  await app.register(uploads, { dir: uploadsDirOf(config) })
  // The short verify address the certificate and transcript print (issue 37 item 1): before the app's catch-all.
  await app.register(shortVerifyRoute, { config })
  await app.register(staticApp, { staticDir: config.staticDir })

  return app as unknown as FastifyInstance
}

/** Trust the nearest `hops` addresses (the socket's peer is hop 0): the client is the next one back. */
function trustHops(hops: number) {
  return (_address: string, hop: number) => hop < hops
}

/** The limits with the per-minute overrides of the configuration (RATE_LIMIT_WRITES, _SIGN_IN, _REFRESH). */
function rateLimitsOf(config: Config, base: RateLimits): RateLimits {
  const perMinute = (n: number | undefined, rule: { limit: number; windowSeconds: number }) => (n ? { limit: n, windowSeconds: 60 } : rule)
  return {
    writes: perMinute(config.rateLimits?.writes, base.writes),
    signIn: perMinute(config.rateLimits?.signIn, base.signIn),
    refresh: perMinute(config.rateLimits?.refresh, base.refresh),
    door: base.door,
    calendar: base.calendar,
    verify: base.verify,
    drawKeys: base.drawKeys,
  }
}
