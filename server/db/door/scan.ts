// The door's live scans (server/db/door/door.ts joins the parts; the head of that file says how they stay safe under
// retries and races): one scan, in or out, decided in one transaction, and the undo of a check-in.
import { eq, sql } from 'drizzle-orm'
import { dayOf, type Direction } from '../../../contract/admission.ts'
import { splitScan } from '../../../contract/scan-text.ts'
import { timeCodeAdmits } from '../../../contract/time-code-check.ts'
import { type AdmissionRow, admissionsOf, dropAdmission, type Mirror, mirrorOf, rulesFrom, upsertAdmissions, writeMirrors } from './admissions.ts'
import { recordAudit } from '../audit.ts'
import {
  admitScan,
  attendeeOf,
  dayField,
  doorAccess,
  doorColumns,
  doorRefusal,
  isOut,
  lockTickets,
  replayed,
  type ScanAnswer,
  strayAnswers,
  ticketNow,
} from './tickets.ts'
import type { Db } from '../index.ts'
import { done, refused, rowsOf, type Outcome } from '../outcomes.ts'
import { doorScans } from '../schema.ts'

/** A live scan as the route hands it over: `ticketCode` is the text read (with its time code where tickets rotate). */
interface ScanInput {
  eventId: number
  ticketCode: string
  scanId: string
  gate: string
}

/** The scan_id's first scan, read with the ticket's lock (null: a new scan_id, as far as that statement saw). */
interface EarlierScan {
  eventId: number
  ticketCode: string
  answer: ScanAnswer | null
}

const earlierScan = (scanId: string) =>
  sql<EarlierScan | null>`(SELECT jsonb_build_object('eventId', ds.event_id, 'ticketCode', ds.ticket_code, 'answer', ds.answer)
    FROM door_scans ds WHERE ds.scan_id = ${scanId})`

/** A scan out's id used for a scan in (or the other way) is another scan, not a repeat. */
const sameWay = (first: ScanAnswer, direction: Direction) => isOut(first) === (direction === 'OUT')

/** The scan_id was claimed by another scan while this one was decided: this one is rolled back and asked again. */
class ClaimTaken extends Error {
  constructor() {
    super('scan_id claimed meanwhile')
  }
}

