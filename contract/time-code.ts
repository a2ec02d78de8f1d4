// The ticket's code that changes every 30 s (issue 25 item 1), shared by the ticket screen, the door (offline) and
// the server: RFC 6238 (TOTP) over RFC 4226's dynamic truncation, HMAC-SHA-256 keyed by the ticket's secret (20
// random bytes, 40 hex digits: migration 0016), 30-second steps counted from the Unix epoch, 6 digits. The barcode
// carries `<ticket code>-<time code>`: ticket codes are 16 digits, so the '-' cannot occur in one. Web Crypto only
// (browsers, and Node 20's global `crypto`): no dependency, and no zod, so it costs the ticket's chunk little. What
// only the door and the server need (reading a scan: ./scan-text.ts; the window: ./time-code-check.ts) is out of the
// ticket's bytes.

export const STEP_MS = 30_000
export const TIME_DIGITS = 6
export const SEPARATOR = '-'

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
