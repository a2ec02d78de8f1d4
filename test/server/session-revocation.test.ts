// Issue 10, item 7: an access token stops working when its session is revoked (logout, or a replayed refresh
// token), without a database round trip on the hot path (a session id in the token checked against Redis, shared
// by the instances, behind a short per-instance cache); and a refresh answer lost on a flaky network does not
// sign the student out: within the grace the just-replaced refresh token yields a working successor, after it a
// reuse still revokes the family.
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { revocations, CACHE_MS } from '../../server/auth/revocations.ts'
import { schema } from '../../server/db/index.ts'
import { hashRefreshToken } from '../../server/db/people/sessions.ts'
import { createRedis, type Redis } from '../../server/plugins/redis.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const JSON_HEADERS = { 'content-type': 'application/json' }
const INVALID = { error: true, message: 'Invalid Token', code: 'INVALID_TOKEN' }

async function devSignIn(t: TestApp, email = `s${randomBytes(4).toString('hex')}@example.edu`) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/dev', headers: JSON_HEADERS, payload: { name: 'Student', email } })
  expect(res.statusCode).toBe(302)
  const f = new URLSearchParams(new URL(res.headers.location as string).hash.slice(1))
  return { accessToken: f.get('accessToken')!, refreshToken: f.get('refreshToken')! }
}
const refresh = (t: TestApp, refreshToken: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh-token', headers: JSON_HEADERS, payload: { refreshToken } })
const me = (t: TestApp, accessToken: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/user/p/me', headers: { ...JSON_HEADERS, authorization: `Bearer ${accessToken}` }, payload: 'true' })
const logout = (t: TestApp, refreshToken: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: JSON_HEADERS, payload: { refreshToken } })
/** Moves a used token's use back in time, past the grace. */
async function ageUse(t: TestApp, refreshToken: string, seconds: number) {
  await t.database.db
    .update(schema.refreshTokens)
    .set({ usedAt: new Date(Date.now() - seconds * 1000) })
    .where(eq(schema.refreshTokens.tokenHash, hashRefreshToken(refreshToken)))
}

describe.each(DB_KINDS)('access token of a revoked session on %s (one instance, no Redis)', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind })
  })
  afterAll(() => t.close())

  it('logout: the access token of that sign-in stops working at once; another sign-in of the student keeps working', async () => {
    const email = `two-${kind}@example.edu`
    const phone = await devSignIn(t, email)
    const laptop = await devSignIn(t, email)
    expect((await me(t, phone.accessToken)).statusCode).toBe(200)
    expect((await logout(t, phone.refreshToken)).json()).toEqual({ error: false })
    const after = await me(t, phone.accessToken)
    expect(after.statusCode).toBe(401)
    expect(after.json()).toEqual(INVALID)
    expect((await me(t, laptop.accessToken)).statusCode).toBe(200)
  })

  it('a replayed refresh token (after the grace): the access tokens of the family stop working, the first and the newest', async () => {
    const first = await devSignIn(t)
    const second = (await refresh(t, first.refreshToken)).json()
    await ageUse(t, first.refreshToken, 11)
    expect((await me(t, second.accessToken)).statusCode).toBe(200)
    expect((await refresh(t, first.refreshToken)).statusCode).toBe(401) // the replay revokes the family
    expect((await me(t, second.accessToken)).statusCode).toBe(401)
    expect((await me(t, first.accessToken)).statusCode).toBe(401)
  })

  it('the grace: a refresh retried with the just-replaced token yields a working successor, and the family lives on', async () => {
    const first = await devSignIn(t)
    const lost = await refresh(t, first.refreshToken) // the answer the flaky network lost
    expect(lost.statusCode).toBe(200)
    const retried = await refresh(t, first.refreshToken)
    expect(retried.statusCode).toBe(200)
    const pair = retried.json()
    expect(pair.refreshToken).not.toBe(lost.json().refreshToken)
    expect((await me(t, pair.accessToken)).statusCode).toBe(200)
    const next = await refresh(t, pair.refreshToken)
    expect(next.statusCode).toBe(200)
    expect((await me(t, next.json().accessToken)).statusCode).toBe(200)
    const [tok] = await t.database.db
      .select()
      .from(schema.refreshTokens)
      .where(eq(schema.refreshTokens.tokenHash, hashRefreshToken(first.refreshToken)))
    const [family] = await t.database.db.select().from(schema.refreshFamilies).where(eq(schema.refreshFamilies.id, tok.familyId))
    expect(family.revokedAt).toBeNull()
  })

  it('the grace spends the successor that was lost: used later, it is a replay and revokes the family', async () => {
    const first = await devSignIn(t)
    const lost = (await refresh(t, first.refreshToken)).json()
    const retried = (await refresh(t, first.refreshToken)).json()
    await ageUse(t, lost.refreshToken, 11)
    expect((await refresh(t, lost.refreshToken)).statusCode).toBe(401)
    expect((await refresh(t, retried.refreshToken)).statusCode).toBe(401)
    expect((await me(t, retried.accessToken)).statusCode).toBe(401)
  })

  it('reuse after the grace still revokes the family', async () => {
    const first = await devSignIn(t)
    const second = (await refresh(t, first.refreshToken)).json()
    await ageUse(t, first.refreshToken, 11)
    const replay = await refresh(t, first.refreshToken)
    expect(replay.statusCode).toBe(401)
    expect(replay.json()).toEqual(INVALID)
    expect((await refresh(t, second.refreshToken)).statusCode).toBe(401)
    const [tok] = await t.database.db
      .select()
      .from(schema.refreshTokens)
      .where(eq(schema.refreshTokens.tokenHash, hashRefreshToken(first.refreshToken)))
    const [family] = await t.database.db.select().from(schema.refreshFamilies).where(eq(schema.refreshFamilies.id, tok.familyId))
    expect(family.revokedReason).toBe('reuse')
  })

  it('a token revoked by logout gets no grace', async () => {
    const first = await devSignIn(t)
    await refresh(t, first.refreshToken)
    await logout(t, first.refreshToken)
    expect((await refresh(t, first.refreshToken)).statusCode).toBe(401)
  })
})

