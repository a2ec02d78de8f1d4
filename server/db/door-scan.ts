// The door's live scans (server/db/door.ts joins the parts; the head of that file says how they stay safe under
// retries and races): a scan in or out, recorded under its scan_id with its answer, and the undo of a check-in.
import { and, eq } from 'drizzle-orm'
import { dayOf, decide, type Direction } from '../../contract/admission.ts'
import { admissionsOf, dropAdmission, rulesOf, saveAdmissions } from './admissions.ts'
import { recordAudit } from './audit.ts'
import {
  attendeeColumns,
  attendeeOf,
  dayField,
  doorAccess,
  givenBack,
  holderOf,
  isOut,
  iso,
  noTicket,
  notCheckedIn,
  onDay,
  replayed,
  type ScanAnswer,
  type TicketNow,
  ticketRows,
  transferredCodes,
} from './door-tickets.ts'
import type { Db } from './index.ts'
import { done, refused, type Outcome } from './outcomes.ts'
import { doorScans, events, participants } from './schema.ts'
import { screenLive } from './time-codes.ts'

/** Nothing happened (a code of no ticket): thrown to roll back the scan's claim on its scan_id. */
class Unrecorded extends Error {
  constructor(readonly answer: ScanAnswer) {
    super('unrecorded scan')
  }
}

/** `clock`: the server's time, injectable so tests can scan either side of midnight IST without waiting. */
export function doorScanRepository(db: Db, clock: () => Date = () => new Date()) {
  const access = (userId: number, eventId: number) => doorAccess(db, userId, eventId)

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
    const [ticket] = await ticketRows(tx, { id: participants.id, ...attendeeColumns })
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

  return {
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
