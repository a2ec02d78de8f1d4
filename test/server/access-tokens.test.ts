// The bearer check's token verification (server/auth/tokens.ts): a token verified once is remembered (issue 15:
// the same token comes with every call of a student's app), which must change no answer: a forged or altered
// token is still refused, and a remembered token stops working at its expiry.
import { randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { accessTokens } from '../../server/auth/tokens.ts'

afterEach(() => void vi.useRealTimers())

describe('access tokens', () => {
  const tokens = accessTokens(randomBytes(32), 60)

  it('the same token gives the same claims every time; an altered one is refused even after the original was seen', async () => {
    const token = await tokens.sign(7, '0b7a4c5e-3f0e-4a7c-9d7e-2b1f6a9c8d01')
    expect(tokens.claims(token)).toEqual({ userId: 7, sessionId: '0b7a4c5e-3f0e-4a7c-9d7e-2b1f6a9c8d01' })
    expect(tokens.claims(token)).toEqual({ userId: 7, sessionId: '0b7a4c5e-3f0e-4a7c-9d7e-2b1f6a9c8d01' })
    const [h, p, s] = token.split('.')
    const flipped = `${s.slice(0, -2)}${s.at(-2) === 'A' ? 'B' : 'A'}${s.at(-1)}`
    expect(tokens.claims(`${h}.${p}.${flipped}`)).toBeNull()
    const other = JSON.parse(Buffer.from(p, 'base64url').toString())
    const forged = Buffer.from(JSON.stringify({ ...other, sub: '8' })).toString('base64url')
    expect(tokens.claims(`${h}.${forged}.${s}`)).toBeNull()
    // Signed with another secret: refused.
    expect(accessTokens(randomBytes(32), 60).claims(token)).toBeNull()
  })

  it('a remembered token is refused once it has expired', async () => {
    const token = await tokens.sign(9)
    expect(tokens.claims(token)).toEqual({ userId: 9 })
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 59_000)
    expect(tokens.claims(token)).toEqual({ userId: 9 })
    vi.setSystemTime(Date.now() + 2_000)
    expect(tokens.claims(token)).toBeNull()
    expect(tokens.claims(token)).toBeNull()
  })
})
