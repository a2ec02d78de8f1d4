// The door's offline scans (server/db/door/door.ts joins the parts; the head of that file says how a sync stays bounded
// and safe under retries and races): a batch applied in scanned_at order, answered in the order sent.
import { and, eq, inArray, sql } from 'drizzle-orm'
import { dayOf, type Direction, scanTimeBelievable } from '../../../contract/admission.ts'
import { type AdmissionRow, admissionsOf, mirrorOf, rulesFrom, saveAdmissions } from './admissions.ts'
import {
  admitScan,
  attendeeOf,
  clampScan,
  dayField,
  doorAccess,
  lockTickets,
  replayed,
  type ScanAnswer,
  strayAnswers,
  type TicketNow,
  ticketNow,
} from './tickets.ts'
import type { Db } from '../index.ts'
import { done, refused, type Outcome } from '../outcomes.ts'
import { auditLog, doorScans, participants } from '../schema.ts'
import { screenScans } from './time-codes.ts'

export interface OfflineScan {
  ticket_code: string
  scan_id: string
  gate: string
  scanned_at: string
  direction?: Direction
}

/** When each of these codes' tickets of the event was issued (its door window opened), in ms. */
async function issuedAt(db: Db, eventId: number, codes: string[]): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map()
  const rows = await db
    .select({ code: participants.ticketCode, at: participants.ticketCollectedAt })
    .from(participants)
    .where(and(eq(participants.eventId, eventId), inArray(participants.ticketCode, codes)))
  return new Map(rows.map((r) => [r.code!, r.at ? r.at.getTime() : 0]))
}

