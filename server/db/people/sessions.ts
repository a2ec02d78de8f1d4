// The sessions repository: a short-lived access JWT plus an opaque refresh token. Refresh tokens are stored only as a
// SHA-256 hash, work exactly once (rotation), expire when idle and when their family (one sign-in) gets
// too old, and a replayed one revokes its whole family: whoever holds the copy is locked out with the thief.
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { and, eq, gt, isNull } from 'drizzle-orm'
import type { Db } from '../index.ts'
import { refreshFamilies, refreshTokens } from '../schema.ts'

/** Signs access tokens (server/auth/tokens.ts); the sessions only need this much of it. */
export interface AccessTokenSigner {
  sign(userId: number, sessionId?: string): Promise<string>
}

const DAY_MS = 24 * 60 * 60 * 1000
/** A refresh token not used for this long is dead (the student signs in again). */
export const REFRESH_IDLE_MS = 30 * DAY_MS
/** However actively used, one sign-in lasts at most this long. */
export const REFRESH_ABSOLUTE_MS = 90 * DAY_MS

/** A used refresh token presented again this soon after its use yields another successor (API.md). */
export const REFRESH_REUSE_GRACE_SECONDS = 10

export interface SessionDeps {
  db: Db
  tokens: AccessTokenSigner
  /** REFRESH_REUSE_GRACE_SECONDS; 0 turns the grace off (every reuse revokes). */
  reuseGraceSeconds?: number
}

export interface SessionTokens {
  accessToken: string
  refreshToken: string
}

/** Why a refresh token was refused; 'reused' has just revoked the family and deserves a log line. */
export type RefreshRefusal = 'malformed' | 'unknown' | 'expired' | 'revoked' | 'reused'

export type RotateResult =
  | ({ ok: true; userId: number; familyId: string } & SessionTokens)
  | { ok: false; reason: RefreshRefusal; userId?: number; familyId?: string }

// 32 random bytes in base64url are exactly 43 characters; anything else cannot be ours.
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/

export const hashRefreshToken = (token: string) => createHash('sha256').update(token).digest('hex')
const newRefreshToken = () => randomBytes(32).toString('base64url')

/** The next token of a family never outlives the family itself. */
const idleExpiry = (now: Date, absolute: Date) => new Date(Math.min(now.getTime() + REFRESH_IDLE_MS, absolute.getTime()))

/** Signs a user in: a new refresh family with its first token, and an access token. */
export async function startSession(deps: SessionDeps, userId: number): Promise<SessionTokens> {
  const now = new Date()
  const absoluteExpiresAt = new Date(now.getTime() + REFRESH_ABSOLUTE_MS)
  const familyId = randomUUID()
  const refreshToken = newRefreshToken()
  await deps.db.transaction(async (tx) => {
    await tx.insert(refreshFamilies).values({ id: familyId, userId, absoluteExpiresAt })
    await tx.insert(refreshTokens).values({
      familyId,
      tokenHash: hashRefreshToken(refreshToken),
      expiresAt: idleExpiry(now, absoluteExpiresAt),
    })
  })
  return { accessToken: await deps.tokens.sign(userId, familyId), refreshToken }
}

/**
 * Trades a refresh token for a new pair. Race-safe: the token is marked used by one conditional UPDATE
 * (`used_at IS NULL`) in the same transaction as the insert of its successor, so of any number of
 * simultaneous requests with one token at most one gets a successor. The losers see a used token, which
 * is exactly what a replay looks like, and revoke the family: a client must not refresh twice at once.
 */
