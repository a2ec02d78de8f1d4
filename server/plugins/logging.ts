// Structured logs (pino, Fastify's logger) with secrets masked (issue 6). Sign-ins, token reuse and rate
// limits are logged where they happen; requests (failures, slow ones, refusals with the message the student saw)
// are logged here, one line each, instead of Fastify's two lines for every request (RequestLog).
// Masking works on three levels: pino `redact` for known fields, serializers for requests and errors, and a
// last pass over every string logged, so a token or phone number that slips into a message is masked too.
import { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify'
import fp from 'fastify-plugin'

const JWT = /eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g
const BEARER = /\b(Bearer)\s+\S+/gi
const URL_SECRET = /\b(access_?token|refresh_?token|id_?token|code|state|nonce|code_verifier)=[^&#\s"']+/gi
// Refresh tokens are 43 base64url characters; session ids, codes and hashes are long runs like them.
const LONG_OPAQUE = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])/g
// An Indian mobile number, with or without +91 / 0: ten digits not part of a longer number (ticket codes
// are sixteen digits and stay readable for support).
const PHONE = /(?<![\d])(?:\+?91[\s-]?|0)?[6-9]\d{9}(?!\d)/g
const SECRET_KEY = /authorization|cookie|token|secret|password|phone|verifier|nonce/i

export function maskText(text: string): string {
  return text
    .replace(JWT, '[token]')
    .replace(BEARER, '$1 [redacted]')
    .replace(URL_SECRET, '$1=[redacted]')
    .replace(LONG_OPAQUE, '[redacted]')
    .replace(PHONE, '[phone]')
}

/** Masks plain data (objects, arrays, strings) to a bounded depth; anything else is left to the serializers. */
export function maskValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskText(value)
  if (depth > 6 || value === null || typeof value !== 'object') return value
  if (value instanceof Error) return maskError(value)
  if (Array.isArray(value)) return value.map((v) => maskValue(v, depth + 1))
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_KEY.test(k) && v !== undefined && v !== null && typeof v !== 'object' ? '[redacted]' : maskValue(v, depth + 1)
  }
  return out
}

function maskError(err: Error): Record<string, unknown> {
  const e = err as Error & { code?: unknown; statusCode?: unknown; cause?: unknown }
  return {
    type: e.constructor?.name ?? 'Error',
    message: maskText(String(e.message)),
    stack: e.stack ? maskText(e.stack) : undefined,
    code: e.code,
    statusCode: e.statusCode,
    cause: e.cause instanceof Error ? maskError(e.cause) : undefined,
  }
}

/** The path, and the query only as its parameter names: the Google callback carries a code and a state. */
export function maskUrl(url: string): string {
  const hash = url.indexOf('#')
  const noFragment = hash < 0 ? url : url.slice(0, hash)
  const q = noFragment.indexOf('?')
  if (q < 0) return maskText(noFragment)
  const names = [...new URLSearchParams(noFragment.slice(q + 1)).keys()]
  return maskText(noFragment.slice(0, q)) + '?' + names.map((n) => `${encodeURIComponent(n)}=[redacted]`).join('&')
}

/** Logger options for Fastify: redaction, serializers and the masking pass; merged with the caller's. */
export function loggerOptions(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    level: 'info',
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'res.headers.location',
        'body',
        '*.body',
        'refreshToken',
        'accessToken',
        '*.refreshToken',
        '*.accessToken',
        'phone_number',
        '*.phone_number',
        'phoneNumber',
        '*.phoneNumber',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: FastifyRequest) => ({
        method: req.method,
        url: maskUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
      }),
      err: (err: unknown) => (err instanceof Error ? maskError(err) : err),
    },
    formatters: { log: (obj: Record<string, unknown>) => maskValue(obj) as Record<string, unknown> },
    hooks: {
      logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void) {
        method.apply(
          this,
          args.map((a) => (typeof a === 'string' ? maskText(a) : a)),
        )
      },
    },
    ...extra,
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The message of a 4xx/5xx answer, kept as it is sent (for the log line; never parsed back out of the answer). */
    answerMessage?: string
  }
}

