// Overload (issues 6 and 15): past the cap on requests in flight, or while requests wait past the queue-delay
// limit, new requests get 503 with Retry-After at once, instead of queueing; when the held requests finish, the
// instance takes requests again.
import { connect } from 'node:net'
import { PassThrough } from 'node:stream'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HEALTH_PATH } from '../../server/routes/server.ts'
import { testApp, type TestApp } from './helpers.ts'

describe('overload', () => {
  let t: TestApp
  beforeAll(async () => (t = await testApp({ app: { overload: { maxInFlight: 2, maxEventLoopDelayMs: 0, retryAfterSeconds: 3 } } })))
  afterAll(() => t.close())

  it('two requests held in flight (bodies still arriving), the third gets 503 with Retry-After; afterwards all is normal', async () => {
    const { auth } = await t.student()
    // A body that has not finished arriving keeps its request in flight: a real slow client, no test route.
    const bodies = [new PassThrough(), new PassThrough()]
    const held = bodies.map((body) =>
      t.app.inject({ method: 'POST', url: '/api/v1/event/p/claim-ticket', headers: { ...auth, 'content-type': 'application/json' }, payload: body }),
    )
    for (const b of bodies) b.write('{"event_id":')
    await new Promise((r) => setTimeout(r, 100))

    const started = Date.now()
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/council/p/get', headers: auth })
    expect(Date.now() - started).toBeLessThan(1000) // answered at once, not queued
    expect(refused.statusCode).toBe(503)
    expect(refused.headers['retry-after']).toBe('3')
    expect(refused.json()).toEqual({ error: true, message: 'The server is busy. Please try again in a few seconds.' })
    expect((await t.app.inject({ method: 'GET', url: HEALTH_PATH })).statusCode).toBe(503)

    for (const b of bodies) b.end('999999}')
    const answers = await Promise.all(held)
    expect(answers.map((r) => r.statusCode)).toEqual([404, 404]) // the held requests completed normally

    const after = await t.app.inject({ method: 'POST', url: '/api/v1/council/p/get', headers: auth })
    expect(after.statusCode).toBe(200)
    expect((await t.app.inject({ method: 'GET', url: HEALTH_PATH })).json()).toEqual({ error: false, status: 'ok' })
  })

  it('by queue delay (issue 15): a standing queue (requests waiting past the limit) sheds new ones; once it drains, all is normal', async () => {
    const queued = await testApp({
      app: { overload: { maxInFlight: 1_000_000, maxQueueDelayMs: 200, queueIntervalMs: 50, maxEventLoopDelayMs: 0, retryAfterSeconds: 2 } },
    })
    try {
      const { auth } = await queued.student()
      const get = () => queued.app.inject({ method: 'POST', url: '/api/v1/council/p/get', headers: auth })
      // Many requests answered quickly: no queue, whatever their number.
      const burst = await Promise.all(Array.from({ length: 200 }, get))
      expect(burst.filter((r) => r.statusCode !== 200)).toEqual([])
      // Twenty requests whose bodies have arrived, waiting on a database held by a transaction: a queue that waits
      // longer than 200 ms. (Requests whose bodies are still arriving are not a queue: test/server/slow-bodies.test.ts.)
      let release!: () => void
      const releasing = new Promise<void>((r) => (release = r))
      const holding = queued.database.db.transaction(async (tx) => {
        await tx.execute(sql`SELECT 1`)
        await releasing
      })
      const claim = () =>
        queued.app.inject({
          method: 'POST',
          url: '/api/v1/event/p/claim-ticket',
          headers: { ...auth, 'content-type': 'application/json' },
          payload: '{"event_id":999999}',
        })
      const held = Array.from({ length: 20 }, claim)
      await new Promise((r) => setTimeout(r, 400))
      const shed = await get()
      expect(shed.statusCode).toBe(503)
      expect(shed.headers['retry-after']).toBe('2')
      expect(shed.json()).toEqual({ error: true, message: 'The server is busy. Please try again in a few seconds.' })
      release()
      await holding
      expect((await Promise.all(held)).map((r) => r.statusCode)).toEqual(Array(20).fill(404)) // the queue is served
      await new Promise((r) => setTimeout(r, 200)) // an interval with nothing waiting
      expect((await get()).statusCode).toBe(200)
    } finally {
      await queued.close()
    }
  })

  it('one slow request with nothing else waiting sheds nothing (a queue is many requests, not one)', async () => {
    const queued = await testApp({
      app: { overload: { maxInFlight: 1_000_000, maxQueueDelayMs: 100, queueIntervalMs: 50, maxEventLoopDelayMs: 0, retryAfterSeconds: 2 } },
    })
    try {
      const { auth } = await queued.student()
      const body = new PassThrough()
      const slow = queued.app.inject({
        method: 'POST',
        url: '/api/v1/event/p/claim-ticket',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: body,
      })
      body.write('{"event_id":')
      await new Promise((r) => setTimeout(r, 300))
      expect((await queued.app.inject({ method: 'POST', url: '/api/v1/council/p/get', headers: auth })).statusCode).toBe(200)
      body.end('999999}')
      expect((await slow).statusCode).toBe(404)
    } finally {
      await queued.close()
    }
  })

  it('the count does not leak: 50 requests one after another, with refusals and errors among them, all answered', async () => {
    const { auth } = await t.student()
    for (let i = 0; i < 50; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: i % 2 ? '/api/v1/event/p/claim-ticket' : '/api/v1/nothing',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: '{',
      })
      expect(res.statusCode).toBeLessThan(500)
    }
    expect((await t.app.inject({ method: 'GET', url: HEALTH_PATH })).statusCode).toBe(200)
  })

  it('a stalled event loop (mean delay over the threshold) sheds new requests with 503 until it recovers', async () => {
    const stalled = await testApp({ app: { overload: { maxInFlight: 1000, maxEventLoopDelayMs: 50, retryAfterSeconds: 2 } } })
    try {
      const { auth } = await stalled.student()
      // 2.5 s of 200 ms synchronous steps: what a saturated process looks like from the inside.
      for (const until = Date.now() + 2500; Date.now() < until; ) {
        const stepEnd = Date.now() + 200
        while (Date.now() < stepEnd) {}
        await new Promise((r) => setImmediate(r))
      }
      const shed = await stalled.app.inject({ method: 'POST', url: '/api/v1/council/p/get', headers: auth })
      expect(shed.statusCode).toBe(503)
      expect(shed.headers['retry-after']).toBe('2')
      await new Promise((r) => setTimeout(r, 2300)) // two quiet samples
      const ok = await stalled.app.inject({ method: 'POST', url: '/api/v1/council/p/get', headers: auth })
      expect(ok.statusCode).toBe(200)
    } finally {
      await stalled.close()
    }
  }, 20_000)

  it('while closing (SIGTERM), the request in flight completes and the next one on its connection gets 503 in the error shape', async () => {
    const closing = await testApp({ app: { overload: { maxInFlight: 1000, maxEventLoopDelayMs: 0, retryAfterSeconds: 2 } } })
    const { auth } = await closing.student()
    await closing.app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = closing.app.server.address() as { port: number }
    const socket = connect({ port, host: '127.0.0.1' })
    let text = ''
    socket.on('data', (d) => (text += d))
    const ended = new Promise((r) => socket.on('close', r))
    await new Promise((r) => socket.once('connect', r))
    const held = '{"event_id":999999}'
    // Request A: headers and half of its body, so it is in flight (not idle) when closing starts.
    socket.write(
      `POST /api/v1/event/p/claim-ticket HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\nContent-Type: application/json\r\nContent-Length: ${held.length}\r\n\r\n${held.slice(0, 8)}`,
    )
    await new Promise((r) => setTimeout(r, 100))
    const closed = closing.close()
    await new Promise((r) => setTimeout(r, 100))
    // The rest of A, then request B pipelined on the same connection, arriving while the server closes.
    socket.write(`${held.slice(8)}POST /api/v1/council/p/get HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth.authorization}\r\nContent-Length: 0\r\n\r\n`)
    await Promise.race([ended, new Promise((r) => setTimeout(r, 5000))])
    socket.destroy()
    await closed
    const answers = text.split(/(?=HTTP\/1\.1 )/)
    expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 404', 'HTTP/1.1 503'])
    expect(answers[1]).toMatch(/retry-after: 2/i)
    expect(answers[1]).toContain('{"error":true,"message":"The server is restarting. Please try again in a few seconds."}')
  })
})
