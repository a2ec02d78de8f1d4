// The sync's check of its scans' time codes (issue 25 item 1; the code itself: contract/time-code.ts). Before the
// scans are looked up, each text read is split into the ticket code and its time code, and refused (EXPIRED_CODE) when
// the event's tickets rotate and the time code is missing, wrong or outside the step of the scan's scanned_at and one
// either side. A code of no ticket of the event is passed on as it is, to be answered as before (UNKNOWN_TICKET,
// TRANSFERRED). Nothing is recorded for a refused scan. (A live scan checks its time code by the server's clock with
// the ticket's row lock, which reads the secret: server/db/door/scan.ts.)
import { and, eq, inArray } from 'drizzle-orm'
import { splitScan } from '../../../contract/scan-text.ts'
import { timeCodeAdmits } from '../../../contract/time-code-check.ts'
import type { Db } from '../index.ts'
import { events, participants } from '../schema.ts'

export interface Screened {
  /** The ticket code alone: what the scan is looked up and recorded by. */
  code: string
  expired: boolean
}

/** Each scanned text of the event split and checked at its own time (ms); one read for all of them. */
export async function screenScans(db: Db, eventId: number, scans: { text: string; atMs: number }[]): Promise<Screened[]> {
  const split = scans.map((s) => ({ ...splitScan(s.text), atMs: s.atMs }))
  const rows = await db
    .select({ code: participants.ticketCode, secret: participants.ticketSecret, rotating: events.rotatingCodes })
    .from(participants)
    .innerJoin(events, eq(events.id, participants.eventId))
    .where(and(eq(participants.eventId, eventId), inArray(participants.ticketCode, [...new Set(split.map((s) => s.code))])))
  const secrets = new Map(rows.map((r) => [r.code!, r.rotating ? r.secret : null]))
  return Promise.all(split.map(async (s) => ({ code: s.code, expired: !(await timeCodeAdmits(s.time, secrets.get(s.code), true, s.atMs)) })))
}
