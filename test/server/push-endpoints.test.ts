// Push endpoints cannot point the server into its own network (server/push/endpoint.ts): with PUSH_ENDPOINTS=public
// (production's default) an endpoint must be https on a host with public addresses, checked when it is stored
// (400, nothing stored) and again as each notification's connection is made (a name resolving inside, or a literal
// address stored before the guard, is never connected to, and the subscription is deleted).
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config.ts'
import { schema } from '../../server/db/index.ts'
import { endpointAllowed, isPublicAddress, PrivateAddressError, PRIVATE_ENDPOINT_MESSAGE, publicOnlyLookup } from '../../server/push/endpoint.ts'
import { type LocalService, localService, pushKeys, subscriptionKeys } from '../fixtures/web-push.ts'
import { testApp, type TestApp } from './helpers.ts'

describe('which push endpoints may be stored', () => {
  it('public: https on a name or a public address; never http, this machine, or an inner address', () => {
    const allowed = [
      'https://fcm.googleapis.com/fcm/send/abc',
      'https://updates.push.services.mozilla.com/wpush/v2/x',
      'https://8.8.8.8/x',
      'https://[2001:4860:4860::8888]/x',
    ]
    const refused = [
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://127.0.0.1/x',
      'https://127.1.2.3:6379/',
      'https://10.0.0.5/x',
      'https://172.16.0.1/x',
      'https://192.168.1.1/x',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/x',
      'https://0.0.0.0/x',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://[fd00::1]/x',
      'https://[fe80::1]/x',
      // IPv4-compatible IPv6 (::/96, issue 21 item 5): the URL parser writes [::127.0.0.1] as [::7f00:1]
      'https://[::7f00:1]/x',
      'https://[::127.0.0.1]/x',
      'https://[::a00:5]/x',
      'https://[::8.8.8.8]/x',
      'https://[::]/x',
      'https://localhost/x',
      'https://LOCALHOST./x',
      'https://api.localhost/x',
      'ftp://fcm.googleapis.com/x',
      'not a url',
    ]
    for (const e of allowed) expect(endpointAllowed(e, 'public'), e).toBe(true)
    for (const e of refused) expect(endpointAllowed(e, 'public'), e).toBe(false)
    for (const e of [...allowed, ...refused.slice(0, -2)]) expect(endpointAllowed(e, 'any'), e).toBe(true)
  })

  it('public addresses are public unicast only (not ::/96, the IPv4-compatible addresses: issue 21 item 5)', () => {
    expect(['8.8.8.8', '2001:4860:4860::8888', '1.1.1.1'].map(isPublicAddress)).toEqual([true, true, true])
    expect(['::7f00:1', '::127.0.0.1', '::a00:1', '::a9fe:a9fe', '::', '::808:808'].map(isPublicAddress)).toEqual(Array(6).fill(false))
    expect(
      ['127.0.0.1', '10.1.2.3', '192.168.0.1', '169.254.1.1', '100.64.0.1', '::1', '::ffff:10.0.0.1', 'fc00::1', '224.0.0.1', 'nonsense'].map(isPublicAddress),
    ).toEqual(Array(10).fill(false))
  })

  it('the connection lookup refuses a name resolving inside, and passes a public address in the form asked for', async () => {
    const look = (host: string, all: boolean) =>
      new Promise<unknown>((resolve, reject) =>
        publicOnlyLookup(host, all ? { all: true } : {}, (err, address, family) => (err ? reject(err) : resolve(all ? address : [address, family]))),
      )
    await expect(look('localhost', true)).rejects.toBeInstanceOf(PrivateAddressError)
    await expect(look('localhost', false)).rejects.toBeInstanceOf(PrivateAddressError)
    await expect(look('::7f00:1', true)).rejects.toBeInstanceOf(PrivateAddressError)
    expect(await look('8.8.8.8', false)).toEqual(['8.8.8.8', 4])
    expect(await look('8.8.8.8', true)).toEqual([{ address: '8.8.8.8', family: 4 }])
  })

  it('PUSH_ENDPOINTS: public in production, any elsewhere, and nothing else is taken', () => {
    expect(loadConfig({}).pushEndpoints).toBe('any')
    expect(loadConfig({ PUSH_ENDPOINTS: 'public' }).pushEndpoints).toBe('public')
    const production = {
      NODE_ENV: 'production',
      GOOGLE_CLIENT_ID: 'id',
      GOOGLE_CLIENT_SECRET: 's',
      JWT_SECRET: 'x'.repeat(32),
      VAPID_PUBLIC_KEY: 'p',
      VAPID_PRIVATE_KEY: 'q',
    }
    expect(loadConfig(production).pushEndpoints).toBe('public')
    expect(() => loadConfig({ PUSH_ENDPOINTS: 'private' })).toThrow(/PUSH_ENDPOINTS must be "public" or "any"/)
  })
})

describe('a server with PUSH_ENDPOINTS=public', () => {
  let t: TestApp
  let inner: LocalService
  let port: string
  let connections = 0
  beforeAll(async () => {
    t = await testApp({ env: { PUSH_ENDPOINTS: 'public' }, app: { aroundIntervalMs: false } })
    // A service inside the network the endpoints point at: it must never be reached.
    inner = await localService((_req, res) => res.end())
    inner.server.on('connection', () => (connections += 1))
    port = new URL(inner.base).port
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await inner.close()
  })

  const subscribe = (auth: Record<string, string>, endpoint: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/push/p/subscribe',
      headers: { 'content-type': 'application/json', ...auth },
      payload: { subscription: { endpoint, keys: subscriptionKeys(pushKeys()) } },
    })
  const stored = (endpoint: string) => t.database.db.select().from(schema.pushSubscriptions).where(eq(schema.pushSubscriptions.endpoint, endpoint))

  it('refuses to store an endpoint inside the network with 400, and stores a push service’s', async () => {
    const { auth } = await t.student()
    for (const endpoint of [
      `http://127.0.0.1:${port}/x`,
      `https://127.0.0.1:${port}/x`,
      `https://localhost:${port}/x`,
      'https://169.254.169.254/latest',
      'https://[::1]/x',
    ]) {
      const res = await subscribe(auth, endpoint)
      expect(res.statusCode, endpoint).toBe(400)
      expect(res.json()).toEqual({ error: true, message: PRIVATE_ENDPOINT_MESSAGE, code: 'INVALID_INPUT' })
      expect(await stored(endpoint), endpoint).toEqual([])
    }
    const ok = await subscribe(auth, 'https://fcm.googleapis.com/fcm/send/abc')
    expect(ok.json()).toEqual({ error: false })
    expect(await stored('https://fcm.googleapis.com/fcm/send/abc')).toHaveLength(1)
  })

  it('never connects to an inner address stored before the guard (a literal, or a name resolving inside): the subscription is deleted', async () => {
    const student = await t.student()
    const endpoints = [`https://127.0.0.1:${port}/old`, `https://localhost:${port}/old`, `https://[::7f00:1]:${port}/old`]
    for (const endpoint of endpoints) {
      await t.database.db.insert(schema.pushSubscriptions).values({ userId: student.id, endpoint, ...subscriptionKeys(pushKeys()) })
    }
    await t.app.pushRepository.queue([student.id], { title: 'Hello', body: 'A test', url: '/event-details/7', tag: 't' })
    expect(await t.app.pushSender.drain()).toEqual({ sent: 0, gone: 3, failed: 0, retrying: 0 })
    expect(connections).toBe(0)
    for (const endpoint of endpoints) expect(await stored(endpoint), endpoint).toEqual([])
  })
})
