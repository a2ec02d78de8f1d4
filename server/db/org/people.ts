// Who works for an event or a council (server/db/org/org.ts joins the repositories): an event's door volunteers, which
// its organisers manage, and a council's organisers, which admins manage. Each change is audited in its transaction.
import { eq } from 'drizzle-orm'
import type { OrgPerson } from '../../../contract/types.ts'
import { recordAudit } from '../audit.ts'
import type { Db } from '../index.ts'
import { lockManaged, type Tx } from './common.ts'
import { type Outcome, Refused, outcomeOf } from '../outcomes.ts'
import { rolesRepository } from '../people/roles.ts'
import { councils } from '../schema.ts'

export function orgPeopleRepository(db: Db) {
  return {
    /** Adds or removes a door volunteer (without email: only the list); audited. */
    async staff(userId: number, eventId: number, email?: string, remove = false): Promise<Outcome<OrgPerson[]>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Tx
          const event = await lockManaged(tx, userId, eventId)
          const txRoles = rolesRepository(tx)
          if (email !== undefined) {
            const before = await txRoles.staffOf(eventId)
            const changed = await txRoles.setStaff(email, eventId, !remove, userId)
            if (changed.length === 0) throw new Refused('personNotFound')
            await recordAudit(tx, {
              actorId: userId,
              actorKind: 'user',
              action: remove ? 'staff.remove' : 'staff.add',
              councilId: event.organizerId,
              eventId,
              before,
              after: await txRoles.staffOf(eventId),
            })
          }
          return txRoles.staffOf(eventId)
        }),
      )
    },

    /** Admins: adds or removes an organiser of a council (without email: only the list); audited. */
    async organizers(userId: number, councilId: number, email?: string, remove = false): Promise<Outcome<OrgPerson[]>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Tx
          const txRoles = rolesRepository(tx)
          if (!(await txRoles.isAdmin(userId))) throw new Refused('adminOnly')
          const [council] = await tx.select({ id: councils.id }).from(councils).where(eq(councils.id, councilId)).for('update')
          if (!council) throw new Refused('councilNotFound')
          if (email !== undefined) {
            const before = await txRoles.organizersOf(councilId)
            const changed = await txRoles.setOrganizer(email, councilId, !remove, userId)
            if (changed.length === 0) throw new Refused('personNotFound')
            await recordAudit(tx, {
              actorId: userId,
              actorKind: 'user',
              action: remove ? 'organizer.remove' : 'organizer.add',
              councilId,
              before,
              after: await txRoles.organizersOf(councilId),
            })
          }
          return txRoles.organizersOf(councilId)
        }),
      )
    },
  }
}
