// Activity points (issue 26, contract/points.ts). A student's record is never stored: every read computes it from
// the facts the product verified itself, so it cannot be edited by hand and removing a fact removes its points:
//   ATTENDED   a check-in at the door (participants.checked_in_at); at a per-day event, `points` for each event day
//              (Asia/Kolkata) on which the door scanned the ticket: the check-in's day, and the days of later scans
//              of the same ticket that the door answered CHECKED_IN or ALREADY_CHECKED_IN, counted only after the
//              last undo of its check-in (an undo takes every day with it: it says the ticket was not let in).
//   WINNER     event_winners, marked by an organiser once the event is COMPLETED (audited).
//   VOLUNTEER  event_staff: the event's door volunteers, once the event is ONGOING or COMPLETED.
//   ORGANISER  council_organizers of the event's council granted before the event ended, once it is ONGOING or
//              COMPLETED (an organiser who joined the council afterwards did not organise it).
// Drafts give nothing. What an event gives is events.activity_points, set through /org/p/event/save (audited with
// the event); the college's categories and targets are points_settings (one row), lateral entry users.lateral_entry.
import { and, asc, eq, sql, type SQL } from 'drizzle-orm'
import type * as z from 'zod/mini'
import { type activityPointsInput, DEFAULT_CATEGORIES, POINTS_MESSAGES, type PointKind } from '../../../contract/points.ts'
import type { PointEntry, PointsRecord, PointsSettings, EventPointsRow, EventWinner, PointsStudent } from '../../../contract/types.ts'
import { recordAudit } from '../audit.ts'
import type { Db } from '../index.ts'
import { done, isUniqueViolation, outcomeOf, refused, Refused, rowsOf, type Outcome } from '../outcomes.ts'
import { rolesRepository } from '../people/roles.ts'
import { type ActivityPointsValue, eventWinners, events, participants, pointCodes, pointsSettings, users } from '../schema.ts'

/** What /org/p/event/save takes in activity_points, after the contract's validation. */
export type ActivityPointsInputValue = NonNullable<z.output<typeof activityPointsInput>>

export const TIME_ZONE_SQL = sql.raw(`'Asia/Kolkata'`)

/** The college's settings (the migration writes the row; the defaults stand in should it be gone). */
export async function settingsOf(db: Db): Promise<PointsSettings> {
  const [row] = await db.select().from(pointsSettings).where(eq(pointsSettings.id, 1))
  return row
    ? { categories: row.categories, target: row.target, lateral_entry_target: row.lateralEntryTarget }
    : { categories: [...DEFAULT_CATEGORIES], target: 100, lateral_entry_target: 75 }
}

/** An event's activity points as stored, the category in the college's spelling; refused when it is not one of them. */
export async function activityPointsOf(db: Db, input: ActivityPointsInputValue | null): Promise<ActivityPointsValue | null> {
  if (input === null) return null
  const { categories } = await settingsOf(db)
  const category = categories.find((c) => c.toLowerCase() === input.category.trim().toLowerCase())
  if (!category) throw new Refused('pointsCategoryUnknown', POINTS_MESSAGES.categoryUnknown(categories))
  return {
    category,
    points: input.points,
    per_day: input.per_day ?? false,
    winner: input.winner ?? 0,
    volunteer: input.volunteer ?? 0,
    organiser: input.organiser ?? 0,
  }
}

/** Which entries to compute: a student (or a list of them), an event, or both. */
interface Scope {
  userId?: number
  /** A PostgreSQL int[] literal ('{1,2,3}'): the export's page of students. */
  userIds?: string
  /** Students of a graduation year, and of a branch when given (the below-target list). */
  cohort?: { year: number; branch: string | null }
  eventId?: number
}

/** One computed entry, before the event's details are joined. */
interface EntryRow {
  user_id: number
  event_id: number
  kind: PointKind
  points: number
  days: number | null
  title: string | null
  earned_at: string | Date | null
}

