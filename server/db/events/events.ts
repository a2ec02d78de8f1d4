// The events repository: the event reads in their wire shapes (API.md "Entities on the wire") with a constant
// number of queries per call, whatever the number of events (the list is two queries, a detail four at most),
// and the student's writes on an event other than the ticket claim (claims.ts). Each write that can race is one
// conditional statement; the reads after a refused write only choose the refusal, never whether it happens.
import { and, asc, eq, exists, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm'
import type { EventDetail, EventsByState, EventSummary, MyEvent, Organizer, Question, Schedule } from '../../../contract/types.ts'
import { EVENT_STATES, type AnyEventState, type EventState } from '../../../contract/constants.ts'
import { newTicketCode } from '../tickets/claims.ts'
import { participantPaymentOf, paymentSettingsOf, paymentsRepository, receiptNumber } from '../payments/payments.ts'
import type { Db } from '../index.ts'
import { admissions, councils, events, participants, payments as paymentRows, teams } from '../schema.ts'
import { done, refused, rowsOf, type Outcome } from '../outcomes.ts'
import { loadTeam } from '../teams/teams.ts'
import { type AskedQuestion, checkAnswers } from '../../../contract/questions.ts'
import { istDay } from '../../../contract/admission.ts'
import { heldUntil, waitlistPlaceOf } from '../tickets/waitlist.ts'
import { fairRepository, fairStartOf } from '../tickets/fair.ts'

type EventRow = typeof events.$inferSelect
/** An event students may see: anything but a DRAFT (API.md Part 2: a draft exists only in the console). */
type PublishedRow = EventRow & { state: EventState }

/** The condition every student read carries: drafts are never listed, and a draft's id answers 404. */
const published = ne(events.state, 'DRAFT')
type Teamlet = { id: number; name: string }

const organizerColumns = { id: councils.id, name: councils.name, photo_url: councils.photoUrl }

/**
 * Every wire field of an event except the caller's participation; its state's type is the row's (a student's
 * read passes a PublishedRow; the console's, in org.ts, any row, drafts included).
 */
export function eventFields<R extends EventRow>(e: R, organizer: Organizer, children: { id: number }[]) {
  return {
    id: e.id,
    name: e.name,
    description: e.description,
    event_page_image_url: e.eventPageImageUrl,
    banner_url: e.bannerUrl,
    dates: e.dates,
    venue: e.venue,
    tags: e.tags,
    organizer,
    parent_id: e.parentId,
    children,
    state: e.state as R['state'],
    fee: e.fee,
    ma_ppt: e.maPpt,
    min_ppt: e.minPpt,
    registration_type: e.registrationType,
    external_registration_link: e.externalRegistrationLink,
    start_in_event_activity: e.startInEventActivity,
    in_event_activity: e.inEventActivity,
    is_ticket_feature_enabled: e.isTicketFeatureEnabled,
    ticket_count: e.ticketCount,
    tickets_sold: e.ticketsSold,
    schedule: scheduleOf(e),
    fair_start: fairStartOf(e),
  }
}

export const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** The event's schedule on the wire (API.md Part 2): each step's time, or null. */
export function scheduleOf(e: EventRow): Schedule {
  return {
    registration_opens_at: iso(e.registrationOpensAt),
    registration_closes_at: iso(e.registrationClosesAt),
    tickets_open_at: iso(e.ticketsOpenAt),
    tickets_close_at: iso(e.ticketsCloseAt),
    starts_at: iso(e.startsAt),
    ends_at: iso(e.endsAt),
  }
}

/** Events in list order: by first date, then id, so every screen shows the same order. */
const firstDate = sql`${events.dates}->>0`

/** Children ids of the given parents, in the same order as the lists, grouped by parent. */
async function childrenOf(db: Db, parentIds: number[]): Promise<Map<number, { id: number }[]>> {
  const map = new Map<number, { id: number }[]>()
  if (parentIds.length === 0) return map
  const rows = await db
    .select({ id: events.id, parentId: events.parentId })
    .from(events)
    .where(and(inArray(events.parentId, parentIds), published))
    .orderBy(asc(firstDate), asc(events.id))
  for (const r of rows) {
    const list = map.get(r.parentId!) ?? []
    list.push({ id: r.id })
    map.set(r.parentId!, list)
  }
  return map
}

/** The caller's participations (with team id and name), keyed by event id. */
async function participationsOf(db: Db, userId: number, eventIds?: number[]) {
  const rows = await db
    .select({
      id: participants.id,
      eventId: participants.eventId,
      ticketCollected: participants.ticketCollected,
      checkedInAt: participants.checkedInAt,
      createdAt: participants.createdAt,
      teamId: teams.id,
      teamName: teams.name,
    })
    .from(participants)
    .leftJoin(teams, eq(teams.id, participants.teamId))
    .where(and(eq(participants.userId, userId), eventIds ? inArray(participants.eventId, eventIds) : undefined))
    .orderBy(asc(participants.createdAt), asc(participants.id))
  return rows.map((r) => ({
    id: r.id,
    eventId: r.eventId,
    ticket_collected: r.ticketCollected,
    checkedInAt: r.checkedInAt,
    team: r.teamId === null ? null : ({ id: r.teamId, name: r.teamName! } satisfies Teamlet),
  }))
}

/** The narrowing fields of POST /event/p/get (contract: listQuery); each absent field narrows nothing. */
export interface EventListQuery {
  scope?: 'home'
  month?: string
  parent_id?: number
  mine?: boolean
}

/** What Home shows (SPEC §2): its sections read these states; past events only for "Your Tickets". */
const HOME_STATES: EventState[] = ['UPCOMING', 'REGISTRATION_OPEN', 'TICKET_OPEN', 'ONGOING']

/** A week either side of the month: the calendar's grid shows the neighbouring months' days of its weeks. */
export function monthWindow(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number]
  const day = (monthIndex: number, date: number) => {
    const d = new Date(0)
    d.setUTCFullYear(y, monthIndex, date) // not Date.UTC, which reads years 0-99 as 1900-1999
    const year = d.getUTCFullYear()
    // Past the four-digit years the dates are written in: before or after every date.
    if (year < 0) return '0000'
    if (year > 9999) return '9999-99'
    const two = (n: number) => String(n).padStart(2, '0')
    return `${String(year).padStart(4, '0')}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}`
  }
  return { from: day(m - 1, 1 - 7), to: day(m, 1 + 7) }
}

