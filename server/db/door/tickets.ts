// What the door's parts share (server/db/door/door.ts joins them): a ticket's row and who holds it (one query builder
// for the joins every ticket read makes), the tickets a scan locks with the event's rules, who may check tickets at
// an event, what a scan does to a ticket (the one decision of the live scan and the sync), the answers a scan gives
// and how a repeated scan answers again.
import { and, asc, eq, inArray, ne, sql, type SQL } from 'drizzle-orm'
import type { PgSelectBase, SelectedFields } from 'drizzle-orm/pg-core'
import { decide, type Direction } from '../../../contract/admission.ts'
import { DOOR_STATES } from '../../../contract/door.ts'
import type { Attendee, DoorQuestionAnswer, Question } from '../../../contract/types.ts'
import { type AdmissionRow, type AdmissionRules, latestDay, ruleColumns } from './admissions.ts'
import type { Db } from '../index.ts'
import type { Refusal } from '../outcomes.ts'
import { rolesRepository } from '../people/roles.ts'
import { councilOrganizers, events, eventStaff, participants, releasedTickets, teams, ticketTransfers, users } from '../schema.ts'

/** What one scan answered, as stored with its scan_id (the routes add the status and the message). */
export type ScanAnswer =
  | { result: 'CHECKED_IN'; attendee: Attendee; checked_in_at: string; day?: string; reentry?: boolean }
  | { result: 'ALREADY_CHECKED_IN'; attendee: Attendee; checked_in_at: string; gate: string | null; day?: string }
  /** Scanned out, on an event with re-entry (issue 25 item 3). */
  | { result: 'CHECKED_OUT'; attendee: Attendee; checked_out_at: string; day?: string }
  /** A scan out of a ticket not inside today, or on an event without re-entry (`reentry_off`). */
  | { result: 'NOT_INSIDE'; attendee: Attendee; day?: string; reentry_off?: boolean }
  | { result: 'UNKNOWN_TICKET'; other_event: string | null; given_back?: boolean }
  /** A repeated scan_id whose ticket is not checked in now: its check-in was undone (issue 21 item 13). */
  | { result: 'NOT_CHECKED_IN'; attendee: Attendee }
  /** A code that stopped working when its ticket was given to a friend (issue 25): the friend holds a new one. */
  | { result: 'TRANSFERRED' }
  /** A rotating ticket's time code missing, wrong or over a step old (issue 25, server/db/door/time-codes.ts): nothing recorded. */
  | { result: 'EXPIRED_CODE' }

/** The answers of a scan out (issue 25 item 3). */
export const isOut = (a: ScanAnswer) => a.result === 'CHECKED_OUT' || a.result === 'NOT_INSIDE'

/** Of `codes`, those that stopped working when their ticket of the event was transferred. */
async function transferredCodes(db: Db, eventId: number, codes: string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set()
  const rows = await db
    .select({ code: ticketTransfers.oldCode })
    .from(ticketTransfers)
    .where(and(eq(ticketTransfers.eventId, eventId), inArray(ticketTransfers.oldCode, codes)))
  return new Set(rows.map((r) => r.code))
}

const DOOR_STATE_SET = new Set<string>(DOOR_STATES)

export const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString()

/** Whether the user may check tickets at (or manage) the event of the row in scope: an admin, an organiser of its council, its door volunteer. */
export const mayDoor = (userId: number): SQL<boolean> => sql<boolean>`(
  coalesce((SELECT ${users.isAdmin} FROM ${users} WHERE ${users.id} = ${userId}), false)
  OR EXISTS (SELECT 1 FROM ${councilOrganizers} WHERE ${councilOrganizers.councilId} = ${events.organizerId} AND ${councilOrganizers.userId} = ${userId})
  OR EXISTS (SELECT 1 FROM ${eventStaff} WHERE ${eventStaff.eventId} = ${events.id} AND ${eventStaff.userId} = ${userId}))`

/** Whether the viewer may see the event of the row in scope (issue 21 item 7): published, or one of the viewer's. */
const mayView = (userId: number): SQL<boolean> => sql<boolean>`(${events.state} <> 'DRAFT' OR ${mayDoor(userId)})`

