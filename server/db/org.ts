// The organiser console's repository (API.md Part 2 "Organiser calls"): events as their organisers see them (every
// state, with live counts), their creation and editing, manual state moves, participants, door volunteers, councils
// and their organisers, and the audit log. Every check of a role reads the database (roles.ts); every write is
// recorded in the audit log inside its own transaction, so the entry exists exactly when the write does.
import { randomBytes } from 'node:crypto'
import { and, asc, desc, eq, gt, inArray, lt, sql, type SQL } from 'drizzle-orm'
import type { AnyEventState } from '../../contract/constants.ts'
import type { Council, OrgEvent, OrgPerson, ParticipantRow, Question } from '../../contract/types.ts'
import type { AuditEntry as AuditEntryWire } from '../../contract/types.ts'
import type * as z from 'zod/mini'
import type { councilInputShape, eventInput, ScheduleKey } from '../../contract/org.ts'
import { dayCounts } from './admissions.ts'
import { recordAudit } from './audit.ts'
import { eventFields, iso } from './events.ts'
import type { Db } from './index.ts'
import type { Lifecycle } from './lifecycle.ts'
import { done, isCheckViolation, type Outcome, Refused, refused, outcomeOf } from './outcomes.ts'
import { rolesRepository } from './roles.ts'
import { auditLog, councilOrganizers, councils, events, fairDraws, fairEntrants, participants, teams, users, waitlist } from './schema.ts'
import { DEFAULT_FAIR_WINDOW_SECONDS, newFairSeed } from './fair.ts'
import { activityPointsOf } from './points.ts'

type EventRow = typeof events.$inferSelect
type Tx = Db

/** What /org/p/event/save takes, after the contract's validation: the contract's own output type, never a copy. */
export type EventInputValue = z.output<typeof eventInput>

/** What /org/p/council/save takes, after the contract's validation. */
export type CouncilInputValue = z.output<z.ZodMiniObject<typeof councilInputShape>>

const SCHEDULE_COLUMNS = {
  registration_opens_at: 'registrationOpensAt',
  registration_closes_at: 'registrationClosesAt',
  tickets_open_at: 'ticketsOpenAt',
  tickets_close_at: 'ticketsCloseAt',
  starts_at: 'startsAt',
  ends_at: 'endsAt',
} as const satisfies Record<ScheduleKey, keyof EventRow>

const councilColumns = { id: councils.id, name: councils.name, photo_url: councils.photoUrl, phone_number: councils.phoneNumber, email: councils.email }

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
  }
}

/** What the audit log keeps of an event: its own fields (no counts, no children). */
function auditShape(e: EventRow) {
  const { organizer: _o, children: _c, ...rest } = orgFields(e, { id: e.organizerId, name: '', photo_url: null }, [])
  return { ...rest, organizer_id: e.organizerId }
}

function slugOf(name: string): string {
  const base = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
  return `${base || 'event'}-${randomBytes(4).toString('hex')}`
}

/** A new question's id: short, unique within the event. */
const questionId = () => `q${randomBytes(4).toString('hex')}`