function userCond(column: SQL, scope: Scope): SQL {
  if (scope.userId !== undefined) return sql`${column} = ${scope.userId}`
  if (scope.userIds !== undefined) return sql`${column} = ANY(${scope.userIds}::text::int[])`
  if (scope.cohort !== undefined)
    return sql`${column} IN (SELECT c.id FROM users c WHERE c.year = ${scope.cohort.year} AND (${scope.cohort.branch}::text IS NULL OR c.branch = ${scope.cohort.branch}::text))`
  return sql`true`
}

const eventCond = (column: SQL, scope: Scope): SQL => (scope.eventId !== undefined ? sql`${column} = ${scope.eventId}` : sql`true`)

/**
 * The entries of the scope, as one query (the source of every answer here). `ev` is the events that give points;
 * each branch of the union is one kind of verified fact.
 */
export function entriesQuery(scope: Scope): SQL {
  // The event days the door admitted the ticket on (issue 25 item 3: one admission per IST day of a date, so an
  // undo takes back that day's alone), at least one for a ticket checked in.
  const eventDays = sql`(SELECT to_char(x.v::timestamptz AT TIME ZONE ${TIME_ZONE_SQL}, 'YYYY-MM-DD') FROM jsonb_array_elements_text(ev.dates) AS x(v))`
  const days = sql`GREATEST(1, (SELECT count(*)::int FROM admissions a WHERE a.participant_id = p.id AND a.day IN ${eventDays}))`
  const started = sql`ev.state IN ('ONGOING', 'COMPLETED')`
  const firstDate = sql`(ev.dates->>0)::timestamptz`
  const ended = sql`coalesce(ev.ends_at, (ev.dates->>-1)::timestamptz + interval '1 day', 'infinity'::timestamptz)`
  return sql`
    WITH ev AS MATERIALIZED (
      SELECT e.id, e.dates, e.state, e.organizer_id, e.ends_at,
             (e.activity_points->>'points')::int AS p_att,
             coalesce((e.activity_points->>'per_day')::boolean, false) AS per_day,
             coalesce((e.activity_points->>'winner')::int, 0) AS p_win,
             coalesce((e.activity_points->>'volunteer')::int, 0) AS p_vol,
             coalesce((e.activity_points->>'organiser')::int, 0) AS p_org
        FROM events e
       WHERE e.activity_points IS NOT NULL AND e.state <> 'DRAFT' AND ${eventCond(sql`e.id`, scope)}
    )
    SELECT p.user_id, ev.id AS event_id, 'ATTENDED' AS kind,
           CASE WHEN ev.per_day THEN ${days} ELSE NULL END AS days, ev.p_att AS unit, NULL::text AS title, p.checked_in_at AS earned_at
      FROM participants p JOIN ev ON ev.id = p.event_id
     WHERE p.checked_in_at IS NOT NULL AND ev.p_att > 0 AND ${userCond(sql`p.user_id`, scope)}
    UNION ALL
    SELECT w.user_id, ev.id, 'WINNER', NULL, ev.p_win, w.title, w.marked_at
      FROM event_winners w JOIN ev ON ev.id = w.event_id
     WHERE ev.p_win > 0 AND ${userCond(sql`w.user_id`, scope)}
    UNION ALL
    SELECT s.user_id, ev.id, 'VOLUNTEER', NULL, ev.p_vol, NULL, ${firstDate}
      FROM event_staff s JOIN ev ON ev.id = s.event_id
     WHERE ev.p_vol > 0 AND ${started} AND ${userCond(sql`s.user_id`, scope)}
    UNION ALL
    SELECT o.user_id, ev.id, 'ORGANISER', NULL, ev.p_org, NULL, ${firstDate}
      FROM council_organizers o JOIN ev ON ev.organizer_id = o.council_id
     WHERE ev.p_org > 0 AND ${started} AND o.created_at <= ${ended} AND ${userCond(sql`o.user_id`, scope)}`
}

/** The entries with their points (unit × days). */
const pointedEntries = (scope: Scope) =>
  sql`SELECT q.user_id, q.event_id, q.kind, q.unit * coalesce(q.days, 1) AS points, q.days, q.title, q.earned_at FROM (${entriesQuery(scope)}) q`