/** `clock`: the server's time, injectable so tests can scan either side of midnight IST without waiting. */
export function doorScanRepository(db: Db, clock: () => Date = () => new Date()) {
  /**
   * A live scan, in or out. A good scan is three statements in one transaction:
   * 1. the ticket's row locked, after the event's (so any number of gates scanning it at once are decided one after
   *    another, and exactly one admits it for the day), with who may scan, the event's rules, the ticket's secret and
   *    the scan_id's first answer, if any (lockTickets);
   * 2. the ticket's admissions, as the scans before this one left them (admissionsOf);
   * 3. the scan_id claimed with its answer, and the admission the scan made or changed written with the ticket's
   *    mirror, in one statement (recorded).
   * The time code is checked in between, by the server's clock; contract/admission.ts decides (admitScan).
   */
  async function scan(userId: number, input: ScanInput, direction: Direction): Promise<Outcome<ScanAnswer>> {
    // The text read carries the time code where tickets rotate (issue 25 item 1): looked up by the code alone.
    const read = splitScan(input.ticketCode)
    const now = clock()
    try {
      return await db.transaction(async (txn) => {
        const tx = txn as unknown as Db
        const [ticket] = await lockTickets(tx, input.eventId, [read.code], { ...doorColumns(userId), earlier: earlierScan(input.scanId) })
        if (!ticket) return strayScan(tx, userId, input, read.code, direction)
        const denied = doorRefusal(ticket)
        if (denied) return refused(denied)
        const timely = await timeCodeAdmits(read.time, ticket.secret, ticket.rotating, now.getTime())
        const attendee = attendeeOf(ticket)
        const first = ticket.earlier
        if (first) {
          // A repeat gets its first answer again whatever the time (that answer was lost on the way), as the ticket
          // stands now; a scan_id used for another ticket or the other way is refused.
          if (first.eventId !== input.eventId || first.ticketCode !== read.code) return timely ? refused('scanIdReused') : done({ result: 'EXPIRED_CODE' })
          if (!first.answer || !sameWay(first.answer, direction)) return refused('scanIdReused')
          return done(replayed(first.answer, ticketNow(attendee, await admissionsOf(tx, [ticket.id]), first.answer)))
        }
        // Nothing is recorded for a time code missing, wrong or over a step old.
        if (!timely) return done({ result: 'EXPIRED_CODE' })
        const rules = rulesFrom(ticket)
        const days = await admissionsOf(tx, [ticket.id])
        const day = dayOf(rules.days, now.getTime())
        const today = days.find((a) => a.day === day)
        const move = { direction, at: now, day, gate: input.gate, scanId: input.scanId, offline: false }
        const { answer, saved } = admitScan({ id: ticket.id, attendee }, today, move, rules)
        const mirror = saved && mirrorOf(ticket.id, [...days.filter((a) => a.day !== day), saved])
        if (!(await recorded(tx, { ...input, ticketCode: read.code, userId }, answer, saved, mirror))) throw new ClaimTaken()
        return done(answer)
      })
    } catch (err) {
      // The other scan has committed (a claim waits for it): asked again, this scan reads that one's answer as its first.
      if (err instanceof ClaimTaken) return scan(userId, input, direction)
      throw err
    }
  }

  /**
   * A code of no ticket of the event: nothing is recorded. A scan_id already recorded for it (its ticket was given
   * back or transferred since) answers that it is no ticket now; one recorded for another ticket is refused.
   */
  async function strayScan(tx: Db, userId: number, input: ScanInput, code: string, direction: Direction): Promise<Outcome<ScanAnswer>> {
    const denied = await doorAccess(tx, userId, input.eventId)
    if (denied) return refused(denied)
    const [first] = await tx
      .select({ eventId: doorScans.eventId, ticketCode: doorScans.ticketCode, answer: doorScans.answer })
      .from(doorScans)
      .where(eq(doorScans.scanId, input.scanId))
    if (!first) return done((await strayAnswers(tx, userId, input.eventId, [code])).get(code)!)
    const answer = first.answer as ScanAnswer | null
    if (first.eventId !== input.eventId || first.ticketCode !== code || !answer || !sameWay(answer, direction)) return refused('scanIdReused')
    return done(replayed(answer, null))
  }

  /**
   * The scan_id claimed with its answer and, when the scan made or changed an admission, that admission and the
   * ticket's mirror written: one statement. False when the scan_id was taken meanwhile (the caller rolls back).
   */
  async function recorded(
    tx: Db,
    scan: ScanInput & { userId: number },
    answer: ScanAnswer,
    saved: AdmissionRow | undefined,
    mirror: Mirror | undefined,
  ): Promise<boolean> {
    const claim = tx
      .insert(doorScans)
      .values({ scanId: scan.scanId, eventId: scan.eventId, ticketCode: scan.ticketCode, gate: scan.gate, offline: false, scannedBy: scan.userId, answer })
      .onConflictDoNothing({ target: doorScans.scanId })
      .returning({ scanId: doorScans.scanId })
    if (!saved || !mirror) return (await claim).length > 0
    const written = await tx.execute(sql`WITH claim AS (${claim.getSQL()}),
      saved AS (${upsertAdmissions(tx, scan.eventId, [saved]).getSQL()}),
      mirrored AS (${writeMirrors([mirror])})
      SELECT scan_id FROM claim`)
    return rowsOf(written).length > 0
  }

  return {
    /** Checks a ticket in at a gate; the scan_id makes it safe to repeat. */
    checkIn: (userId: number, input: ScanInput) => scan(userId, input, 'IN'),

    /** Scans a ticket out, on an event with re-entry (issue 25 item 3); the scan_id makes it safe to repeat. */
    checkOut: (userId: number, input: ScanInput) => scan(userId, input, 'OUT'),

    /** Undoes a check-in (the volunteer let the wrong person in, or scanned twice by mistake); audited. */
    async undo(userId: number, eventId: number, ticketCode: string): Promise<Outcome> {
      const denied = await doorAccess(db, userId, eventId)
      if (denied) return refused(denied)
      return db.transaction(async (txn) => {
        const tx = txn as unknown as Db
        const [ticket] = await lockTickets(tx, eventId, [ticketCode], {})
        if (!ticket) return refused('unknownTicket')
        // Today's admission (a single-day event's only one): the volunteer undoes what the door just did.
        const rules = rulesFrom(ticket)
        const day = dayOf(rules.days, clock().getTime())
        const days = await admissionsOf(tx, [ticket.id])
        const today = days.find((a) => a.day === day)
        if (!today) return refused('notCheckedIn')
        await dropAdmission(
          tx,
          ticket.id,
          day,
          mirrorOf(
            ticket.id,
            days.filter((a) => a !== today),
          ),
        )
        const was = { ticket_code: ticketCode, user_id: ticket.userId }
        await recordAudit(tx, {
          actorId: userId,
          actorKind: 'user',
          action: 'door.undo',
          councilId: ticket.councilId,
          eventId,
          before: { ...was, checked_in_at: today.checkedInAt.toISOString(), gate: today.gate, ...dayField(rules, day) },
          after: { ...was, checked_in_at: null, gate: null, ...dayField(rules, day) },
        })
        return done(undefined)
      })
    },
  }
}
