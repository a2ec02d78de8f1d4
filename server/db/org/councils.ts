// The councils (server/db/org/org.ts joins the repositories): admins create and edit them (audited); an organiser
// reads the councils they manage, each with its organisers.
import { asc, eq, inArray } from 'drizzle-orm'
import type * as z from 'zod/mini'
import type { councilInputShape } from '../../../contract/org.ts'
import type { OrgCouncil, OrgPerson } from '../../../contract/types.ts'
import { recordAudit } from '../audit.ts'
import type { Db } from '../index.ts'
import { slugOf, type Tx } from './common.ts'
import { done, type Outcome, Refused, refused, outcomeOf } from '../outcomes.ts'
import { rolesRepository } from '../people/roles.ts'
import { councilOrganizers, councils, users } from '../schema.ts'

/** What /org/p/council/save takes, after the contract's validation. */
export type CouncilInputValue = z.output<z.ZodMiniObject<typeof councilInputShape>>

const councilColumns = {
  id: councils.id,
  name: councils.name,
  photo_url: councils.photoUrl,
  phone_number: councils.phoneNumber,
  email: councils.email,
  upi_vpa: councils.upiVpa,
  upi_name: councils.upiName,
}

export function councilsRepository(db: Db) {
  const roles = rolesRepository(db)
  return {
    /** Admins: creates (no id; name required) or updates (id) a council; audited. */
    async saveCouncil(userId: number, input: CouncilInputValue): Promise<Outcome<OrgCouncil>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Tx
          if (!(await rolesRepository(tx).isAdmin(userId))) throw new Refused('adminOnly')
          const values: Partial<typeof councils.$inferInsert> = {}
          if (input.name !== undefined) values.name = input.name.trim()
          if (input.photo_url !== undefined) values.photoUrl = input.photo_url
          if (input.phone_number !== undefined) values.phoneNumber = input.phone_number
          if (input.email !== undefined) values.email = input.email || null
          // UPI straight to the council (issue 35): the contract sends both or neither.
          if (input.upi_vpa !== undefined) values.upiVpa = input.upi_vpa
          if (input.upi_name !== undefined) values.upiName = input.upi_name
          let before: OrgCouncil | null = null
          let after: OrgCouncil
          if (input.id !== undefined) {
            ;[before = null] = await tx.select(councilColumns).from(councils).where(eq(councils.id, input.id)).for('update')
            if (!before) throw new Refused('councilNotFound')
            // An update that sends no field (only the id) changes nothing: no write, no audit entry.
            if (Object.keys(values).length === 0) return before
            ;[after] = (await tx.update(councils).set(values).where(eq(councils.id, input.id)).returning(councilColumns)) as [OrgCouncil]
          } else {
            if (values.name === undefined) throw new Refused('nameRequired')
            ;[after] = (await tx
              .insert(councils)
              .values({ ...values, name: values.name, slug: slugOf(values.name) })
              .returning(councilColumns)) as [OrgCouncil]
          }
          await recordAudit(tx, { actorId: userId, actorKind: 'user', action: before ? 'council.save' : 'council.create', councilId: after.id, before, after })
          return after
        }),
      )
    },

    /** The councils the caller manages (all for an admin), each with its organisers. */
    async councils(userId: number): Promise<Outcome<(OrgCouncil & { organizers: OrgPerson[] })[]>> {
      const r = await roles.of(userId)
      if (!r.admin && r.councils.length === 0) return refused('notOrganiser')
      const list = await db
        .select(councilColumns)
        .from(councils)
        .where(r.admin ? undefined : inArray(councils.id, r.councils))
        .orderBy(asc(councils.name), asc(councils.id))
      if (list.length === 0) return done([])
      const people = await db
        .select({ councilId: councilOrganizers.councilId, id: users.id, name: users.name, email: users.email })
        .from(councilOrganizers)
        .innerJoin(users, eq(users.id, councilOrganizers.userId))
        .where(
          inArray(
            councilOrganizers.councilId,
            list.map((c) => c.id),
          ),
        )
        .orderBy(asc(users.name), asc(users.id))
      return done(list.map((c) => ({ ...c, organizers: people.filter((p) => p.councilId === c.id).map(({ councilId: _c, ...p }) => p) })))
    },
  }
}
