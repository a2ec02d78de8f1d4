// Short-lived access tokens (JWT, HS256). Refresh tokens are opaque and live in the database
// (see sessions.ts), so neither kind of token can stand in for the other.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SignJWT } from 'jose'

export const ACCESS_TOKEN_SECONDS = 15 * 60
const ISSUER = 'campus-events'
const AUDIENCE = 'campus-events-api'

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
  const verified = new Map<string, Verified>()
  const self: AccessTokens = {
    sign: (userId, sessionId) =>
      new SignJWT(sessionId ? { typ: 'access', sid: sessionId } : { typ: 'access' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${lifetimeSeconds}s`)
        .sign(secret),
    // Verified here with node:crypto rather than jose's jwtVerify: jose goes through WebCrypto (a key
    // import and an async HMAC job per call), which was a fifth of the server's CPU in the ticket rush
    // (bench:rush profile); this is a synchronous HMAC of a few microseconds. Same rules as jose's:
    // HS256 only, no crit/b64 extensions, the signature in canonical base64url, a JSON object payload with
    // our issuer and audience, a numeric exp still in the future, nbf/iat numeric when present.
    async verify(token) {
      return self.claims(token)?.userId ?? null
    },
    claims(token) {
      if (!token) return null
      // A token verified before is not verified again (issue 15: a student's app sends the same token with every
      // call for up to its lifetime): the same string has the same signature and claims. Only time moves, so the
      // expiry is checked again on every use (a cached token passed its not-before already).
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
    const parts = token.split('.')
    if (parts.length !== 3) return null
    const [header64, payload64, signature64] = parts
    const expected = Buffer.from(createHmac('sha256', secret).update(`${header64}.${payload64}`).digest('base64url'))
    const given = Buffer.from(signature64)
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
    const header = jsonObject(header64)
    if (!header || header.alg !== 'HS256' || 'crit' in header || 'b64' in header) return null
    const payload = jsonObject(payload64)
    if (!payload) return null
    const now = Math.floor(Date.now() / 1000)
    if (payload.iss !== ISSUER) return null
    if (!(payload.aud === AUDIENCE || (Array.isArray(payload.aud) && payload.aud.includes(AUDIENCE)))) return null
    if (typeof payload.exp !== 'number' || payload.exp <= now) return null
    if ('nbf' in payload && (typeof payload.nbf !== 'number' || payload.nbf > now)) return null
    if ('iat' in payload && typeof payload.iat !== 'number') return null
    if (payload.typ !== 'access' || typeof payload.sub !== 'string' || !/^[1-9]\d*$/.test(payload.sub)) return null
    const id = Number(payload.sub)
    if (!Number.isSafeInteger(id)) return null
    if ('sid' in payload && (typeof payload.sid !== 'string' || !SESSION_ID.test(payload.sid))) return null
    return { exp: payload.exp, claims: typeof payload.sid === 'string' ? { userId: id, sessionId: payload.sid } : { userId: id } }
  }
  return self
}

/** A base64url JSON object (a JWT header or payload), or null. */
function jsonObject(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** JWT_SECRET when set; otherwise a secret generated once and kept in DATA_DIR (never in the repository). */
export async function loadSecret(configured: string | undefined, dataDir: string): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured)
  const file = join(dataDir, 'jwt-secret')
  try {
    return new TextEncoder().encode((await readFile(file, 'utf8')).trim())
  } catch {
    const secret = randomBytes(48).toString('base64url')
    await mkdir(dataDir, { recursive: true })
    await writeFile(file, secret, { mode: 0o600 })
    return new TextEncoder().encode(secret)
  }
}
