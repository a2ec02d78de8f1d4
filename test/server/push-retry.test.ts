// The push outbox retried (issue 13, migration 0009): a push service that fails transiently (5xx, 429, no
// answer) gets the notification again after a backoff, for that subscription only, up to 5 sends in all; 404/410
// delete the subscription and are not retried; any other refusal is dropped. Each retry is one row, taken by one
// instance. On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set (where concurrent drains really race for
// the rows with FOR UPDATE SKIP LOCKED). The backoff is not waited for: the test moves the row's not_before.
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { MAX_ATTEMPTS, pushSender } from '../../server/push/sender.ts'
import { type LocalService, localService, pushKeys, subscriptionKeys } from '../fixtures/web-push.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

describe.each(DB_KINDS)('push outbox retries on %s', (kind) => {
  let t: TestApp
  let service: LocalService
  let base: string
  /** What each endpoint path answers, in turn (the last answer repeats); 201 when not set. */
  const script = new Map<string, { status: number; headers?: Record<string, string> }[]>()
  /** Requests received per endpoint path. */
  const hits = new Map<string, number>()

  beforeAll(async () => {
    t = await testApp({ kind, app: { aroundIntervalMs: false } })
    service = await localService((req, res) => {
      req.resume()
      req.on('end', () => {
        const path = req.url ?? ''
        hits.set(path, (hits.get(path) ?? 0) + 1)
        const answers = script.get(path) ?? [{ status: 201 }]
        const answer = answers.length > 1 ? (answers.shift() as (typeof answers)[number]) : answers[0]
        res.writeHead(answer.status, answer.headers)
        res.end()
      })
    })
    base = service.base
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await service.close()
  })

  /** Subscribes the student's browser (fresh keys) with this endpoint. */
  async function subscribe(student: Awaited<ReturnType<TestApp['student']>>, endpoint: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/push/p/subscribe',
      headers: { 'content-type': 'application/json', ...student.auth },
      payload: { subscription: { endpoint, keys: subscriptionKeys(pushKeys()) } },
    })
    expect(res.json()).toEqual({ error: false })
  }
  /** A browser subscribed for `student` (a new one if not given) whose push service answers `answers` in turn. */
  async function browser(answers: { status: number; headers?: Record<string, string> }[], student?: Awaited<ReturnType<TestApp['student']>>) {
    const s = student ?? (await t.student())
    const path = `/push/${randomBytes(6).toString('hex')}`
    script.set(path, [...answers])
    const endpoint = `${base}${path}`
    await subscribe(s, endpoint)
    return { student: s, endpoint, hits: () => hits.get(path) ?? 0 }
  }
  const outbox = (userId: number) =>
    t.database.db
      .select({
        attempts: schema.pushOutbox.attempts,
        endpoint: schema.pushOutbox.endpoint,
        dueIn: sql<number>`extract(epoch from ${schema.pushOutbox.notBefore} - now())::float8`,
      })
      .from(schema.pushOutbox)
      .where(eq(schema.pushOutbox.userId, userId))
  /** The backoff over: every queued row is due now. */
  const due = () => t.database.db.execute(sql`UPDATE push_outbox SET not_before = now() - interval '1 second'`)
  const queue = (userId: number) => t.app.pushRepository.queue([userId], { title: 'Gate 2', body: 'Use gate 2.', url: '/event-details/1', tag: 'm-1' })

  it('a 500 is sent again after 30 s, for that subscription only, and delivered once on the second attempt', async () => {
    const b = await browser([{ status: 500 }, { status: 201 }])
    const other = await browser([{ status: 201 }], b.student) // the same student's other phone
    await queue(b.student.id)
    expect(await t.app.pushSender.drain()).toEqual({ sent: 1, gone: 0, failed: 1, retrying: 1 })
    expect([b.hits(), other.hits()]).toEqual([1, 1])
    const [row, ...more] = await outbox(b.student.id)
    expect(more).toEqual([])
    expect(row).toMatchObject({ attempts: 1, endpoint: b.endpoint })
    expect(row.dueIn).toBeGreaterThan(20)
    expect(row.dueIn).toBeLessThanOrEqual(30)
    // Not before its time.
    expect(await t.app.pushSender.drain()).toEqual({ sent: 0, gone: 0, failed: 0, retrying: 0 })
    expect(b.hits()).toBe(1)
    await due()
    expect(await t.app.pushSender.drain()).toEqual({ sent: 1, gone: 0, failed: 0, retrying: 0 })
    expect([b.hits(), other.hits()]).toEqual([2, 1]) // the other phone is not sent it twice
    expect(await outbox(b.student.id)).toEqual([])
    await due()
    expect(await t.app.pushSender.drain()).toEqual({ sent: 0, gone: 0, failed: 0, retrying: 0 })
    expect(b.hits()).toBe(2)
  })

  it('410 deletes the subscription and is not retried', async () => {
    const b = await browser([{ status: 410 }])
    await queue(b.student.id)
    expect(await t.app.pushSender.drain()).toEqual({ sent: 0, gone: 1, failed: 0, retrying: 0 })
    expect(await t.database.db.select().from(schema.pushSubscriptions).where(eq(schema.pushSubscriptions.endpoint, b.endpoint))).toEqual([])
    expect(await outbox(b.student.id)).toEqual([])
    await due()
    await t.app.pushSender.drain()
    expect(b.hits()).toBe(1)
  })

  it(`a service failing every time is tried ${MAX_ATTEMPTS} times, 30 s, 1, 2 and 4 min apart, then dropped; a 400 is dropped at once`, async () => {
    const b = await browser([{ status: 503 }])
    await queue(b.student.id)
    const waits: number[] = []
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await t.app.pushSender.drain()
      expect(b.hits()).toBe(attempt)
      const rows = await outbox(b.student.id)
      if (attempt < MAX_ATTEMPTS) {
        expect(rows).toHaveLength(1)
        expect(rows[0].attempts).toBe(attempt)
        waits.push(Math.round(rows[0].dueIn / 10) * 10)
      } else expect(rows).toEqual([])
      await due()
    }
    expect(waits).toEqual([30, 60, 120, 240])
    await t.app.pushSender.drain()
    expect(b.hits()).toBe(MAX_ATTEMPTS)
    expect(await t.database.db.select().from(schema.pushSubscriptions).where(eq(schema.pushSubscriptions.endpoint, b.endpoint))).toHaveLength(1)

    const refused = await browser([{ status: 400 }])
    await queue(refused.student.id)
    expect(await t.app.pushSender.drain()).toEqual({ sent: 0, gone: 0, failed: 1, retrying: 0 })
    expect(await outbox(refused.student.id)).toEqual([])
  })

  it('a 429 waits for its Retry-After when longer than the backoff; no answer at all is retried too', async () => {
    const limited = await browser([{ status: 429, headers: { 'retry-after': '600' } }, { status: 201 }])
    await queue(limited.student.id)
    expect(await t.app.pushSender.drain()).toMatchObject({ failed: 1, retrying: 1 })
    const [row] = await outbox(limited.student.id)
    expect(row.dueIn).toBeGreaterThan(590)
    expect(row.dueIn).toBeLessThanOrEqual(600)

    // A push service that cannot be reached (nothing listens there).
    const closed = await localService()
    const deadEndpoint = `${closed.base}/push/dead`
    await closed.close()
    const s = await t.student()
    await t.app.pushRepository.subscribe(s.id, { endpoint: deadEndpoint, keys: subscriptionKeys(pushKeys()) })
    await queue(s.id)
    expect(await t.app.pushSender.drain()).toEqual({ sent: 0, gone: 0, failed: 1, retrying: 1 })
    expect(await outbox(s.id)).toEqual([expect.objectContaining({ attempts: 1, endpoint: deadEndpoint })])
    await t.database.db.delete(schema.pushOutbox)
  })

  it('retries taken by drains running at once are each sent once', async () => {
    const browsers = await Promise.all(Array.from({ length: 30 }, () => browser([{ status: 502 }, { status: 201 }])))
    for (const b of browsers) await queue(b.student.id)
    expect(await t.app.pushSender.drain()).toMatchObject({ sent: 0, failed: 30, retrying: 30 })
    await due()
    const results = await Promise.all([t.app.pushSender.drain(5), t.app.pushSender.drain(5), t.app.pushSender.drain(5)])
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(30)
    expect(browsers.map((b) => b.hits())).toEqual(browsers.map(() => 2))
    expect(await t.database.db.select().from(schema.pushOutbox)).toEqual([])
  })

  it('an answer that stalls after its headers is a failed send at the deadline, retried, not a hang', async () => {
    // A push service that starts a 201 and never finishes its body.
    const stalling = await localService((req, res) => {
      req.resume()
      req.on('end', () => {
        res.writeHead(201, { 'content-length': '100' })
        res.write('x')
      })
    })
    try {
      const s = await t.student()
      await subscribe(s, `${stalling.base}/push/stalls`)
      await queue(s.id)
      const sender = pushSender(t.app.pushRepository, t.app.vapid, { endpoints: 'any', timeoutMs: 300 })
      expect(await sender.drain()).toEqual({ sent: 0, gone: 0, failed: 1, retrying: 1 })
      expect((await outbox(s.id)).map((r) => r.attempts)).toEqual([1])
    } finally {
      await stalling.close()
    }
  })
})
