// Overload protection (issues 6 and 15), kept in-house (no library sheds load by queue delay per instance and
// answers in the API's error shape): when requests have been waiting too long on this instance, or while the
// event loop is stalled, answer 503 with Retry-After at once instead of queueing without end.
// Shedding goes by queue delay (how long requests wait), not by a fixed count (issue 15 item 5): a burst the
// server finishes in well under a second is served whole, however many requests it is; a queue that stands
// (every request of the last interval took longer than `maxQueueDelayMs`) sheds the next arrivals until it
// drains. As in CoDel, the measure is the shortest time a request took over the last interval, so one slow call
// among fast ones sheds nothing. A high cap on requests in flight stays as a memory bound.
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

export interface OverloadOptions {
  /** Requests in flight on this instance beyond which new ones get 503: a memory bound, far above a burst. */
  maxInFlight: number
  /**
   * Queue delay beyond which new requests get 503; 0 (or absent) turns the check off. The delay is the shortest
   * time from arrival to answer among the requests answered over the last interval (`queueIntervalMs`); when
   * none was answered while a queue waits (at least `QUEUE_MIN` in flight), the age of the oldest one.
   */
  maxQueueDelayMs?: number
  /** The interval the queue delay is measured over; 100 ms when absent. */
  queueIntervalMs?: number
  /**
   * Mean event-loop delay over the last second beyond which new requests get 503; 0 turns the check off.
   * The mean, not the max: one long synchronous step (a migration, an embedded-database query) must not
   * shed the next second of traffic; a loop that is late on every turn must.
   */
  maxEventLoopDelayMs: number
  retryAfterSeconds: number
  /** Told of every request refused here (issue 27: the metrics' counter of shed requests). */
  onShed?: (reason: 'in_flight' | 'queue_delay' | 'event_loop' | 'closing') => void
  /** Paths answered even when refusing (issue 27: liveness, readiness and metrics, which must be seen then most). */
  unshed?: ReadonlySet<string>
}

export const OVERLOAD: OverloadOptions = { maxInFlight: 20_000, maxQueueDelayMs: 1000, queueIntervalMs: 100, maxEventLoopDelayMs: 1000, retryAfterSeconds: 2 }

/** Fewer requests in flight than this are not a queue: one slow call with nothing answered beside it sheds nothing. */
const QUEUE_MIN = 16

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

    // Queue delay: arrival times of the requests in flight (insertion order is arrival order, so the first is
    // the oldest), and the shortest time to answer over the current interval.
    const maxQueueDelayMs = options.maxQueueDelayMs ?? 0
    const arrivals = new Map<object, number>()
    let shortestMs = Number.POSITIVE_INFINITY
    let queueDelayMs = 0
    let queueSampler: NodeJS.Timeout | undefined
    if (maxQueueDelayMs > 0) {
      queueSampler = setInterval(() => {
        if (shortestMs !== Number.POSITIVE_INFINITY) queueDelayMs = shortestMs
        else if (arrivals.size >= QUEUE_MIN) queueDelayMs = Date.now() - (arrivals.values().next().value ?? Date.now())
        else queueDelayMs = 0
        shortestMs = Number.POSITIVE_INFINITY
      }, options.queueIntervalMs ?? 100)
      queueSampler.unref()
    }

    /**
     * One 'close' listener per request, shared by all of them (issue 15: a closure and a second listener per
     * request were a visible share of a rush's CPU): the request leaves the in-flight count and, when it was
     * queued (preHandler below), the arrivals, its time to answer kept for the queue delay.
     */
    function finished(this: object) {
      inFlight -= 1
      const arrived = arrivals.get(this)
      if (arrived === undefined) return
      arrivals.delete(this)
      const took = Date.now() - arrived
      if (took < shortestMs) shortestMs = took
    }

    const overloaded = () =>
      inFlight >= options.maxInFlight ||
      (maxQueueDelayMs > 0 && queueDelayMs > maxQueueDelayMs) ||
      (options.maxEventLoopDelayMs > 0 && stalledMs > options.maxEventLoopDelayMs)

    // Shutting down (SIGTERM): requests that still arrive on open keep-alive connections get a proper 503 in
    // the API's error shape, with Retry-After and Connection: close, so the client retries on another instance.
    // Kept instead of Fastify's return503OnClosing, whose answer has neither the error shape nor Retry-After.
    let closing = false
    app.addHook('preClose', async () => {
      closing = true
    })

    // The first onRequest hook of the app (registered first): a refused request costs nothing more.
    // Callback hooks, not async ones: they run on every request (issue 15: a promise less per hook per request).
    app.addHook('onRequest', (request, reply, done) => {
      if (closing && !options.unshed?.has(request.url)) {
        options.onShed?.('closing')
        reply
          .status(503)
          .header('retry-after', String(options.retryAfterSeconds))
          .header('connection', 'close')
          .send({ error: true, message: 'The server is restarting. Please try again in a few seconds.' })
        return
      }
      if (overloaded() && !options.unshed?.has(request.url)) {
        options.onShed?.(
          inFlight >= options.maxInFlight
            ? 'in_flight'
            : stalledMs > options.maxEventLoopDelayMs && options.maxEventLoopDelayMs > 0
              ? 'event_loop'
              : 'queue_delay',
        )
        request.log.warn({ inFlight, queueDelayMs, eventLoopDelayMs: Math.round(stalledMs) }, 'overloaded: request refused with 503')
        reply
          .status(503)
          .header('retry-after', String(options.retryAfterSeconds))
          .send({ error: true, message: 'The server is busy. Please try again in a few seconds.' })
        return
      }
      inFlight += 1
      // 'close' fires once whether the answer was sent or the client went away, so the count cannot leak.
      reply.raw.once('close', finished)
      done()
    })

    // The queue is timed from when a request's body has arrived (issue 10: slow bodies): a client trickling a
    // body one byte at a time waits on itself, not on this instance, so hundreds of them never make the health
    // check or a student's call look queued. Node's requestTimeout (server/app.ts) bounds how long a body may take.
    if (maxQueueDelayMs > 0) {
      app.addHook('preHandler', (_request, reply, done) => {
        arrivals.set(reply.raw, Date.now())
        done()
      })
    }

    app.addHook('onClose', async () => {
      if (sampler) clearInterval(sampler)
      if (queueSampler) clearInterval(queueSampler)
      delay.disable()
    })
  },
  { name: 'overload' },
)
