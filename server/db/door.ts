// The door (API.md Part 2 "At the door", issue 12): the events a volunteer may check tickets at, the ticket list a
// device keeps for offline checking, check-in, undo and the sync of offline scans.
//
// Safe under retries and races:
// - A scan is recorded in door_scans under the device's scan_id (the primary key) in the same transaction as the
//   check-in it made, with its answer; a repeated scan_id finds the row and gets that first answer again (a
//   concurrent repeat waits on the key until the first commits). A code of no ticket records nothing.
// - A live check-in is ONE conditional update (`... WHERE checked_in_at IS NULL RETURNING`): of any number of
//   gates scanning one ticket at once, exactly one updates the row; the others read who got in and when.
// - Offline scans (sync) are applied in `scanned_at` order and carry their own time. Of two offline scans of one
//   ticket the earliest `scanned_at` is the check-in, whichever reached the server first: a later-synced earlier
//   scan takes the record over from an earlier-synced later one (under the participant's row lock), and the
//   displaced scan's stored answer becomes ALREADY_CHECKED_IN, so its device hears of it on its next sync of it.
//   A live (online) check-in is never taken over: the server let that person in in real time, and an offline scan
//   synced after it is reported ALREADY_CHECKED_IN whatever its time.
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm'
import { DOOR_STATES } from '../../contract/door.ts'
import type { Attendee, DoorEvent, DoorTicket } from '../../contract/types.ts'
import { recordAudit } from './audit.ts'
import type { Db } from './index.ts'
import { councilOrganizers, doorScans, events, eventStaff, participants, teams, users } from './schema.ts'
import { done, refused, type Outcome, type Refusal } from './outcomes.ts'
import { rolesRepository } from './roles.ts'

/** What one scan answered, as stored with its scan_id (the routes add the status and the message). */
export type ScanAnswer =
  | { result: 'CHECKED_IN'; attendee: Attendee; checked_in_at: string }
  | { result: 'ALREADY_CHECKED_IN'; attendee: Attendee; checked_in_at: string; gate: string | null }
  | { result: 'UNKNOWN_TICKET'; other_event: string | null }

export interface OfflineScan {
  ticket_code: string
  scan_id: string
  gate: string
  scanned_at: string
}

const DOOR_STATE_SET = new Set<string>(DOOR_STATES)

