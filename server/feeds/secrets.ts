// The calendar feed's secret and the certificates' verification codes.
//
// Feed: the URL's secret is HMAC-SHA256(key, "<user id>:<nonce>"), where the key is derived from the server's secret
// (JWT_SECRET, or the one kept in DATA_DIR) and the nonce is random per feed. The database keeps the nonce and the
// SHA-256 of the secret, never the secret: a copy of the database alone cannot rebuild a working URL, and
// rotating (a new nonce) kills the old URL. Certificate codes are random (10 characters of Crockford's base32,
// about 50 bits) and stored, so a code stays the same however often the PDF is downloaded.
import { createHash, createHmac, randomBytes, randomInt } from 'node:crypto'
import type { FeedKey } from '../db/events/feeds.ts'

export function feedSecrets(serverSecret: Uint8Array) {
  const key = createHash('sha256').update('calendar-feed:').update(serverSecret).digest()
  const secretOf = (userId: number, nonce: string) => createHmac('sha256', key).update(`${userId}:${nonce}`).digest('base64url')
  const hashOf = (secret: string) => createHash('sha256').update(secret).digest('hex')
  return {
    secretOf,
    hashOf,
    /** A new nonce for the user, with the hash of the secret it yields. */
    fresh(userId: number): FeedKey {
      const nonce = randomBytes(16).toString('base64url')
      return { nonce, secretHash: hashOf(secretOf(userId, nonce)) }
    },
  }
}

export type FeedSecrets = ReturnType<typeof feedSecrets>

/** Crockford's base32: no I, L, O or U, so a code read off paper cannot be misread. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
export const CODE_LENGTH = 10

export function randomCertificateCode(): string {
  let code = ''
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]
  return code
}

/** A code as printed (`ABCDE-12345`). */
export const printedCode = (code: string) => `${code.slice(0, 5)}-${code.slice(5)}`

/** A code as typed or scanned: any case, dashes and spaces ignored, O read as 0 and I or L as 1; null if not a code. */
export function normalCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1')
  return code.length === CODE_LENGTH && [...code].every((c) => CODE_ALPHABET.includes(c)) ? code : null
}
