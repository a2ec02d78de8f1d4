// Overload protection (issues 6, 15 and 21), kept in-house (no library sheds load by queue delay per instance and
// answers in the API's error shape): when requests have been waiting too long on this instance before their
// handlers could start, or while the event loop is stalled, answer 503 with Retry-After at once instead of queueing
// without end.
//
// What is measured, per request (issue 21 item 1): its wait, the time this instance held it before its handler
// started, leaving out the time its body took to arrive (that is the client's pace, issue 10). That is the time in
// the onRequest hooks (the bearer check, per-address limits) plus the time from the body's last byte to the
// handler's start (the per-student limits, validation). How long the handler then takes (a slow database call, an
// image being re-encoded) or how long the client takes to read the answer (a phone with a tiny receive window)
// is never a queue of this instance's: answers that take long to finish shed nothing.
//
// When to shed (issue 15 item 5): by queue delay, not by a fixed count: a burst whose requests reach their handlers
// quickly is served whole, however many requests it is. As in CoDel, the queue delay of an interval is the
// shortest wait among the requests whose handlers started in it, so one slow request among fast ones sheds
// nothing; when no handler started in an interval while a queue waits (at least QUEUE_MIN requests), it is the
// age of the oldest waiting one. A high cap on requests in flight (bodies arrived, answers not finished) stays as
// a memory bound; a client still sending its body takes no place in it (issue 21 item 2).
//
// Every refusal goes through one place (`shed()` below), which tells `onShed` (the metrics' counter, issue 27).
import type { ServerResponse } from 'node:http'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { errorBody } from '../errors.ts'

export interface OverloadOptions {
  /** Requests in flight (bodies arrived) on this instance beyond which new ones get 503: a memory bound. */
  maxInFlight: number
  /**
   * Queue delay beyond which new requests get 503; 0 (or absent) turns the check off. The delay is the shortest
   * wait before a handler started over the last interval (`queueIntervalMs`); when no handler started while a
   * queue waits (at least `QUEUE_MIN` requests), the age of the oldest waiting one.
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
  onShed?: (reason: ShedReason) => void
  /** Paths answered even when refusing (issue 27: liveness, readiness and metrics, which must be seen then most). */
  unshed?: ReadonlySet<string>
}

export const OVERLOAD: OverloadOptions = { maxInFlight: 20_000, maxQueueDelayMs: 1000, queueIntervalMs: 100, maxEventLoopDelayMs: 1000, retryAfterSeconds: 2 }

/** Fewer requests waiting than this are not a queue: one slow call with nothing started beside it sheds nothing. */
const QUEUE_MIN = 16

/** Why a request was refused (the metrics' label). */
export type ShedReason = 'closing' | 'in_flight' | 'queue_delay' | 'event_loop'

// Per request, on its raw answer (no closure or map entry per request: issue 15 counted those in a rush's CPU).
const ARRIVED = Symbol('overload.arrived') // when the first onRequest hook ran
const HOOKS_MS = Symbol('overload.hooksMs') // time spent in the onRequest hooks, before the body was read
const COUNTED = Symbol('overload.counted') // its body arrived: it takes a place in flight
type Tracked = ServerResponse & { [ARRIVED]?: number; [HOOKS_MS]?: number; [COUNTED]?: boolean }

