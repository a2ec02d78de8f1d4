// What the organiser console's repositories share (server/db/org/org.ts joins them): the event locked for a write by
// someone who manages it, the refusal for an id that names no event, and a new slug.
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { Db } from '../index.ts'
import { Refused } from '../outcomes.ts'
import { rolesRepository } from '../people/roles.ts'
import { events } from '../schema.ts'

export type EventRow = typeof events.$inferSelect
export type Tx = Db

/** A slug for a new event or council: its name's letters and digits, and a random tail. */
export function slugOf(name: string): string {
  const base = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
  return `${base || 'event'}-${randomBytes(4).toString('hex')}`
}

/**
 * The refusal for an event id that names no event: 404 for someone with an organiser role, but the same 403 as
 * for a known event for everyone else, so that a student cannot tell which ids are drafts.
 */
export async function unknownEvent(roles: ReturnType<typeof rolesRepository>, userId: number): Promise<'eventNotFound' | 'notOrganiser'> {
  const r = await roles.of(userId)
  return r.admin || r.councils.length > 0 ? 'eventNotFound' : 'notOrganiser'
}

/** The event locked for the rest of the transaction, if the caller manages it (else the refusal). */
export async function lockManaged(tx: Tx, userId: number, eventId: number): Promise<EventRow> {
  const [row] = await tx.select().from(events).where(eq(events.id, eventId)).for('update')
  if (!row) throw new Refused(await unknownEvent(rolesRepository(tx), userId))
  if (!(await rolesRepository(tx).canManageCouncil(userId, row.organizerId))) throw new Refused('notOrganiser')
  return row
}
