// Users as sign-in sees them: created on first sign-in, keyed by identity provider + subject, and the
// wire form of API.md (which never shows the issuer, the subject or anything about tokens).
import { eq, sql } from 'drizzle-orm'
import type { User } from '../../contract/types.ts'
import type { Db } from '../db/index.ts'
import { users } from '../db/schema.ts'

export type UserRow = typeof users.$inferSelect

export interface SignedInIdentity {
  issuer: string
  subject: string
  email: string
  name: string
  photoUrl?: string | null
}

/**
 * Creates the user on first sign-in; on later ones refreshes what the provider owns (name, e-mail, photo)
 * and never touches the onboarding fields the student entered.
 */
export async function upsertSignedInUser(db: Db, who: SignedInIdentity): Promise<UserRow> {
  const photoUrl = who.photoUrl ?? null
  const [row] = await db
    .insert(users)
    .values({ issuer: who.issuer, subject: who.subject, email: who.email, name: who.name, photoUrl })
    .onConflictDoUpdate({
      target: [users.issuer, users.subject],
      set: {
        email: who.email,
        name: who.name,
        // A provider that stops sending a picture does not erase the one we have.
        photoUrl: sql`coalesce(${photoUrl}::text, ${users.photoUrl})`,
        updatedAt: new Date(),
      },
    })
    .returning()
  return row
}

export async function findUser(db: Db, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id))
  return row
}

/** Exactly the User fields of API.md. */
export function toWireUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    photo_url: row.photoUrl,
    college: row.college,
    phone_number: row.phoneNumber,
    roll_number: row.rollNumber,
    gender: row.gender,
    year: row.year,
    branch: row.branch,
    degree: row.degree,
    interests: Array.isArray(row.interests) ? row.interests : [],
  }
}
