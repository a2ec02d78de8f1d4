// The organiser console's events (server/db/org/org.ts joins the repositories): the caller's events, their creation
// and editing, manual state moves, and whether the caller may manage one. The rules a save must keep live in
// contract/event-rules.ts (the contract's schema and the console call them too); here they meet the stored event,
// read in the save's transaction, and every write is recorded in the audit log in that transaction.
import { randomBytes } from 'node:crypto'
import { eq, inArray, sql } from 'drizzle-orm'
import type { AnyEventState } from '../../../contract/constants.ts'
import { PAYMENT_METHODS } from '../../../contract/payment-rules.ts'
import { parentPlacement, parentSelf, saveRefusal, type StoredEvent, type TeamFacts, teamFactsNeeded } from '../../../contract/event-rules.ts'
import type { eventInput, ScheduleKey } from '../../../contract/org.ts'
import type { OrgEvent } from '../../../contract/types.ts'
import type * as z from 'zod/mini'
import { recordAudit } from '../audit.ts'
import { DEFAULT_FAIR_WINDOW_SECONDS, newFairSeed } from '../tickets/fair.ts'
import type { Db } from '../index.ts'
import type { Lifecycle } from '../events/lifecycle.ts'
import { type EventRow, lockManaged, slugOf, type Tx, unknownEvent } from './common.ts'
import { auditShape, loadOrgEvents } from './read.ts'
import { done, isCheckViolation, type Outcome, Refused, refused, outcomeOf, rowsOf } from '../outcomes.ts'
import { activityPointsOf } from '../points/points.ts'
import { rolesRepository } from '../people/roles.ts'
import { councils, events, participants } from '../schema.ts'

/** What /org/p/event/save takes, after the contract's validation: the contract's own output type, never a copy. */
export type EventInputValue = z.output<typeof eventInput>

const SCHEDULE_COLUMNS = {
  registration_opens_at: 'registrationOpensAt',
  registration_closes_at: 'registrationClosesAt',
  tickets_open_at: 'ticketsOpenAt',
  tickets_close_at: 'ticketsCloseAt',
  starts_at: 'startsAt',
  ends_at: 'endsAt',
} as const satisfies Record<ScheduleKey, keyof EventRow>

/** A new question's id: short, unique within the event. */
const questionId = () => `q${randomBytes(4).toString('hex')}`

/** What the rules of contract/event-rules.ts read of the stored event. */
const storedOf = (e: EventRow): StoredEvent => ({
  id: e.id,
  min_ppt: e.minPpt,
  ma_ppt: e.maPpt,
  registration_type: e.registrationType,
  external_registration_link: e.externalRegistrationLink,
  // A place held for its payment (issue 35) counts as a ticket sold: ticket_count may not go below both together.
  tickets_sold: e.ticketsSold + e.ticketsHeld,
  fair_window_seconds: e.fairWindowSeconds,
  state: e.state,
  fair_draw_set: Boolean(e.fairDrawAt || e.fairDrawnAt),
})

/** The teams formed for the event: students registered and the largest team (a student alone counts as one). */
async function teamFacts(tx: Tx, eventId: number): Promise<TeamFacts> {
  const [row] = await tx
    .select({ registered: sql<number>`count(*)::int`, largest: sql<number>`coalesce(max(n), 0)::int` })
    .from(sql`(SELECT ${participants.teamId} AS team, count(*) AS n FROM ${participants} WHERE ${participants.eventId} = ${eventId} GROUP BY 1) AS groups`)
  return { registered: Number(row?.registered ?? 0), largest: Number(row?.largest ?? 0) }
}

/** The council a save names, when it changes: one the caller manages, and one that exists. */
async function checkCouncil(tx: Tx, userId: number, input: EventInputValue, before: EventRow | null): Promise<void> {
  if (input.organizer_id === undefined || input.organizer_id === before?.organizerId) return
  if (!(await rolesRepository(tx).canManageCouncil(userId, input.organizer_id))) throw new Refused('notOrganiser')
  const [council] = await tx.select({ id: councils.id }).from(councils).where(eq(councils.id, input.organizer_id))
  if (!council) throw new Refused('councilNotFound')
}

/**
 * The parent a save names: not the event itself, one that exists and the caller manages, and one level of
 * sub-events (contract/event-rules.ts). The trigger events_one_level_of_children (server/db/functions/) decides when two saves race (mapped in save).
 */
async function checkParent(tx: Tx, userId: number, input: EventInputValue, before: EventRow | null): Promise<void> {
  if (input.parent_id == null) return
  if (parentSelf(input.parent_id, before?.id)) throw new Refused('parentSelf')
  const [parent] = await tx
    .select({ id: events.id, organizerId: events.organizerId, parentId: events.parentId })
    .from(events)
    .where(eq(events.id, input.parent_id))
  if (!parent) throw new Refused('parentNotFound')
  if (!(await rolesRepository(tx).canManageCouncil(userId, parent.organizerId))) throw new Refused('notOrganiser')
  const hasChildren =
    parent.parentId === null && before !== null && (await tx.select({ id: events.id }).from(events).where(eq(events.parentId, before.id)).limit(1)).length > 0
  const placement = parentPlacement({ parent_id: parent.parentId }, hasChildren)
  if (placement) throw new Refused(placement)
}

