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
import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, sql, type SQL } from 'drizzle-orm'
import { DOOR_STATES } from '../../contract/door.ts'
import type { Attendee, DoorEvent, DoorTicket } from '../../contract/types.ts'
import { recordAudit } from './audit.ts'
import type { Db } from './index.ts'
import { auditLog, councilOrganizers, doorScans, events, eventStaff, participants, releasedTickets, teams, ticketTransfers, users } from './schema.ts'
import { done, refused, type Outcome, type Refusal } from './outcomes.ts'
import { rolesRepository } from './roles.ts'
import { screenLive, screenScans } from './time-codes.ts'

/** What one scan answered, as stored with its scan_id (the routes add the status and the message). */
export type ScanAnswer =
  | { result: 'CHECKED_IN'; attendee: Attendee; checked_in_at: string }
  | { result: 'ALREADY_CHECKED_IN'; attendee: Attendee; checked_in_at: string; gate: string | null }
  | { result: 'UNKNOWN_TICKET'; other_event: string | null; given_back?: boolean }
  /** A repeated scan_id whose ticket is not checked in now: its check-in was undone (issue 21 item 13). */
  | { result: 'NOT_CHECKED_IN'; attendee: Attendee }
  /** A code that stopped working when its ticket was given to a friend (issue 25): the friend holds a new one. */
  | { result: 'TRANSFERRED' }
  /** A rotating ticket's time code missing, wrong or over a step old (issue 25, server/db/time-codes.ts): nothing recorded. */
  | { result: 'EXPIRED_CODE' }

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

