// The audit log as admins read it (server/db/org/org.ts joins the repositories); each write records its own entry
// (audit.ts) inside its transaction.
import { and, desc, eq, lt, type SQL } from 'drizzle-orm'
import type { AuditEntry as AuditEntryWire } from '../../../contract/types.ts'
import type { Db } from '../index.ts'
import { done, type Outcome, refused } from '../outcomes.ts'
import { rolesRepository } from '../people/roles.ts'
import { auditLog, users } from '../schema.ts'

export function auditLogRepository(db: Db) {
  const roles = rolesRepository(db)
  return {
    /** Admins: the audit log, newest first, 100 a page. */
    async audit(userId: number, options: { eventId?: number; before?: number }): Promise<Outcome<AuditEntryWire[]>> {
      if (!(await roles.isAdmin(userId))) return refused('adminOnly')
      const where: SQL[] = []
      if (options.eventId !== undefined) where.push(eq(auditLog.eventId, options.eventId))
      if (options.before !== undefined) where.push(lt(auditLog.id, options.before))
      const rows = await db
        .select({ entry: auditLog, actorName: users.name })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorId))
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(auditLog.id))
        .limit(100)
      return done(
        rows.map(({ entry: r, actorName }) => ({
          id: r.id,
          at: r.at.toISOString(),
          actor_id: r.actorId,
          actor_kind: r.actorKind as AuditEntryWire['actor_kind'],
          actor_name: actorName,
          action: r.action,
          council_id: r.councilId,
          event_id: r.eventId,
          before: r.before,
          after: r.after,
        })),
      )
    },
  }
}