export async function rotateRefreshToken(deps: SessionDeps, token: unknown): Promise<RotateResult> {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return { ok: false, reason: 'malformed' }
  const tokenHash = hashRefreshToken(token)
  const now = new Date()
  const successor = newRefreshToken()

  const rotated = await deps.db.transaction(async (tx) => {
    const [used] = await tx
      .update(refreshTokens)
      .set({ usedAt: now })
      .where(and(eq(refreshTokens.tokenHash, tokenHash), isNull(refreshTokens.usedAt), gt(refreshTokens.expiresAt, now)))
      .returning({ familyId: refreshTokens.familyId })
    if (!used) return null
    const [family] = await tx
      .select({ userId: refreshFamilies.userId, absoluteExpiresAt: refreshFamilies.absoluteExpiresAt })
      .from(refreshFamilies)
      .where(and(eq(refreshFamilies.id, used.familyId), isNull(refreshFamilies.revokedAt), gt(refreshFamilies.absoluteExpiresAt, now)))
    // A revoked or too old family: the token stays spent (rolled back would be fine too, it is refused either way).
    if (!family) return { familyId: used.familyId, refused: true as const }
    await tx.insert(refreshTokens).values({
      familyId: used.familyId,
      tokenHash: hashRefreshToken(successor),
      expiresAt: idleExpiry(now, family.absoluteExpiresAt),
    })
    return { familyId: used.familyId, userId: family.userId, refused: false as const }
  })

  if (rotated && !rotated.refused) {
    return {
      ok: true,
      userId: rotated.userId,
      familyId: rotated.familyId,
      accessToken: await deps.tokens.sign(rotated.userId, rotated.familyId),
      refreshToken: successor,
    }
  }

  // Refused: find out why, for the answer is the same (401) but a replay must revoke the family.
  const [row] = await deps.db
    .select({
      familyId: refreshTokens.familyId,
      usedAt: refreshTokens.usedAt,
      expiresAt: refreshTokens.expiresAt,
      userId: refreshFamilies.userId,
      revokedAt: refreshFamilies.revokedAt,
      absoluteExpiresAt: refreshFamilies.absoluteExpiresAt,
    })
    .from(refreshTokens)
    .innerJoin(refreshFamilies, eq(refreshFamilies.id, refreshTokens.familyId))
    .where(eq(refreshTokens.tokenHash, tokenHash))
  if (!row) return { ok: false, reason: 'unknown' }
  const who = { userId: row.userId, familyId: row.familyId }
  if (row.revokedAt) return { ok: false, reason: 'revoked', ...who }
  const graceMs = (deps.reuseGraceSeconds ?? REFRESH_REUSE_GRACE_SECONDS) * 1000
  if (row.usedAt && !rotated && graceMs > 0 && now.getTime() - row.usedAt.getTime() <= graceMs && row.absoluteExpiresAt > now) {
    // An answer lost on a flaky network: the client retries with the token it still holds. It gets another
    // successor, and the family's other live token (the successor it never received) is spent, so one chain
    // goes on and a later use of the lost one is a replay like any other.
    const replaced = await graceSuccessor(deps, row.familyId, row.absoluteExpiresAt, now)
    if (replaced) {
      return { ok: true, ...who, accessToken: await deps.tokens.sign(row.userId, row.familyId), refreshToken: replaced }
    }
  }
  if (row.usedAt && !rotated) {
    await revokeFamily(deps.db, row.familyId, 'reuse')
    return { ok: false, reason: 'reused', ...who }
  }
  return { ok: false, reason: 'expired', ...who }
}

/** Within the grace: spends the family's live tokens and issues one more; null if the family was revoked meanwhile. */
async function graceSuccessor(deps: SessionDeps, familyId: string, absoluteExpiresAt: Date, now: Date): Promise<string | null> {
  const successor = newRefreshToken()
  return deps.db.transaction(async (tx) => {
    // The family row locked: a revocation (logout, reuse) and this successor cannot cross.
    const [family] = await tx
      .select({ id: refreshFamilies.id })
      .from(refreshFamilies)
      .where(and(eq(refreshFamilies.id, familyId), isNull(refreshFamilies.revokedAt)))
      .for('update')
    if (!family) return null
    await tx
      .update(refreshTokens)
      .set({ usedAt: now })
      .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.usedAt)))
    await tx.insert(refreshTokens).values({ familyId, tokenHash: hashRefreshToken(successor), expiresAt: idleExpiry(now, absoluteExpiresAt) })
    return successor
  })
}

/** Ends every token of a family (idempotent: the first reason stays). */
export async function revokeFamily(db: Db, familyId: string, reason: string): Promise<void> {
  await db
    .update(refreshFamilies)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(refreshFamilies.id, familyId), isNull(refreshFamilies.revokedAt)))
}

/** Logout: revokes the family the token belongs to; an unknown or malformed token changes nothing. */
export async function revokeSessionOf(db: Db, token: unknown): Promise<{ familyId: string; userId: number } | null> {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return null
  const [row] = await db
    .select({ familyId: refreshTokens.familyId, userId: refreshFamilies.userId })
    .from(refreshTokens)
    .innerJoin(refreshFamilies, eq(refreshFamilies.id, refreshTokens.familyId))
    .where(eq(refreshTokens.tokenHash, hashRefreshToken(token)))
  if (!row) return null
  await revokeFamily(db, row.familyId, 'logout')
  return row
}

export function sessionsRepository(deps: SessionDeps) {
  return {
    start: (userId: number) => startSession(deps, userId),
    rotate: (token: unknown) => rotateRefreshToken(deps, token),
    revokeByToken: (token: unknown) => revokeSessionOf(deps.db, token),
  }
}

export type SessionsRepository = ReturnType<typeof sessionsRepository>
