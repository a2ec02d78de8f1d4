// Push subscriptions are bounded (issue 21 item 4): one student stored 200 endpoints, and one notification made 200
// sends to hosts of their choosing. A student keeps at most 10 subscriptions and at most 4 on one host, the oldest
// dropped; a subscription whose endpoint another student holds is refused (409) and stays that student's. With
// two subscribes at once (PostgreSQL too) the bound holds.
import { asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { PUSH_PER_HOST, PUSH_PER_STUDENT } from '../../server/db/people/push.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

const KEYS = { p256dh: `BP${'A'.repeat(85)}`, auth: 'A'.repeat(22) }

describe.each(DB_KINDS)('push subscriptions are bounded (%s)', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind })
  }, 60_000)
  afterAll(() => t.close())

  const subscribe = (auth: { authorization: string }, endpoint: string, keys = KEYS) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/push/p/subscribe',
      headers: { 'content-type': 'application/json', ...auth },
      payload: { subscription: { endpoint, keys } },
    })
  const endpointsOf = async (userId: number) =>
    (
      await t.database.db
        .select({ endpoint: schema.pushSubscriptions.endpoint })
        .from(schema.pushSubscriptions)
        .where(eq(schema.pushSubscriptions.userId, userId))
        .orderBy(asc(schema.pushSubscriptions.id))
    ).map((r) => r.endpoint)

  it(`keeps the ${PUSH_PER_STUDENT} newest of a student’s subscriptions (200 were kept before)`, async () => {
    const s = await t.student()
    const endpoints = Array.from({ length: 14 }, (_, i) => `https://push${i}.example.com/sub/${i}`)
    for (const e of endpoints) expect((await subscribe(s.auth, e)).statusCode).toBe(200)
    expect(await endpointsOf(s.id)).toEqual(endpoints.slice(-PUSH_PER_STUDENT))
    // Renewing an old one makes it the newest: the oldest other one goes when the next arrives.
    expect((await subscribe(s.auth, endpoints[4], { ...KEYS, auth: 'B'.repeat(22) })).statusCode).toBe(200)
    expect((await subscribe(s.auth, 'https://push99.example.com/sub/99')).statusCode).toBe(200)
    const kept = await endpointsOf(s.id)
    expect(kept).toHaveLength(PUSH_PER_STUDENT)
    expect(kept).toContain(endpoints[4])
    expect(kept).not.toContain(endpoints[5])
  })

  it(`keeps at most ${PUSH_PER_HOST} of a student’s subscriptions on one host, the oldest dropped`, async () => {
    const s = await t.student()
    const sameHost = Array.from({ length: 7 }, (_, i) => `https://fcm.googleapis.com/fcm/send/${s.id}-${i}`)
    for (const e of sameHost) expect((await subscribe(s.auth, e)).statusCode).toBe(200)
    await subscribe(s.auth, 'https://updates.push.services.mozilla.com/wpush/v2/x')
    expect(await endpointsOf(s.id)).toEqual([...sameHost.slice(-PUSH_PER_HOST), 'https://updates.push.services.mozilla.com/wpush/v2/x'])
    // Another student's subscriptions on that host are theirs to keep.
    const other = await t.student()
    await subscribe(other.auth, `https://fcm.googleapis.com/fcm/send/other-${other.id}`)
    expect(await endpointsOf(other.id)).toHaveLength(1)
    expect(await endpointsOf(s.id)).toHaveLength(PUSH_PER_HOST + 1)
  })

  it('an endpoint another student holds is refused with 409 and stays theirs, keys unchanged (it moved to the caller before)', async () => {
    const owner = await t.student()
    const caller = await t.student()
    const endpoint = `https://push.example.com/held/${owner.id}`
    expect((await subscribe(owner.auth, endpoint)).statusCode).toBe(200)
    const res = await subscribe(caller.auth, endpoint, { p256dh: `BQ${'C'.repeat(85)}`, auth: 'C'.repeat(22) })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({
      error: true,
      message: 'These notifications are registered to another account on this browser. Turn notifications off and on again.',
      code: 'ENDPOINT_TAKEN',
    })
    const [row] = await t.database.db.select().from(schema.pushSubscriptions).where(eq(schema.pushSubscriptions.endpoint, endpoint))
    expect({ userId: row.userId, p256dh: row.p256dh, auth: row.auth }).toEqual({ userId: owner.id, ...KEYS })
    expect(await endpointsOf(caller.id)).toEqual([])
  })

  it('twenty subscribes of one student at once keep at most 10', async () => {
    const s = await t.student()
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => subscribe(s.auth, `https://push${i}.example.net/at-once/${i}`)))
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200))
    expect(await endpointsOf(s.id)).toHaveLength(PUSH_PER_STUDENT)
  })
})