/** The ticket holder of a code (any event), for the answer: who, which event (named when the viewer may see it), checked in when and where. */
async function holderOf(db: Db, ticketCode: string, viewerId: number) {
  const [row] = await db
    .select({
      eventId: participants.eventId,
      eventName: events.name,
      eventVisible: mayView(viewerId),
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

const attendeeOf = (h: { name: string; photoUrl: string | null; teamId: number | null; teamName: string | null }): Attendee => ({
  name: h.name,
  photo_url: h.photoUrl,
  team: h.teamId === null || h.teamName === null ? null : { id: h.teamId, name: h.teamName },
})

/** Another event's name for the 404, when the viewer may see that event; else nothing (drafts stay unnamed). */
const otherEvent = (h: { eventName: string; eventVisible: boolean }) => (h.eventVisible ? h.eventName : null)

/** The answer for a ticket the update did not check in: already in, or no ticket of this event. */
function notCheckedIn(holder: Holder | null, eventId: number): ScanAnswer {
  if (!holder || holder.eventId !== eventId) return { result: 'UNKNOWN_TICKET', other_event: holder ? otherEvent(holder) : null }
  if (holder.checkedInAt === null) return { result: 'UNKNOWN_TICKET', other_event: null }
  return { result: 'ALREADY_CHECKED_IN', attendee: attendeeOf(holder), checked_in_at: iso(holder.checkedInAt), gate: holder.gate }
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
  if (now.checkedInAt === null) return { result: 'NOT_CHECKED_IN', attendee: now.attendee }
  const at = now.checkedInAt.toISOString()
  if (first.result === 'CHECKED_IN' && first.checked_in_at === at) return first
  return { result: 'ALREADY_CHECKED_IN', attendee: now.attendee, checked_in_at: at, gate: now.gate }
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

export function doorRepository(db: Db) {
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
    scan: { scanId: string; eventId: number; ticketCode: string; gate: string; userId: number },
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
          const holder = await holderOf(tx, scan.ticketCode, scan.userId)
          const now = holder && holder.eventId === scan.eventId ? { checkedInAt: holder.checkedInAt, gate: holder.gate, attendee: attendeeOf(holder) } : null
          return done(replayed(prior.answer as ScanAnswer, now))
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

  /** A live scan: one conditional update decides; the read after it only says who and when. */
  async function liveCheckIn(tx: Db, eventId: number, ticketCode: string, gate: string, viewerId: number): Promise<ScanAnswer> {
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
    const holder = await holderOf(tx, ticketCode, viewerId)
    if (updated.length > 0 && holder) return { result: 'CHECKED_IN', attendee: attendeeOf(holder), checked_in_at: iso(updated[0].checkedInAt!) }
    const answer = notCheckedIn(holder, eventId)
    if (answer.result === 'UNKNOWN_TICKET' && !holder && (await transferredCodes(tx, eventId, [ticketCode])).size > 0) return { result: 'TRANSFERRED' }
    return answer
  }

  /** Offline scans, bounded: see the head of this file. Answers in the order sent. */
  async function syncScans(userId: number, eventId: number, scans: OfflineScan[]): Promise<(ScanAnswer & { scan_id: string })[]> {
    const now = new Date()
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
      // 5. This event's tickets among the codes, locked in id order, with who holds them.
      const locked = await tx
        .select({
          id: participants.id,
          code: participants.ticketCode,
          userId: participants.userId,
          checkedInAt: participants.checkedInAt,
          gate: participants.checkedInGate,
          collectedAt: participants.ticketCollectedAt,
          registeredAt: participants.createdAt,
          name: users.name,
          photoUrl: users.photoUrl,
          teamId: teams.id,
          teamName: teams.name,
        })
        .from(participants)
        .innerJoin(users, eq(users.id, participants.userId))
        .leftJoin(teams, eq(teams.id, participants.teamId))
        .where(and(eq(participants.eventId, eventId), eq(participants.ticketCollected, true), inArray(participants.ticketCode, [...known])))
        .orderBy(asc(participants.id))
        .for('update', { of: participants })
      // 6. The scan that made each standing check-in (an offline one may be taken over by an earlier offline scan).
      const inCodes = locked.filter((t) => t.checkedInAt !== null).map((t) => t.code!)
      const winners = new Map(
        (inCodes.length === 0
          ? []
          : await tx
              .selectDistinctOn([doorScans.ticketCode], { code: doorScans.ticketCode, scanId: doorScans.scanId, offline: doorScans.offline })
              .from(doorScans)
              .where(and(eq(doorScans.eventId, eventId), inArray(doorScans.ticketCode, inCodes), sql`${doorScans.answer}->>'result' = 'CHECKED_IN'`))
              .orderBy(doorScans.ticketCode, desc(doorScans.createdAt))
        ).map((w) => [w.code, { scanId: w.scanId, offline: w.offline }]),
      )
      // The decisions, in memory, in scanned_at order.
      const tickets = new Map(
        locked.map((t) => [
          t.code!,
          {
            ...t,
            attendee: attendeeOf(t),
            opensAt: t.collectedAt ?? t.registeredAt,
            before: { checkedInAt: t.checkedInAt, gate: t.gate },
            winner: winners.get(t.code!) ?? null,
          },
        ]),
      )
      type Ticket = NonNullable<ReturnType<typeof tickets.get>>
      const nowOf = (t: Ticket | undefined): TicketNow | null => (t ? { checkedInAt: t.checkedInAt, gate: t.gate, attendee: t.attendee } : null)
      const answers = new Map<string, ScanAnswer>() // the answers of this sync's fresh scans, by scan_id
      const scannedAt = new Map<string, Date>() // their times, in the door window
      const displaced = new Map<string, string>() // stored winners taken over by an earlier offline scan: scan_id to ticket code
      const results: (ScanAnswer & { scan_id: string })[] = new Array(scans.length)
      for (const i of order) {
        const scan = scans[i]
        const ticket = tickets.get(scan.ticket_code)
        let answer: ScanAnswer
        const first = firstOf.get(scan.scan_id)!
        if (first !== i) {
          // The same scan_id twice in one sync: a repeat of the first (a reuse for another ticket reads as no ticket).
          const firstAnswer = answers.get(scan.scan_id) ?? results[first]
          answer = scans[first].ticket_code !== scan.ticket_code || !firstAnswer ? unknown(scan.ticket_code) : replayed(firstAnswer, nowOf(ticket))
        } else if (!fresh.has(scan.scan_id)) {
          const prior = priors.get(scan.scan_id)
          if (!prior)
            answer = unknown(scan.ticket_code) // a code of no ticket of this event: nothing recorded
          else if (prior.eventId !== eventId || prior.ticketCode !== scan.ticket_code || !prior.answer)
            answer = { result: 'UNKNOWN_TICKET', other_event: null } // a scan_id reused for another ticket
          else answer = replayed(prior.answer as ScanAnswer, nowOf(ticket))
        } else if (!ticket) {
          answer = unknown(scan.ticket_code) // given back since step 1: its claim is removed below
          answers.set(scan.scan_id, answer)
        } else {
          const at = clampScan(scan.scanned_at, ticket.opensAt, now)
          scannedAt.set(scan.scan_id, at)
          const takesOver =
            ticket.checkedInAt !== null &&
            ticket.winner?.offline === true &&
            ticket.checkedInAt.getTime() > at.getTime() &&
            ticket.winner.scanId !== scan.scan_id
          if (ticket.checkedInAt === null || takesOver) {
            if (takesOver) {
              const loser = ticket.winner!.scanId
              if (fresh.has(loser))
                answers.set(loser, { result: 'ALREADY_CHECKED_IN', attendee: ticket.attendee, checked_in_at: at.toISOString(), gate: scan.gate })
              else displaced.set(loser, scan.ticket_code)
            }
            ticket.checkedInAt = at
            ticket.gate = scan.gate
            ticket.winner = { scanId: scan.scan_id, offline: true }
            answer = { result: 'CHECKED_IN', attendee: ticket.attendee, checked_in_at: at.toISOString() }
          } else {
            answer = { result: 'ALREADY_CHECKED_IN', attendee: ticket.attendee, checked_in_at: ticket.checkedInAt!.toISOString(), gate: ticket.gate }
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
      const changed = [...tickets.values()].filter((t) => t.checkedInAt?.getTime() !== t.before.checkedInAt?.getTime() || t.gate !== t.before.gate)
      if (changed.length > 0) {
        await tx.execute(sql`
          UPDATE participants SET checked_in_at = v.at::timestamptz, checked_in_gate = v.gate
          FROM (VALUES ${sql.join(
            changed.map((t) => sql`(${t.id}::int, ${t.checkedInAt!.toISOString()}, ${t.gate})`),
            sql`, `,
          )}) AS v(id, at, gate) WHERE participants.id = v.id`)
      }
      const stored: { scanId: string; answer: ScanAnswer; at: Date | null }[] = []
      for (const [scanId, answer] of answers) if (!noTicket(answer)) stored.push({ scanId, answer, at: scannedAt.get(scanId) ?? null })
      for (const [scanId, code] of displaced) {
        // It hears of the check-in as it finally stands (the ticket's state after the whole sync).
        const t = tickets.get(code)!
        stored.push({
          scanId,
          answer: { result: 'ALREADY_CHECKED_IN', attendee: t.attendee, checked_in_at: t.checkedInAt!.toISOString(), gate: t.gate },
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
      const rewritten = changed.filter((t) => t.before.checkedInAt !== null)
      if (rewritten.length > 0) {
        const [event] = await tx.select({ councilId: events.organizerId }).from(events).where(eq(events.id, eventId))
        await tx.insert(auditLog).values(
          rewritten.map((t) => ({
            actorId: userId,
            actorKind: 'user',
            action: 'door.rewrite',
            councilId: event?.councilId ?? null,
            eventId,
            before: { ticket_code: t.code, user_id: t.userId, checked_in_at: t.before.checkedInAt!.toISOString(), gate: t.before.gate },
            after: { ticket_code: t.code, user_id: t.userId, checked_in_at: t.checkedInAt!.toISOString(), gate: t.gate },
          })),
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
        })
        .from(events)
        .where(and(inArray(events.state, [...DOOR_STATES]), mayDoor(userId)))
        .orderBy(sql`${events.dates}->>0`, asc(events.id))
      return rows.map((r) => ({ ...r, checked_in: Number(r.checked_in) }))
    },

    /** Every ticket of the event, for offline checking. */
    async tickets(userId: number, eventId: number): Promise<Outcome<{ tickets: DoorTicket[]; as_of: string; released: string[]; rotating_codes: boolean }>> {
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
          secret: participants.ticketSecret,
        })
        .from(participants)
        .innerJoin(users, eq(users.id, participants.userId))
        .leftJoin(teams, eq(teams.id, participants.teamId))
        .where(and(eq(participants.eventId, eventId), eq(participants.ticketCollected, true), isNotNull(participants.ticketCode)))
        .orderBy(asc(participants.id))
      const released = await db.select({ code: releasedTickets.ticketCode }).from(releasedTickets).where(eq(releasedTickets.eventId, eventId))
      const [event] = await db.select({ rotating: events.rotatingCodes }).from(events).where(eq(events.id, eventId))
      const rotating = event?.rotating ?? true
      return done({
        as_of: asOf,
        released: released.map((r) => r.code),
        rotating_codes: rotating,
        tickets: rows.map((r) => ({
          ticket_code: r.code!,
          name: r.name,
          photo_url: r.photoUrl,
          team: r.teamId === null || r.teamName === null ? null : { id: r.teamId, name: r.teamName },
          checked_in_at: r.checkedInAt ? r.checkedInAt.toISOString() : null,
          gate: r.gate,
          secret: rotating ? r.secret : null,
        })),
      })
    },

    /** Checks a ticket in at a gate; the scan_id makes it safe to repeat. */
    async checkIn(userId: number, input: { eventId: number; ticketCode: string; scanId: string; gate: string }): Promise<Outcome<ScanAnswer>> {
      const denied = await access(userId, input.eventId)
      if (denied) return refused(denied)
      // The text read carries the time code where tickets rotate (issue 25): checked here, then the code alone.
      const scanned = await screenLive(db, input.eventId, input.ticketCode, input.scanId)
      if (scanned.expired) return done({ result: 'EXPIRED_CODE' })
      return recorded({ ...input, ticketCode: scanned.code, userId }, (tx) => liveCheckIn(tx, input.eventId, scanned.code, input.gate, userId))
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
