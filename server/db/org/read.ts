// The organiser console's reads of events (server/db/org/org.ts joins the repositories): the events as their organisers
// see them (every state, live counts, the fair draw, the door's days), what the audit log keeps of an event, and
// the participants a page at a time (the list and the streamed CSV).
import { PAYMENT_METHODS } from '../../../contract/payment-rules.ts'
import { and, asc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm'
import type { AnyEventState } from '../../../contract/constants.ts'
import type { OrgEvent, ParticipantRow, Question } from '../../../contract/types.ts'
import { dayCounts } from '../door/admissions.ts'
import { eventFields, iso } from '../events/events.ts'
import type { Db } from '../index.ts'
import type { EventRow } from './common.ts'
import { councils, events, fairDraws, fairEntrants, participants, teams, users, waitlist } from '../schema.ts'

/** The event's fields on the wire, as the console sees them (the audit log's before and after too). */
function orgFields(e: EventRow, organizer: { id: number; name: string; photo_url: string | null }, children: { id: number }[]) {
  return {
    ...eventFields(e, organizer, children),
    state: e.state as AnyEventState,
    date_ends: e.dates.map((_, i) => e.dateEnds[i] ?? null),
    long_description: e.longDescription,
    questions: e.questions as Question[],
    activity_points: e.activityPoints ?? null,
    transfer_closes_minutes: e.transferClosesMinutes ?? null,
    reentry: e.reentry,
    rotating_codes: e.rotatingCodes,
    payment:
      e.fee > 0
        ? {
            pay_within_minutes: e.payWithinMinutes,
            refund_until_hours: e.refundUntilHours,
            methods: PAYMENT_METHODS.filter((m) => e.paymentMethods.includes(m)),
          }
        : null,
  }
}

/** What the audit log keeps of an event: its own fields (no counts, no children). */
export function auditShape(e: EventRow) {
  const { organizer: _o, children: _c, ...rest } = orgFields(e, { id: e.organizerId, name: '', photo_url: null }, [])
  return { ...rest, organizer_id: e.organizerId }
}

/** Events of these councils (every event when null) with organiser, children and live counts. */
export async function loadOrgEvents(db: Db, where: SQL | undefined): Promise<OrgEvent[]> {
  const rows = await db
    .select({ event: events, organizer: { id: councils.id, name: councils.name, photo_url: councils.photoUrl } })
    .from(events)
    .innerJoin(councils, eq(councils.id, events.organizerId))
    .where(where)
    .orderBy(asc(sql`${events.dates}->>0`), asc(events.id))
  if (rows.length === 0) return []
  const ids = rows.map((r) => r.event.id)
  const [kids, counts, teamCounts, waiting, entered, drawn, days] = await Promise.all([
    db
      .select({ id: events.id, parentId: events.parentId })
      .from(events)
      .where(inArray(events.parentId, ids))
      .orderBy(asc(sql`${events.dates}->>0`), asc(events.id)),
    db
      .select({
        eventId: participants.eventId,
        registered: sql<number>`count(*)::int`,
        checkedIn: sql<number>`count(${participants.checkedInAt})::int`,
        ratings: sql<number>`count(${participants.rating})::int`,
        average: sql<string | null>`avg(${participants.rating})::float8`,
        s1: sql<number>`count(*) FILTER (WHERE ${participants.rating} = 1)::int`,
        s2: sql<number>`count(*) FILTER (WHERE ${participants.rating} = 2)::int`,
        s3: sql<number>`count(*) FILTER (WHERE ${participants.rating} = 3)::int`,
        s4: sql<number>`count(*) FILTER (WHERE ${participants.rating} = 4)::int`,
        s5: sql<number>`count(*) FILTER (WHERE ${participants.rating} = 5)::int`,
      })
      .from(participants)
      .where(inArray(participants.eventId, ids))
      .groupBy(participants.eventId),
    db.select({ eventId: teams.eventId, n: sql<number>`count(*)::int` }).from(teams).where(inArray(teams.eventId, ids)).groupBy(teams.eventId),
    db.select({ eventId: waitlist.eventId, n: sql<number>`count(*)::int` }).from(waitlist).where(inArray(waitlist.eventId, ids)).groupBy(waitlist.eventId),
    db
      .select({ eventId: fairEntrants.eventId, n: sql<number>`count(*)::int` })
      .from(fairEntrants)
      .where(inArray(fairEntrants.eventId, ids))
      .groupBy(fairEntrants.eventId),
    db
      .select({ eventId: fairDraws.eventId, winners: fairDraws.winners, waitlisted: fairDraws.waitlisted })
      .from(fairDraws)
      .where(inArray(fairDraws.eventId, ids)),
    dayCounts(db, ids),
  ])
  const children = new Map<number, { id: number }[]>()
  for (const k of kids) children.set(k.parentId!, [...(children.get(k.parentId!) ?? []), { id: k.id }])
  const byEvent = new Map(counts.map((c) => [c.eventId, c]))
  const teamsBy = new Map(teamCounts.map((c) => [c.eventId, Number(c.n)]))
  const waitingBy = new Map(waiting.map((c) => [c.eventId, Number(c.n)]))
  const enteredBy = new Map(entered.map((c) => [c.eventId, Number(c.n)]))
  const drawBy = new Map(drawn.map((d) => [d.eventId, { winners: d.winners, waitlisted: d.waitlisted }]))
  return rows.map(({ event, organizer }) => {
    const c = byEvent.get(event.id)
    const average = c?.average == null ? null : Math.round(Number(c.average) * 100) / 100
    return {
      ...orgFields(event, organizer, children.get(event.id) ?? []),
      counts: {
        registered: Number(c?.registered ?? 0),
        teams: teamsBy.get(event.id) ?? 0,
        tickets_sold: event.ticketsSold,
        checked_in: Number(c?.checkedIn ?? 0),
        waitlist: waitingBy.get(event.id) ?? 0,
        entrants: enteredBy.get(event.id) ?? 0,
        ratings: {
          count: Number(c?.ratings ?? 0),
          average,
          by_star: c ? [c.s1, c.s2, c.s3, c.s4, c.s5].map(Number) : [0, 0, 0, 0, 0],
        },
        // Per day on a multi-day event only (a single-day event's one day is `checked_in`).
        ...((days.get(event.id)?.length ?? 0) > 1 ? { days: days.get(event.id) } : {}),
      },
      draw: drawBy.get(event.id) ?? null,
    }
  })
}

/**
 * The event's participants in registration order, a page at a time (`afterId` the last participant id read),
 * for the list and the streamed CSV.
 */
export async function participantsPage(db: Db, eventId: number, afterId = 0, limit = 1000): Promise<(ParticipantRow & { participantId: number })[]> {
  const rows = await db
    .select({
      participantId: participants.id,
      user: {
        id: users.id,
        name: users.name,
        email: users.email,
        roll_number: users.rollNumber,
        phone_number: users.phoneNumber,
        branch: users.branch,
        year: users.year,
      },
      teamId: teams.id,
      teamName: teams.name,
      createdAt: participants.createdAt,
      ticketCollected: participants.ticketCollected,
      ticketCode: participants.ticketCode,
      checkedInAt: participants.checkedInAt,
      rating: participants.rating,
      answers: participants.answers,
      waitlistPosition: sql<
        number | null
      >`(SELECT count(*)::int FROM ${waitlist} AS ahead WHERE ahead.event_id = ${participants.eventId} AND ahead.id <= (SELECT w.id FROM ${waitlist} AS w WHERE w.event_id = ${participants.eventId} AND w.user_id = ${participants.userId}))`,
    })
    .from(participants)
    .innerJoin(users, eq(users.id, participants.userId))
    .leftJoin(teams, eq(teams.id, participants.teamId))
    .where(and(eq(participants.eventId, eventId), gt(participants.id, afterId)))
    .orderBy(asc(participants.id))
    .limit(limit)
  return rows.map((r) => ({
    participantId: r.participantId,
    user: r.user,
    team: r.teamId === null ? null : { id: r.teamId, name: r.teamName! },
    registered_at: r.createdAt.toISOString(),
    ticket_collected: r.ticketCollected,
    ticket_code: r.ticketCode,
    checked_in_at: iso(r.checkedInAt),
    rating: r.rating,
    // Null unless on the waitlist (the count of those ahead and the student).
    waitlist_position: r.waitlistPosition ? Number(r.waitlistPosition) : null,
    answers: r.answers ?? {},
  }))
}