/** Nothing happened (a code of no ticket): thrown to roll back the scan's claim on its scan_id. */
class Unrecorded extends Error {
  constructor(readonly answer: ScanAnswer) {
    super('unrecorded scan')
  }
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString()

/** The ticket holder of a code (any event), for the answer: who, which event, checked in when and where. */
async function holderOf(db: Db, ticketCode: string) {
  const [row] = await db
    .select({
      eventId: participants.eventId,
      eventName: events.name,
      name: users.name,
      photoUrl: users.photoUrl,
      teamId: teams.id,
      teamName: teams.name,
      checkedInAt: participants.checkedInAt,
      gate: participants.checkedInGate,
    })
    .from(participants)
    .innerJoin(users, eq(users.id, participants.userId))
    .innerJoin(events, eq(events.id, participants.eventId))
    .leftJoin(teams, eq(teams.id, participants.teamId))
    .where(eq(participants.ticketCode, ticketCode))
  return row ?? null
}

type Holder = NonNullable<Awaited<ReturnType<typeof holderOf>>>

const attendeeOf = (h: Holder): Attendee => ({
  name: h.name,
  photo_url: h.photoUrl,
  team: h.teamId === null || h.teamName === null ? null : { id: h.teamId, name: h.teamName },
})

/** The answer for a ticket the update did not check in: already in, or no ticket of this event. */
function notCheckedIn(holder: Holder | null, eventId: number): ScanAnswer {
  if (!holder || holder.eventId !== eventId) return { result: 'UNKNOWN_TICKET', other_event: holder ? holder.eventName : null }
  if (holder.checkedInAt === null) return { result: 'UNKNOWN_TICKET', other_event: null }
  return { result: 'ALREADY_CHECKED_IN', attendee: attendeeOf(holder), checked_in_at: iso(holder.checkedInAt), gate: holder.gate }
}

export function doorRepository(db: Db) {
  /** Whether the user may check tickets at the event now: null when yes, else the refusal. */
  async function access(userId: number, eventId: number): Promise<Refusal | null> {
    const [row] = await db
      .select({
        state: events.state,
        allowed: sql<boolean>`(
          coalesce((SELECT ${users.isAdmin} FROM ${users} WHERE ${users.id} = ${userId}), false)
          OR EXISTS (SELECT 1 FROM ${councilOrganizers} WHERE ${councilOrganizers.councilId} = ${events.organizerId} AND ${councilOrganizers.userId} = ${userId})
          OR EXISTS (SELECT 1 FROM ${eventStaff} WHERE ${eventStaff.eventId} = ${events.id} AND ${eventStaff.userId} = ${userId}))`,
      })
      .from(events)
      .where(eq(events.id, eventId))
    if (!row) {
      // No such event: 404 for someone with a role, the same 403 as for a known event for anyone else, so that a
      // student cannot tell which ids are drafts.
      const r = await rolesRepository(db).of(userId)
      return r.admin || r.councils.length > 0 || r.door_events.length > 0 ? 'eventNotFound' : 'notDoor'
    }
    if (!row.allowed) return 'notDoor'
    if (!DOOR_STATE_SET.has(row.state)) return 'doorClosed'
    return null
  }

  /**
   * Records the scan under its id and runs `decide` in the same transaction; a scan_id seen before answers its
   * first answer (or is refused when it named another ticket). A code of no ticket rolls back and records nothing.
   */
  async function recorded(
    scan: { scanId: string; eventId: number; ticketCode: string; gate: string; userId: number; offline: boolean; scannedAt?: string },
    decide: (tx: Db) => Promise<ScanAnswer>,
  ): Promise<Outcome<ScanAnswer>> {
    try {
      return await db.transaction(async (tx) => {
        const claimed = await tx
          .insert(doorScans)
          .values({
            scanId: scan.scanId,
            eventId: scan.eventId,
            ticketCode: scan.ticketCode,
            gate: scan.gate,
            offline: scan.offline,
            scannedBy: scan.userId,
            ...(scan.scannedAt ? { scannedAt: new Date(scan.scannedAt) } : {}),
          })
          .onConflictDoNothing({ target: doorScans.scanId })
          .returning({ scanId: doorScans.scanId })
        if (claimed.length === 0) {
          const [prior] = await tx
            .select({ eventId: doorScans.eventId, ticketCode: doorScans.ticketCode, answer: doorScans.answer })
            .from(doorScans)
            .where(eq(doorScans.scanId, scan.scanId))
          if (!prior || prior.eventId !== scan.eventId || prior.ticketCode !== scan.ticketCode || !prior.answer) return refused('scanIdReused')
          return done(prior.answer as ScanAnswer)
        }
        const answer = await decide(tx as unknown as Db)
        if (answer.result === 'UNKNOWN_TICKET') throw new Unrecorded(answer)
        await tx.update(doorScans).set({ answer }).where(eq(doorScans.scanId, scan.scanId))
        return done(answer)
      })
    } catch (err) {
      if (err instanceof Unrecorded) return done(err.answer)
      throw err
    }
  }

  /** A live scan: one conditional update decides; the read after it only says who and when. */
  async function liveCheckIn(tx: Db, eventId: number, ticketCode: string, gate: string): Promise<ScanAnswer> {
    const updated = await tx
      .update(participants)
      .set({ checkedInAt: sql`now()`, checkedInGate: gate })
      .where(
        and(
          eq(participants.eventId, eventId),
          eq(participants.ticketCode, ticketCode),
          eq(participants.ticketCollected, true),
          isNull(participants.checkedInAt),
        ),
      )
      .returning({ checkedInAt: participants.checkedInAt })
    const holder = await holderOf(tx, ticketCode)
    if (updated.length > 0 && holder) return { result: 'CHECKED_IN', attendee: attendeeOf(holder), checked_in_at: iso(updated[0].checkedInAt!) }
    return notCheckedIn(holder, eventId)
  }

  /** An offline scan, under the participant's row lock: the earliest offline scan of a ticket is its check-in. */
  async function offlineCheckIn(tx: Db, scan: OfflineScan, eventId: number): Promise<ScanAnswer> {
    const [row] = await tx
      .select({ id: participants.id, checkedInAt: participants.checkedInAt })
      .from(participants)
      .where(and(eq(participants.eventId, eventId), eq(participants.ticketCode, scan.ticket_code), eq(participants.ticketCollected, true)))
      .for('update')
    if (!row) return notCheckedIn(await holderOf(tx, scan.ticket_code), eventId)
    // A device clock ahead of the server's cannot date a check-in in the future.
    const at = new Date(Math.min(Date.parse(scan.scanned_at), Date.now()))
    let displaced: string | null = null
    if (row.checkedInAt !== null) {
      // The scan that made the current check-in: only an offline one with a later time gives way.
      const [winner] = await tx
        .select({ scanId: doorScans.scanId, offline: doorScans.offline, scannedAt: doorScans.scannedAt })
        .from(doorScans)
        .where(and(eq(doorScans.eventId, eventId), eq(doorScans.ticketCode, scan.ticket_code), sql`${doorScans.answer}->>'result' = 'CHECKED_IN'`))
        .orderBy(desc(doorScans.createdAt))
        .limit(1)
      const takesOver = winner?.offline && row.checkedInAt.getTime() > at.getTime() && winner.scanId !== scan.scan_id
      if (!takesOver) return notCheckedIn(await holderOf(tx, scan.ticket_code), eventId)
      displaced = winner.scanId
    }
    await tx.update(participants).set({ checkedInAt: at, checkedInGate: scan.gate }).where(eq(participants.id, row.id))
    const holder = (await holderOf(tx, scan.ticket_code))!
    if (displaced) {
      const already: ScanAnswer = { result: 'ALREADY_CHECKED_IN', attendee: attendeeOf(holder), checked_in_at: at.toISOString(), gate: scan.gate }
      await tx.update(doorScans).set({ answer: already }).where(eq(doorScans.scanId, displaced))
    }
    return { result: 'CHECKED_IN', attendee: attendeeOf(holder), checked_in_at: at.toISOString() }
  }

  return {
    access,

    /** The events where the user may check tickets now, soonest first. */
    async events(userId: number): Promise<DoorEvent[]> {
      const rows = await db
        .select({
          id: events.id,
          name: events.name,
          dates: events.dates,
          venue: events.venue,
          tickets_sold: events.ticketsSold,
          checked_in: sql<number>`(SELECT count(*)::int FROM ${participants} WHERE ${participants.eventId} = ${events.id} AND ${participants.checkedInAt} IS NOT NULL)`,
        })
        .from(events)
        .where(
          and(
            inArray(events.state, [...DOOR_STATES]),
            or(
              sql`coalesce((SELECT ${users.isAdmin} FROM ${users} WHERE ${users.id} = ${userId}), false)`,
              sql`EXISTS (SELECT 1 FROM ${councilOrganizers} WHERE ${councilOrganizers.councilId} = ${events.organizerId} AND ${councilOrganizers.userId} = ${userId})`,
              sql`EXISTS (SELECT 1 FROM ${eventStaff} WHERE ${eventStaff.eventId} = ${events.id} AND ${eventStaff.userId} = ${userId})`,
            ),
          ),
        )
        .orderBy(sql`${events.dates}->>0`, asc(events.id))
      return rows.map((r) => ({ ...r, checked_in: Number(r.checked_in) }))
    },

    /** Every ticket of the event, for offline checking. */
    async tickets(userId: number, eventId: number): Promise<Outcome<{ tickets: DoorTicket[]; as_of: string }>> {
      const denied = await access(userId, eventId)
      if (denied) return refused(denied)
      const asOf = new Date().toISOString()
      const rows = await db
        .select({
          code: participants.ticketCode,
          name: users.name,
          photoUrl: users.photoUrl,
          teamId: teams.id,
          teamName: teams.name,
          checkedInAt: participants.checkedInAt,
          gate: participants.checkedInGate,
        })
        .from(participants)
        .innerJoin(users, eq(users.id, participants.userId))
        .leftJoin(teams, eq(teams.id, participants.teamId))
        .where(and(eq(participants.eventId, eventId), eq(participants.ticketCollected, true), isNotNull(participants.ticketCode)))
        .orderBy(asc(participants.id))
      return done({
        as_of: asOf,
        tickets: rows.map((r) => ({
          ticket_code: r.code!,
          name: r.name,
          photo_url: r.photoUrl,
          team: r.teamId === null || r.teamName === null ? null : { id: r.teamId, name: r.teamName },
          checked_in_at: r.checkedInAt ? r.checkedInAt.toISOString() : null,
          gate: r.gate,
        })),
      })
    },

    /** Checks a ticket in at a gate; the scan_id makes it safe to repeat. */
    async checkIn(userId: number, input: { eventId: number; ticketCode: string; scanId: string; gate: string }): Promise<Outcome<ScanAnswer>> {
      const denied = await access(userId, input.eventId)
      if (denied) return refused(denied)
      return recorded({ ...input, userId, offline: false }, (tx) => liveCheckIn(tx, input.eventId, input.ticketCode, input.gate))
    },

    /** Offline scans: applied in scanned_at order (ties in the order sent), answered in the order sent. */
    async sync(userId: number, eventId: number, scans: OfflineScan[]): Promise<Outcome<(ScanAnswer & { scan_id: string })[]>> {
      const denied = await access(userId, eventId)
      if (denied) return refused(denied)
      const order = scans.map((_, i) => i).sort((a, b) => Date.parse(scans[a].scanned_at) - Date.parse(scans[b].scanned_at) || a - b)
      const results: (ScanAnswer & { scan_id: string })[] = new Array(scans.length)
      for (const i of order) {
        const scan = scans[i]
        const outcome = await recorded(
          { scanId: scan.scan_id, eventId, ticketCode: scan.ticket_code, gate: scan.gate, userId, offline: true, scannedAt: scan.scanned_at },
          (tx) => offlineCheckIn(tx, scan, eventId),
        )
        // A scan_id reused for another ticket is that scan's mistake, not the batch's: it reads as no ticket.
        results[i] = { ...(outcome.ok ? outcome.value : { result: 'UNKNOWN_TICKET', other_event: null }), scan_id: scan.scan_id }
      }
      return done(results)
    },

    /** Undoes a check-in (the volunteer let the wrong person in, or scanned twice by mistake); audited. */
    async undo(userId: number, eventId: number, ticketCode: string): Promise<Outcome> {
      const denied = await access(userId, eventId)
      if (denied) return refused(denied)
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({ id: participants.id, userId: participants.userId, checkedInAt: participants.checkedInAt, gate: participants.checkedInGate })
          .from(participants)
          .where(and(eq(participants.eventId, eventId), eq(participants.ticketCode, ticketCode)))
          .for('update')
        if (!row) return refused('unknownTicket')
        if (row.checkedInAt === null) return refused('notCheckedIn')
        await tx.update(participants).set({ checkedInAt: null, checkedInGate: null }).where(eq(participants.id, row.id))
        const [event] = await tx.select({ councilId: events.organizerId }).from(events).where(eq(events.id, eventId))
        await recordAudit(tx as unknown as Db, {
          actorId: userId,
          actorKind: 'user',
          action: 'door.undo',
          councilId: event?.councilId ?? null,
          eventId,
          before: { ticket_code: ticketCode, user_id: row.userId, checked_in_at: row.checkedInAt.toISOString(), gate: row.gate },
          after: { ticket_code: ticketCode, user_id: row.userId, checked_in_at: null, gate: null },
        })
        return done(undefined)
      })
    },
  }
}

export type DoorRepository = ReturnType<typeof doorRepository>
