// Every request is answered by its deadline (docs/deployment.md: "no request waits more than 10 s"): past it, what
// it waits on (often the database) is slow or away, and the error handler answers Fastify's FST_ERR_HANDLER_TIMEOUT
// (503 with Retry-After, or 408 while the body is still arriving: plugins/errors.ts). The handler itself goes on.
//
// In place of Fastify's own handlerTimeout, whose timer is cleared by the request's 'close' (fastify/fastify#6725),
// which Node emits as soon as a body has been read: every request with a body was left without a deadline, and
// claims held by a PostgreSQL that had been killed were answered 10-17 s later (issue 36 item 9).
//
// A streamed answer (the CSV exports: reply.sendStreamed) leaves its deadline once its first chunk is made: a file of
// 60,000 rows may take longer than one request, so each chunk must come within the idle bound of the one before
// instead (issue 36 item 2: the points export was cut at 10 s, 30,002 of 60,202 lines, and the client saw a 200).
import type { ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import { errorCodes, type FastifyInstance, type FastifyReply } from 'fastify'
import fp from 'fastify-plugin'

export interface DeadlineOptions {
  /** How long a request may take from its first hook to its answer. */
  ms: number
  /** How long a streamed answer may wait for its next chunk; `ms` when absent. */
  streamIdleMs?: number
}

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Sends text made a chunk at a time (an export), off the request's deadline. The first chunk is awaited before
     * anything is sent, so a failure there is an ordinary error answer; after it the status is 200 and a chunk that
     * fails, or does not come within the idle bound, ends the connection without the last chunk of the chunked
     * answer: fetch rejects and curl reports an error, never a complete-looking file.
     */
    sendStreamed(chunks: AsyncIterable<string>): Promise<FastifyReply>
  }
}

// On the raw answer, as plugins/overload.ts does: no closure per request on a rush's path.
const TIMER = Symbol('deadline.timer')
type Timed = ServerResponse & { [TIMER]?: NodeJS.Timeout }

function expire(reply: FastifyReply, ms: number) {
  if (reply.sent || reply.raw.headersSent) return
  reply.send(new errorCodes.FST_ERR_HANDLER_TIMEOUT(ms, reply.request.routeOptions.url ?? reply.request.url))
}

/** One 'close' listener shared by every request: the answer is finished, or the client went away. */
function finished(this: Timed) {
  clearTimeout(this[TIMER])
}

export class StreamStalled extends Error {
  constructor(ms: number) {
    super(`The streamed answer's next chunk did not come within ${ms} ms.`)
    this.name = 'StreamStalled'
  }
}

/** `step`, or StreamStalled once `ms` have passed without it. */
function within<T>(step: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StreamStalled(ms)), ms)
  })
  return Promise.race([step, stalled]).finally(() => clearTimeout(timer))
}

async function* paced(raw: ServerResponse, first: string, rest: AsyncIterator<string>, idleMs: number) {
  try {
    yield first
    // Asked for more: the answer has started. Its headers go now (the compressor may still hold the first bytes), so
    // that what follows can only cut it short, never become an error answer sent under the file's headers.
    if (!raw.headersSent) raw.flushHeaders()
    for (;;) {
      const next = await within(rest.next(), idleMs)
      if (next.done) return
      yield next.value
    }
  } finally {
    // Stalled, failed or abandoned by the client: the source stops at its next step.
    rest.return?.()?.catch(() => {})
  }
}

export const deadline = fp(
  async (app: FastifyInstance, options: DeadlineOptions) => {
    const idleMs = options.streamIdleMs ?? options.ms
    app.addHook('onRequest', (_request, reply, done) => {
      const raw = reply.raw as Timed
      raw[TIMER] = setTimeout(expire, options.ms, reply, options.ms)
      raw.on('close', finished)
      done()
    })
    app.decorateReply('sendStreamed', async function (this: FastifyReply, chunks: AsyncIterable<string>) {
      const source = chunks[Symbol.asyncIterator]()
      const first = await source.next()
      clearTimeout((this.raw as Timed)[TIMER])
      return this.send(Readable.from(first.done ? [] : paced(this.raw, first.value, source, idleMs)))
    })
  },
  { name: 'deadline' },
)
