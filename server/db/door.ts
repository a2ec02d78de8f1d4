// The door (API.md Part 2 "At the door", issue 12): the events a volunteer may check tickets at, the ticket list a
// device keeps for offline checking, check-in, undo and the sync of offline scans.
//
// Safe under retries and races:
// - A scan is recorded in door_scans under the device's scan_id (the primary key) in the same transaction as the
//   check-in it made, with its answer; a repeated scan_id does not decide again (a concurrent repeat waits on the
//   key until the first commits): it answers the ticket's state now (issue 21 item 13), which is the first answer
//   as long as the check-in that scan made stands, ALREADY_CHECKED_IN when another scan's check-in stands, and
//   NOT_CHECKED_IN once the check-in was undone. A code of no ticket records nothing.
// - A live check-in is ONE conditional update (`... WHERE checked_in_at IS NULL RETURNING`): of any number of
//   gates scanning one ticket at once, exactly one updates the row; the others read who got in and when.
// - Offline scans (sync) are applied in `scanned_at` order and carry their own time, clamped to the ticket's door
//   window (not before the ticket was collected, not after now: issue 21 item 6). Of two offline scans of one
//   ticket the earliest `scanned_at` is the check-in, whichever reached the server first: a later-synced earlier
//   scan takes the record over from an earlier-synced later one (under the participant's row lock, audited as
//   'door.rewrite'), and the displaced scan's stored answer becomes ALREADY_CHECKED_IN, so its device hears of it
//   on its next sync of it. A live (online) check-in is never taken over: the server let that person in in real
//   time, and an offline scan synced after it is reported ALREADY_CHECKED_IN whatever its time.
// - A sync is bounded work whatever it carries (issue 21 item 1: 30 syncs of 100 codes of no ticket were 3,000
//   transactions and made every other call wait): a fixed number of statements. Two reads first (which codes are
//   tickets of the event, and the other codes' events); codes of no ticket stop there. Then one transaction: the
//   scans' ids claimed in id order and the tickets locked next in id order (the order a live check-in takes its
//   locks in too, so the two never deadlock), the decisions made in memory in scanned_at order, and each kind of
//   write made once for the whole batch.
import { and, asc, eq, inArray, isNotNull, ne, sql, type SQL } from 'drizzle-orm'
import { dayOf, decide, type Direction } from '../../contract/admission.ts'
import { DOOR_STATES } from '../../contract/door.ts'
import type { Attendee, DoorAdmission, DoorDay, DoorEvent, DoorQuestionAnswer, DoorTicket, Question } from '../../contract/types.ts'
import { type AdmissionRow, type AdmissionRules, admissionsOf, dayCounts, dropAdmission, rulesOf, saveAdmissions } from './admissions.ts'
import { recordAudit } from './audit.ts'
import type { Db } from './index.ts'
import {
  admissions,
  auditLog,
  councilOrganizers,
  doorScans,
  events,
  eventStaff,
  participants,
  releasedTickets,
  teams,
  ticketTransfers,
  users,
} from './schema.ts'
import { done, refused, type Outcome, type Refusal } from './outcomes.ts'
import { rolesRepository } from './roles.ts'
import { screenLive, screenScans } from './time-codes.ts'

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
  /** A rotating ticket's time code missing, wrong or over a step old (issue 25, server/db/time-codes.ts): nothing recorded. */
  | { result: 'EXPIRED_CODE' }

/** The answers of a scan out (issue 25 item 3). */
const isOut = (a: ScanAnswer) => a.result === 'CHECKED_OUT' || a.result === 'NOT_INSIDE'

/** A scan that names no ticket of the event now: nothing is recorded for it. */
const noTicket = (a: ScanAnswer) => a.result === 'UNKNOWN_TICKET' || a.result === 'TRANSFERRED'

/** Of `codes`, those that stopped working when their ticket of the event was transferred. */
async function transferredCodes(db: Db, eventId: number, codes: string[]): Promise<Set<string>> {
  if (codes.length === 0) return new Set()
  const rows = await db
    .select({ code: ticketTransfers.oldCode })
    .from(ticketTransfers)
    .where(and(eq(ticketTransfers.eventId, eventId), inArray(ticketTransfers.oldCode, codes)))
  return new Set(rows.map((r) => r.code))
}

export interface OfflineScan {
  ticket_code: string
  scan_id: string
  gate: string
  scanned_at: string
  direction?: Direction
}

const DOOR_STATE_SET = new Set<string>(DOOR_STATES)

