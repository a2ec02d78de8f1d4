// Ticket codes (server/db/tickets/claims.ts): 16 decimal digits drawn from the CSPRNG through a block of random bytes,
// each byte used once. Enough codes are drawn here to cross many refills of the block.
import { describe, expect, it } from 'vitest'
import { newTicketCode } from '../../server/db/tickets/claims.ts'

describe('newTicketCode', () => {
  const codes = Array.from({ length: 5000 }, () => newTicketCode())

  it('is 16 decimal digits (or the length asked for)', () => {
    for (const code of codes) expect(code).toMatch(/^\d{16}$/)
    expect(newTicketCode(6)).toMatch(/^\d{6}$/)
  })

  it('never repeats: no byte of the block is used twice, across refills', () => {
    expect(new Set(codes).size).toBe(codes.length)
    for (let i = 1; i < codes.length; i++) expect(codes[i]).not.toBe(codes[i - 1])
  })

  it('draws every digit about equally often (chi-square over 80,000 digits, 9 degrees of freedom)', () => {
    const counts = new Array(10).fill(0)
    for (const code of codes) for (const d of code) counts[Number(d)]++
    const expected = (codes.length * 16) / 10
    const chiSquare = counts.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0)
    // 9 degrees of freedom: above 50 has a probability far below one in a billion for uniform digits. This catches a
    // broken mapping (a digit never or twice as often drawn), not the 1.6% bias dropping bytes 250–255 removes.
    expect(chiSquare).toBeLessThan(50)
  })
})
