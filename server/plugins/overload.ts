// Overload protection (issue 6), kept in-house (no library caps requests in flight per instance and answers in
// the API's error shape): past a number of requests in flight on this instance, or while the event
// loop is stalled, answer 503 with Retry-After at once instead of queueing without end. The cap on requests
// in flight also bounds the wait for a database connection: at most `maxInFlight` requests can queue for
// the pool, so a slow database makes the next students retry instead of piling up sockets and memory.
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

export interface OverloadOptions {
  /** Requests in flight on this instance beyond which new ones get 503. */
  maxInFlight: number
  /**
   * Mean event-loop delay over the last second beyond which new requests get 503; 0 turns the check off.
   * The mean, not the max: one long synchronous step (a migration, an embedded-database query) must not
   * shed the next second of traffic; a loop that is late on every turn must.
   */
  maxEventLoopDelayMs: number
  retryAfterSeconds: number
}

export const OVERLOAD: OverloadOptions = { maxInFlight: 500, maxEventLoopDelayMs: 1000, retryAfterSeconds: 2 }

export const overload = fp(
  async (app: FastifyInstance, options: OverloadOptions) => {
    let inFlight = 0
    let stalledMs = 0
    const delay = monitorEventLoopDelay({ resolution: 20 })
    let sampler: NodeJS.Timeout | undefined
    if (options.maxEventLoopDelayMs > 0) {
      delay.enable()
      sampler = setInterval(() => {
        stalledMs = delay.count > 0 ? delay.mean / 1e6 : 0
        delay.reset()
      }, 1000)
      sampler.unref()
    }
    const overloaded = () => inFlight >= options.maxInFlight || (options.maxEventLoopDelayMs > 0 && stalledMs > options.maxEventLoopDelayMs)

    // Shutting down (SIGTERM): requests that still arrive on open keep-alive connections get a proper 503 in
    // the API's error shape, with Retry-After and Connection: close, so the client retries on another instance.
    // Kept instead of Fastify's return503OnClosing, whose answer has neither the error shape nor Retry-After.
    let closing = false
    app.addHook('preClose', async () => {
      closing = true
    })

    // The first onRequest hook of the app (registered first): a refused request costs nothing more.
    app.addHook('onRequest', async (request, reply) => {
      if (closing) {
        return reply
          .status(503)
          .header('retry-after', String(options.retryAfterSeconds))
          .header('connection', 'close')
          .send({ error: true, message: 'The server is restarting. Please try again in a few seconds.' })
      }
      if (overloaded()) {
        request.log.warn({ inFlight, eventLoopDelayMs: Math.round(stalledMs) }, 'overloaded: request refused with 503')
        return reply
          .status(503)
          .header('retry-after', String(options.retryAfterSeconds))
          .send({ error: true, message: 'The server is busy. Please try again in a few seconds.' })
      }
      inFlight += 1
      // 'close' fires once whether the answer was sent or the client went away, so the count cannot leak.
      reply.raw.once('close', () => (inFlight -= 1))
    })

    app.addHook('onClose', async () => {
      if (sampler) clearInterval(sampler)
      delay.disable()
    })
  },
  { name: 'overload' },
)