/** `clock`: the server's time, injectable so tests can scan either side of midnight IST without waiting. */
export function doorSyncRepository(db: Db, clock: () => Date = () => new Date()) {
  /** Offline scans, bounded: see the head of this file. Answers in the order sent. */
  async function syncScans(userId: number, eventId: number, scans: OfflineScan[]): Promise<(ScanAnswer & { scan_id: string })[]> {
    const now = clock()
    const order = scans.map((_, i) => i).sort((a, b) => Date.parse(scans[a].scanned_at) - Date.parse(scans[b].scanned_at) || a - b)
    const codes = [...new Set(scans.map((s) => s.ticket_code))]
    // Each scan_id is decided by its first scan in application order; a later one with that id repeats it.
    const firstOf = new Map<string, number>()
    for (const i of order) if (!firstOf.has(scans[i].scan_id)) firstOf.set(scans[i].scan_id, i)

    // 1. Which codes are tickets of this event (unlocked: only the scans of these are decided below; any other code
    // is no ticket of the event, whatever its scan_id was used for before).
    const known = new Set(
      (
        await db
          .select({ code: participants.ticketCode })
          .from(participants)
          .where(and(eq(participants.eventId, eventId), eq(participants.ticketCollected, true), inArray(participants.ticketCode, codes)))
      ).map((r) => r.code!),
    )
    // 2. The answers for the other codes: TRANSFERRED, given back, or another event's (named only when the volunteer
    // may see that event).
    const strays = await strayAnswers(
      db,
      userId,
      eventId,
      codes.filter((c) => !known.has(c)),
    )
    const unknown = (code: string): ScanAnswer => strays.get(code) ?? { result: 'UNKNOWN_TICKET', other_event: null }
    // Nothing but codes of no ticket (a mistyped batch, or the issue's 100 unknown codes): a few reads, no transaction.
    if (known.size === 0) return scans.map((scan) => ({ ...unknown(scan.ticket_code), scan_id: scan.scan_id }))

    return db.transaction(async (txn) => {
      const tx = txn as unknown as Db
      // 3. This event's tickets among the codes, locked in id order, with who holds them and the event's rules (the
      // live scan's lock too: tickets first, then scan_ids). A code given back or transferred since step 1 is answered
      // as no ticket.
      const locked = await lockTickets(tx, eventId, [...known], {})
      const rules = locked.length > 0 ? rulesFrom(locked[0]) : { days: [], reentry: false }
      interface Day extends AdmissionRow {
        before: AdmissionRow | null
        dirty: boolean
      }
      const tickets = new Map(
        locked.map((t) => [t.code!, { ...t, attendee: attendeeOf(t), opensAt: t.collectedAt ?? t.registeredAt, days: new Map<string, Day>() }]),
      )
      const gone = [...known].filter((c) => !tickets.has(c))
      for (const [code, answer] of await strayAnswers(tx, userId, eventId, gone)) strays.set(code, answer)
      // 4. The scans of those tickets claim their ids, in id order; an id already taken is a repeat.
      const toClaim = [...firstOf.entries()].filter(([, i]) => tickets.has(scans[i].ticket_code)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      const fresh = new Set<string>()
      if (toClaim.length > 0) {
        const claimed = await tx
          .insert(doorScans)
          .values(toClaim.map(([scanId, i]) => ({ scanId, eventId, ticketCode: scans[i].ticket_code, gate: scans[i].gate, offline: true, scannedBy: userId })))
          .onConflictDoNothing({ target: doorScans.scanId })
          .returning({ scanId: doorScans.scanId })
        for (const c of claimed) fresh.add(c.scanId)
      }
      // 5. The stored answers of the repeated ids (of known codes: any other scan is answered as no ticket).
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
      // 6. Each ticket's admissions (the scan that made each day's check-in is in it: an offline one may be taken over
      // by an earlier offline scan).
      const byId = new Map(locked.map((t) => [t.id, tickets.get(t.code!)!]))
      for (const a of await admissionsOf(
        tx,
        locked.map((t) => t.id),
      ))
        byId.get(a.participantId)?.days.set(a.day, { ...a, before: { ...a }, dirty: false })
      type Ticket = NonNullable<ReturnType<typeof tickets.get>>
      const nowOf = (t: Ticket | undefined, first: ScanAnswer): TicketNow | null => (t ? ticketNow(t.attendee, [...t.days.values()], first) : null)
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
        } else if (!fresh.has(scan.scan_id) || !ticket) {
          // (A claimed scan always has its ticket: only the locked tickets' scans are claimed.)
          const prior = priors.get(scan.scan_id)
          if (!prior)
            answer = unknown(scan.ticket_code) // a code of no ticket of this event: nothing recorded
          else if (prior.eventId !== eventId || prior.ticketCode !== scan.ticket_code || !prior.answer)
            answer = { result: 'UNKNOWN_TICKET', other_event: null } // a scan_id reused for another ticket
          else answer = replayed(prior.answer as ScanAnswer, nowOf(ticket, prior.answer as ScanAnswer))
        } else {
          const at = clampScan(scan.scanned_at, ticket.opensAt, now)
          scannedAt.set(scan.scan_id, at)
          // Each scan counts for the event day of its own time (contract/admission.ts), whenever it syncs.
          const day = dayOf(rules.days, at.getTime())
          const today = ticket.days.get(day)
          const direction = scan.direction ?? 'IN'
          const takesOver =
            direction === 'IN' && today !== undefined && today.offline && today.scanId !== scan.scan_id && today.checkedInAt.getTime() > at.getTime()
          if (takesOver) {
            const loser = today.scanId!
            const dayOfAnswer = dayField(rules, day)
            if (fresh.has(loser))
              answers.set(loser, { result: 'ALREADY_CHECKED_IN', attendee: ticket.attendee, checked_in_at: at.toISOString(), gate: scan.gate, ...dayOfAnswer })
            else displaced.set(loser, { code: scan.ticket_code, day })
            Object.assign(today, { checkedInAt: at, gate: scan.gate, scanId: scan.scan_id, dirty: true })
            answer = { result: 'CHECKED_IN', attendee: ticket.attendee, checked_in_at: at.toISOString(), ...dayOfAnswer }
          } else {
            const decided = admitScan(ticket, today, { direction, at, day, gate: scan.gate, scanId: scan.scan_id, offline: true }, rules)
            if (decided.saved) ticket.days.set(day, { ...decided.saved, before: today?.before ?? null, dirty: true })
            answer = decided.answer
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
      const moved = [...tickets.values()].filter((t) => [...t.days.values()].some((d) => d.dirty))
      const changed = moved.flatMap((t) => [...t.days.values()].filter((d) => d.dirty))
      await saveAdmissions(
        tx,
        eventId,
        changed.map(({ before: _before, dirty: _dirty, ...row }) => row),
        moved.map((t) => mirrorOf(t.id, t.days.values())),
      )
      const stored: { scanId: string; answer: ScanAnswer; at: Date | null }[] = []
      for (const [scanId, answer] of answers) stored.push({ scanId, answer, at: scannedAt.get(scanId) ?? null })
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
      // A check-in whose time or gate an offline scan rewrote is audited (issue 21 item 6), like an undo.
      const rewritten = changed.filter((d) => d.before !== null && (d.before.checkedInAt.getTime() !== d.checkedInAt.getTime() || d.before.gate !== d.gate))
      if (rewritten.length > 0) {
        await tx.insert(auditLog).values(
          rewritten.map((d) => {
            const t = byId.get(d.participantId)!
            return {
              actorId: userId,
              actorKind: 'user',
              action: 'door.rewrite',
              councilId: t.councilId,
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
    /** Offline scans: applied in scanned_at order (ties in the order sent), answered in the order sent. */
    async sync(userId: number, eventId: number, scans: OfflineScan[]): Promise<Outcome<(ScanAnswer & { scan_id: string })[]>> {
      const denied = await doorAccess(db, userId, eventId)
      if (denied) return refused(denied)
      if (scans.length === 0) return done([])
      const received = clock().getTime()
      // Each time code checked against its scan's scanned_at (issue 25); the refused ones are answered apart.
      const codes = await screenScans(
        db,
        eventId,
        scans.map((s) => ({ text: s.ticket_code, atMs: Date.parse(s.scanned_at) })),
      )
      // A scan whose time cannot be believed (before its ticket was issued, or after now and a little) admits nobody
      // and records nothing (issue 36 item 6): answered EXPIRED_CODE, as a time code that does not hold. A code of no
      // ticket is left to the sync, which answers it UNKNOWN_TICKET and records nothing either.
      const issued = await issuedAt(db, eventId, [...new Set(codes.map((c) => c.code))])
      const screened = codes.map((c, i) => {
        const opens = issued.get(c.code)
        return opens === undefined || scanTimeBelievable(Date.parse(scans[i].scanned_at), opens, received) ? c : { ...c, expired: true }
      })
      const passing = scans.flatMap((s, i) => (screened[i].expired ? [] : [{ ...s, ticket_code: screened[i].code }]))
      const decided = passing.length > 0 ? await syncScans(userId, eventId, passing) : []
      let next = 0
      return done(scans.map((s, i) => (screened[i].expired ? { result: 'EXPIRED_CODE' as const, scan_id: s.scan_id } : decided[next++])))
    },
  }
}
