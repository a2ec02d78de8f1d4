// Admissions per event day (issue 25 item 3, migration 0017): the SQL of the per-day and re-entry rules. The rules
// themselves are contract/admission.ts (dayOf, decide), shared with the door's offline check; server/db/door/door.ts
// calls these under the participant's row lock, so one ticket's admissions change in one transaction at a time.
import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import { type EventDay, dayLabel, eventDays } from '../../../contract/admission.ts'
import type { DoorDay } from '../../../contract/types.ts'
import type { Db } from '../index.ts'
import { admissions, events } from '../schema.ts'

/** What the door needs to know of an event to decide a scan: its days and whether it allows re-entry. */
export interface AdmissionRules {
  days: EventDay[]
  reentry: boolean
}

/** The event's columns the rules are made of: selected beside a ticket's, so a scan reads them with its row lock. */
export const ruleColumns = { dates: events.dates, dateEnds: events.dateEnds, endsAt: events.endsAt, reentry: events.reentry }

export const rulesFrom = (row: { dates: string[]; dateEnds: (string | null)[]; endsAt: Date | null; reentry: boolean }): AdmissionRules => ({
  days: eventDays(row.dates, row.endsAt?.toISOString() ?? null, row.dateEnds),
  reentry: row.reentry,
})

export async function rulesOf(db: Db, eventId: number): Promise<AdmissionRules> {
  const [row] = await db.select(ruleColumns).from(events).where(eq(events.id, eventId))
  return row ? rulesFrom(row) : { days: [], reentry: false }
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

/**
 * participants.checked_in_at and checked_in_gate of a ticket: its latest day's first entry, or null when it has no
 * admission (so ratings, certificates and the console's list read "came to the event" as before). Made from the
 * ticket's admissions as they stand after a change, read under its row lock.
 */
export interface Mirror {
  participantId: number
  checkedInAt: Date | null
  gate: string | null
}

export function mirrorOf(participantId: number, days: Iterable<AdmissionRow>): Mirror {
  const latest = latestDay(days)
  return { participantId, checkedInAt: latest?.checkedInAt ?? null, gate: latest?.gate ?? null }
}

/** A ticket's admission on its latest day (undefined: none). */
export function latestDay<T extends { day: string }>(days: Iterable<T>): T | undefined {
  let latest: T | undefined
  for (const d of days) if (!latest || d.day > latest.day) latest = d
  return latest
}

/** The insert of admissions made or changed (one statement), for a caller to run or to put in a statement of its own. */
export function upsertAdmissions(db: Db, eventId: number, rows: AdmissionRow[]) {
  return db
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
}

/** The update of the participants' mirrors (one statement, any number of tickets). */
export function writeMirrors(mirrors: Mirror[]): SQL {
  const rows = mirrors.map((m) => sql`(${m.participantId}::int, ${m.checkedInAt?.toISOString() ?? null}::text, ${m.gate}::text)`)
  return sql`UPDATE participants SET checked_in_at = v.at::timestamptz, checked_in_gate = v.gate
    FROM (VALUES ${sql.join(rows, sql`, `)}) AS v(id, at, gate) WHERE participants.id = v.id`
}

/** Writes admissions made or changed, then the mirrors of their tickets. */
export async function saveAdmissions(db: Db, eventId: number, rows: AdmissionRow[], mirrors: Mirror[]): Promise<void> {
  if (rows.length === 0) return
  await upsertAdmissions(db, eventId, rows)
  await db.execute(writeMirrors(mirrors))
}

/** Removes one day's admission (undo), then the ticket's mirror. */
export async function dropAdmission(db: Db, participantId: number, day: string, mirror: Mirror): Promise<void> {
  await db.delete(admissions).where(and(eq(admissions.participantId, participantId), eq(admissions.day, day)))
  await db.execute(writeMirrors([mirror]))
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
