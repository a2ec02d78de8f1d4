// The ticket's time code (issue 25 item 1, contract/time-code.ts): RFC 6238's own test values, the edges of a
// 30-second step, the window of one step either side at the door, and a phone whose clock is 2 minutes off,
// corrected by the server's time (src/lib/server-clock.ts).
import { describe, expect, it } from 'vitest'
import { STEP_MS, stepOf, timeCode, withTimeCode } from '../../contract/time-code.ts'
import { splitScan } from '../../contract/scan-text.ts'
import { timeCodeAdmits } from '../../contract/time-code-check.ts'
import { noteServerTime, serverNow } from '../../src/lib/server-clock.ts'

const hex = (ascii: string) => Buffer.from(ascii, 'ascii').toString('hex')
const SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f9001122334'

function memory() {
  const m = new Map<string, string>()
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) }
}

describe('the time code', () => {
  it('matches RFC 6238 appendix B (8 digits; SHA-1 and SHA-256 with their keys)', async () => {
    const sha1 = hex('12345678901234567890')
    const sha256 = hex('12345678901234567890123456789012')
    const cases: [number, string, string][] = [
      [59, '94287082', '46119246'],
      [1111111109, '07081804', '68084774'],
      [1111111111, '14050471', '67062674'],
      [1234567890, '89005924', '91819424'],
      [2000000000, '69279037', '90698825'],
      [20000000000, '65353130', '77737706'],
    ]
    for (const [seconds, one, two] of cases) {
      const step = stepOf(seconds * 1000)
      expect(await timeCode(sha1, step, 8, 'SHA-1')).toBe(one)
      expect(await timeCode(sha256, step, 8)).toBe(two)
    }
  })

  it('changes exactly at a step’s edge: the last ms of a step and the first of the next', async () => {
    const edge = 1_795_800_600_000 // a multiple of 30 s
    expect(edge % STEP_MS).toBe(0)
    const last = await timeCode(SECRET, stepOf(edge - 1))
    const first = await timeCode(SECRET, stepOf(edge))
    expect(stepOf(edge) - stepOf(edge - 1)).toBe(1)
    expect(last).toMatch(/^\d{6}$/)
    expect(first).not.toBe(last)
    // The whole step shows one code: its first ms the same as its last.
    expect(await timeCode(SECRET, stepOf(edge - STEP_MS))).toBe(last)
    expect(await timeCode(SECRET, stepOf(edge + STEP_MS - 1))).toBe(first)
  })

  it('the door takes the step of its clock and one either side, never two', async () => {
    const at = 1_795_800_615_000 // the middle of a step
    const codeAt = (ms: number) => timeCode(SECRET, stepOf(ms))
    for (const d of [-1, 0, 1]) expect(await timeCodeAdmits(await codeAt(at + d * STEP_MS), SECRET, true, at)).toBe(true)
    for (const d of [-2, 2]) expect(await timeCodeAdmits(await codeAt(at + d * STEP_MS), SECRET, true, at)).toBe(false)
    // At a step's edges: a code shown in the last ms of step s passes until the last ms of step s + 1.
    const edge = 1_795_800_600_000
    const shown = await codeAt(edge - 1)
    expect(await timeCodeAdmits(shown, SECRET, true, edge + STEP_MS - 1)).toBe(true)
    expect(await timeCodeAdmits(shown, SECRET, true, edge + STEP_MS)).toBe(false)
    // No time code, a malformed one, or a wrong one; with rotation off anything passes.
    expect(await timeCodeAdmits(null, SECRET, true, at)).toBe(false)
    expect(await timeCodeAdmits('12345', SECRET, true, at)).toBe(false)
    const wrong = String((Number(await codeAt(at)) + 1) % 1e6).padStart(6, '0')
    expect(await timeCodeAdmits(wrong, SECRET, true, at)).toBe(false)
    expect(await timeCodeAdmits(null, SECRET, false, at)).toBe(true)
  })

  it('the barcode’s text splits back into the ticket code and the time code; anything else is a code of its own', () => {
    expect(splitScan(withTimeCode('1234567890123456', '004217'))).toEqual({ code: '1234567890123456', time: '004217' })
    expect(splitScan('1234567890123456')).toEqual({ code: '1234567890123456', time: null })
    expect(splitScan('HELD-1')).toEqual({ code: 'HELD-1', time: null })
    expect(splitScan('T-1-123456')).toEqual({ code: 'T-1', time: '123456' })
  })

  it('a phone 2 minutes slow shows the door’s code once corrected by the server’s time', async () => {
    const server = 1_795_800_615_000
    const phone = server - 2 * 60_000
    const store = memory()
    // Uncorrected, the phone's code is 4 steps behind the door: refused.
    expect(await timeCodeAdmits(await timeCode(SECRET, stepOf(phone)), SECRET, true, server)).toBe(false)
    noteServerTime(new Date(server).toISOString(), store, phone)
    const corrected = serverNow(store, phone + 10_000)
    expect(corrected).toBe(server + 10_000)
    expect(await timeCodeAdmits(await timeCode(SECRET, stepOf(corrected)), SECRET, true, server + 10_000)).toBe(true)
    // A kept copy of an older answer, seen again offline, does not set the clock back.
    noteServerTime(new Date(server - 3_600_000).toISOString(), store, phone + 20_000)
    expect(serverNow(store, phone + 20_000)).toBe(server + 20_000)
    // A phone 2 minutes fast, likewise; never having seen the server, the phone's own clock.
    const fast = memory()
    noteServerTime(new Date(server).toISOString(), fast, server + 2 * 60_000)
    expect(serverNow(fast, server + 2 * 60_000)).toBe(server)
    expect(serverNow(memory(), 42)).toBe(42)
  })
})
