// A fair opening's keys as an answer made once per event (issue 36 item 3): 30 parallel loops of the event with
// `keys: true` on a drawn event of 20,000 entrants had every answer serialised and compressed anew (1.34 MB each),
// and other students' p99 went from 1.0 s to 17.3 s. The list never changes after the draw, so its JSON, brotli and
// gzip are made once, kept in memory for the last few drawn events, and sent as they are, with a validator and a
// year's cache; the event's `keys: true` takes the list's JSON from the same answer.
import { createHash, randomUUID } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import negotiate from '@fastify/accept-negotiator'
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify'

/** Drawn events whose answers are kept: each about 2.7 MB at 20,000 entrants (the JSON, brotli and gzip). */
const KEPT = 8
/** The list never changes after the draw: the phone keeps it (private: it is asked for with a bearer token). */
export const DRAW_KEYS_CACHE = 'private, max-age=31536000, immutable'
const PREFIX = '{"error":false,"keys":'

const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

/**
 * How long a refusal past the keys' limit is held before it is sent: a loop that asks again as soon as it is answered
 * otherwise spins the server on refusals (30 loops of one student got 7,000 429s a second, and the other students'
 * p99 tripled). Held, such a loop asks once a second; a student who meets the limit waits a second for the 429.
 */
export const REFUSAL_HOLD_MS = 1000

/** The keys' routes' onSend hook: a 429 is held for REFUSAL_HOLD_MS, anything else sent at once. */
export const holdRefusals: onSendHookHandler = (_request, reply, payload, done) => {
  if (reply.statusCode !== 429) return done(null, payload)
  reply.heldOnPurpose()
  setTimeout(done, REFUSAL_HOLD_MS, null, payload)
}

export interface KeysAnswer {
  /** Weak: the same list in every encoding (If-None-Match compares weakly). */
  etag: string
  /** `{"error":false,"keys":[...]}` */
  json: Buffer
  br: Buffer
  gzip: Buffer
}

async function made(keys: string[]): Promise<KeysAnswer> {
  const json = Buffer.from(`${PREFIX}${JSON.stringify(keys)}}`)
  // In the thread pool, off the event loop. Brotli's quality 4, @fastify/compress's own: on hex keys it compresses
  // as well as 5 to 9 (681 against 711 KB at 20,000) in a seventh of the time; 11 saves 7% for four seconds of CPU.
  const [br, gz] = await Promise.all([
    brotli(json, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 4,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
      },
    }),
    gzipped(json),
  ])
  return { etag: `W/"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`, json, br, gzip: gz }
}

/** Whether an If-None-Match header names this validator (or is `*`). */
function names(header: string | undefined, etag: string): boolean {
  if (!header) return false
  const tag = etag.slice(2)
  return header.split(',').some((t) => {
    const v = t.trim()
    return v === '*' || v.replace(/^W\//, '') === tag
  })
}

export function drawKeyAnswers() {
  const kept = new Map<number, Promise<KeysAnswer>>()
  return {
    /** The answer of an event's keys: made on first use (callers meanwhile wait for the same one); least recently used dropped. */
    of(eventId: number, keys: string[]): Promise<KeysAnswer> {
      let answer = kept.get(eventId)
      if (answer) kept.delete(eventId)
      else {
        answer = made(keys)
        answer.catch(() => kept.delete(eventId))
      }
      kept.set(eventId, answer)
      if (kept.size > KEPT) kept.delete(kept.keys().next().value as number)
      return answer
    },

    /** Sends it: 304 when If-None-Match names it, else in the encoding the client takes best (brotli, gzip, none). */
    send(request: FastifyRequest, reply: FastifyReply, answer: KeysAnswer) {
      const vary = reply.getHeader('vary')
      reply
        .header('etag', answer.etag)
        .header('cache-control', DRAW_KEYS_CACHE)
        .header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
      if (names(request.headers['if-none-match'], answer.etag)) return reply.code(304).send()
      const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip'])
      if (encoding) reply.header('content-encoding', encoding)
      return reply.type('application/json; charset=utf-8').send(encoding ? answer[encoding] : answer.json)
    },

    /**
     * An answer serialised by the route's schema with the keys left out (`serialize`), and this list's JSON put in
     * their place (the 20,000 keys are neither checked nor written again for every caller), sent compressed in the
     * thread pool at brotli's quality 1 (or gzip's level 1): on hex keys as small as quality 4, in a quarter of the
     * time (8 against 33 ms at 20,000 keys).
     */
    async sendWithKeys(request: FastifyRequest, reply: FastifyReply, serialize: (keys: string[]) => string, answer: KeysAnswer) {
      const mark = randomUUID()
      const keys = answer.json.toString('utf8', PREFIX.length, answer.json.length - 1)
      const json = Buffer.from(serialize([mark]).replace(JSON.stringify([mark]), () => keys))
      const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip'])
      reply.type('application/json; charset=utf-8')
      if (!encoding) return reply.send(json)
      const vary = reply.getHeader('vary')
      reply.header('content-encoding', encoding).header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
      const body =
        encoding === 'br'
          ? await brotli(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 1, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } })
          : await gzipped(json, { level: 1 })
      return reply.send(body)
    },
  }
}
