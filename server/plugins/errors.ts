// One error handler turns every refusal into the API's shape, `{error: true, message, code}`, with a message a
// student can read and a stable code (contract/refusal-codes.ts): HttpErrors as they are, validation failures with
// the first message of the contract's schemas (which name the field in SPEC wording), Fastify's own refusals with a
// sentence each. Anything else is our fault: 500.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { errorBody, HttpError } from '../errors.ts'
import { AttemptsUnavailable } from '../db/people/attempts.ts'
import { isDatabaseUnavailable } from '../db/outcomes.ts'

/** Seconds a client is asked to wait when the database is out of reach (a restart takes a few). */
export const DATABASE_RETRY_AFTER = 2
export const DATABASE_UNAVAILABLE = 'The server cannot reach its database just now. Please try again in a few seconds.'
export const TIMED_OUT = 'The server took too long to answer. Please try again in a few seconds.'

const UNREADABLE = 'The request could not be read. Please try again.'
const PARSED = Symbol('errors.parsed')
type Parsed = FastifyRequest & { [PARSED]?: boolean }
const TOO_SLOW = 'The request took too long to arrive. Please try again.'

export const errors = fp(
  async (app) => {
    // During an outage every request meets it: one line a second says so, not one per request.
    let lastLine = 0
    const once = () => {
      const now = Date.now()
      if (now - lastLine < 1000) return false
      lastLine = now
      return true
    }
    // Whether the request's body has arrived (and been parsed): preValidation runs once it has, body or not.
    app.addHook('preValidation', (request, _reply, done) => {
      ;(request as Parsed)[PARSED] = true
      done()
    })
    app.setErrorHandler((err: FastifyError | HttpError, request, reply) => {
      if (err instanceof HttpError) {
        return reply.status(err.status).headers(err.headers).send(errorBody(err.code, err.message))
      }
      if (err instanceof AttemptsUnavailable) {
        return reply.status(503).header('retry-after', String(err.retryAfterSeconds)).send(errorBody('UNAVAILABLE', err.message))
      }
      if (hasZodFastifySchemaValidationErrors(err)) {
        return reply.status(400).send(errorBody('INVALID_INPUT', err.validation[0].message ?? UNREADABLE))
      }
      const status = err.statusCode ?? 500
      if (status === 413) return reply.status(413).send(errorBody('BODY_TOO_LARGE', 'The request is too large.'))
      if (status === 415) return reply.status(415).send(errorBody('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON.'))
      if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') return reply.status(400).send(errorBody('INVALID_JSON', 'The request body must be valid JSON.'))
      if (status >= 400 && status < 500) return reply.status(status).send(errorBody('UNREADABLE_REQUEST', UNREADABLE))
      // Past the handler timeout (server/app.ts), which counts from routing. A body still arriving then is the
      // client's pace, not ours: 408 and the connection closed, as Node's own request timeout answers it (the two
      // timeouts are both 10 s and either may fire first: test/server/slow-bodies.test.ts).
      if (err.code === 'FST_ERR_HANDLER_TIMEOUT' && !(request as Parsed)[PARSED]) {
        return reply.status(408).header('connection', 'close').send(errorBody('REQUEST_TIMEOUT', TOO_SLOW))
      }
      // Past the handler timeout with the request whole: what it waited on (often the database) is slow or away.
      if (err.code === 'FST_ERR_HANDLER_TIMEOUT') {
        if (once()) request.log.warn({ err }, 'request timed out: answered 503')
        return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER)).send(errorBody('UNAVAILABLE', TIMED_OUT))
      }
      // A database restart or a dropped connection (issue 27): the request was fine and may be sent again, so a 503
      // with Retry-After (the app retries its idempotent writes on it), logged at most once a second, not a 500.
      if (isDatabaseUnavailable(err)) {
        if (once()) request.log.warn({ err }, 'database unavailable: answered 503')
        return reply.status(503).header('retry-after', String(DATABASE_RETRY_AFTER)).send(errorBody('UNAVAILABLE', DATABASE_UNAVAILABLE))
      }
      request.log.error({ err }, 'unhandled error')
      return reply.status(500).send(errorBody('INTERNAL_ERROR', 'Something went wrong on our side. Please try again.'))
    })
  },
  { name: 'errors' },
)

/** Fastify's answer to a URL it cannot decode (e.g. invalid UTF-8 in the path), given before routing. */
export const frameworkErrors = (_err: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
  reply.status(400).send(errorBody('UNREADABLE_REQUEST', UNREADABLE))
}