/**
 * What attendeeOf reads of a ticket's row: its holder, team, and the answers the door may show (the rows joined with
 * users, events and teams). One list for the holder lookup, the live scan and the sync.
 */
export const attendeeColumns = {
  name: users.name,
  photoUrl: users.photoUrl,
  teamId: teams.id,
  teamName: teams.name,
  questions: events.questions,
  answers: participants.answers,
}

/** A query over ticket rows (ticketRows): the holder and the event always there, the team when there is one. */
type TicketRowsQuery<T extends SelectedFields> = PgSelectBase<
  'participants',
  T,
  'partial',
  { participants: 'not-null'; users: 'not-null'; events: 'not-null'; teams: 'nullable' }
>

/**
 * A ticket's row with who holds it: participants joined with users (the holder), events (its questions, its name)
 * and teams (the holder's team, if any). The one FROM of the door's ticket reads (the holder lookup, the live scan,
 * the sync's locked tickets, the list a device downloads); each adds its WHERE, order and lock. (Typed by hand:
 * Drizzle's join types do not resolve over a generic selection; the nullability above is what the joins make.)
 */
export function ticketRows<T extends SelectedFields>(db: Db, columns: T): TicketRowsQuery<T> {
  return db
    .select(columns as SelectedFields)
    .from(participants)
    .innerJoin(users, eq(users.id, participants.userId))
    .innerJoin(events, eq(events.id, participants.eventId))
    .leftJoin(teams, eq(teams.id, participants.teamId)) as unknown as TicketRowsQuery<T>
}

/**
 * What a scan reads of the tickets it decides, in the statement that locks them: the holder (for the answer), when
 * its door window opens (sync), its time code's secret, and the event's rules (days, re-entry, rotating codes) and
 * council (for the audit), so nothing of the event is read again after the lock.
 */
const lockedColumns = {
  id: participants.id,
  code: participants.ticketCode,
  userId: participants.userId,
  collectedAt: participants.ticketCollectedAt,
  registeredAt: participants.createdAt,
  secret: participants.ticketSecret,
  ...attendeeColumns,
  ...ruleColumns,
  rotating: events.rotatingCodes,
  councilId: events.organizerId,
}

/**
 * The event's tickets with these codes, locked in id order (`SELECT … FOR UPDATE OF participants`), with lockedColumns
 * and `extra` (the live scan's: who may scan, the scan_id's first answer).
 *
 * The locks come in the order every write of an event's tickets takes them (a transfer, a claim, an organiser's save):
 * the event's row first, then the tickets'. The event's is FOR KEY SHARE, the lock the scan's writes take anyway
 * through their foreign keys to it; left to those writes it would come after the tickets' and deadlock with a transfer
 * (test/server/transfer.test.ts on PostgreSQL). The sub-select takes it before the query gives a ticket's row to lock.
 * Every scan, live or synced, locks its tickets before it claims its scan_ids, so two scans never deadlock either. A
 * ticket's admissions are read after the lock, in a statement of their own (admissionsOf): a statement that waited
 * for a lock reads the other tables as they were when it started.
 */
export function lockTickets<T extends SelectedFields>(db: Db, eventId: number, codes: string[], extra: T) {
  return ticketRows(db, { ...lockedColumns, ...extra })
    .where(
      and(
        sql`EXISTS (SELECT 1 FROM events e WHERE e.id = ${eventId} FOR KEY SHARE)`,
        eq(participants.eventId, eventId),
        eq(participants.ticketCollected, true),
        inArray(participants.ticketCode, codes),
      ),
    )
    .orderBy(asc(participants.id))
    .for('update', { of: participants })
}

/**
 * The holder's answers to the questions marked "show at the door" (issue 25 item 4), in the questions' order; the
 * answers to any other question never leave here. `answers` are the holder's own: each member of a team has them.
 */
export function doorAnswersOf(questions: unknown[], answers: Record<string, string> | null): DoorQuestionAnswer[] {
  const out: DoorQuestionAnswer[] = []
  for (const q of questions as Question[]) {
    const answer = q.show_at_door === true ? answers?.[q.id] : undefined
    if (typeof answer === 'string' && answer !== '') out.push({ label: q.label, answer })
  }
  return out
}