/** Events of these councils (every event when null) with organiser, children and live counts. */
async function loadOrgEvents(db: Db, where: SQL | undefined): Promise<OrgEvent[]> {
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
 * The refusal for an event id that names no event: 404 for someone with an organiser role, but the same 403 as
 * for a known event for everyone else, so that a student cannot tell which ids are drafts.
 */
async function unknownEvent(roles: ReturnType<typeof rolesRepository>, userId: number): Promise<'eventNotFound' | 'notOrganiser'> {
  const r = await roles.of(userId)
  return r.admin || r.councils.length > 0 ? 'eventNotFound' : 'notOrganiser'
}

export function orgRepository(db: Db, lifecycle?: Lifecycle) {
  const roles = rolesRepository(db)

  async function orgEvent(eventId: number): Promise<OrgEvent> {
    const [event] = await loadOrgEvents(db, eq(events.id, eventId))
    return event!
  }

  /** The event locked for the rest of the transaction, if the caller manages it (else the refusal). */
  async function lockManaged(tx: Tx, userId: number, eventId: number): Promise<EventRow> {
    const [row] = await tx.select().from(events).where(eq(events.id, eventId)).for('update')
    if (!row) throw new Refused(await unknownEvent(rolesRepository(tx), userId))
    if (!(await rolesRepository(tx).canManageCouncil(userId, row.organizerId))) throw new Refused('notOrganiser')
    return row
  }

  /** Whether the caller may use the console at all: an admin, or an organiser of some council. */
  async function hasOrganiserRole(userId: number): Promise<boolean> {
    const r = await roles.of(userId)
    return r.admin || r.councils.length > 0
  }

  return {
    hasOrganiserRole,

    /** Every event the caller manages, every state, with counts; a refusal for a caller without an organiser role. */
    async events(userId: number): Promise<Outcome<OrgEvent[]>> {
      const r = await roles.of(userId)
      if (!r.admin && r.councils.length === 0) return refused('notOrganiser')
      return done(await loadOrgEvents(db, r.admin ? undefined : inArray(events.organizerId, r.councils)))
    },

    /** Creates (no id) or updates (id) an event of a council the caller manages; audited. */
    async save(userId: number, input: EventInputValue): Promise<Outcome<OrgEvent>> {
      const outcome = await outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Tx
          const txRoles = rolesRepository(tx)
          const before = input.id === undefined ? null : await lockManaged(tx, userId, input.id)
          if (!before) {
            if (input.name === undefined) throw new Refused('nameRequired')
            if (input.organizer_id === undefined) throw new Refused('organizerRequired')
          }
          const councilId = input.organizer_id ?? before!.organizerId
          if (input.organizer_id !== undefined && input.organizer_id !== before?.organizerId) {
            if (!(await txRoles.canManageCouncil(userId, councilId))) throw new Refused('notOrganiser')
            const [council] = await tx.select({ id: councils.id }).from(councils).where(eq(councils.id, councilId))
            if (!council) throw new Refused('councilNotFound')
          }
          if (input.parent_id != null) {
            if (before && input.parent_id === before.id) throw new Refused('parentSelf')
            const [parent] = await tx
              .select({ id: events.id, organizerId: events.organizerId, parentId: events.parentId })
              .from(events)
              .where(eq(events.id, input.parent_id))
            if (!parent) throw new Refused('parentNotFound')
            if (!(await txRoles.canManageCouncil(userId, parent.organizerId))) throw new Refused('notOrganiser')
            // One level of children, the importer's rule too (issue 21 item 8: chains of any length were taken,
            // loops longer than 50 too): the parent is a top-level event, and this event has no children of its
            // own. The trigger of migration 0010 decides when two saves race (mapped below).
            if (parent.parentId !== null) throw new Refused('parentNotTopLevel')
            if (before) {
              const [child] = await tx.select({ id: events.id }).from(events).where(eq(events.parentId, before.id)).limit(1)
              if (child) throw new Refused('parentOfChildren')
            }
          }

          const maPpt = input.ma_ppt ?? before?.maPpt ?? 1
          const minPpt = input.min_ppt ?? before?.minPpt ?? 1
          if (minPpt > maPpt) throw new Refused('minAboveMax')
          const registrationType = input.registration_type ?? before?.registrationType ?? 'ONPLATFORM'
          const externalLink = input.external_registration_link !== undefined ? input.external_registration_link : (before?.externalRegistrationLink ?? null)
          if (registrationType === 'EXTERNAL' && !externalLink) throw new Refused('externalLinkMissing')
          if (before) {
            if (input.ticket_count !== undefined && input.ticket_count < before.ticketsSold) throw new Refused('ticketCountBelowSold')
            if (input.ma_ppt !== undefined && input.ma_ppt !== before.maPpt) {
              const [row] = await tx
                .select({ registered: sql<number>`count(*)::int`, largest: sql<number>`coalesce(max(n), 0)::int` })
                .from(
                  sql`(SELECT ${participants.teamId} AS team, count(*) AS n FROM ${participants} WHERE ${participants.eventId} = ${before.id} GROUP BY 1) AS groups`,
                )
              const registered = Number(row?.registered ?? 0)
              if (registered > 0 && (before.maPpt === 1) !== (input.ma_ppt === 1)) throw new Refused('teamModeLocked')
              if (Number(row?.largest ?? 0) > input.ma_ppt && before.maPpt > 1) throw new Refused('teamsTooBig')
            }
          }

          const values: Partial<typeof events.$inferInsert> = {}
          if (input.name !== undefined) values.name = input.name.trim()
          if (input.description !== undefined) values.description = input.description
          if (input.long_description !== undefined) values.longDescription = input.long_description
          if (input.event_page_image_url !== undefined) values.eventPageImageUrl = input.event_page_image_url
          if (input.banner_url !== undefined) values.bannerUrl = input.banner_url
          if (input.dates !== undefined) {
            // Each date with its end (issue 22 item 7): the ends sent, or the stored end of a date that stays.
            const kept = new Map(before?.dates.map((d, i) => [d, before.dateEnds[i] ?? null]))
            const pairs = input.dates.map((d, i) => [d, input.date_ends ? (input.date_ends[i] ?? null) : (kept.get(d) ?? null)] as const)
            pairs.sort((a, b) => Date.parse(a[0]) - Date.parse(b[0]))
            values.dates = pairs.map(([d]) => d)
            values.dateEnds = pairs.map(([, end]) => end)
          }
          if (input.venue !== undefined) values.venue = input.venue
          if (input.tags !== undefined) values.tags = [...new Set(input.tags.map((t) => t.trim()))]
          if (input.organizer_id !== undefined) values.organizerId = input.organizer_id
          if (input.parent_id !== undefined) values.parentId = input.parent_id
          if (input.fee !== undefined) values.fee = input.fee
          if (input.ma_ppt !== undefined) values.maPpt = input.ma_ppt
          if (input.min_ppt !== undefined) values.minPpt = input.min_ppt
          if (input.registration_type !== undefined) values.registrationType = input.registration_type
          if (input.external_registration_link !== undefined) values.externalRegistrationLink = input.external_registration_link
          if (input.start_in_event_activity !== undefined) values.startInEventActivity = input.start_in_event_activity
          if (input.in_event_activity !== undefined) values.inEventActivity = input.in_event_activity
          if (input.is_ticket_feature_enabled !== undefined) values.isTicketFeatureEnabled = input.is_ticket_feature_enabled
          if (input.ticket_count !== undefined) values.ticketCount = input.ticket_count
          if (input.schedule !== undefined) {
            for (const [key, column] of Object.entries(SCHEDULE_COLUMNS) as [ScheduleKey, (typeof SCHEDULE_COLUMNS)[ScheduleKey]][]) {
              const value = input.schedule[key]
              values[column] = value ? new Date(value) : null
            }
          }
          // A fair opening (issue 24): the seed is fixed the first time a window is set and never changes after;
          // the window itself cannot change once the event has reached TICKET_OPEN (its draw is set or done).
          if (input.fair_start !== undefined) {
            const window = input.fair_start?.window_seconds ?? 0
            if (before && window !== before.fairWindowSeconds && (before.state === 'TICKET_OPEN' || before.fairDrawAt || before.fairDrawnAt))
              throw new Refused('fairStartLocked')
            values.fairWindowSeconds = window
            if (window > 0 && !before?.fairSeed) values.fairSeed = newFairSeed()
          } else if (!before && input.is_ticket_feature_enabled) {
            values.fairWindowSeconds = DEFAULT_FAIR_WINDOW_SECONDS
            values.fairSeed = newFairSeed()
          }
          // Activity points (issue 26): the category must be one of the college's, read in this transaction.
          if (input.activity_points !== undefined) values.activityPoints = await activityPointsOf(tx, input.activity_points)
          if (input.transfer_closes_minutes !== undefined) values.transferClosesMinutes = input.transfer_closes_minutes
          if (input.reentry !== undefined) values.reentry = input.reentry
          if (input.rotating_codes !== undefined) values.rotatingCodes = input.rotating_codes
          if (input.questions !== undefined) {
            const taken = new Set(input.questions.flatMap((q) => (q.id ? [q.id] : [])))
            values.questions = input.questions.map((q) => {
              let id = q.id
              while (!id || (!q.id && taken.has(id))) id = questionId()
              taken.add(id)
              return {
                id,
                label: q.label.trim(),
                kind: q.kind,
                options: q.kind === 'CHOICE' ? (q.options ?? []).map((o) => o.trim()) : [],
                required: q.required ?? false,
                show_at_door: q.show_at_door ?? false,
              }
            })
          }

          // An update that sends no field (only the id) changes nothing: no write, no audit entry.
          if (before && Object.keys(values).length === 0) return before.id
          let after: EventRow
          try {
            if (before) {
              ;[after] = (await tx.update(events).set(values).where(eq(events.id, before.id)).returning()) as [EventRow]
            } else {
              ;[after] = (await tx
                .insert(events)
                .values({ ...values, name: values.name!, organizerId: councilId, slug: slugOf(values.name!), state: 'DRAFT' })
                .returning()) as [EventRow]
            }
          } catch (err) {
            // The backstops: a ticket claimed between the check and the write, or teams out of bounds.
            if (isCheckViolation(err, 'events_tickets_within_count')) throw new Refused('ticketCountBelowSold')
            if (isCheckViolation(err, 'events_min_ppt_within_max')) throw new Refused('minAboveMax')
            if (isCheckViolation(err, 'events_parent_top_level')) throw new Refused('parentNotTopLevel')
            if (isCheckViolation(err, 'events_parent_childless')) throw new Refused('parentOfChildren')
            throw err
          }
          await recordAudit(tx, {
            actorId: userId,
            actorKind: 'user',
            action: before ? 'event.save' : 'event.create',
            councilId: after.organizerId,
            eventId: after.id,
            before: before ? auditShape(before) : null,
            after: auditShape(after),
          })
          return after.id
        }),
      )
      if (!outcome.ok) return outcome
      return done(await orgEvent(outcome.value))
    },

    /** Moves an event to any state by hand: the schedule's steps up to now count as done; audited. */
    async setState(userId: number, eventId: number, state: AnyEventState): Promise<Outcome<OrgEvent>> {
      const outcome = await outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Tx
          const before = await lockManaged(tx, userId, eventId)
          await tx.update(events).set({ state, scheduleAppliedThrough: sql`now()` }).where(eq(events.id, eventId))
          await recordAudit(tx, {
            actorId: userId,
            actorKind: 'user',
            action: 'event.state',
            councilId: before.organizerId,
            eventId,
            before: { state: before.state },
            after: { state },
          })
          return before.state as AnyEventState
        }),
      )
      if (!outcome.ok) return outcome
      if (outcome.value !== state) lifecycle?.emit({ eventId, from: outcome.value, to: state, by: { kind: 'user', userId }, at: new Date() })
      return done(await orgEvent(eventId))
    },

    /** Whether the caller may manage the event (refusals: unknown event, not an organiser of its council). */
    async access(userId: number, eventId: number): Promise<Outcome<EventRow>> {
      const [row] = await db.select().from(events).where(eq(events.id, eventId))
      if (!row) return refused(await unknownEvent(roles, userId))
      if (!(await roles.canManageCouncil(userId, row.organizerId))) return refused('notOrganiser')
      return done(row)
    },

    /**
     * The event's participants in registration order, a page at a time (`afterId` the last participant id read),
     * for the list and the streamed CSV.
     */
    async participantsPage(eventId: number, afterId = 0, limit = 1000): Promise<(ParticipantRow & { participantId: number })[]> {
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
    },

    /** Adds or removes a door volunteer (without email: only the list); audited. */
    async staff(userId: number, eventId: number, email?: string, remove = false): Promise<Outcome<OrgPerson[]>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Tx
          const event = await lockManaged(tx, userId, eventId)
          const txRoles = rolesRepository(tx)
          if (email !== undefined) {
            const before = await txRoles.staffOf(eventId)
            const changed = await txRoles.setStaff(email, eventId, !remove, userId)
            if (changed.length === 0) throw new Refused('personNotFound')
            await recordAudit(tx, {
              actorId: userId,
              actorKind: 'user',
              action: remove ? 'staff.remove' : 'staff.add',
              councilId: event.organizerId,
              eventId,
              before,
              after: await txRoles.staffOf(eventId),
            })
          }
          return txRoles.staffOf(eventId)
        }),
      )
    },

    /** Admins: adds or removes an organiser of a council (without email: only the list); audited. */
    async organizers(userId: number, councilId: number, email?: string, remove = false): Promise<Outcome<OrgPerson[]>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Tx
          const txRoles = rolesRepository(tx)
          if (!(await txRoles.isAdmin(userId))) throw new Refused('adminOnly')
          const [council] = await tx.select({ id: councils.id }).from(councils).where(eq(councils.id, councilId)).for('update')
          if (!council) throw new Refused('councilNotFound')
          if (email !== undefined) {
            const before = await txRoles.organizersOf(councilId)
            const changed = await txRoles.setOrganizer(email, councilId, !remove, userId)
            if (changed.length === 0) throw new Refused('personNotFound')
            await recordAudit(tx, {
              actorId: userId,
              actorKind: 'user',
              action: remove ? 'organizer.remove' : 'organizer.add',
              councilId,
              before,
              after: await txRoles.organizersOf(councilId),
            })
          }
          return txRoles.organizersOf(councilId)
        }),
      )
    },

    /** Admins: creates (no id; name required) or updates (id) a council; audited. */
    async saveCouncil(userId: number, input: CouncilInputValue): Promise<Outcome<Council>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Tx
          if (!(await rolesRepository(tx).isAdmin(userId))) throw new Refused('adminOnly')
          const values: Partial<typeof councils.$inferInsert> = {}
          if (input.name !== undefined) values.name = input.name.trim()
          if (input.photo_url !== undefined) values.photoUrl = input.photo_url
          if (input.phone_number !== undefined) values.phoneNumber = input.phone_number
          if (input.email !== undefined) values.email = input.email || null
          let before: Council | null = null
          let after: Council
          if (input.id !== undefined) {
            ;[before = null] = await tx.select(councilColumns).from(councils).where(eq(councils.id, input.id)).for('update')
            if (!before) throw new Refused('councilNotFound')
            // An update that sends no field (only the id) changes nothing: no write, no audit entry.
            if (Object.keys(values).length === 0) return before
            ;[after] = (await tx.update(councils).set(values).where(eq(councils.id, input.id)).returning(councilColumns)) as [Council]
          } else {
            if (values.name === undefined) throw new Refused('nameRequired')
            ;[after] = (await tx
              .insert(councils)
              .values({ ...values, name: values.name, slug: slugOf(values.name) })
              .returning(councilColumns)) as [Council]
          }
          await recordAudit(tx, { actorId: userId, actorKind: 'user', action: before ? 'council.save' : 'council.create', councilId: after.id, before, after })
          return after
        }),
      )
    },

    /** The councils the caller manages (all for an admin), each with its organisers. */
    async councils(userId: number): Promise<Outcome<(Council & { organizers: OrgPerson[] })[]>> {
      const r = await roles.of(userId)
      if (!r.admin && r.councils.length === 0) return refused('notOrganiser')
      const list = await db
        .select(councilColumns)
        .from(councils)
        .where(r.admin ? undefined : inArray(councils.id, r.councils))
        .orderBy(asc(councils.name), asc(councils.id))
      if (list.length === 0) return done([])
      const people = await db
        .select({ councilId: councilOrganizers.councilId, id: users.id, name: users.name, email: users.email })
        .from(councilOrganizers)
        .innerJoin(users, eq(users.id, councilOrganizers.userId))
        .where(
          inArray(
            councilOrganizers.councilId,
            list.map((c) => c.id),
          ),
        )
        .orderBy(asc(users.name), asc(users.id))
      return done(list.map((c) => ({ ...c, organizers: people.filter((p) => p.councilId === c.id).map(({ councilId: _c, ...p }) => p) })))
    },

    /** Admins: the audit log, newest first, 100 a page. */
    async audit(userId: number, options: { eventId?: number; before?: number }): Promise<Outcome<AuditEntryWire[]>> {
      if (!(await roles.isAdmin(userId))) return refused('adminOnly')
      const where: SQL[] = []
      if (options.eventId !== undefined) where.push(eq(auditLog.eventId, options.eventId))
      if (options.before !== undefined) where.push(lt(auditLog.id, options.before))
      const rows = await db
        .select({ entry: auditLog, actorName: users.name })
        .from(auditLog)
        .leftJoin(users, eq(users.id, auditLog.actorId))
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(auditLog.id))
        .limit(100)
      return done(
        rows.map(({ entry: r, actorName }) => ({
          id: r.id,
          at: r.at.toISOString(),
          actor_id: r.actorId,
          actor_kind: r.actorKind as AuditEntryWire['actor_kind'],
          actor_name: actorName,
          action: r.action,
          council_id: r.councilId,
          event_id: r.eventId,
          before: r.before,
          after: r.after,
        })),
      )
    },
  }
}

export type OrgRepository = ReturnType<typeof orgRepository>
