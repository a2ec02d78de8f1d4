// Admissions per event day (issue 25 item 3, migration 0017): the SQL of the per-day and re-entry rules. The rules
// themselves are contract/admission.ts (dayOf, decide), shared with the door's offline check; server/db/door.ts
// calls these under the participant's row lock, so one ticket's admissions change in one transaction at a time.
import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { type EventDay, dayLabel, eventDays } from '../../contract/admission.ts'
import type { DoorDay } from '../../contract/types.ts'
import type { Db } from './index.ts'
import { admissions, events } from './schema.ts'

/** What the door needs to know of an event to decide a scan: its days and whether it allows re-entry. */
export interface AdmissionRules {
  days: EventDay[]
  reentry: boolean
}

export async function rulesOf(db: Db, eventId: number): Promise<AdmissionRules> {
  const [row] = await db
    .select({ dates: events.dates, dateEnds: events.dateEnds, endsAt: events.endsAt, reentry: events.reentry })
    .from(events)
    .where(eq(events.id, eventId))
  if (!row) return { days: [], reentry: false }
  return { days: eventDays(row.dates, row.endsAt?.toISOString() ?? null, row.dateEnds), reentry: row.reentry }
}

/** A stored admission, as the door's decisions read and change it. */
export interface AdmissionRow {
  participantId: number
  day: string
  checkedInAt: Date
  gate: string | null
  scanId: string | null
  offline: boolean
  inside: boolean
  movedAt: Date
}

/** The admissions of these tickets, every day. */
export async function admissionsOf(db: Db, participantIds: number[]): Promise<AdmissionRow[]> {
  if (participantIds.length === 0) return []
  return db
    .select({
      participantId: admissions.participantId,
      day: admissions.day,
      checkedInAt: admissions.checkedInAt,
      gate: admissions.gate,
      scanId: admissions.scanId,
      offline: admissions.offline,
      inside: admissions.inside,
      movedAt: admissions.movedAt,
    })
    .from(admissions)
    .where(inArray(admissions.participantId, participantIds))
    .orderBy(asc(admissions.participantId), asc(admissions.day))
}

/** Writes admissions made or changed (one statement), then the participants' mirror of their latest day. */
export async function saveAdmissions(db: Db, eventId: number, rows: AdmissionRow[]): Promise<void> {
  if (rows.length === 0) return
  await db
    .insert(admissions)
    .values(rows.map((r) => ({ ...r, eventId })))
    .onConflictDoUpdate({
      target: [admissions.participantId, admissions.day],
      set: {
        checkedInAt: sql`excluded.checked_in_at`,
        gate: sql`excluded.gate`,
        scanId: sql`excluded.scan_id`,
        offline: sql`excluded.offline`,
        inside: sql`excluded.inside`,
        movedAt: sql`excluded.moved_at`,
      },
    })
  await mirror(db, [...new Set(rows.map((r) => r.participantId))])
}

/** Removes one day's admission (undo), then the mirror. */
export async function dropAdmission(db: Db, participantId: number, day: string): Promise<void> {
  await db.delete(admissions).where(and(eq(admissions.participantId, participantId), eq(admissions.day, day)))
  await mirror(db, [participantId])
}

/**
 * participants.checked_in_at and checked_in_gate: the latest day's first entry, or null when the ticket has no
 * admission (so ratings, certificates and the console's list read "came to the event" as before).
 */
async function mirror(db: Db, participantIds: number[]): Promise<void> {
  await db.execute(sql`
    UPDATE participants p SET
      checked_in_at = (SELECT a.checked_in_at FROM admissions a WHERE a.participant_id = p.id ORDER BY a.day DESC LIMIT 1),
      checked_in_gate = (SELECT a.gate FROM admissions a WHERE a.participant_id = p.id ORDER BY a.day DESC LIMIT 1)
    WHERE p.id IN (${sql.join(
      participantIds.map((id) => sql`${id}`),
      sql`, `,
    )})`)
}

/** Each event's days with who came on each and who is inside now (door picker, door list and console). */
export async function dayCounts(db: Db, eventIds: number[]): Promise<Map<number, DoorDay[]>> {
  const out = new Map<number, DoorDay[]>()
  if (eventIds.length === 0) return out
  const evs = await db
    .select({ id: events.id, dates: events.dates, dateEnds: events.dateEnds, endsAt: events.endsAt })
    .from(events)
    .where(inArray(events.id, eventIds))
  const counted = await db
    .select({
      eventId: admissions.eventId,
      day: admissions.day,
      checkedIn: sql<number>`count(*)::int`,
      inside: sql<number>`count(*) FILTER (WHERE ${admissions.inside})::int`,
    })
    .from(admissions)
    .where(inArray(admissions.eventId, eventIds))
    .groupBy(admissions.eventId, admissions.day)
  const key = (eventId: number, day: string) => `${eventId} ${day}`
  const byDay = new Map(counted.map((c) => [key(c.eventId, c.day), c]))
  for (const e of evs) {
    const days = eventDays(e.dates, e.endsAt?.toISOString() ?? null, e.dateEnds)
    out.set(
      e.id,
      days.map((d) => {
        const c = byDay.get(key(e.id, d.day))
        return {
          day: d.day,
          label: dayLabel(days, d.day),
          starts_at: new Date(d.start).toISOString(),
          ends_at: new Date(d.end).toISOString(),
          checked_in: Number(c?.checkedIn ?? 0),
          inside: Number(c?.inside ?? 0),
        }
      }),
    )
  }
  return out
}