const isoOf = (v: string | Date | null): string | null => (v === null ? null : new Date(v).toISOString())

async function entriesOf(db: Db, scope: Scope): Promise<EntryRow[]> {
  const rows = rowsOf(await db.execute(pointedEntries(scope))) as EntryRow[]
  return rows.map((r) => ({
    ...r,
    user_id: Number(r.user_id),
    event_id: Number(r.event_id),
    points: Number(r.points),
    days: r.days === null ? null : Number(r.days),
  }))
}

/** A student's target: the college's, or its lateral-entry one. */
const targetOf = (settings: PointsSettings, lateral: boolean) => (lateral ? settings.lateral_entry_target : settings.target)

/** The order entries are listed in: newest first, then by event and kind. */
const KIND_ORDER: Record<PointKind, number> = { ATTENDED: 0, WINNER: 1, VOLUNTEER: 2, ORGANISER: 3 }

/** A student's whole record (the student's own call, an admin's, the transcript). */
async function recordOf(db: Db, userId: number): Promise<PointsRecord & { entryKeys: { eventId: number; kind: PointKind }[] }> {
  const [settings, entries, [student]] = await Promise.all([
    settingsOf(db),
    entriesOf(db, { userId }),
    db.select({ lateral: users.lateralEntry }).from(users).where(eq(users.id, userId)),
  ])
  const eventIds = [...new Set(entries.map((e) => e.event_id))]
  const details = new Map(
    (eventIds.length === 0
      ? []
      : (rowsOf(
          await db.execute(sql`SELECT e.id, e.name, e.dates, e.activity_points->>'category' AS category, c.name AS council
                                 FROM events e JOIN councils c ON c.id = e.organizer_id
                                WHERE e.id = ANY(${`{${eventIds.join(',')}}`}::text::int[])`),
        ) as { id: number; name: string; dates: string[]; category: string; council: string }[])
    ).map((d) => [Number(d.id), d]),
  )
  const listed = entries
    .map((e) => {
      const d = details.get(e.event_id)!
      const entry: PointEntry = {
        event: { id: e.event_id, name: d.name, dates: d.dates, council: d.council },
        category: d.category,
        kind: e.kind,
        points: e.points,
        days: e.days,
        title: e.title,
        earned_at: isoOf(e.earned_at),
      }
      return entry
    })
    .sort((a, b) => (b.earned_at ?? '').localeCompare(a.earned_at ?? '') || a.event.id - b.event.id || KIND_ORDER[a.kind] - KIND_ORDER[b.kind])
  const byCategory = new Map<string, number>(settings.categories.map((c) => [c, 0]))
  for (const e of listed) byCategory.set(e.category, (byCategory.get(e.category) ?? 0) + e.points)
  const lateral = student?.lateral ?? false
  return {
    total: listed.reduce((sum, e) => sum + e.points, 0),
    target: targetOf(settings, lateral),
    lateral_entry: lateral,
    by_category: [...byCategory].map(([category, points]) => ({ category, points })),
    entries: listed,
    as_of: new Date().toISOString(),
    entryKeys: listed.map((e) => ({ eventId: e.event.id, kind: e.kind })),
  }
}

const stripKeys = ({ entryKeys: _k, ...record }: Awaited<ReturnType<typeof recordOf>>): PointsRecord => record

/** The graduation year of the students in their final year on `now` (Indian academic years run July to June). */
export function finalYearOn(now: Date): number {
  const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata', year: 'numeric', month: 'numeric' })
    .formatToParts(now)
    .filter((p) => p.type === 'year' || p.type === 'month')
    .map((p) => Number(p.value))
  return month >= 7 ? year + 1 : year
}

/** A transcript's entry with its verification code. */
export interface TranscriptEntry extends PointEntry {
  code: string
}

export interface Transcript {
  name: string
  roll_number: string | null
  branch: string | null
  year: number | null
  record: PointsRecord
  entries: TranscriptEntry[]
}