export const attendeeOf = (h: {
  name: string
  photoUrl: string | null
  teamId: number | null
  teamName: string | null
  questions: unknown[]
  answers: Record<string, string> | null
}): Attendee => {
  const shown = doorAnswersOf(h.questions, h.answers)
  return {
    name: h.name,
    photo_url: h.photoUrl,
    team: h.teamId === null || h.teamName === null ? null : { id: h.teamId, name: h.teamName },
    ...(shown.length > 0 && { door_answers: shown }),
  }
}

/** Another event's name for the 404, when the viewer may see that event; else nothing (drafts stay unnamed). */
const otherEvent = (h: { eventName: string; eventVisible: boolean }) => (h.eventVisible ? h.eventName : null)

/** A ticket's state now, as a repeated scan answers it. */
export interface TicketNow {
  checkedInAt: Date | null
  gate: string | null
  attendee: Attendee
}

/**
 * A repeated scan_id answers the ticket's state now (issue 21 item 13): its first answer while the check-in it
 * made stands; ALREADY_CHECKED_IN when the ticket is in by another scan (or again, after an undo); NOT_CHECKED_IN
 * when it is not in (the check-in was undone); UNKNOWN_TICKET when it is no ticket of the event any more.
 */
export function replayed(first: ScanAnswer, now: TicketNow | null): ScanAnswer {
  if (!now) return { result: 'UNKNOWN_TICKET', other_event: null }
  // A move out (or a refused one) is history: the same scan_id answers it again, whatever happened since.
  if (first.result === 'CHECKED_OUT' || first.result === 'NOT_INSIDE') return first
  if (now.checkedInAt === null) return { result: 'NOT_CHECKED_IN', attendee: now.attendee }
  const at = now.checkedInAt.toISOString()
  // Who it is as they stand now: an answer no longer marked "show at the door" is not replayed (issue 25 item 4).
  if (first.result === 'CHECKED_IN' && (first.checked_in_at === at || first.reentry)) return { ...first, attendee: now.attendee }
  const day = 'day' in first && first.day ? { day: first.day } : {}
  return { result: 'ALREADY_CHECKED_IN', attendee: now.attendee, checked_in_at: at, gate: now.gate, ...day }
}

/** A ticket's state on the day of a first answer (an answer without a day: its latest day), from its admissions. */
export function ticketNow(attendee: Attendee, days: AdmissionRow[], first: ScanAnswer): TicketNow {
  const day = 'day' in first ? first.day : undefined
  const on = day === undefined ? latestDay(days) : days.find((a) => a.day === day)
  return { checkedInAt: on?.checkedInAt ?? null, gate: on?.gate ?? null, attendee }
}

/** A scan to decide: which way, when, the event day that time counts for (dayOf), at which gate, under which scan_id. */
export interface ScanMove {
  direction: Direction
  at: Date
  day: string
  gate: string
  scanId: string
  offline: boolean
}

/**
 * What a scan does to a ticket, decided by contract/admission.ts from the ticket's admission on the scan's day: the
 * answer, and that day's admission as it stands after the scan when the scan made or changed it. The one decision of
 * the live scan and the sync.
 */
export function admitScan(
  ticket: { id: number; attendee: Attendee },
  today: AdmissionRow | undefined,
  move: ScanMove,
  rules: AdmissionRules,
): { answer: ScanAnswer; saved?: AdmissionRow } {
  const { attendee } = ticket
  const at = move.at.toISOString()
  const day = dayField(rules, move.day)
  switch (decide(today, move.direction, rules.reentry)) {
    case 'ADMIT':
      return {
        answer: { result: 'CHECKED_IN', attendee, checked_in_at: at, ...day },
        saved: {
          participantId: ticket.id,
          day: move.day,
          checkedInAt: move.at,
          gate: move.gate,
          scanId: move.scanId,
          offline: move.offline,
          inside: true,
          movedAt: move.at,
        },
      }
    case 'REENTER':
      return { answer: { result: 'CHECKED_IN', attendee, checked_in_at: at, ...day, reentry: true }, saved: { ...today!, inside: true, movedAt: move.at } }
    case 'ALREADY_IN':
      return { answer: { result: 'ALREADY_CHECKED_IN', attendee, checked_in_at: iso(today!.checkedInAt), gate: today!.gate, ...day } }
    case 'OUT':
      return { answer: { result: 'CHECKED_OUT', attendee, checked_out_at: at, ...day }, saved: { ...today!, inside: false, movedAt: move.at } }
    case 'NOT_INSIDE':
      return { answer: { result: 'NOT_INSIDE', attendee, ...day } }
    case 'NO_REENTRY':
      return { answer: { result: 'NOT_INSIDE', attendee, ...day, reentry_off: true } }
  }
}

