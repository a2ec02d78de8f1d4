// The users repository: created on first sign-in, keyed by identity provider + subject; the onboarding fields the
// student writes; the operator's support accounts; and the wire form of API.md (which never shows the issuer, the
// subject or anything about tokens).
import { and, eq, sql } from 'drizzle-orm'
import type { Roles, User } from '../../../contract/types.ts'
import type { Gender } from '../../../contract/constants.ts'
import type { Db } from '../index.ts'
import { done, isUniqueViolation, refused, type Outcome } from '../outcomes.ts'
import { users } from '../schema.ts'

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
async function upsertSignedIn(db: Db, who: SignedInIdentity): Promise<UserRow> {
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

/** The onboarding fields, already validated (contract/api.ts profileUpdate) and put in their stored form. */
export interface ProfileFields {
  phoneNumber: string
  rollNumber: string
  gender: Gender
  year: number
  branch: string
  interests: string[]
  degree: string
  college: string
}

export function usersRepository(db: Db) {
  return {
    upsertSignedIn: (who: SignedInIdentity) => upsertSignedIn(db, who),

    async find(id: number): Promise<UserRow | null> {
      const [row] = await db.select().from(users).where(eq(users.id, id))
      return row ?? null
    },

    /**
     * Writes only the onboarding fields. Refused when the user no longer exists, or when another student holds the
     * mobile number or the student ID: the unique indexes decide (migration 0003), however close two updates are.
     */
    async updateProfile(id: number, fields: ProfileFields): Promise<Outcome<UserRow>> {
      try {
        const [row] = await db
          .update(users)
          .set({ ...fields, updatedAt: new Date() })
          .where(eq(users.id, id))
          .returning()
        return row ? done(row) : refused('userNotFound')
      } catch (err) {
        if (isUniqueViolation(err, 'users_phone_number')) return refused('phoneTaken')
        if (isUniqueViolation(err, 'users_roll_number')) return refused('rollTaken')
        throw err
      }
    },

    /**
     * A support or load-test account for the operator's `token` command: keyed by issuer 'cli' and the e-mail,
     * apart from Google sign-ins, so it can never take over a student's account. Its id.
     */
    async upsertOperatorAccount(email: string, name?: string): Promise<number> {
      const [created] = await db
        .insert(users)
        .values({ issuer: 'cli', subject: email, email, name: name ?? email.split('@')[0] })
        .onConflictDoNothing({ target: [users.issuer, users.subject] })
        .returning({ id: users.id })
      if (created) return created.id
      const [existing] = await db
        .update(users)
        .set(name ? { name, updatedAt: new Date() } : { updatedAt: new Date() })
        .where(and(eq(users.issuer, 'cli'), eq(users.subject, email)))
        .returning({ id: users.id })
      return existing.id
    },
  }
}

export type UsersRepository = ReturnType<typeof usersRepository>

/** Exactly the User fields of API.md, with the roles of Part 2 (rolesRepository.of). */
export function toWireUser(row: UserRow, roles: Roles): User {
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
    roles,
  }
}