/** The query's conditions on `events` (AND-ed with `published`). */
function listFilters(userId: number, query: EventListQuery) {
  const takesPart = (collected: boolean) =>
    exists(
      sql`(select 1 from ${participants} where ${participants.eventId} = ${events.id} and ${participants.userId} = ${userId}${
        collected ? sql` and ${participants.ticketCollected}` : sql``
      })`,
    )
  const filters = []
  if (query.scope === 'home') {
    filters.push(or(inArray(events.state, HOME_STATES), and(eq(events.state, 'TICKET_CLOSED'), takesPart(true))))
  }
  if (query.month !== undefined) {
    // Dates are ISO-8601 strings in order: compared as text against the window's day keys (indexed, 0007).
    const { from, to } = monthWindow(query.month)
    filters.push(sql`(${events.dates}->>0) < ${to}`, sql`(${events.dates}->>-1) >= ${from}`)
  }
  if (query.parent_id !== undefined) filters.push(eq(events.parentId, query.parent_id))
  if (query.mine === true) filters.push(takesPart(false))
  return filters
}

export function eventsRepository(db: Db, options: { razorpay?: boolean } = {}) {
  const fair = fairRepository(db)
  const payments = paymentsRepository(db)

  /** The event's row for choosing a refusal, or null. */
  async function find(eventId: number) {
    const [event] = await db
      .select()
      .from(events)
      .where(and(eq(events.id, eventId), published))
    return event ?? null
  }

  return {
    find,

    /**
     * The events as summaries for the caller, grouped by state in SPEC order; a key only where non-empty. Without
     * a query, every event; the query's fields narrow it (issue 15), each one a filter the indexes serve.
     */
    async listByState(userId: number, query: EventListQuery = {}): Promise<EventsByState> {
      const narrowed = query.scope !== undefined || query.month !== undefined || query.parent_id !== undefined || query.mine !== undefined
      const [rows, mine] = await Promise.all([
        db
          .select({ event: events, organizer: organizerColumns })
          .from(events)
          .innerJoin(councils, eq(councils.id, events.organizerId))
          .where(and(published, ...listFilters(userId, query)))
          .orderBy(asc(firstDate), asc(events.id)),
        participationsOf(db, userId),
      ])
      let children: Map<number, { id: number }[]>
      if (narrowed) {
        // A narrowed list does not hold every child: one more query, for the listed events' children only.
        children = await childrenOf(
          db,
          rows.map((r) => r.event.id),
        )
      } else {
        // Every event is in the list, so the children come from the list itself: no third query.
        children = new Map()
        for (const { event } of rows) {
          if (event.parentId === null) continue
          const list = children.get(event.parentId) ?? []
          list.push({ id: event.id })
          children.set(event.parentId, list)
        }
      }
      const byEvent = new Map(mine.map((p) => [p.eventId, p]))
      const grouped: EventsByState = {}
      for (const state of EVENT_STATES) {
        const list = rows.filter((r) => r.event.state === state)
        if (list.length === 0) continue
        grouped[state] = list.map(({ event, organizer }) => {
          const p = byEvent.get(event.id)
          return {
            ...eventFields(event as PublishedRow, organizer, children.get(event.id) ?? []),
            Participant: p ? { ticket_collected: p.ticket_collected, team: p.team } : false,
          }
        })
      }
      return grouped
    },

    /** The caller's participations, each with its event as a summary, most recent registration last. */
    async listMine(userId: number): Promise<MyEvent[]> {
      const mine = await participationsOf(db, userId)
      if (mine.length === 0) return []
      const ids = mine.map((p) => p.eventId)
      const [rows, children, paid] = await Promise.all([
        db
          .select({ event: events, organizer: organizerColumns })
          .from(events)
          .innerJoin(councils, eq(councils.id, events.organizerId))
          .where(and(inArray(events.id, ids), published)),
        childrenOf(db, ids),
        // The receipts of the student's paid places (issue 35): My Events links each one's PDF.
        db
          .select({ eventId: paymentRows.eventId, receiptNo: paymentRows.receiptNo })
          .from(paymentRows)
          .where(and(eq(paymentRows.userId, userId), eq(paymentRows.status, 'PAID'), isNull(paymentRows.doubleOf), isNotNull(paymentRows.receiptNo))),
      ])
      const receipts = new Map(paid.map((r) => [r.eventId, receiptNumber(r.receiptNo!)]))
      const byId = new Map(rows.map((r) => [r.event.id, r]))
      return mine.flatMap((p) => {
        const row = byId.get(p.eventId)
        if (!row) return []
        const event: EventSummary = {
          ...eventFields(row.event as PublishedRow, row.organizer, children.get(p.eventId) ?? []),
          Participant: { ticket_collected: p.ticket_collected, team: p.team },
        }
        return [
          {
            id: p.id,
            ticket_collected: p.ticket_collected,
            team: p.team,
            event,
            checked_in_at: iso(p.checkedInAt),
            ...(receipts.has(p.eventId) && { receipt: receipts.get(p.eventId) }),
          },
        ]
      })
    },

    /**
     * A fair opening's published keys, sorted (kept in memory once read: fair.ts), 'pending' before its draw (or for an
     * event without one), or null when there is no such event.
     */
    async drawKeys(eventId: number): Promise<string[] | 'pending' | null> {
      const [row] = await db
        .select({ drawnAt: events.fairDrawnAt })
        .from(events)
        .where(and(eq(events.id, eventId), published))
      if (!row) return null
      const drawn = row.drawnAt ? await fair.published(eventId) : null
      return drawn ? drawn.keys : 'pending'
    },

    /** One event in full for the caller, or null when there is no such event; a drawn event's keys only with `withKeys`. */
    async detail(eventId: number, userId: number, withKeys = false): Promise<EventDetail | null> {
      const [[row], children, [mine], [door]] = await Promise.all([
        db
          .select({ event: events, organizer: organizerColumns, upi: sql<boolean>`(${councils.upiVpa} IS NOT NULL AND ${councils.upiName} IS NOT NULL)` })
          .from(events)
          .innerJoin(councils, eq(councils.id, events.organizerId))
          .where(and(eq(events.id, eventId), published)),
        childrenOf(db, [eventId]),
        db
          .select()
          .from(participants)
          .where(and(eq(participants.eventId, eventId), eq(participants.userId, userId))),
        db
          .select({ id: participants.id })
          .from(participants)
          .where(and(eq(participants.eventId, eventId), isNotNull(participants.checkedInAt)))
          .limit(1),
      ])
      if (!row) return null
      const team = mine?.teamId != null ? await loadTeam(db, mine.teamId) : null
      const waitlist = mine && !mine.ticketCollected && row.event.state === 'TICKET_OPEN' ? await waitlistPlaceOf(db, eventId, userId) : null
      // A fair opening: the published draw (keys, seed) once it has run, and the caller's entry.
      const fields = eventFields(row.event as PublishedRow, row.organizer, children.get(eventId) ?? [])
      const drawn = fields.fair_start && row.event.fairDrawnAt ? await fair.published(eventId) : null
      if (fields.fair_start && drawn && withKeys) fields.fair_start.keys = drawn.keys
      const draw = mine && fields.fair_start ? await fair.entryOf(eventId, userId, drawn) : null
      const ev = row.event
      const held =
        ev.state === 'TICKET_OPEN' && ev.isTicketFeatureEnabled ? await heldUntil(db, eventId, ev.ticketCount - ev.ticketsSold - ev.ticketsHeld) : null
      // A paid event (issue 35): the caller's payment for their place, and how the fee is paid.
      const payment = mine && ev.fee > 0 ? await payments.ofStudent(eventId, userId) : null
      // A ticket of a multi-day event (issue 37 item 3): the days the door admitted it on, for the ticket page.
      const manyDays = new Set(fields.dates.map((d) => istDay(Date.parse(d)))).size > 1
      const daysUsed =
        mine?.ticketCollected && manyDays
          ? (await db.select({ day: admissions.day }).from(admissions).where(eq(admissions.participantId, mine.id)).orderBy(asc(admissions.day))).map(
              (a) => a.day,
            )
          : null
      return {
        ...fields,
        long_description: row.event.longDescription,
        questions: row.event.questions as Question[],
        Participant: mine
          ? {
              id: mine.id,
              ticket_collected: mine.ticketCollected,
              ticket_code: mine.ticketCode,
              // The time code's secret (issue 25), only while the event's tickets rotate: printed tickets need none.
              ticket_secret: ev.rotatingCodes ? mine.ticketSecret : null,
              team,
              checked_in_at: iso(mine.checkedInAt),
              rating: mine.rating,
              waitlist,
              answers: mine.answers ?? {},
              draw,
              // Said only on a paid event (issue 35): a free event's participation reads exactly as before.
              ...(ev.fee > 0 ? { payment: payment ? participantPaymentOf(payment) : null } : {}),
              // Said only for a ticket of a multi-day event: any other participation reads exactly as before.
              ...(daysUsed ? { days_used: daysUsed } : {}),
            }
          : false,
        door_checked_in: door !== undefined,
        held_until: held,
        // Said only when on (issue 25 item 3): the detail reads as before for every other event.
        ...(ev.reentry ? { reentry: true } : {}),
        server_time: new Date().toISOString(),
        // Said only on a paid event, and only once cancelled: a free event's detail reads exactly as before.
        ...(ev.fee > 0 ? { payment: paymentSettingsOf(ev, { razorpay: options.razorpay === true, upi: Boolean(row.upi) }) } : {}),
        ...(ev.cancelledAt ? { cancelled: true } : {}),
      }
    },

    /** Registers the caller for an individual event that is open for registration, with their answers. */
    /**
     * Registers the caller; on an event with a fee and no tickets (issue 35, API.md Part 4) the registration is held for
     * its payment (a REGISTRATION payment, PENDING until pay_by, in the same statement): answers that pay_by, else null.
     */
    async register(userId: number, eventId: number, given?: Record<string, unknown> | null): Promise<Outcome<{ payBy: string } | null>> {
      // The answers are checked against the event's questions before anything is written (400 naming the question).
      let answers: Record<string, string> = {}
      const [asked] = await db
        .select({ questions: events.questions, state: events.state, maPpt: events.maPpt })
        .from(events)
        .where(and(eq(events.id, eventId), published))
      if (asked && asked.state === 'REGISTRATION_OPEN' && asked.maPpt === 1) {
        const checked = checkAnswers(asked.questions as AskedQuestion[], given)
        if ('error' in checked) return refused('invalidAnswer', checked.error)
        answers = checked.answers
      }
      // One statement: the row is written only if the event is open and individual, and the unique key on
      // (event, user) turns a second registration, however concurrent, into no row rather than a duplicate.
      // (Raw SQL: Drizzle's insert-from-select lists every column of the table.)
      const inserted = rowsOf(
        await db.execute(sql`
          WITH ev AS (
            SELECT id, fee, pay_within_minutes, is_ticket_feature_enabled FROM events
              WHERE id = ${eventId} AND state = 'REGISTRATION_OPEN' AND ma_ppt = 1 AND cancelled_at IS NULL
          ), ins AS (
            INSERT INTO participants (event_id, user_id, answers)
              SELECT ev.id, ${userId}::int, ${JSON.stringify(answers)}::jsonb FROM ev
              ON CONFLICT (event_id, user_id) DO NOTHING
              RETURNING id
          ), held AS (
            INSERT INTO payments (event_id, user_id, participant_id, kind, amount, reference, pay_by)
              SELECT ev.id, ${userId}::int, ins.id, 'REGISTRATION', ev.fee * 100, ${`CE${newTicketCode()}`}, now() + make_interval(mins => ev.pay_within_minutes)
                FROM ev, ins WHERE ev.fee > 0 AND NOT ev.is_ticket_feature_enabled
              RETURNING pay_by
          )
          SELECT ins.id, (SELECT pay_by FROM held) AS pay_by FROM ins`),
      ) as { id: number; pay_by: Date | string | null }[]
      if (inserted.length > 0) return done(inserted[0].pay_by === null ? null : { payBy: new Date(inserted[0].pay_by).toISOString() })
      const event = await find(eventId)
      if (!event) return refused('eventNotFound')
      if (event.cancelledAt) return refused('eventCancelled')
      if (event.state !== 'REGISTRATION_OPEN') return refused('registrationNotOpen')
      if (event.maPpt > 1) return refused('teamEvent')
      return refused('alreadyRegistered')
    },

    /**
     * Records the caller's rating of a completed event they took part in; a second rating replaces the first.
     * API.md Part 2, "Ratings, tightened": where tickets were enabled only ticket holders may rate, and once the
     * door has checked anyone in at the event, only those checked in. One conditional update decides.
     */
    async rate(userId: number, eventId: number, rating: number): Promise<Outcome> {
      const doorUsed = sql`EXISTS (SELECT 1 FROM ${participants} d WHERE d.event_id = ${eventId} AND d.checked_in_at IS NOT NULL)`
      const updated = await db
        .update(participants)
        .set({ rating, ratedAt: sql`now()` })
        .where(
          and(
            eq(participants.eventId, eventId),
            eq(participants.userId, userId),
            exists(
              db
                .select({ one: sql`1` })
                .from(events)
                .where(
                  and(
                    eq(events.id, eventId),
                    eq(events.state, 'COMPLETED'),
                    or(eq(events.isTicketFeatureEnabled, false), eq(participants.ticketCollected, true)),
                  ),
                ),
            ),
            or(isNotNull(participants.checkedInAt), sql`NOT ${doorUsed}`),
          ),
        )
        .returning({ id: participants.id })
      if (updated.length > 0) return done(undefined)
      const event = await find(eventId)
      if (!event) return refused('eventNotFound')
      if (event.state !== 'COMPLETED') return refused('notCompleted')
      const [mine] = await db
        .select({ ticket: participants.ticketCollected, doorUsed: sql<boolean>`${doorUsed}` })
        .from(participants)
        .where(and(eq(participants.eventId, eventId), eq(participants.userId, userId)))
      if (!mine) return refused('notParticipant')
      if (event.isTicketFeatureEnabled && !mine.ticket) return refused('noTicketToRate')
      return refused('notCheckedInToRate')
    },

    /** The operator's state change (CLI); null when there is no such event. */
    async setState(eventId: number, state: AnyEventState) {
      // A manual move wins over the schedule: every step timed up to now counts as done (API.md Part 2).
      const [row] = await db
        .update(events)
        .set({ state, scheduleAppliedThrough: sql`now()` })
        .where(eq(events.id, eventId))
        .returning({ id: events.id, slug: events.slug, state: events.state })
      return row ?? null
    },
  }
}

export type EventsRepository = ReturnType<typeof eventsRepository>