declare module 'fastify' {
  interface FastifyReply {
    /**
     * This answer is held back on purpose (routes/draw-keys.ts: a refusal sent a second late): the request waits for
     * no handler of this instance, so it leaves the queue whose delay sheds load.
     */
    heldOnPurpose(): void
  }
}

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

    // Queue delay: the requests waiting (in the onRequest hooks, or with their body arrived and their handler not
    // started yet), each with the instant its wait counts from (insertion order is nearly that order: the first is
    // the oldest but for a request that came back from reading its body), and the shortest wait of the handlers
    // started in the current interval.
    const maxQueueDelayMs = options.maxQueueDelayMs ?? 0
    const waiting = new Map<Tracked, number>()
    let shortestMs = Number.POSITIVE_INFINITY
    let queueDelayMs = 0
    let queueSampler: NodeJS.Timeout | undefined
    if (maxQueueDelayMs > 0) {
      queueSampler = setInterval(() => {
        if (shortestMs !== Number.POSITIVE_INFINITY) queueDelayMs = shortestMs
        else if (waiting.size >= QUEUE_MIN) queueDelayMs = Date.now() - (waiting.values().next().value ?? Date.now())
        else queueDelayMs = 0
        shortestMs = Number.POSITIVE_INFINITY
      }, options.queueIntervalMs ?? 100)
      queueSampler.unref()
    }

    /** Why a new request would be refused now, or null. */
    function overloaded(): ShedReason | null {
      if (inFlight >= options.maxInFlight) return 'in_flight'
      if (maxQueueDelayMs > 0 && queueDelayMs > maxQueueDelayMs) return 'queue_delay'
      if (options.maxEventLoopDelayMs > 0 && stalledMs > options.maxEventLoopDelayMs) return 'event_loop'
      return null
    }

    /** Every refusal goes through here: the answer, in the API's error shape with Retry-After. */
    function shed(request: FastifyRequest, reply: FastifyReply, reason: ShedReason) {
      options.onShed?.(reason)
      reply.status(503).header('retry-after', String(options.retryAfterSeconds))
      if (reason === 'closing') {
        reply.header('connection', 'close').send(errorBody('UNAVAILABLE', 'The server is restarting. Please try again in a few seconds.'))
        return
      }
      request.log.warn({ reason, inFlight, queueDelayMs, eventLoopDelayMs: Math.round(stalledMs) }, 'overloaded: request refused with 503')
      reply.send(errorBody('UNAVAILABLE', 'The server is busy. Please try again in a few seconds.'))
    }

    /**
     * One 'close' listener per request, shared by all of them: 'close' fires once whether the answer was sent or the
     * client went away, so neither the count nor the waiting list can leak.
     */
    function finished(this: Tracked) {
      if (this[COUNTED]) inFlight -= 1
      waiting.delete(this)
    }

    // Shutting down (SIGTERM): requests that still arrive on open keep-alive connections get a proper 503 in
    // the API's error shape, with Retry-After and Connection: close, so the client retries on another instance.
    // Kept instead of Fastify's return503OnClosing, whose answer has neither the error shape nor Retry-After.
    let closing = false
    app.addHook('preClose', async () => {
      closing = true
    })

    // The first hook of each stage of the app (registered first). Callback hooks, not async ones: they run on every
    // request (issue 15: a promise less per hook per request).
    app.addHook('onRequest', (request, reply, done) => {
      const reason = closing ? 'closing' : overloaded()
      if (reason && !options.unshed?.has(request.url)) return shed(request, reply, reason)
      const raw = reply.raw as Tracked
      const now = Date.now()
      raw[ARRIVED] = now
      raw.once('close', finished)
      // Waiting from now: a request held in the onRequest hooks (the bearer check on a slow Redis) is in the queue.
      if (maxQueueDelayMs > 0) waiting.set(raw, now)
      done()
    })

    // The onRequest hooks are done; the body is read next, at the client's pace, and not counted as waiting.
    app.addHook('preParsing', (_request, reply, _payload, done) => {
      const raw = reply.raw as Tracked
      raw[HOOKS_MS] = Date.now() - (raw[ARRIVED] ?? Date.now())
      waiting.delete(raw)
      done()
    })

    // The body has arrived: the request takes its place in flight, and waits for its handler from now (plus
    // what it waited in the onRequest hooks).
    app.addHook('preValidation', (_request, reply, done) => {
      const raw = reply.raw as Tracked
      raw[COUNTED] = true
      inFlight += 1
      if (maxQueueDelayMs > 0) waiting.set(raw, Date.now() - (raw[HOOKS_MS] ?? 0))
      done()
    })

    // The handler starts: its wait is over. Every route's handler is wrapped as it is registered (Fastify has no
    // hook at the handler's start; the route's own preHandler hooks run before it and are part of the wait).
    if (maxQueueDelayMs > 0) {
      app.addHook('onRoute', (route: RouteOptions) => {
        const handler = route.handler
        route.handler = function startsHandler(this: FastifyInstance, request, reply) {
          const raw = reply.raw as Tracked
          const since = waiting.get(raw)
          if (since !== undefined) {
            waiting.delete(raw)
            const waited = Date.now() - since
            if (waited < shortestMs) shortestMs = waited
          }
          return handler.call(this, request, reply)
        }
      })
    }

    app.decorateReply('heldOnPurpose', function (this: FastifyReply) {
      waiting.delete(this.raw as Tracked)
    })

    app.addHook('onClose', async () => {
      if (sampler) clearInterval(sampler)
      if (queueSampler) clearInterval(queueSampler)
      delay.disable()
    })
  },
  { name: 'overload' },
)