/** A transcript entry's code, found by /verify. */
export interface VerifiedPoints {
  code: string
  name: string
  event: string
  council: string
  dates: string[]
  category: string
  role: PointKind
  points: number
  stands: boolean
}

/** A student as the export and the below-target list read them (branch in its wire form). */
interface StudentColumns {
  id: number
  name: string
  email: string
  roll_number: string | null
  branch: string | null
  year: number | null
  lateral_entry: boolean
}

/** One student's row of the export. */
export interface ExportRow extends StudentColumns {
  by_category: Map<string, number>
  total: number
  target: number
  last_earned_at: string | null
}

/** How many fresh codes to draw when one is taken. */
const CODE_TRIES = 3

export function pointsRepository(db: Db, randomCode: () => string) {
  const roles = rolesRepository(db)

  /** The event, if the caller manages it (organiser of its council, or admin); a student learns nothing of drafts. */
  async function managed(userId: number, eventId: number): Promise<Outcome<{ id: number; state: string; councilId: number }>> {
    const [row] = await db.select({ id: events.id, state: events.state, councilId: events.organizerId }).from(events).where(eq(events.id, eventId))
    if (!row) {
      const r = await roles.of(userId)
      return refused(r.admin || r.councils.length > 0 ? 'eventNotFound' : 'notOrganiser')
    }
    if (!(await roles.canManageCouncil(userId, row.councilId))) return refused('notOrganiser')
    return done(row)
  }

  async function winnersOf(handle: Db, eventId: number): Promise<EventWinner[]> {
    const rows = await handle
      .select({ id: users.id, name: users.name, email: users.email, title: eventWinners.title, markedAt: eventWinners.markedAt })
      .from(eventWinners)
      .innerJoin(users, eq(users.id, eventWinners.userId))
      .where(eq(eventWinners.eventId, eventId))
      .orderBy(asc(eventWinners.markedAt), asc(users.id))
    return rows.map((r) => ({ user: { id: r.id, name: r.name, email: r.email }, title: r.title, marked_at: r.markedAt.toISOString() }))
  }

  async function studentRow(userId: number): Promise<PointsStudent | null> {
    const [u] = await db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        roll_number: users.rollNumber,
        branch: users.branch,
        year: users.year,
        lateral: users.lateralEntry,
      })
      .from(users)
      .where(eq(users.id, userId))
    if (!u) return null
    const record = await recordOf(db, userId)
    const { lateral, ...user } = u
    return { user, lateral_entry: lateral, points: record.total, target: record.target }
  }

  return {
    /** The caller's own record. */
    record: async (userId: number): Promise<PointsRecord> => stripKeys(await recordOf(db, userId)),

    /** Read by organisers (the editor's categories) and admins. */
    async settings(userId: number): Promise<Outcome<PointsSettings>> {
      const r = await roles.of(userId)
      if (!r.admin && r.councils.length === 0) return refused('notOrganiser')
      return done(await settingsOf(db))
    },

    /** Admins only: only the fields sent change; audited. */
    async saveSettings(userId: number, input: { categories?: string[]; target?: number; lateral_entry_target?: number }): Promise<Outcome<PointsSettings>> {
      if (!(await roles.isAdmin(userId))) return refused('adminOnly')
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          const before = await settingsOf(tx)
          const after: PointsSettings = {
            categories: input.categories ?? before.categories,
            target: input.target ?? before.target,
            lateral_entry_target: input.lateral_entry_target ?? before.lateral_entry_target,
          }
          await tx
            .insert(pointsSettings)
            .values({ id: 1, categories: after.categories, target: after.target, lateralEntryTarget: after.lateral_entry_target })
            .onConflictDoUpdate({
              target: pointsSettings.id,
              set: { categories: after.categories, target: after.target, lateralEntryTarget: after.lateral_entry_target, updatedAt: sql`now()` },
            })
          await recordAudit(tx, { actorId: userId, actorKind: 'user', action: 'points.settings', before, after })
          return after
        }),
      )
    },

    /** The points an event has given (its organisers and admins only). */
    async eventPoints(userId: number, eventId: number): Promise<Outcome<{ activity_points: ActivityPointsValue | null; points: EventPointsRow[] }>> {
      const access = await managed(userId, eventId)
      if (!access.ok) return access
      const [event] = await db.select({ activityPoints: events.activityPoints }).from(events).where(eq(events.id, eventId))
      const entries = await entriesOf(db, { eventId })
      const ids = [...new Set(entries.map((e) => e.user_id))]
      const people = new Map(
        (ids.length === 0
          ? []
          : await db
              .select({ id: users.id, name: users.name, email: users.email, roll_number: users.rollNumber })
              .from(users)
              .where(sql`${users.id} = ANY(${`{${ids.join(',')}}`}::text::int[])`)
        ).map((u) => [u.id, u]),
      )
      const points = entries
        .map((e) => ({ user: people.get(e.user_id)!, kind: e.kind, points: e.points, days: e.days }))
        .sort((a, b) => a.user.name.localeCompare(b.user.name) || a.user.id - b.user.id || KIND_ORDER[a.kind] - KIND_ORDER[b.kind])
      return done({ activity_points: event?.activityPoints ?? null, points })
    },

    /**
     * Lists the winners; with a user, marks (or removes) one: only once the event is COMPLETED, only a participant.
     * One transaction with the event locked; audited when something changed.
     */
    async winners(
      userId: number,
      eventId: number,
      change?: { userId: number; title: string | null | undefined; remove: boolean },
    ): Promise<Outcome<EventWinner[]>> {
      const access = await managed(userId, eventId)
      if (!access.ok) return access
      if (!change) return done(await winnersOf(db, eventId))
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          const [event] = await tx.select({ state: events.state, councilId: events.organizerId }).from(events).where(eq(events.id, eventId)).for('update')
          if (!event) throw new Refused('eventNotFound')
          if (event.state !== 'COMPLETED') throw new Refused('winnersAfterEvent')
          const [before] = await tx
            .select()
            .from(eventWinners)
            .where(and(eq(eventWinners.eventId, eventId), eq(eventWinners.userId, change.userId)))
          const shape = (w: { title: string | null } | undefined) => (w ? { user_id: change.userId, title: w.title } : null)
          if (change.remove) {
            if (before) {
              await tx.delete(eventWinners).where(and(eq(eventWinners.eventId, eventId), eq(eventWinners.userId, change.userId)))
              await recordAudit(tx, {
                actorId: userId,
                actorKind: 'user',
                action: 'winner.remove',
                councilId: event.councilId,
                eventId,
                before: shape(before),
                after: null,
              })
            }
          } else {
            const [participant] = await tx
              .select({ id: participants.id })
              .from(participants)
              .where(and(eq(participants.eventId, eventId), eq(participants.userId, change.userId)))
            if (!participant) throw new Refused('winnerNotParticipant')
            const title = change.title === undefined ? (before?.title ?? null) : change.title
            if (!before || before.title !== title) {
              await tx
                .insert(eventWinners)
                .values({ eventId, userId: change.userId, title, markedBy: userId })
                .onConflictDoUpdate({ target: [eventWinners.eventId, eventWinners.userId], set: { title, markedBy: userId } })
              await recordAudit(tx, {
                actorId: userId,
                actorKind: 'user',
                action: before ? 'winner.title' : 'winner.add',
                councilId: event.councilId,
                eventId,
                before: shape(before),
                after: { user_id: change.userId, title },
              })
            }
          }
          return winnersOf(tx, eventId)
        }),
      )
    },

    /** Admins only: a student's record by e-mail; `lateral` marks them a lateral-entry student or not (audited). */
    async student(adminId: number, email: string, lateral: boolean | undefined): Promise<Outcome<{ student: PointsStudent; record: PointsRecord }>> {
      if (!(await roles.isAdmin(adminId))) return refused('adminOnly')
      const [found] = await db
        .select({ id: users.id, lateral: users.lateralEntry })
        .from(users)
        .where(sql`lower(${users.email}) = ${email}`)
        .orderBy(asc(users.id))
        .limit(1)
      if (!found) return refused('studentNotFound')
      if (lateral !== undefined && lateral !== found.lateral) {
        await db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          await tx.update(users).set({ lateralEntry: lateral }).where(eq(users.id, found.id))
          await recordAudit(tx, {
            actorId: adminId,
            actorKind: 'user',
            action: 'points.lateral_entry',
            before: { user_id: found.id, lateral_entry: found.lateral },
            after: { user_id: found.id, lateral_entry: lateral },
          })
        })
      }
      const student = (await studentRow(found.id))!
      return done({ student, record: stripKeys(await recordOf(db, found.id)) })
    },

    /** Admins only: the students of a graduation year (and branch) below their target, fewest points first. */
    async belowTarget(adminId: number, year: number, branch: string | null): Promise<Outcome<PointsStudent[]>> {
      if (!(await roles.isAdmin(adminId))) return refused('adminOnly')
      const settings = await settingsOf(db)
      const rows = rowsOf(
        await db.execute(sql`
          WITH totals AS (SELECT t.user_id, sum(t.points)::int AS points FROM (${pointedEntries({ cohort: { year, branch } })}) t GROUP BY t.user_id)
          SELECT u.id, u.name, u.email, u.roll_number, u.branch, u.year, u.lateral_entry, coalesce(totals.points, 0)::int AS points
            FROM users u LEFT JOIN totals ON totals.user_id = u.id
           WHERE u.year = ${year} AND (${branch}::text IS NULL OR u.branch = ${branch}::text)
             AND coalesce(totals.points, 0) < CASE WHEN u.lateral_entry THEN ${settings.lateral_entry_target}::int ELSE ${settings.target}::int END
           ORDER BY 8, u.name, u.id`),
      ) as (StudentColumns & { points: number })[]
      return done(
        rows.map((r) => ({
          user: { id: Number(r.id), name: r.name, email: r.email, roll_number: r.roll_number, branch: r.branch, year: r.year === null ? null : Number(r.year) },
          lateral_entry: r.lateral_entry,
          points: Number(r.points),
          target: targetOf(settings, r.lateral_entry),
        })),
      )
    },

    async isAdmin(userId: number): Promise<boolean> {
      return roles.isAdmin(userId)
    },

    /** The export's columns of categories: the college's, then any an event still names that the list no longer has. */
    async exportCategories(): Promise<string[]> {
      const { categories } = await settingsOf(db)
      const used = rowsOf(
        await db.execute(sql`SELECT DISTINCT activity_points->>'category' AS category FROM events WHERE activity_points IS NOT NULL ORDER BY 1`),
      ) as { category: string }[]
      return [...categories, ...used.map((u) => u.category).filter((c) => c && !categories.includes(c))]
    },

    /** A page of the export: students after `afterId` (by id) of the year and branch, with their points by category. */
    async exportPage(filter: { year?: number; branch?: string | null }, afterId: number, limit: number): Promise<ExportRow[]> {
      const settings = await settingsOf(db)
      const where: SQL[] = [sql`${users.id} > ${afterId}`]
      if (filter.year !== undefined) where.push(eq(users.year, filter.year))
      if (filter.branch) where.push(eq(users.branch, filter.branch))
      const page = await db
        .select({
          id: users.id,
          name: users.name,
          email: users.email,
          roll_number: users.rollNumber,
          branch: users.branch,
          year: users.year,
          lateral_entry: users.lateralEntry,
        })
        .from(users)
        .where(and(...where))
        .orderBy(asc(users.id))
        .limit(limit)
      if (page.length === 0) return []
      const sums = rowsOf(
        await db.execute(sql`
          SELECT t.user_id, e.activity_points->>'category' AS category, sum(t.points)::int AS points, max(t.earned_at) AS last
            FROM (${pointedEntries({ userIds: `{${page.map((u) => u.id).join(',')}}` })}) t JOIN events e ON e.id = t.event_id
           GROUP BY 1, 2`),
      ) as { user_id: number; category: string; points: number; last: string | Date | null }[]
      const byUser = new Map<number, { cats: Map<string, number>; total: number; last: string | null }>()
      for (const s of sums) {
        const u = byUser.get(Number(s.user_id)) ?? { cats: new Map(), total: 0, last: null }
        u.cats.set(s.category, (u.cats.get(s.category) ?? 0) + Number(s.points))
        u.total += Number(s.points)
        const last = isoOf(s.last)
        if (last && (!u.last || last > u.last)) u.last = last
        byUser.set(Number(s.user_id), u)
      }
      return page.map((u) => {
        const sum = byUser.get(u.id)
        return {
          ...u,
          by_category: sum?.cats ?? new Map(),
          total: sum?.total ?? 0,
          target: targetOf(settings, u.lateral_entry),
          last_earned_at: sum?.last ?? null,
        }
      })
    },

    /** The caller's transcript: the record, and a verification code for each entry (made once, kept). */
    async transcript(userId: number): Promise<Outcome<Transcript>> {
      const [who] = await db
        .select({ name: users.name, roll_number: users.rollNumber, branch: users.branch, year: users.year })
        .from(users)
        .where(eq(users.id, userId))
      if (!who) return refused('userNotFound')
      const full = await recordOf(db, userId)
      const codes = new Map<string, string>()
      const key = (eventId: number, kind: string) => `${eventId}:${kind}`
      const stored = async () => {
        const rows = await db
          .select({ eventId: pointCodes.eventId, kind: pointCodes.kind, code: pointCodes.code })
          .from(pointCodes)
          .where(eq(pointCodes.userId, userId))
        for (const r of rows) codes.set(key(r.eventId, r.kind), r.code)
      }
      await stored()
      // Every missing code in one insert (a 400-entry first transcript made them one by one, reading all back after
      // each: 6 s); a code another entry holds fails the insert, which is drawn again, whole, up to CODE_TRIES times.
      const missing = () => full.entryKeys.filter((k) => !codes.has(key(k.eventId, k.kind)))
      for (let i = 0; i < CODE_TRIES && missing().length > 0; i++) {
        try {
          await db
            .insert(pointCodes)
            .values(missing().map((k) => ({ userId, eventId: k.eventId, kind: k.kind, code: randomCode() })))
            .onConflictDoNothing({ target: [pointCodes.userId, pointCodes.eventId, pointCodes.kind] })
        } catch (err) {
          if (!isUniqueViolation(err, 'point_codes_code')) throw err
        }
        await stored()
      }
      if (missing().length > 0) return refused('certificateCodesExhausted')
      const record = stripKeys(full)
      return done({ ...who, record, entries: record.entries.map((e) => ({ ...e, code: codes.get(key(e.event.id, e.kind))! })) })
    },

    /** The transcript entry with this code, and whether its fact still stands (its points now), or null. */
    async verify(code: string): Promise<VerifiedPoints | null> {
      const [row] = rowsOf(
        await db.execute(sql`SELECT pc.code, pc.user_id, pc.event_id, pc.kind, u.name, e.name AS event, c.name AS council, e.dates,
                                    e.activity_points->>'category' AS category
                               FROM point_codes pc JOIN users u ON u.id = pc.user_id JOIN events e ON e.id = pc.event_id
                               JOIN councils c ON c.id = e.organizer_id
                              WHERE pc.code = ${code}`),
      ) as {
        code: string
        user_id: number
        event_id: number
        kind: PointKind
        name: string
        event: string
        council: string
        dates: string[]
        category: string | null
      }[]
      if (!row) return null
      const now = (await entriesOf(db, { userId: Number(row.user_id), eventId: Number(row.event_id) })).find((e) => e.kind === row.kind)
      return {
        code: row.code,
        name: row.name,
        event: row.event,
        council: row.council,
        dates: row.dates,
        category: row.category ?? '',
        role: row.kind,
        points: now?.points ?? 0,
        stands: now !== undefined,
      }
    },
  }
}

export type PointsRepository = ReturnType<typeof pointsRepository>
