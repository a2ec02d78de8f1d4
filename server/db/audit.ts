// The audit log (API.md Part 2 "Roles"): every organiser and admin write, every move the scheduler makes and every
// role the operator grants: who, when, what, before and after. A write records its entry with the same handle
// (`tx` inside a transaction), so the entry exists exactly when the write does.
import { and, desc, eq, lt, type SQL } from 'drizzle-orm'
import type { Db } from './index.ts'
import { auditLog } from './schema.ts'

export type ActorKind = 'user' | 'scheduler' | 'cli' | 'config'

export interface AuditEntry {
  /** The signed-in user who acted; null for the scheduler, the CLI and the configuration (ADMIN_EMAILS). */
  actorId: number | null
  actorKind: ActorKind
  /** What was done, as `<thing>.<verb>`: 'event.save', 'event.state', 'role.grant', 'staff.add'... */
  action: string
  councilId?: number | null
  eventId?: number | null
  /** The thing before and after, in its wire shape (never secrets: no tokens, no invite codes). */
  before?: unknown
  after?: unknown
}

export interface AuditRow {
  id: number
  at: string
  actor_id: number | null
  actor_kind: ActorKind
  action: string
  council_id: number | null
  event_id: number | null
  before: unknown
  after: unknown
}

/** Records one entry with `db` (a transaction's handle, to commit or roll back with the write it describes). */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actorId,
    actorKind: entry.actorKind,
    action: entry.action,
    councilId: entry.councilId ?? null,
    eventId: entry.eventId ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  })
}

/** At most this many entries in one page of the log. */
export const AUDIT_PAGE = 100

export function auditRepository(db: Db) {
  return {
    record: (entry: AuditEntry) => recordAudit(db, entry),

    /** Newest first, at most AUDIT_PAGE; `before` an entry id to read on from, `eventId` one event's entries. */
    async list(options: { eventId?: number; before?: number; limit?: number } = {}): Promise<AuditRow[]> {
      const where: SQL[] = []
      if (options.eventId !== undefined) where.push(eq(auditLog.eventId, options.eventId))
      if (options.before !== undefined) where.push(lt(auditLog.id, options.before))
      const rows = await db
        .select()
        .from(auditLog)
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(auditLog.id))
        .limit(Math.min(options.limit ?? AUDIT_PAGE, AUDIT_PAGE))
      return rows.map((r) => ({
        id: r.id,
        at: r.at.toISOString(),
        actor_id: r.actorId,
        actor_kind: r.actorKind as ActorKind,
        action: r.action,
        council_id: r.councilId,
        event_id: r.eventId,
        before: r.before,
        after: r.after,
      }))
    },
  }
}

export type AuditRepository = ReturnType<typeof auditRepository>
