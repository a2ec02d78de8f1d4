// A fair opening checked on the phone (issue 24 item 3): the app's Web Crypto key and hash agree with the server's
// node:crypto ones (the server's draw orders by exactly these keys), a key's place in the sorted list, and the
// "Results at" line of a student in a pending draw.
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { drawKey, hmacPads, seedHash } from '../../server/db/tickets/fair.ts'
import { drawStep } from '../../src/lib/draw-step.ts'
import { drawKeyOf, placeOf, seedHashOf } from '../../src/lib/draw-key.ts'

describe('the draw key', () => {
  it('Web Crypto in the app and node:crypto on the server give the same keys and hash, as API.md defines them', async () => {
    for (let i = 0; i < 20; i++) {
      const seed = randomBytes(32).toString('hex')
      const id = 1 + Math.floor(Math.random() * 1_000_000)
      const nonce = randomBytes(16).toString('hex')
      // API.md Part 3 since round four: the message is `<decimal user id>:<nonce>`.
      const expected = createHmac('sha256', Buffer.from(seed, 'utf8')).update(`${id}:${nonce}`, 'utf8').digest('hex')
      expect(await drawKeyOf(seed, id, nonce)).toBe(expected)
      expect(drawKey(seed, id, nonce)).toBe(expected)
      // An entry made before nonces: the id alone, as before.
      const old = createHmac('sha256', Buffer.from(seed, 'utf8')).update(String(id), 'utf8').digest('hex')
      expect(await drawKeyOf(seed, id, null)).toBe(old)
      expect(drawKey(seed, id, null)).toBe(old)
      expect(await seedHashOf(seed)).toBe(createHash('sha256').update(seed, 'utf8').digest('hex'))
      expect(seedHash(seed)).toBe(await seedHashOf(seed))
    }
  })

  it('the padded keys the database uses rebuild the same HMAC from plain SHA-256 (RFC 2104), short and long seeds alike', () => {
    for (const seed of ['s', randomBytes(32).toString('hex'), 'x'.repeat(100)]) {
      const { ipad, opad } = hmacPads(seed)
      const inner = createHash('sha256')
        .update(Buffer.concat([Buffer.from(ipad, 'hex'), Buffer.from(`42:${'ab'.repeat(16)}`)]))
        .digest()
      const outer = createHash('sha256')
        .update(Buffer.concat([Buffer.from(opad, 'hex'), inner]))
        .digest('hex')
      expect(outer).toBe(drawKey(seed, 42, 'ab'.repeat(16)))
    }
  })

  it('finds a key’s place in the sorted list, 1 first, null when absent', () => {
    const keys = ['0a', '3f', '77', 'c0', 'ff']
    expect(keys.map((k) => placeOf(keys, k))).toEqual([1, 2, 3, 4, 5])
    expect(placeOf(keys, '50')).toBeNull()
    expect(placeOf([], '50')).toBeNull()
  })
})

describe('the draw step of the event page', () => {
  const now = Date.parse('2026-11-21T12:30:00Z')
  const drawAt = '2026-11-21T12:31:00Z' // 6:01 PM in Asia/Kolkata
  const pending = { entered_at: '2026-11-21T12:30:10Z', result: 'PENDING' as const, nonce: null, position: null }
  it('says when the result comes to a student in a pending draw, and nothing otherwise', () => {
    const event = { state: 'TICKET_OPEN', fair_start: { draw_at: drawAt }, Participant: { ticket_collected: false, draw: pending } }
    expect(drawStep(event, now)).toEqual({ at: Date.parse(drawAt), text: 'Results at 6:01 PM' })
    expect(drawStep({ ...event, Participant: { ticket_collected: false, draw: null } }, now)).toBeNull()
    expect(drawStep({ ...event, Participant: { ticket_collected: true, draw: { ...pending, result: 'WON' } } }, now)).toBeNull()
    expect(drawStep({ ...event, fair_start: null }, now)).toBeNull()
    expect(drawStep(event, Date.parse(drawAt) + 1)).toBeNull()
  })
})