describe('revocation shared through Redis by two instances', () => {
  let redis: Redis
  let one: TestApp
  let two: TestApp
  const prefix = `test:${randomBytes(6).toString('hex')}:`
  beforeAll(async () => {
    redis = createRedis(REDIS_URL)
    one = await testApp({ app: { redis, redisPrefix: prefix } })
    // The second instance shares the database of the first (the sessions) and Redis.
    const { buildApp } = await import('../../server/app.ts')
    const app = await buildApp({
      config: one.config,
      database: one.database,
      redis,
      redisPrefix: prefix,
      rateLimits: false,
      overload: { maxInFlight: Number.MAX_SAFE_INTEGER, maxEventLoopDelayMs: 0 },
    })
    await app.ready()
    two = { ...one, app, close: () => app.close() }
  })
  afterAll(async () => {
    await two.close()
    await one.close()
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length) await redis.del(...keys)
    await redis.quit()
  })

  it('logout on one instance ends the access token on the other (within the cache time), with a Redis key that expires', async () => {
    const s = await devSignIn(one)
    expect((await me(two, s.accessToken)).statusCode).toBe(200) // cached as live on two, for at most CACHE_MS
    await logout(one, s.refreshToken)
    expect((await me(one, s.accessToken)).statusCode).toBe(401)
    await new Promise((r) => setTimeout(r, CACHE_MS + 100)) // kept: waits out the cache time the test is about
    expect((await me(two, s.accessToken)).statusCode).toBe(401)
    const keys = await redis.keys(`${prefix}revoked:*`)
    expect(keys).toHaveLength(1)
    const ttl = await redis.ttl(keys[0])
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(15 * 60 + 60)
  })
})

describe('the revocation store', () => {
  it('asks Redis at most once per session per cache period, and lets tokens through when Redis is down', async () => {
    let calls = 0
    let clock = 0
    const fake = { exists: async () => (calls++, 0), set: async () => 'OK' } as unknown as Redis
    const store = revocations({ redis: fake, prefix: 'p:', ttlSeconds: 960, now: () => clock })
    for (let i = 0; i < 100; i++) expect(await store.isRevoked('a')).toBe(false)
    expect(calls).toBe(1)
    clock += CACHE_MS + 1
    await store.isRevoked('a')
    expect(calls).toBe(2)
    await store.revoke('a')
    expect(await store.isRevoked('a')).toBe(true)
    expect(calls).toBe(2)
    const errors: unknown[] = []
    const down = revocations({
      redis: { exists: async () => Promise.reject(new Error('down')) } as unknown as Redis,
      prefix: 'p:',
      ttlSeconds: 960,
      onError: (e) => errors.push(e),
    })
    expect(await down.isRevoked('b')).toBe(false)
    expect(errors).toHaveLength(1)
  })
})
