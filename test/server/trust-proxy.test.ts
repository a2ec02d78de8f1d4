// Issue 10, item 3: client addresses are trusted only from a proxy. X-Forwarded-For is believed only for the
// proxies TRUST_PROXY names (off by default), and whatever it yields is checked before it becomes a key.
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseTrustProxy } from '../../server/config.ts'
import { clientAddress } from '../../server/plugins/client-address.ts'
import { createRedis, type Redis } from '../../server/plugins/redis.ts'
import { testApp, type TestApp } from './helpers.ts'

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const json = { 'content-type': 'application/json' }
const small = { writes: { limit: 3, windowSeconds: 60 }, signIn: { limit: 2, windowSeconds: 60 }, refresh: { limit: 2, windowSeconds: 60 } }
const dev = (t: TestApp, xff?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/dev',
    headers: { ...json, ...(xff === undefined ? {} : { 'x-forwarded-for': xff }) },
    payload: { name: 'A', email: `a${randomBytes(3).toString('hex')}@example.edu` },
  })

describe('TRUST_PROXY setting', () => {
  it('is off by default and for the usual ways of saying no', () => {
    for (const raw of [undefined, '', 'false', '0', 'off', 'no']) expect(parseTrustProxy(raw)).toBe(false)
  })
  it('takes a hop count or a list of proxy addresses and CIDR ranges', () => {
    expect(parseTrustProxy('1')).toBe(1)
    expect(parseTrustProxy('2')).toBe(2)
    expect(parseTrustProxy('10.0.0.5, 10.0.0.6')).toEqual(['10.0.0.5', '10.0.0.6'])
    expect(parseTrustProxy('10.0.0.0/8,::1,fd00::/8,loopback')).toEqual(['10.0.0.0/8', '::1', 'fd00::/8', 'loopback'])
  })
  it('refuses "true" (any client would choose its address), junk, bad ranges and absurd hop counts at start', () => {
    expect(() => parseTrustProxy('true')).toThrow(/any client/)
    expect(() => parseTrustProxy('*')).toThrow(/any client/)
    expect(() => parseTrustProxy('nginx')).toThrow(/not an address: "nginx"/)
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/not an address/)
    expect(() => parseTrustProxy('10.0.0.1/8/2')).toThrow(/not an address/)
    expect(() => parseTrustProxy('11')).toThrow(/hop count/)
  })
  it('the address a header yields is used only if it is an IP address of sane length', () => {
    const socket = { remoteAddress: '192.0.2.7' } as never
    expect(clientAddress({ ip: '203.0.113.9', socket })).toBe('203.0.113.9')
    expect(clientAddress({ ip: '2001:db8::1', socket })).toBe('2001:db8::1')
    expect(clientAddress({ ip: 'x'.repeat(6000), socket })).toBe('192.0.2.7')
    expect(clientAddress({ ip: 'not-an-ip', socket })).toBe('192.0.2.7')
  })
})

describe('spoofed X-Forwarded-For does not escape the per-address limit (no proxy trusted: the default)', () => {
  let t: TestApp
  beforeAll(async () => (t = await testApp({ app: { rateLimits: small } })))
  afterAll(() => t.close())

  it('a client inventing a new address per sign-in is still one address: the 3rd account in a row is refused', async () => {
    expect((await dev(t, '10.0.0.1')).statusCode).toBe(302)
    expect((await dev(t, '10.0.0.2')).statusCode).toBe(302)
    expect((await dev(t, '10.0.0.3')).statusCode).toBe(429)
    expect((await dev(t)).statusCode).toBe(429)
  })
})

describe('X-Forwarded-For is believed only from the listed proxies', () => {
  it('a request that does not come from the listed proxy is counted under its own address', async () => {
    const t = await testApp({ env: { TRUST_PROXY: '10.0.0.5' }, app: { rateLimits: small } })
    try {
      expect((await dev(t, '198.51.100.1')).statusCode).toBe(302)
      expect((await dev(t, '198.51.100.2')).statusCode).toBe(302)
      expect((await dev(t, '198.51.100.3')).statusCode).toBe(429)
    } finally {
      await t.close()
    }
  })
  it('from the listed proxy (here loopback, where inject comes from) each client is counted apart', async () => {
    const t = await testApp({ env: { TRUST_PROXY: '127.0.0.1' }, app: { rateLimits: small } })
    try {
      expect((await dev(t, '198.51.100.1')).statusCode).toBe(302)
      expect((await dev(t, '198.51.100.1')).statusCode).toBe(302)
      expect((await dev(t, '198.51.100.1')).statusCode).toBe(429)
      expect((await dev(t, '198.51.100.2')).statusCode).toBe(302)
    } finally {
      await t.close()
    }
  })
})

describe('a crafted header cannot make a huge Redis key', () => {
  let redis: Redis
  const prefix = `test:${randomBytes(6).toString('hex')}:`
  beforeAll(() => {
    redis = createRedis(REDIS_URL)
  })
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length) await redis.del(...keys)
    await redis.quit()
  })

  it('a 6,000-character X-Forwarded-For through a trusted hop is counted under the connection address', async () => {
    const t = await testApp({ env: { TRUST_PROXY: '1' }, app: { rateLimits: small, redis, redisPrefix: prefix } })
    try {
      const junk = 'A'.repeat(6000)
      expect((await dev(t, junk)).statusCode).toBe(302)
      expect((await dev(t, `${junk}b`)).statusCode).toBe(302)
      expect((await dev(t, `${junk}c`)).statusCode).toBe(429)
      const keys = await redis.keys(`${prefix}*`)
      expect(keys.length).toBeGreaterThan(0)
      for (const key of keys) expect(key.length).toBeLessThanOrEqual(prefix.length + 'rate:signIn:'.length + 45)
      expect(keys).toContain(`${prefix}rate:signIn:127.0.0.1`)
    } finally {
      await t.close()
    }
  })
})