/** pino's isLevelEnabled (Fastify's logger type does not name it); false for a logger without it. */
const debugEnabled = (request: FastifyRequest) => (request.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('debug') === true

/** An answer slower than this is logged (warn) whatever its status. */
export const SLOW_MS = 1000

/** The fields of a request's line. */
const line = (request: FastifyRequest, status: number, responseTime: number) => ({
  req: request,
  status,
  responseTime,
  reason: request.answerMessage,
  route: request.routeOptions.url,
  userId: request.userId || undefined,
})

/**
 * One line per request that is worth a line, in place of Fastify's two lines for every request (issue 15: in a
 * rush the 2xx and 409 lines at `info` were a sixth of the server's CPU per claim, for lines nobody reads):
 * - 5xx (error), except 503s, which the overload check and the shutdown log themselves;
 * - slower than SLOW_MS (warn);
 * - other refusals (4xx but 409 and 429) with the message the student saw (info, as before); 429s are logged by
 *   the rate limiter with more;
 * - redirects (info: sign-in callbacks);
 * - 2xx and 409 (a rush's "sold out" and "already yours") at debug only.
 * Fastify's own log calls (stream errors, writeHead errors) stay as they are.
 */
export class RequestLog extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const status = reply.statusCode
    const responseTime = reply.elapsedTime
    if (error || status >= 500) {
      if (error || status !== 503) request.log.error({ ...line(request, status, responseTime), err: error ?? undefined }, 'request failed')
    } else if (responseTime >= SLOW_MS) {
      request.log.warn(line(request, status, responseTime), 'slow request')
    } else if (status >= 400 && status !== 409 && status !== 429) {
      request.log.info(line(request, status, responseTime), 'refused')
    } else if (status >= 300 && status < 400) {
      request.log.info({ req: request, status, responseTime }, 'request completed')
    } else if (debugEnabled(request)) {
      request.log.debug(line(request, status, responseTime), status === 409 ? 'refused' : 'request completed')
    }
  }
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace'
type Bindings = Record<string, unknown>
type PinoLike = FastifyBaseLogger & { isLevelEnabled?(level: string): boolean; bindings?(): Bindings }

/**
 * Each request's logger (request.log, reply.log), with the request id bound, made at the request's first line
 * rather than for every request (issue 15: pino's child() per request, its bindings serialised each time, was
 * about 1% of a rush's server CPU and garbage for requests that log nothing). A line below the level creates
 * nothing; the first one at or above it creates the pino child, which writes this and every later line exactly as
 * before (same request id, same redaction and masking). A route with its own log level or serializers gets its
 * child at once, as Fastify would make it.
 */
export class RequestLogger {
  #parent: PinoLike
  #bindings: Bindings
  #opts: Bindings
  #child?: PinoLike

  constructor(parent: PinoLike, bindings: Bindings, opts: Bindings) {
    this.#parent = parent
    this.#bindings = bindings
    this.#opts = opts
  }

  #logger(): PinoLike {
    this.#child ??= this.#parent.child(this.#bindings, this.#opts) as PinoLike
    return this.#child
  }

  #log(level: Level, args: unknown[]) {
    if (!this.isLevelEnabled(level)) return
    const logger = this.#logger()
    ;(logger[level] as (...a: unknown[]) => void).apply(logger, args)
  }

  get level(): string {
    return (this.#child ?? this.#parent).level
  }
  set level(level: string) {
    this.#logger().level = level
  }
  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.#parent).isLevelEnabled?.(level) ?? true
  }
  bindings(): Bindings {
    return this.#logger().bindings?.() ?? {}
  }
  child(bindings: Bindings, options?: Bindings): FastifyBaseLogger {
    return this.#logger().child(bindings, options)
  }
  silent(...args: unknown[]) {
    const logger = this.#logger()
    ;(logger.silent as (...a: unknown[]) => void).apply(logger, args)
  }
  fatal(...args: unknown[]) {
    this.#log('fatal', args)
  }
  error(...args: unknown[]) {
    this.#log('error', args)
  }
  warn(...args: unknown[]) {
    this.#log('warn', args)
  }
  info(...args: unknown[]) {
    this.#log('info', args)
  }
  debug(...args: unknown[]) {
    this.#log('debug', args)
  }
  trace(...args: unknown[]) {
    this.#log('trace', args)
  }
}

/** Fastify's childLoggerFactory: a RequestLogger, or pino's child at once where the route asks for more. */
export function requestChildLogger(logger: FastifyBaseLogger, bindings: Bindings, opts: object): FastifyBaseLogger {
  const parent = logger as PinoLike
  if (typeof parent.isLevelEnabled !== 'function' || Object.keys(opts).length > 0) return logger.child(bindings, opts)
  return new RequestLogger(parent, bindings, opts as Bindings) as unknown as FastifyBaseLogger
}

/** Keeps the message of each 4xx/5xx answer for its log line, from the answer's object before it is serialised. */
export const answerMessages = fp(
  async (app: FastifyInstance) => {
    app.addHook('preSerialization', (request, reply, payload, done) => {
      if (reply.statusCode >= 400) {
        const message = (payload as { message?: unknown } | null)?.message
        if (typeof message === 'string') request.answerMessage = message
      }
      done(null, payload)
    })
  },
  { name: 'answer-messages' },
)
