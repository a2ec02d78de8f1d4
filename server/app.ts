// Builds the Fastify app (plugins and routes) without listening, so tests can `inject` into it.
import { existsSync, statSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { resolve } from 'node:path'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify'
import cookie from '@fastify/cookie'
import compress from '@fastify/compress'
import fastifyStatic from '@fastify/static'
import type { Config } from './config.ts'
import type { Database } from './db/index.ts'
import { HttpError } from './errors.ts'
import { accessTokens, loadSecret } from './auth/tokens.ts'
import type { Deps } from './deps.ts'
import authRoutes from './routes/auth.ts'
import userRoutes from './routes/user.ts'
import eventRoutes from './routes/events.ts'
import teamRoutes from './routes/teams.ts'
import councilRoutes from './routes/councils.ts'
import { createRedis, type Redis } from './redis.ts'
import { JOIN_ATTEMPTS } from './teams/attempt-limiter.ts'
import { redisAttemptLimiter } from './teams/redis-attempt-limiter.ts'
import { overload, OVERLOAD, type OverloadOptions } from './plugins/overload.ts'
import { loggerOptions, refusalLog } from './plugins/logging.ts'
import { securityHeaders } from './plugins/security-headers.ts'
import { cors } from './plugins/cors.ts'
import { rejectNul } from './plugins/input.ts'
import { memoryCounters, rateLimit, redisCounters, RATE_LIMITS, type RateLimits } from './plugins/rate-limit.ts'

export const BODY_LIMIT = 16 * 1024

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
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database, logger = false, accessTokenSeconds } = options
  const app = Fastify({
    // Masking of tokens and phone numbers is part of every logger this app gets (plugins/logging.ts).
    logger: logger === false ? false : loggerOptions(typeof logger === 'object' ? (logger as Record<string, unknown>) : {}),
    bodyLimit: BODY_LIMIT,
    requestTimeout: 30_000,
    connectionTimeout: 30_000,
    keepAliveTimeout: 10_000,
    trustProxy: true,
    // Requests during shutdown get 503 from plugins/overload.ts, in the JSON error shape with Retry-After.
    return503OnClosing: false,
    // A URL Fastify cannot decode (e.g. invalid UTF-8 in the path) is answered before routing, outside the
    // error handler: give it the same JSON error shape (found by the fuzz test).
    frameworkErrors: (_err, _request, reply: FastifyReply) => {
      reply.status(400).send({ error: true, message: 'The request could not be read. Please try again.' })
    },
  })

  const secret = await loadSecret(config.jwtSecret, config.dataDir)
  const deps: Deps = {
    config,
    db: database.db,
    dbKind: database.kind,
    tokens: accessTokens(secret, accessTokenSeconds),
    cookieSecret: createHash('sha256').update('cookie:').update(secret).digest('base64url'),
  }

  // The app sends the literal body `true`; an empty body must work too (API.md "Conventions").
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim()
    if (text === '') return done(null, undefined)
    try {
      done(null, JSON.parse(text))
    } catch {
      done(new HttpError(400, 'The request body must be valid JSON.'), undefined)
    }
  })

  app.setErrorHandler((err: FastifyError | HttpError, request, reply) => {
    if (err instanceof HttpError) {
      return reply.status(err.status).headers(err.headers).send({ error: true, message: err.message })
    }
    const status = (err as FastifyError).statusCode ?? 500
    if (status === 413) return reply.status(413).send({ error: true, message: 'The request is too large.' })
    if (status === 415) return reply.status(415).send({ error: true, message: 'Send the request body as JSON.' })
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ error: true, message: 'The request could not be read. Please try again.' })
    }
    request.log.error({ err }, 'unhandled error')
    return reply.status(500).send({ error: true, message: 'Something went wrong on our side. Please try again.' })
  })

  const ownRedis = !options.redis && config.redisUrl ? createRedis(config.redisUrl) : undefined
  const redis = options.redis ?? ownRedis
  if (ownRedis) app.addHook('onClose', () => ownRedis.close())
  const prefix = options.redisPrefix ?? 'campus:'

  // Order matters: the overload check is the first hook of every request, so a refusal costs nothing.
  await app.register(overload, { ...OVERLOAD, ...(config.maxInFlight ? { maxInFlight: config.maxInFlight } : {}), ...options.overload })
  await app.register(refusalLog)
  await app.register(securityHeaders, { staticDir: config.staticDir, apiOrigin: config.apiOrigin })
  await app.register(cors, { appUrl: config.appUrl })
  await app.register(rejectNul)
  if (options.rateLimits !== false) {
    const perMinute = (n: number | undefined, rule: { limit: number; windowSeconds: number }) => (n ? { limit: n, windowSeconds: 60 } : rule)
    const base = options.rateLimits ?? RATE_LIMITS
    const limits: RateLimits = {
      writes: perMinute(config.rateLimits?.writes, base.writes),
      signIn: perMinute(config.rateLimits?.signIn, base.signIn),
      refresh: perMinute(config.rateLimits?.refresh, base.refresh),
    }
    await app.register(rateLimit, { limits, counters: redis ? redisCounters(redis, prefix + 'rate:') : memoryCounters() })
  }

  await app.register(cookie, { secret: deps.cookieSecret })
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'] })

  await app.register(
    async (api) => {
      await api.register(authRoutes, { prefix: '/auth', deps })
      await api.register(userRoutes, { prefix: '/user', deps })
      await api.register(eventRoutes, { prefix: '/event', deps })
      await api.register(teamRoutes, {
        prefix: '/event',
        deps,
        joinLimiter: redis ? redisAttemptLimiter(redis, JOIN_ATTEMPTS, prefix + 'attempts:') : undefined,
      })
      await api.register(councilRoutes, { prefix: '/council', deps })
      api.setNotFoundHandler((_req, reply) => reply.status(404).send({ error: true, message: 'No such API call.' }))
    },
    { prefix: '/api/v1' },
  )

  const staticRoot = config.staticDir ? resolve(config.staticDir) : undefined
  if (staticRoot && existsSync(resolve(staticRoot, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: staticRoot,
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each text file (vite.config.ts): sent as they are, compressed once.
      preCompressed: true,
      setHeaders(res, path) {
        // Hashed file names never change: cache them for a year. Everything else is revalidated.
        res.header('cache-control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache')
      },
    })
    const sendIndex = (reply: any) => reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html')
    app.get('/', (_req, reply) => sendIndex(reply))
    app.get('/*', async (request, reply) => {
      const path = (request.params as { '*': string })['*']
      const file = resolve(staticRoot, path)
      // Files of the build only: not a folder, nothing under a hidden folder (.vite/ holds build metadata).
      const servable = path && file.startsWith(staticRoot + '/') && !/(^|\/)\./.test(path) && statSync(file, { throwIfNoEntry: false })?.isFile()
      if (servable) return reply.sendFile(path)
      if (/\.[a-z0-9]+$/i.test(path)) return reply.status(404).send({ error: true, message: 'Not found.' })
      return sendIndex(reply) // client-side routes
    })
  }

  return app
}

export type { Deps }
