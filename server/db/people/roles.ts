// Roles (API.md Part 2 "Roles"): admins (users.is_admin), organisers of a council (council_organizers) and door
// volunteers of an event (event_staff). Every check reads the database, never the token, so a revoked role stops
// working on the next call. Grants name people by e-mail: every account signed in with that e-mail gets the role
// (a student may have signed in through Google and been given a support account by the operator).
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Roles } from '../../../contract/types.ts'
import { recordAudit } from '../audit.ts'
import type { Db } from '../index.ts'
import { councilOrganizers, councils, events, eventStaff, users } from '../schema.ts'

/** A person as the console lists them. */
export interface Person {
  id: number
  name: string
  email: string
}

/** What a user may do at one event: manage it (admin, or organiser of its council) and check tickets there. */
export interface EventAccess {
  councilId: number
  manage: boolean
  door: boolean
}

const person = { id: users.id, name: users.name, email: users.email }

/** The ids of the accounts signed in with `email` (compared without case), oldest first. */
async function accountsOf(db: Db, email: string): Promise<number[]> {
  const rows = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${email.trim()})`).orderBy(asc(users.id))
  return rows.map((r) => r.id)
}

export function rolesRepository(db: Db) {
  return {
    /** The roles of `/user/p/me`, in one query. */
    async of(userId: number): Promise<Roles> {
      const [row] = await db
        .select({
          admin: users.isAdmin,
          councils: sql<
            number[]
          >`coalesce(array(SELECT ${councilOrganizers.councilId} FROM ${councilOrganizers} WHERE ${councilOrganizers.userId} = ${users.id} ORDER BY 1), '{}')`,
          doorEvents: sql<number[]>`coalesce(array(SELECT ${eventStaff.eventId} FROM ${eventStaff} WHERE ${eventStaff.userId} = ${users.id} ORDER BY 1), '{}')`,
        })
        .from(users)
        .where(eq(users.id, userId))
      return { admin: row?.admin ?? false, councils: (row?.councils ?? []).map(Number), door_events: (row?.doorEvents ?? []).map(Number) }
    },

    async isAdmin(userId: number): Promise<boolean> {
      const [row] = await db.select({ admin: users.isAdmin }).from(users).where(eq(users.id, userId))
      return row?.admin ?? false
    },

    /** Whether the user may manage the council's events: an admin, or one of its organisers. */
    async canManageCouncil(userId: number, councilId: number): Promise<boolean> {
      const [row] = await db
        .select({
          allowed: sql<boolean>`${users.isAdmin} OR EXISTS (SELECT 1 FROM ${councilOrganizers} WHERE ${councilOrganizers.councilId} = ${councilId} AND ${councilOrganizers.userId} = ${users.id})`,
        })
        .from(users)
        .where(eq(users.id, userId))
      return row?.allowed ?? false
    },

    /** What the user may do at the event (drafts included: the console sees them); null when there is no such event. */
    async eventAccess(userId: number, eventId: number): Promise<EventAccess | null> {
      const [row] = await db
        .select({
          councilId: events.organizerId,
          admin: sql<boolean>`(SELECT ${users.isAdmin} FROM ${users} WHERE ${users.id} = ${userId})`,
          organiser: sql<boolean>`EXISTS (SELECT 1 FROM ${councilOrganizers} WHERE ${councilOrganizers.councilId} = ${events.organizerId} AND ${councilOrganizers.userId} = ${userId})`,
          staff: sql<boolean>`EXISTS (SELECT 1 FROM ${eventStaff} WHERE ${eventStaff.eventId} = ${events.id} AND ${eventStaff.userId} = ${userId})`,
        })
        .from(events)
        .where(eq(events.id, eventId))
      if (!row) return null
      const manage = Boolean(row.admin) || row.organiser
      return { councilId: row.councilId, manage, door: manage || row.staff }
    },

    /** The councils the user manages: every council for an admin. */
    async managedCouncils(userId: number): Promise<number[]> {
      if (await this.isAdmin(userId)) return (await db.select({ id: councils.id }).from(councils).orderBy(asc(councils.id))).map((r) => r.id)
      const rows = await db
        .select({ id: councilOrganizers.councilId })
        .from(councilOrganizers)
        .where(eq(councilOrganizers.userId, userId))
        .orderBy(asc(councilOrganizers.councilId))
      return rows.map((r) => r.id)
    },

    accountsOf: (email: string) => accountsOf(db, email),

    /** Makes (or stops making) every account with this e-mail an admin; the accounts changed. */
    /**
     * Makes the account signing in an admin when its e-mail is one of ADMIN_EMAILS (issue 37 item 4); audited once,
     * when it changes anything. Answers whether it did.
     */
    async adminBySetting(userId: number, email: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const changed = await tx
          .update(users)
          .set({ isAdmin: true, updatedAt: new Date() })
          .where(and(eq(users.id, userId), eq(users.isAdmin, false)))
          .returning({ id: users.id })
        if (changed.length === 0) return false
        await recordAudit(tx as unknown as Db, {
          actorId: null,
          actorKind: 'config',
          action: 'role.grant',
          after: { email, role: 'admin', users: [userId], by: 'ADMIN_EMAILS' },
        })
        return true
      })
    },

    async setAdmin(email: string, admin: boolean): Promise<number[]> {
      const ids = await accountsOf(db, email)
      if (ids.length > 0) await db.update(users).set({ isAdmin: admin, updatedAt: new Date() }).where(inArray(users.id, ids))
      return ids
    },

    /** Grants or revokes the organiser role of a council to every account with this e-mail; the accounts changed. */
    async setOrganizer(email: string, councilId: number, granted: boolean, grantedBy: number | null = null): Promise<number[]> {
      const ids = await accountsOf(db, email)
      if (ids.length === 0) return ids
      if (granted) {
        await db
          .insert(councilOrganizers)
          .values(ids.map((userId) => ({ councilId, userId, grantedBy })))
          .onConflictDoNothing()
      } else {
        await db.delete(councilOrganizers).where(and(eq(councilOrganizers.councilId, councilId), inArray(councilOrganizers.userId, ids)))
      }
      return ids
    },

    /** Grants or revokes door duty at an event to every account with this e-mail; the accounts changed. */
    async setStaff(email: string, eventId: number, granted: boolean, grantedBy: number | null = null): Promise<number[]> {
      const ids = await accountsOf(db, email)
      if (ids.length === 0) return ids
      if (granted) {
        await db
          .insert(eventStaff)
          .values(ids.map((userId) => ({ eventId, userId, grantedBy })))
          .onConflictDoNothing()
      } else {
        await db.delete(eventStaff).where(and(eq(eventStaff.eventId, eventId), inArray(eventStaff.userId, ids)))
      }
      return ids
    },

    /** The organisers of a council, by name. */
    async organizersOf(councilId: number): Promise<Person[]> {
      return db
        .select(person)
        .from(councilOrganizers)
        .innerJoin(users, eq(users.id, councilOrganizers.userId))
        .where(eq(councilOrganizers.councilId, councilId))
        .orderBy(asc(users.name), asc(users.id))
    },

    /** The door volunteers of an event, by name. */
    async staffOf(eventId: number): Promise<Person[]> {
      return db
        .select(person)
        .from(eventStaff)
        .innerJoin(users, eq(users.id, eventStaff.userId))
        .where(eq(eventStaff.eventId, eventId))
        .orderBy(asc(users.name), asc(users.id))
    },
  }
}

export type RolesRepository = ReturnType<typeof rolesRepository>
