// What a door device downloads (server/db/door/door.ts joins the parts): the events where the user may check tickets
// now, and an event's every ticket, for checking offline.
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import { DOOR_STATES } from '../../../contract/door.ts'
import type { DoorAdmission, DoorDay, DoorEvent, DoorTicket } from '../../../contract/types.ts'
import { dayCounts, rulesOf } from './admissions.ts'
import { doorAccess, doorAnswersOf, mayDoor, ticketRows } from './tickets.ts'
import type { Db } from '../index.ts'
import { done, refused, type Outcome } from '../outcomes.ts'
import { admissions, events, participants, releasedTickets, teams, users } from '../schema.ts'

export function doorListRepository(db: Db) {
  return {
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
          fee: events.fee,
          methods: events.paymentMethods,
        })
        .from(events)
        .where(and(inArray(events.state, [...DOOR_STATES]), mayDoor(userId)))
        .orderBy(sql`${events.dates}->>0`, asc(events.id))
      const days = await dayCounts(
        db,
        rows.map((r) => r.id),
      )
      // Said only where they matter, so a single-day event without re-entry reads as before.
      return rows.map(({ reentry, fee, methods, ...r }) => {
        const its = days.get(r.id) ?? []
        // The payment desk (issue 35) where the event takes its fee at the door: the fee in paise.
        const desk = fee > 0 && methods.includes('DESK')
        return {
          ...r,
          checked_in: Number(r.checked_in),
          ...(its.length > 1 ? { days: its } : {}),
          ...(reentry ? { reentry } : {}),
          ...(desk ? { desk_fee: fee * 100 } : {}),
        }
      })
    },

    /** Every ticket of the event, for offline checking. */
    async tickets(
      userId: number,
      eventId: number,
    ): Promise<Outcome<{ tickets: DoorTicket[]; as_of: string; released: string[]; days: DoorDay[]; reentry: boolean; rotating_codes: boolean }>> {
      const denied = await doorAccess(db, userId, eventId)
      if (denied) return refused(denied)
      const asOf = new Date().toISOString()
      const [event] = await db.select({ questions: events.questions, rotating: events.rotatingCodes }).from(events).where(eq(events.id, eventId))
      // An event gone between the access check and this read keeps rotation on rather than failing.
      const rotating = event?.rotating ?? true
      const rows = await ticketRows(db, {
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
  }
}