/** An offline scan's time in the ticket's door window: not before the ticket was collected, not after now. */
export function clampScan(scannedAt: string, collectedAt: Date, now: Date): Date {
  return new Date(Math.max(collectedAt.getTime(), Math.min(Date.parse(scannedAt), now.getTime())))
}

/** Which of these codes were tickets of the event, given back since (issue 22 item 12). */
async function givenBack(db: Db, eventId: number, codes: string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set()
  const rows = await db
    .select({ code: releasedTickets.ticketCode })
    .from(releasedTickets)
    .where(and(eq(releasedTickets.eventId, eventId), inArray(releasedTickets.ticketCode, codes)))
  return new Set(rows.map((r) => r.code))
}

/**
 * The answers for codes of no ticket of the event, live or synced (nothing is recorded for them): TRANSFERRED for a
 * code that stopped working when its ticket went to a friend, UNKNOWN_TICKET marked given back for a ticket of the
 * event given back, else UNKNOWN_TICKET naming another event's ticket when the viewer may see that event. Three
 * reads, for any number of codes.
 */
export async function strayAnswers(db: Db, userId: number, eventId: number, codes: string[]): Promise<Map<string, ScanAnswer>> {
  if (codes.length === 0) return new Map()
  const elsewhere = await db
    .select({ code: participants.ticketCode, eventName: events.name, eventVisible: mayView(userId) })
    .from(participants)
    .innerJoin(events, eq(events.id, participants.eventId))
    .where(and(inArray(participants.ticketCode, codes), ne(participants.eventId, eventId)))
  const others = new Map(elsewhere.map((o) => [o.code!, otherEvent(o)]))
  const transferred = await transferredCodes(db, eventId, codes)
  const released = await givenBack(db, eventId, codes)
  return new Map(
    codes.map((code): [string, ScanAnswer] => [
      code,
      transferred.has(code)
        ? { result: 'TRANSFERRED' }
        : released.has(code)
          ? { result: 'UNKNOWN_TICKET', other_event: null, given_back: true }
          : { result: 'UNKNOWN_TICKET', other_event: others.get(code) ?? null },
    ]),
  )
}

/** The day field of an answer: only on a multi-day event, so a single-day event's answers read as before. */
export const dayField = (rules: AdmissionRules, day: string) => (rules.days.length > 1 ? { day } : {})

/** What the door's access needs of the event in scope: its state and whether the user may check its tickets. */
export const doorColumns = (userId: number) => ({ state: events.state, allowed: mayDoor(userId) })

/** Whether a door call may go on at an event (read with doorColumns): null when yes, else the refusal. */
export function doorRefusal(event: { state: string; allowed: boolean }): Refusal | null {
  if (!event.allowed) return 'notDoor'
  if (!DOOR_STATE_SET.has(event.state)) return 'doorClosed'
  return null
}

/** Whether the user may check tickets at the event now: null when yes, else the refusal. */
export async function doorAccess(db: Db, userId: number, eventId: number): Promise<Refusal | null> {
  const [row] = await db.select(doorColumns(userId)).from(events).where(eq(events.id, eventId))
  if (!row) {
    // No such event: 404 for someone with a role, the same 403 as for a known event for anyone else, so that a
    // student cannot tell which ids are drafts.
    const r = await rolesRepository(db).of(userId)
    return r.admin || r.councils.length > 0 || r.door_events.length > 0 ? 'eventNotFound' : 'notDoor'
  }
  return doorRefusal(row)
}