/**
 * The ways to pay a save names (issue 35 item 1), on a paid event: RAZORPAY only where the server has its keys, UPI
 * only where the event's council has its UPI id and payee name (read in the save's transaction).
 */
async function checkMethods(tx: Tx, input: EventInputValue, before: EventRow | null, councilId: number, razorpay: boolean): Promise<void> {
  const methods = input.payment?.methods
  if (!methods || (input.fee ?? before?.fee ?? 0) <= 0) return
  if (methods.includes('RAZORPAY') && !razorpay) throw new Refused('razorpayNotConfigured')
  if (methods.includes('UPI')) {
    const [council] = await tx.select({ vpa: councils.upiVpa, name: councils.upiName }).from(councils).where(eq(councils.id, councilId))
    if (!council?.vpa || !council.name) throw new Refused('upiNotSet')
  }
}

/**
 * The fee lock (issue 35 item 3): once a payment exists for the event, its fee cannot change, and a way to pay that a
 * live payment (held or awaiting its confirmation) uses cannot be taken away. Read under the event's row lock, which
 * every claim takes first, so no payment can appear between the check and the write.
 */
async function checkFeeLock(tx: Tx, input: EventInputValue, before: EventRow | null): Promise<void> {
  if (!before) return
  const feeChanges = input.fee !== undefined && input.fee !== before.fee
  const methods = input.payment?.methods
  const removed = methods && before.fee > 0 ? before.paymentMethods.filter((m) => !methods.includes(m)) : []
  if (!feeChanges && removed.length === 0) return
  const [row] = rowsOf(
    await tx.execute(sql`
      SELECT count(*)::int AS payments,
             array_remove(array_agg(DISTINCT method) FILTER (WHERE status IN ('PENDING', 'AWAITING_CONFIRMATION')), NULL) AS live_methods
        FROM payments WHERE event_id = ${before.id}`),
  ) as { payments: number; live_methods: string[] | string | null }[]
  if (feeChanges && Number(row?.payments ?? 0) > 0) throw new Refused('feeLocked')
  const live = textArray(row?.live_methods)
  const inUse = removed.filter((m) => live.includes(m))
  if (inUse.length > 0)
    throw new Refused(
      'feeLocked',
      `payment.methods cannot drop ${inUse.join(' and ')}: a student's payment by it is under way. Drop it once no payment by it is held or awaiting confirmation.`,
    )
}

/** A text[] as either driver answers it. */
function textArray(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String)
  if (typeof value === 'string') return value.replace(/[{}]/g, '').split(',').filter(Boolean)
  return []
}

/** The columns a save writes: the fields sent, as stored (trimmed, sorted, named). */
async function eventValues(tx: Tx, input: EventInputValue, before: EventRow | null): Promise<Partial<typeof events.$inferInsert>> {
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
  // A fair opening (issue 24): the seed is fixed the first time a window is set and never changes after (the
  // window itself is fixed once tickets opened: saveRefusal's rule).
  if (input.fair_start !== undefined) {
    const window = input.fair_start?.window_seconds ?? 0
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
  // A paid event's settings (API.md Part 4): ignored while the fee (sent, or stored) is 0.
  if (input.payment !== undefined && (input.fee ?? before?.fee ?? 0) > 0) {
    const p = input.payment
    if (p.pay_within_minutes !== undefined) values.payWithinMinutes = p.pay_within_minutes
    if (p.refund_until_hours !== undefined) values.refundUntilHours = p.refund_until_hours
    if (p.methods !== undefined) values.paymentMethods = PAYMENT_METHODS.filter((m) => p.methods!.includes(m))
  }
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
  return values
}

export function orgEventsRepository(db: Db, lifecycle?: Lifecycle, options: { razorpay?: boolean } = {}) {
  const roles = rolesRepository(db)

  async function orgEvent(eventId: number): Promise<OrgEvent> {
    const [event] = await loadOrgEvents(db, eq(events.id, eventId))
    return event!
  }

  return {
    /** Whether the caller may use the console at all: an admin, or an organiser of some council. */
    async hasOrganiserRole(userId: number): Promise<boolean> {
      const r = await roles.of(userId)
      return r.admin || r.councils.length > 0
    },

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
          const before = input.id === undefined ? null : await lockManaged(tx, userId, input.id)
          if (!before) {
            if (input.name === undefined) throw new Refused('nameRequired')
            if (input.organizer_id === undefined) throw new Refused('organizerRequired')
          }
          const councilId = input.organizer_id ?? before!.organizerId
          await checkCouncil(tx, userId, input, before)
          await checkParent(tx, userId, input, before)
          // The rules against the event as stored (contract/event-rules.ts), in the order the save answers them.
          const stored = before && storedOf(before)
          const refusal = saveRefusal(input, stored, teamFactsNeeded(input, stored) ? await teamFacts(tx, before!.id) : null)
          if (refusal) throw new Refused(refusal)
          await checkMethods(tx, input, before, councilId, options.razorpay === true)
          await checkFeeLock(tx, input, before)

          const values = await eventValues(tx, input, before)
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
  }
}
