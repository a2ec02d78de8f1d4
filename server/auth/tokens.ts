// Short-lived access tokens (JWT, HS256). Refresh tokens are opaque and live in the database
// (see sessions.ts), so neither kind of token can stand in for the other.
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createSigner, createVerifier } from 'fast-jwt'

export const ACCESS_TOKEN_SECONDS = 15 * 60
export const ISSUER = 'campus-events'
export const AUDIENCE = 'campus-events-api'

export interface AccessTokens {
  /** `sessionId` (the refresh family of the sign-in) goes into the token as `sid`, so logout can end it. */
  sign(userId: number, sessionId?: string): Promise<string>
  /** The user id the token names, or null for a missing, malformed, expired or forged token. */
  verify(token: string | undefined): Promise<number | null>
  /** The user id and the session (when the token names one), or null as for verify. */
  claims(token: string | undefined): { userId: number; sessionId?: string } | null
}

const SESSION_ID = /^[0-9a-f-]{36}$/

/** Tokens verified recently, kept per secret: at most this many (a few MB), the oldest dropped first. */
const VERIFIED_MAX = 20_000

interface Verified {
  exp: number
  claims: { userId: number; sessionId?: string }
}

export function accessTokens(secret: Uint8Array, lifetimeSeconds = ACCESS_TOKEN_SECONDS): AccessTokens {
  // Verified by fast-jwt (issue 23 item 7: no hand-written security code): HS256 only, the signature, exp (required),
  // nbf, iat, issuer, audience, crit. Synchronous, through node:crypto's HMAC: jose's jwtVerify goes through WebCrypto
  // (about twice fast-jwt's CPU per token measured here; issue 15 found verification a fifth of the rush's CPU).
  const verifyToken = createVerifier({
    key: Buffer.from(secret),
    algorithms: ['HS256'],
    allowedIss: ISSUER,
    allowedAud: AUDIENCE,
    requiredClaims: ['exp', 'sub'],
  })
  // Signed by fast-jwt too (issue 38 item 6: jose, kept for signing alone, is gone): HS256, iat, exp, iss and aud.
  const signToken = createSigner({ key: Buffer.from(secret), algorithm: 'HS256', iss: ISSUER, aud: AUDIENCE, expiresIn: lifetimeSeconds * 1000 })
  const verified = new Map<string, Verified>()
  const self: AccessTokens = {
    sign: async (userId, sessionId) => signToken(sessionId ? { typ: 'access', sub: String(userId), sid: sessionId } : { typ: 'access', sub: String(userId) }),
    async verify(token) {
      return self.claims(token)?.userId ?? null
    },
    claims(token) {
      if (!token) return null
      // A token verified before is not verified again (issue 15: a student's app sends the same token with every
      // call for up to its lifetime): the same string has the same signature and claims. Only time moves, so the
      // expiry is checked again on every use (a cached token passed its not-before already). Kept here rather than
      // in fast-jwt's cache, whose key is a SHA-256 of the token: 8.7 µs a call instead of under 1 µs.
      const known = verified.get(token)
      if (known) {
        if (known.exp > Math.floor(Date.now() / 1000)) return known.claims
        verified.delete(token)
        return null
      }
      const fresh = verify(token)
      if (!fresh) return null
      if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string) // the oldest
      verified.set(token, fresh)
      return fresh.claims
    },
  }

  function verify(token: string): Verified | null {
    let payload: Record<string, unknown>
    try {
      payload = verifyToken(token)
    } catch {
      return null
    }
    // Then this app's own claims: an access token (not another kind), a user id, a session id when named.
    if (payload.typ !== 'access' || typeof payload.sub !== 'string' || !/^[1-9]\d*$/.test(payload.sub)) return null
    const id = Number(payload.sub)
    if (!Number.isSafeInteger(id)) return null
    if ('sid' in payload && (typeof payload.sid !== 'string' || !SESSION_ID.test(payload.sid))) return null
    return { exp: payload.exp as number, claims: typeof payload.sid === 'string' ? { userId: id, sessionId: payload.sid } : { userId: id } }
  }
  return self
}

/** JWT_SECRET when set; otherwise a secret generated once and kept in DATA_DIR (never in the repository). */
export async function loadSecret(configured: string | undefined, dataDir: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured)
  const file = join(dataDir, 'jwt-secret')
  try {
    return new TextEncoder().encode((await readFile(file, 'utf8')).trim())
  } catch {
    const secret = randomBytes(48).toString('base64url')
    await mkdir(dataDir, { recursive: true, mode: 0o700 })
    await writeFile(file, secret, { mode: 0o600 })
    return new TextEncoder().encode(secret)
  }
}
