// Structured logs (pino, Fastify's logger) with secrets masked (issue 6). Sign-ins, token reuse and rate
// limits are logged where they happen; refusals (4xx) are logged here with the message the student saw.
// Masking works on three levels: pino `redact` for known fields, serializers for requests and errors, and a
// last pass over every string logged, so a token or phone number that slips into a message is masked too.
import type { FastifyInstance, FastifyRequest } from 'fastify'
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

/** Logs every 4xx answer with the message the student saw (429s are logged by the rate limiter with more). */
export const refusalLog = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (request, reply, payload) => {
      const status = reply.statusCode
      if (status >= 400 && status < 500 && status !== 429 && typeof payload === 'string') {
        let reason: unknown
        try {
          reason = JSON.parse(payload)?.message
        } catch {}
        request.log.info({ status, reason, route: request.routeOptions.url, userId: request.userId || undefined }, 'refused')
      }
      return payload
    })
  },
  { name: 'refusal-log' },
)
