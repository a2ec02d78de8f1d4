// The bearer check's token verification (server/auth/tokens.ts): a token verified once is remembered (issue 15:
// the same token comes with every call of a student's app), which must change no answer: a forged or altered
// token is still refused, and a remembered token stops working at its expiry.
import { createHmac, randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSigner } from 'fast-jwt'
import { accessTokens } from '../../server/auth/tokens.ts'

afterEach(() => void vi.useRealTimers())

describe('access tokens', () => {
  const tokens = accessTokens(randomBytes(32), 60)

  it('the same token gives the same claims every time; an altered one is refused even after the original was seen', async () => {
    const token = await tokens.sign(7, '0b7a4c5e-3f0e-4a7c-9d7e-2b1f6a9c8d01')
    expect(await tokens.claims(token)).toEqual({ userId: 7, sessionId: '0b7a4c5e-3f0e-4a7c-9d7e-2b1f6a9c8d01' })
    expect(await tokens.claims(token)).toEqual({ userId: 7, sessionId: '0b7a4c5e-3f0e-4a7c-9d7e-2b1f6a9c8d01' })
    const [h, p, s] = token.split('.')
    const flipped = `${s.slice(0, -2)}${s.at(-2) === 'A' ? 'B' : 'A'}${s.at(-1)}`
    expect(await tokens.claims(`${h}.${p}.${flipped}`)).toBeNull()
    const other = JSON.parse(Buffer.from(p, 'base64url').toString())
    const forged = Buffer.from(JSON.stringify({ ...other, sub: '8' })).toString('base64url')
    expect(await tokens.claims(`${h}.${forged}.${s}`)).toBeNull()
    // Signed with another secret: refused.
    expect(await accessTokens(randomBytes(32), 60).claims(token)).toBeNull()
  })

  it('fast-jwt checks every token it has not seen: algorithm, issuer, audience, expiry, crit; then our claims (issue 23 item 7)', async () => {
    const secret = randomBytes(32)
    const own = accessTokens(secret, 60)
    const now = Math.floor(Date.now() / 1000)
    const make = async (claims: Record<string, unknown>, header: { alg: 'HS256' | 'HS512' } = { alg: 'HS256' }) =>
      createSigner({ key: secret, algorithm: header.alg, noTimestamp: true })({
        typ: 'access',
        iss: 'campus-events',
        aud: 'campus-events-api',
        sub: '5',
        exp: now + 60,
        ...claims,
      })
    expect(await own.claims(await make({}))).toEqual({ userId: 5 })
    expect(await own.claims(await make({}, { alg: 'HS512' }))).toBeNull()
    expect(await own.claims(await make({ iss: 'someone-else' }))).toBeNull()
    expect(await own.claims(await make({ aud: 'another-api' }))).toBeNull()
    expect(await own.claims(await make({ exp: now - 1 }))).toBeNull()
    expect(await own.claims(await make({ exp: undefined }))).toBeNull()
    expect(await own.claims(await make({ nbf: now + 600 }))).toBeNull()
    expect(await own.claims(await make({ typ: 'refresh' }))).toBeNull()
    expect(await own.claims(await make({ sub: '0' }))).toBeNull()
    expect(await own.claims(await make({ sid: 'not-a-session' }))).toBeNull()
    // A critical extension nobody here understands (signed by hand: a signer refuses to make one).
    const critHeader = Buffer.from(JSON.stringify({ alg: 'HS256', crit: ['x-unknown'], 'x-unknown': 1 })).toString('base64url')
    const critPayload = (await make({})).split('.')[1]
    const critSignature = createHmac('sha256', secret).update(`${critHeader}.${critPayload}`).digest('base64url')
    expect(await own.claims(`${critHeader}.${critPayload}.${critSignature}`)).toBeNull()
    const [, payload] = (await make({})).split('.')
    expect(await own.claims(`${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`)).toBeNull()
    expect(await own.claims('not.a.token')).toBeNull()
    expect(await own.claims(undefined)).toBeNull()
  })

  it('a remembered token is refused once it has expired', async () => {
    const token = await tokens.sign(9)
    expect(await tokens.claims(token)).toEqual({ userId: 9 })
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 59_000)
    expect(await tokens.claims(token)).toEqual({ userId: 9 })
    vi.setSystemTime(Date.now() + 2_000)
    expect(await tokens.claims(token)).toBeNull()
    expect(await tokens.claims(token)).toBeNull()
  })
})