/** Nothing happened (a code of no ticket): thrown to roll back the scan's claim on its scan_id. */
class Unrecorded extends Error {
  constructor(readonly answer: ScanAnswer) {
    super('unrecorded scan')
  }
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString()

/** Whether the user may check tickets at (or manage) the event of the row in scope: an admin, an organiser of its council, its door volunteer. */
const mayDoor = (userId: number): SQL<boolean> => sql<boolean>`(
  coalesce((SELECT ${users.isAdmin} FROM ${users} WHERE ${users.id} = ${userId}), false)
  OR EXISTS (SELECT 1 FROM ${councilOrganizers} WHERE ${councilOrganizers.councilId} = ${events.organizerId} AND ${councilOrganizers.userId} = ${userId})
  OR EXISTS (SELECT 1 FROM ${eventStaff} WHERE ${eventStaff.eventId} = ${events.id} AND ${eventStaff.userId} = ${userId}))`

/** Whether the viewer may see the event of the row in scope (issue 21 item 7): published, or one of the viewer's. */
const mayView = (userId: number): SQL<boolean> => sql<boolean>`(${events.state} <> 'DRAFT' OR ${mayDoor(userId)})`

/**
 * What attendeeOf reads of a ticket's row: its holder, team, and the answers the door may show (the rows joined with
 * users, events and teams). One list for the holder lookup, the live scan and the sync.
 */
const attendeeColumns = {
  name: users.name,
  photoUrl: users.photoUrl,
  teamId: teams.id,
  teamName: teams.name,
  questions: events.questions,
  answers: participants.answers,
}

/** The ticket holder of a code (any event), for the answer: who, which event (named when the viewer may see it), checked in when and where. */
async function holderOf(db: Db, ticketCode: string, viewerId: number) {
  const [row] = await db
    .select({
      eventId: participants.eventId,
      eventName: events.name,
      eventVisible: mayView(viewerId),
      ...attendeeColumns,
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

const attendeeOf = (h: {
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

/** The answer for a ticket the update did not check in: already in, or no ticket of this event. */
function notCheckedIn(holder: Holder | null, eventId: number): ScanAnswer {
  if (!holder || holder.eventId !== eventId) return { result: 'UNKNOWN_TICKET', other_event: holder ? otherEvent(holder) : null }
  if (holder.checkedInAt === null) return { result: 'UNKNOWN_TICKET', other_event: null }
  return { result: 'ALREADY_CHECKED_IN', attendee: attendeeOf(holder), checked_in_at: iso(holder.checkedInAt), gate: holder.gate }
}

/** The ticket's state on one event day: its admission that day (a repeated scan of a multi-day event). */
async function onDay(db: Db, eventId: number, ticketCode: string, day: string, now: TicketNow): Promise<TicketNow> {
  const [a] = await db
    .select({ checkedInAt: admissions.checkedInAt, gate: admissions.gate })
    .from(admissions)
    .innerJoin(participants, eq(participants.id, admissions.participantId))
    .where(and(eq(participants.eventId, eventId), eq(participants.ticketCode, ticketCode), eq(admissions.day, day)))
  return { ...now, checkedInAt: a?.checkedInAt ?? null, gate: a?.gate ?? null }
}

/** A ticket's state now, as a repeated scan answers it. */
interface TicketNow {
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

/** The day field of an answer: only on a multi-day event, so a single-day event's answers read as before. */
const dayField = (rules: AdmissionRules, day: string) => (rules.days.length > 1 ? { day } : {})

/** `clock`: the server's time, injectable so tests can scan either side of midnight IST without waiting. */
export function doorRepository(db: Db, clock: () => Date = () => new Date()) {
  /** Whether the user may check tickets at the event now: null when yes, else the refusal. */
  async function access(userId: number, eventId: number): Promise<Refusal | null> {
    const [row] = await db
      .select({ state: events.state, allowed: mayDoor(userId) })
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
   * Records a live scan under its id and runs `decide` in the same transaction; a scan_id seen before answers the
   * ticket's state now (replayed()), or is refused when it named another ticket. A code of no ticket rolls back
   * and records nothing.
   */
  async function recorded(
    scan: { scanId: string; eventId: number; ticketCode: string; gate: string; userId: number; direction: Direction },
    decide: (tx: Db) => Promise<ScanAnswer>,
  ): Promise<Outcome<ScanAnswer>> {
    try {
      return await db.transaction(async (txn) => {
        const tx = txn as unknown as Db
        const claimed = await tx
          .insert(doorScans)
          .values({ scanId: scan.scanId, eventId: scan.eventId, ticketCode: scan.ticketCode, gate: scan.gate, offline: false, scannedBy: scan.userId })
          .onConflictDoNothing({ target: doorScans.scanId })
          .returning({ scanId: doorScans.scanId })
        if (claimed.length === 0) {
          const [prior] = await tx
            .select({ eventId: doorScans.eventId, ticketCode: doorScans.ticketCode, answer: doorScans.answer })
            .from(doorScans)
            .where(eq(doorScans.scanId, scan.scanId))
          if (!prior || prior.eventId !== scan.eventId || prior.ticketCode !== scan.ticketCode || !prior.answer) return refused('scanIdReused')
          // A scan out's id reused for a scan in (or the other way) is another scan, not a repeat.
          if (isOut(prior.answer as ScanAnswer) !== (scan.direction === 'OUT')) return refused('scanIdReused')
          const holder = await holderOf(tx, scan.ticketCode, scan.userId)
          const first = prior.answer as ScanAnswer
          let now: TicketNow | null =
            holder && holder.eventId === scan.eventId ? { checkedInAt: holder.checkedInAt, gate: holder.gate, attendee: attendeeOf(holder) } : null
          // On a multi-day event a repeat answers the state of its own day (the mirror is the latest day's).
          if (now && 'day' in first && first.day !== undefined) now = await onDay(tx, scan.eventId, scan.ticketCode, first.day, now)
          return done(replayed(first, now))
        }
        const answer = await decide(tx)
        if (noTicket(answer)) throw new Unrecorded(answer)
        await tx.update(doorScans).set({ answer }).where(eq(doorScans.scanId, scan.scanId))
        return done(answer)
      })
    } catch (err) {
      if (err instanceof Unrecorded)
        return done(
          err.answer.result === 'UNKNOWN_TICKET' && (await givenBack(db, scan.eventId, [scan.ticketCode])).size
            ? { ...err.answer, given_back: true }
            : err.answer,
        )
      throw err
    }
  }

  /**
   * A live scan, in or out: the ticket's row is locked (so any number of gates scanning it at once are decided one
   * after another, and exactly one admits it for the day), then contract/admission.ts decides from its admission on
   * today's event day.
   */
  async function liveScan(
    tx: Db,
    scan: { eventId: number; ticketCode: string; gate: string; scanId: string; userId: number },
    direction: Direction,
  ): Promise<ScanAnswer> {
    const [ticket] = await tx
      .select({
        id: participants.id,
        ...attendeeColumns,
      })
      .from(participants)
      .innerJoin(users, eq(users.id, participants.userId))
      .innerJoin(events, eq(events.id, participants.eventId))
      .leftJoin(teams, eq(teams.id, participants.teamId))
      .where(and(eq(participants.eventId, scan.eventId), eq(participants.ticketCode, scan.ticketCode), eq(participants.ticketCollected, true)))
      .for('update', { of: participants })
    if (!ticket) {
      const holder = await holderOf(tx, scan.ticketCode, scan.userId)
      const answer = notCheckedIn(holder, scan.eventId)
      if (answer.result === 'UNKNOWN_TICKET' && !holder && (await transferredCodes(tx, scan.eventId, [scan.ticketCode])).size > 0)
        return { result: 'TRANSFERRED' }
      return answer
    }
    const rules = await rulesOf(tx, scan.eventId)
    const now = clock()
    const day = dayOf(rules.days, now.getTime())
    const today = (await admissionsOf(tx, [ticket.id])).find((a) => a.day === day)
    const attendee = attendeeOf(ticket)
    const dayOfAnswer = dayField(rules, day)
    switch (decide(today, direction, rules.reentry)) {
      case 'ADMIT':
        await saveAdmissions(tx, scan.eventId, [
          { participantId: ticket.id, day, checkedInAt: now, gate: scan.gate, scanId: scan.scanId, offline: false, inside: true, movedAt: now },
        ])
        return { result: 'CHECKED_IN', attendee, checked_in_at: iso(now), ...dayOfAnswer }
      case 'REENTER':
        await saveAdmissions(tx, scan.eventId, [{ ...today!, inside: true, movedAt: now }])
        return { result: 'CHECKED_IN', attendee, checked_in_at: iso(now), ...dayOfAnswer, reentry: true }
      case 'ALREADY_IN':
        return { result: 'ALREADY_CHECKED_IN', attendee, checked_in_at: iso(today!.checkedInAt), gate: today!.gate, ...dayOfAnswer }
      case 'OUT':
        await saveAdmissions(tx, scan.eventId, [{ ...today!, inside: false, movedAt: now }])
        return { result: 'CHECKED_OUT', attendee, checked_out_at: iso(now), ...dayOfAnswer }
      case 'NOT_INSIDE':
        return { result: 'NOT_INSIDE', attendee, ...dayOfAnswer }
      case 'NO_REENTRY':
        return { result: 'NOT_INSIDE', attendee, ...dayOfAnswer, reentry_off: true }
    }
  }

  /** Offline scans, bounded: see the head of this file. Answers in the order sent. */
  async function syncScans(userId: number, eventId: number, scans: OfflineScan[]): Promise<(ScanAnswer & { scan_id: string })[]> {
    const now = clock()
    const order = scans.map((_, i) => i).sort((a, b) => Date.parse(scans[a].scanned_at) - Date.parse(scans[b].scanned_at) || a - b)
    const codes = [...new Set(scans.map((s) => s.ticket_code))]
    // Each scan_id is decided by its first scan in application order; a later one with that id repeats it.
    const firstOf = new Map<string, number>()
    for (const i of order) if (!firstOf.has(scans[i].scan_id)) firstOf.set(scans[i].scan_id, i)

    // 1. Which codes are tickets of this event (unlocked: only the scans of these are claimed and decided below;
    // any other code is no ticket of the event, whatever its scan_id was used for before).
    const known = new Set(
      (
        await db
          .select({ code: participants.ticketCode })
          .from(participants)
          .where(and(eq(participants.eventId, eventId), eq(participants.ticketCollected, true), inArray(participants.ticketCode, codes)))
      ).map((r) => r.code!),
    )
    // 2. The other codes' events, for the 404's message (named only when the volunteer may see that event).
    const strays = codes.filter((c) => !known.has(c))
    const others = new Map(
      (strays.length === 0
        ? []
        : await db
            .select({ code: participants.ticketCode, eventName: events.name, eventVisible: mayView(userId) })
            .from(participants)
            .innerJoin(events, eq(events.id, participants.eventId))
            .where(and(inArray(participants.ticketCode, strays), ne(participants.eventId, eventId)))
      ).map((o) => [o.code!, otherEvent(o)]),
    )
    // 2b. The codes that stopped working by a transfer (a list downloaded before it, or a transfer since step 1):
    // TRANSFERRED, so the friend's new code is the only way in; and the codes of tickets given back.
    const transferred = await transferredCodes(db, eventId, codes)
    const released = await givenBack(db, eventId, strays)
    const unknown = (code: string): ScanAnswer =>
      transferred.has(code)
        ? { result: 'TRANSFERRED' }
        : released.has(code)
          ? { result: 'UNKNOWN_TICKET', other_event: null, given_back: true }
          : { result: 'UNKNOWN_TICKET', other_event: others.get(code) ?? null }
    // Nothing but codes of no ticket (a mistyped batch, or the issue's 100 unknown codes): two reads, no transaction.
    if (known.size === 0) return scans.map((scan) => ({ ...unknown(scan.ticket_code), scan_id: scan.scan_id }))

    return db.transaction(async (txn) => {
      const tx = txn as unknown as Db
      // 3. The scans of those codes claim their ids, in id order; an id already taken is a repeat.
      const toClaim = [...firstOf.entries()].filter(([, i]) => known.has(scans[i].ticket_code)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      const fresh = new Set<string>()
      if (toClaim.length > 0) {
        const claimed = await tx
          .insert(doorScans)
          .values(toClaim.map(([scanId, i]) => ({ scanId, eventId, ticketCode: scans[i].ticket_code, gate: scans[i].gate, offline: true, scannedBy: userId })))
          .onConflictDoNothing({ target: doorScans.scanId })
          .returning({ scanId: doorScans.scanId })
        for (const c of claimed) fresh.add(c.scanId)
      }
      // 4. The stored answers of the repeated ids (of known codes: any other scan is answered as no ticket).
      const repeatIds = [...firstOf.entries()].filter(([id, i]) => !fresh.has(id) && known.has(scans[i].ticket_code)).map(([id]) => id)
      const priors = new Map(
        (repeatIds.length === 0
          ? []
          : await tx
              .select({ scanId: doorScans.scanId, eventId: doorScans.eventId, ticketCode: doorScans.ticketCode, answer: doorScans.answer })
              .from(doorScans)
              .where(inArray(doorScans.scanId, repeatIds))
        ).map((p) => [p.scanId, p]),
      )
      // 5. This event's tickets among the codes, locked in id order, with who holds them, and their admissions.
      const locked = await tx
        .select({
          id: participants.id,
          code: participants.ticketCode,
          userId: participants.userId,
          collectedAt: participants.ticketCollectedAt,
          registeredAt: participants.createdAt,
          ...attendeeColumns,
        })
        .from(participants)
        .innerJoin(users, eq(users.id, participants.userId))
        .innerJoin(events, eq(events.id, participants.eventId))
        .leftJoin(teams, eq(teams.id, participants.teamId))
        .where(and(eq(participants.eventId, eventId), eq(participants.ticketCollected, true), inArray(participants.ticketCode, [...known])))
        .orderBy(asc(participants.id))
        .for('update', { of: participants })
      // 6. The event's days and re-entry rule, and each ticket's admissions (the scan that made each day's check-in
      // is in it: an offline one may be taken over by an earlier offline scan).
      const rules = await rulesOf(tx, eventId)
      interface Day extends AdmissionRow {
        before: AdmissionRow | null
        dirty: boolean
      }
      const tickets = new Map(
        locked.map((t) => [t.code!, { ...t, attendee: attendeeOf(t), opensAt: t.collectedAt ?? t.registeredAt, days: new Map<string, Day>() }]),
      )
      const byId = new Map(locked.map((t) => [t.id, tickets.get(t.code!)!]))
      for (const a of await admissionsOf(
        tx,
        locked.map((t) => t.id),
      ))
        byId.get(a.participantId)?.days.set(a.day, { ...a, before: { ...a }, dirty: false })
      type Ticket = NonNullable<ReturnType<typeof tickets.get>>
      /** The ticket now, on the day of a first answer (a single-day event's, or an old answer's: the latest day). */
      const nowOf = (t: Ticket | undefined, first: ScanAnswer | undefined): TicketNow | null => {
        if (!t) return null
        const days = [...t.days.values()].sort((a, b) => (a.day < b.day ? 1 : -1))
        const d = first && 'day' in first && first.day !== undefined ? t.days.get(first.day) : days[0]
        return { checkedInAt: d?.checkedInAt ?? null, gate: d?.gate ?? null, attendee: t.attendee }
      }
      const answers = new Map<string, ScanAnswer>() // the answers of this sync's fresh scans, by scan_id
      const scannedAt = new Map<string, Date>() // their times, in the door window
      const displaced = new Map<string, { code: string; day: string }>() // stored winners taken over by an earlier offline scan
      const results: (ScanAnswer & { scan_id: string })[] = new Array(scans.length)
      for (const i of order) {
        const scan = scans[i]
        const ticket = tickets.get(scan.ticket_code)
        let answer: ScanAnswer
        const first = firstOf.get(scan.scan_id)!
        if (first !== i) {
          // The same scan_id twice in one sync: a repeat of the first (a reuse for another ticket reads as no ticket).
          const firstAnswer = answers.get(scan.scan_id) ?? results[first]
          answer = scans[first].ticket_code !== scan.ticket_code || !firstAnswer ? unknown(scan.ticket_code) : replayed(firstAnswer, nowOf(ticket, firstAnswer))
        } else if (!fresh.has(scan.scan_id)) {
          const prior = priors.get(scan.scan_id)
          if (!prior)
            answer = unknown(scan.ticket_code) // a code of no ticket of this event: nothing recorded
          else if (prior.eventId !== eventId || prior.ticketCode !== scan.ticket_code || !prior.answer)
            answer = { result: 'UNKNOWN_TICKET', other_event: null } // a scan_id reused for another ticket
          else answer = replayed(prior.answer as ScanAnswer, nowOf(ticket, prior.answer as ScanAnswer))
        } else if (!ticket) {
          answer = unknown(scan.ticket_code) // given back since step 1: its claim is removed below
          answers.set(scan.scan_id, answer)
        } else {
          const at = clampScan(scan.scanned_at, ticket.opensAt, now)
          scannedAt.set(scan.scan_id, at)
          // Each scan counts for the event day of its own time (contract/admission.ts), whenever it syncs.
          const day = dayOf(rules.days, at.getTime())
          const dayOfAnswer = dayField(rules, day)
          const today = ticket.days.get(day)
          const direction = scan.direction ?? 'IN'
          const takesOver =
            direction === 'IN' && today !== undefined && today.offline && today.scanId !== scan.scan_id && today.checkedInAt.getTime() > at.getTime()
          if (takesOver) {
            const loser = today.scanId!
            if (fresh.has(loser))
              answers.set(loser, { result: 'ALREADY_CHECKED_IN', attendee: ticket.attendee, checked_in_at: at.toISOString(), gate: scan.gate, ...dayOfAnswer })
            else displaced.set(loser, { code: scan.ticket_code, day })
            Object.assign(today, { checkedInAt: at, gate: scan.gate, scanId: scan.scan_id, dirty: true })
            answer = { result: 'CHECKED_IN', attendee: ticket.attendee, checked_in_at: at.toISOString(), ...dayOfAnswer }
          } else {
            switch (decide(today, direction, rules.reentry)) {
              case 'ADMIT':
                ticket.days.set(day, {
                  participantId: ticket.id,
                  day,
                  checkedInAt: at,
                  gate: scan.gate,
                  scanId: scan.scan_id,
                  offline: true,
                  inside: true,
                  movedAt: at,
                  before: null,
                  dirty: true,
                })
                answer = { result: 'CHECKED_IN', attendee: ticket.attendee, checked_in_at: at.toISOString(), ...dayOfAnswer }
                break
              case 'REENTER':
                Object.assign(today!, { inside: true, movedAt: at, dirty: true })
                answer = { result: 'CHECKED_IN', attendee: ticket.attendee, checked_in_at: at.toISOString(), ...dayOfAnswer, reentry: true }
                break
              case 'ALREADY_IN':
                answer = {
                  result: 'ALREADY_CHECKED_IN',
                  attendee: ticket.attendee,
                  checked_in_at: today!.checkedInAt.toISOString(),
                  gate: today!.gate,
                  ...dayOfAnswer,
                }
                break
              case 'OUT':
                Object.assign(today!, { inside: false, movedAt: at, dirty: true })
                answer = { result: 'CHECKED_OUT', attendee: ticket.attendee, checked_out_at: at.toISOString(), ...dayOfAnswer }
                break
              case 'NOT_INSIDE':
                answer = { result: 'NOT_INSIDE', attendee: ticket.attendee, ...dayOfAnswer }
                break
              case 'NO_REENTRY':
                answer = { result: 'NOT_INSIDE', attendee: ticket.attendee, ...dayOfAnswer, reentry_off: true }
                break
            }
          }
          answers.set(scan.scan_id, answer)
        }
        results[i] = { ...answer, scan_id: scan.scan_id }
      }
      // An answer given in this sync and changed later in it (its check-in taken over) is sent as it stands.
      for (let i = 0; i < scans.length; i++) {
        const stood = firstOf.get(scans[i].scan_id) === i ? answers.get(scans[i].scan_id) : undefined
        if (stood) results[i] = { ...stood, scan_id: scans[i].scan_id }
      }

      // The writes, each once for the whole sync.
      const changed = [...tickets.values()].flatMap((t) => [...t.days.values()].filter((d) => d.dirty))
      await saveAdmissions(
        tx,
        eventId,
        changed.map(({ before: _before, dirty: _dirty, ...row }) => row),
      )
      const stored: { scanId: string; answer: ScanAnswer; at: Date | null }[] = []
      for (const [scanId, answer] of answers) if (!noTicket(answer)) stored.push({ scanId, answer, at: scannedAt.get(scanId) ?? null })
      for (const [scanId, { code, day }] of displaced) {
        // It hears of the check-in as it finally stands (the ticket's day after the whole sync).
        const t = tickets.get(code)!
        const d = t.days.get(day)!
        stored.push({
          scanId,
          answer: { result: 'ALREADY_CHECKED_IN', attendee: t.attendee, checked_in_at: d.checkedInAt.toISOString(), gate: d.gate, ...dayField(rules, day) },
          at: null,
        })
      }
      if (stored.length > 0) {
        await tx.execute(sql`
          UPDATE door_scans SET answer = v.answer::jsonb, scanned_at = coalesce(v.at::timestamptz, door_scans.scanned_at)
          FROM (VALUES ${sql.join(
            stored.map((r) => sql`(${r.scanId}::uuid, ${JSON.stringify(r.answer)}, ${r.at ? r.at.toISOString() : null}::text)`),
            sql`, `,
          )}) AS v(scan_id, answer, at) WHERE door_scans.scan_id = v.scan_id`)
      }
      const unrecorded = [...answers].filter(([, a]) => noTicket(a)).map(([id]) => id)
      if (unrecorded.length > 0) await tx.delete(doorScans).where(inArray(doorScans.scanId, unrecorded))
      // A check-in whose time or gate an offline scan rewrote is audited (issue 21 item 6), like an undo.
      const rewritten = changed.filter((d) => d.before !== null && (d.before.checkedInAt.getTime() !== d.checkedInAt.getTime() || d.before.gate !== d.gate))
      if (rewritten.length > 0) {
        const [event] = await tx.select({ councilId: events.organizerId }).from(events).where(eq(events.id, eventId))
        await tx.insert(auditLog).values(
          rewritten.map((d) => {
            const t = byId.get(d.participantId)!
            return {
              actorId: userId,
              actorKind: 'user',
              action: 'door.rewrite',
              councilId: event?.councilId ?? null,
              eventId,
              before: {
                ticket_code: t.code,
                user_id: t.userId,
                checked_in_at: d.before!.checkedInAt.toISOString(),
                gate: d.before!.gate,
                ...dayField(rules, d.day),
              },
              after: { ticket_code: t.code, user_id: t.userId, checked_in_at: d.checkedInAt.toISOString(), gate: d.gate, ...dayField(rules, d.day) },
            }
          }),
        )
      }
      return results
    })
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
          // Written out with aliases: Drizzle leaves the columns of a one-table select unqualified, so
          // `${participants.eventId} = ${events.id}` compared a participant's event with its own id (issue 22 item 3).
          checked_in: sql<number>`(SELECT count(*)::int FROM participants p WHERE p.event_id = "events"."id" AND p.checked_in_at IS NOT NULL)`,
          reentry: events.reentry,
        })
        .from(events)
        .where(and(inArray(events.state, [...DOOR_STATES]), mayDoor(userId)))
        .orderBy(sql`${events.dates}->>0`, asc(events.id))
      const days = await dayCounts(
        db,
        rows.map((r) => r.id),
      )
      // Said only where they matter, so a single-day event without re-entry reads as before.
      return rows.map(({ reentry, ...r }) => {
        const its = days.get(r.id) ?? []
        return { ...r, checked_in: Number(r.checked_in), ...(its.length > 1 ? { days: its } : {}), ...(reentry ? { reentry } : {}) }
      })
    },

    /** Every ticket of the event, for offline checking. */
    async tickets(
      userId: number,
      eventId: number,
    ): Promise<Outcome<{ tickets: DoorTicket[]; as_of: string; released: string[]; days: DoorDay[]; reentry: boolean; rotating_codes: boolean }>> {
      const denied = await access(userId, eventId)
      if (denied) return refused(denied)
      const asOf = new Date().toISOString()
      const [event] = await db.select({ questions: events.questions, rotating: events.rotatingCodes }).from(events).where(eq(events.id, eventId))
      // An event gone between the access check and this read keeps rotation on rather than failing.
      const rotating = event?.rotating ?? true
      const rows = await db
        .select({
          id: participants.id,
          code: participants.ticketCode,
          answers: participants.answers,
          name: users.name,
          photoUrl: users.photoUrl,
          teamId: teams.id,
          teamName: teams.name,
          checkedInAt: participants.checkedInAt,
          gate: participants.checkedInGate,
          secret: participants.ticketSecret,
        })
        .from(participants)
        .innerJoin(users, eq(users.id, participants.userId))
        .leftJoin(teams, eq(teams.id, participants.teamId))
        .where(and(eq(participants.eventId, eventId), eq(participants.ticketCollected, true), isNotNull(participants.ticketCode)))
        .orderBy(asc(participants.id))
      const released = await db.select({ code: releasedTickets.ticketCode }).from(releasedTickets).where(eq(releasedTickets.eventId, eventId))
      // Each ticket's admissions, so the device applies the per-day and re-entry rules offline (issue 25 item 3).
      const admitted = new Map<number, DoorAdmission[]>()
      for (const a of await db.select().from(admissions).where(eq(admissions.eventId, eventId)).orderBy(asc(admissions.day))) {
        const list = admitted.get(a.participantId) ?? []
        list.push({ day: a.day, checked_in_at: a.checkedInAt.toISOString(), gate: a.gate, inside: a.inside })
        admitted.set(a.participantId, list)
      }
      const { reentry } = await rulesOf(db, eventId)
      const days = (await dayCounts(db, [eventId])).get(eventId) ?? []
      // A single-day event without re-entry needs no more than checked_in_at: its list reads as before.
      const perDay = days.length > 1 || reentry
      return done({
        as_of: asOf,
        released: released.map((r) => r.code),
        days,
        reentry,
        rotating_codes: rotating,
        tickets: rows.map((r) => {
          const shown = doorAnswersOf(event?.questions ?? [], r.answers)
          return {
            ticket_code: r.code!,
            name: r.name,
            photo_url: r.photoUrl,
            team: r.teamId === null || r.teamName === null ? null : { id: r.teamId, name: r.teamName },
            checked_in_at: r.checkedInAt ? r.checkedInAt.toISOString() : null,
            gate: r.gate,
            ...(perDay ? { admissions: admitted.get(r.id) ?? [] } : {}),
            ...(shown.length > 0 && { door_answers: shown }),
            secret: rotating ? r.secret : null,
          }
        }),
      })
    },

    /** Checks a ticket in at a gate; the scan_id makes it safe to repeat. */
    async checkIn(userId: number, input: { eventId: number; ticketCode: string; scanId: string; gate: string }): Promise<Outcome<ScanAnswer>> {
      const denied = await access(userId, input.eventId)
      if (denied) return refused(denied)
      // The text read carries the time code where tickets rotate (issue 25 item 1): checked here, then the code alone.
      const scanned = await screenLive(db, input.eventId, input.ticketCode, input.scanId)
      if (scanned.expired) return done({ result: 'EXPIRED_CODE' })
      return recorded({ ...input, ticketCode: scanned.code, userId, direction: 'IN' }, (tx) =>
        liveScan(tx, { ...input, ticketCode: scanned.code, userId }, 'IN'),
      )
    },

    /** Scans a ticket out, on an event with re-entry (issue 25 item 3); the scan_id makes it safe to repeat. */
    async checkOut(userId: number, input: { eventId: number; ticketCode: string; scanId: string; gate: string }): Promise<Outcome<ScanAnswer>> {
      const denied = await access(userId, input.eventId)
      if (denied) return refused(denied)
      // A scan out reads the same barcode: its time code is checked as a scan in's (issue 25 item 1).
      const scanned = await screenLive(db, input.eventId, input.ticketCode, input.scanId)
      if (scanned.expired) return done({ result: 'EXPIRED_CODE' })
      return recorded({ ...input, ticketCode: scanned.code, userId, direction: 'OUT' }, (tx) =>
        liveScan(tx, { ...input, ticketCode: scanned.code, userId }, 'OUT'),
      )
    },

    /** Offline scans: applied in scanned_at order (ties in the order sent), answered in the order sent. */
    async sync(userId: number, eventId: number, scans: OfflineScan[]): Promise<Outcome<(ScanAnswer & { scan_id: string })[]>> {
      const denied = await access(userId, eventId)
      if (denied) return refused(denied)
      if (scans.length === 0) return done([])
      // Each time code checked against its scan's scanned_at (issue 25); the refused ones are answered apart.
      const screened = await screenScans(
        db,
        eventId,
        scans.map((s) => ({ text: s.ticket_code, atMs: Date.parse(s.scanned_at) })),
      )
      const passing = scans.flatMap((s, i) => (screened[i].expired ? [] : [{ ...s, ticket_code: screened[i].code }]))
      const decided = passing.length > 0 ? await syncScans(userId, eventId, passing) : []
      let next = 0
      return done(scans.map((s, i) => (screened[i].expired ? { result: 'EXPIRED_CODE' as const, scan_id: s.scan_id } : decided[next++])))
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
        // Today's admission (a single-day event's only one): the volunteer undoes what the door just did.
        const rules = await rulesOf(tx as unknown as Db, eventId)
        const day = dayOf(rules.days, clock().getTime())
        const today = (await admissionsOf(tx as unknown as Db, [row.id])).find((a) => a.day === day)
        if (!today) return refused('notCheckedIn')
        await dropAdmission(tx as unknown as Db, row.id, day)
        const [event] = await tx.select({ councilId: events.organizerId }).from(events).where(eq(events.id, eventId))
        await recordAudit(tx as unknown as Db, {
          actorId: userId,
          actorKind: 'user',
          action: 'door.undo',
          councilId: event?.councilId ?? null,
          eventId,
          before: { ticket_code: ticketCode, user_id: row.userId, checked_in_at: today.checkedInAt.toISOString(), gate: today.gate, ...dayField(rules, day) },
          after: { ticket_code: ticketCode, user_id: row.userId, checked_in_at: null, gate: null, ...dayField(rules, day) },
        })
        return done(undefined)
      })
    },
  }
}

export type DoorRepository = ReturnType<typeof doorRepository>
