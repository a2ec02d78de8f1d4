// Short-lived access tokens (JWT, HS256). Refresh tokens are opaque and live in the database
// (see sessions.ts), so neither kind of token can stand in for the other.
import { randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SignJWT, jwtVerify } from 'jose'

export const ACCESS_TOKEN_SECONDS = 15 * 60
const ISSUER = 'campus-events'
const AUDIENCE = 'campus-events-api'

export interface AccessTokens {
  sign(userId: number): Promise<string>
  /** The user id the token names, or null for a missing, malformed, expired or forged token. */
  verify(token: string | undefined): Promise<number | null>
}

export function accessTokens(secret: Uint8Array, lifetimeSeconds = ACCESS_TOKEN_SECONDS): AccessTokens {
  return {
    sign: (userId) =>
      new SignJWT({ typ: 'access' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${lifetimeSeconds}s`)
        .sign(secret),
    async verify(token) {
      if (!token) return null
      try {
        const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] })
        const id = Number(payload.sub)
        return payload.typ === 'access' && Number.isSafeInteger(id) && id > 0 ? id : null
      } catch {
        return null
      }
    },
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
