// The ticket's code that changes every 30 s (issue 25 item 1), shared by the ticket screen, the door (offline) and
// the server: RFC 6238 (TOTP) over RFC 4226's dynamic truncation, HMAC-SHA-256 keyed by the ticket's secret (20
// random bytes, 40 hex digits: migration 0016), 30-second steps counted from the Unix epoch, 6 digits. The barcode
// carries `<ticket code>-<time code>`: ticket codes are 16 digits, so the '-' cannot occur in one. Web Crypto only
// (browsers, and Node 20's global `crypto`): no dependency, and no zod, so it costs the ticket's chunk little.

export const STEP_MS = 30_000
export const TIME_DIGITS = 6
export const SEPARATOR = '-'

/** Said by the door (online, offline and at sync) for a time code outside the current step and one either side, or none. */
export const EXPIRED_CODE_MESSAGE = 'This code has expired: ask the student to open the ticket in the app'

/** The 30-second step a time (ms since the epoch) falls in. */
export const stepOf = (ms: number) => Math.floor(ms / STEP_MS)

const bytesOf = (hex: string) => new Uint8Array((hex.match(/../g) ?? []).map((h) => Number.parseInt(h, 16)))

/** The time code of `step` for the secret (hex): HOTP(secret, step) with SHA-256, `digits` long. */
export async function timeCode(secretHex: string, step: number, digits = TIME_DIGITS, hash = 'SHA-256'): Promise<string> {
  const key = await crypto.subtle.importKey('raw', bytesOf(secretHex), { name: 'HMAC', hash }, false, ['sign'])
  // The counter as 8 bytes, big-endian (steps stay below 2^53).
  const counter = new DataView(new ArrayBuffer(8))
  counter.setUint32(0, Math.floor(step / 2 ** 32))
  counter.setUint32(4, step >>> 0)
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, counter))
  const at = mac[mac.length - 1] & 15
  const bin = ((mac[at] & 127) << 24) | (mac[at + 1] << 16) | (mac[at + 2] << 8) | mac[at + 3]
  return String(bin % 10 ** digits).padStart(digits, '0')
}

/** What the barcode carries: the ticket code, then the time code. */
export const withTimeCode = (code: string, time: string) => code + SEPARATOR + time

/**
 * A scanned text split into the ticket code (what the ticket list is keyed by) and its time code: split only when it
 * ends in the separator and 6 digits, so any other text (a bare code, a typo) is a code of its own.
 */
export function splitScan(text: string): { code: string; time: string | null } {
  const m = /^(.+)-(\d{6})$/.exec(text)
  return m ? { code: m[1], time: m[2] } : { code: text, time: null }
}

/**
 * Whether a scan passes the time check at `atMs` (the door's corrected clock, the server's, or an offline scan's
 * scanned_at): always with rotation off (printed tickets: the time part, if any, is ignored) or no secret known;
 * else only with the time code of the step of `atMs` or one either side (about 60 s each way at most).
 */
export async function timeCodeAdmits(time: string | null, secret: string | null | undefined, rotating: boolean, atMs: number): Promise<boolean> {
  if (!rotating || !secret) return true
  if (time === null || !/^\d{6}$/.test(time)) return false
  const step = stepOf(atMs)
  const near = await Promise.all([step - 1, step, step + 1].map((s) => timeCode(secret, s)))
  return near.includes(time)
}
