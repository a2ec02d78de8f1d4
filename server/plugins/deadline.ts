// Every request is answered by its deadline (docs/deployment.md: "no request waits more than 10 s"): past it, what
// it waits on (often the database) is slow or away, and the error handler answers Fastify's FST_ERR_HANDLER_TIMEOUT
// (503 with Retry-After, or 408 while the body is still arriving: plugins/errors.ts). The handler itself goes on.
//
// In place of Fastify's own handlerTimeout, whose timer is cleared by the request's 'close' (fastify/fastify#6725),
// which Node emits as soon as a body has been read: every request with a body was left without a deadline, and
// claims held by a PostgreSQL that had been killed were answered 10-17 s later (issue 36 item 9).
//
// A streamed answer (an export: routes/streamed.ts) leaves its deadline here once it starts: a file of 60,000 rows
// takes longer than one request may, and is bounded by the time between its chunks instead (issue 36 item 2).
import type { ServerResponse } from 'node:http'
import { errorCodes, type FastifyInstance, type FastifyReply } from 'fastify'
import fp from 'fastify-plugin'

export interface DeadlineOptions {
  /** How long a request may take from its first hook to its answer. */
  ms: number
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

/** Takes this request off its deadline: a streamed answer, bounded by the time between its chunks instead. */
export function withoutDeadline(reply: FastifyReply) {
  clearTimeout((reply.raw as Timed)[TIMER])
}

export const deadline = fp(
  async (app: FastifyInstance, options: DeadlineOptions) => {
    app.addHook('onRequest', (_request, reply, done) => {
      const raw = reply.raw as Timed
      raw[TIMER] = setTimeout(expire, options.ms, reply, options.ms)
      raw.on('close', finished)
      done()
    })
  },
  { name: 'deadline' },
)
