// An event's cross-field rules (issue 23 item 3): the rules that tie one field of an event to another, or a save to
// the event as stored, each written once, as plain functions over the event's input value. No zod and no I/O here:
// the contract's schema refines with them (contract/org.ts: eventInput, eventSaveBody, scheduleInput,
// questionInput), the repository's save decides with them against the stored event (server/db/org/events.ts), and
// the console's editor checks its form with them (src/pages/manage/rules.ts, a staff chunk that carries no zod).
// Each rule answers the contract's words (the message a 400 carries, the field it names) or, for a rule against the
// stored event, the repository's refusal (server/db/outcomes.ts), which server/routes/outcomes.ts turns into HTTP.
// A field's own limits (lengths, ranges) are contract/limits.ts's; which fields exist, contract/org.ts's.

import { SCHEDULE_STEPS, type ScheduleKey } from './schedule-steps.ts'

// The words of the rules checkable from the input alone (API.md fixes them: a 400 names the field). One constant
// each, so a chunk carries only the words of the rules it calls.
export const MIN_ABOVE_MAX = 'min_ppt must not be more than ma_ppt'
export const EXTERNAL_LINK_MISSING = 'external_registration_link is required for an EXTERNAL registration'
export const DATE_ENDS_ALONE = 'date_ends must be sent with dates'
export const DATE_ENDS_TOO_MANY = 'date_ends must not have more entries than dates'
export const DATE_END_BEFORE_START = 'date_ends: each end must be after its date’s start'
export const QUESTION_ID_TWICE = 'questions: two questions have the same id'

// ---- Rules over the input alone ----

/**
 * The schedule in order: each step set is after the one set before it (registration before tickets, tickets before
 * the event, its start before its end). The first step out of order, with its message; null when in order.
 */
export function scheduleOutOfOrder(schedule: Partial<Record<ScheduleKey, string | null | undefined>>): { step: ScheduleKey; message: string } | null {
  let last: [ScheduleKey, number] | null = null
  for (const [step] of SCHEDULE_STEPS) {
    const value = schedule[step]
    if (!value) continue
    const t = Date.parse(value)
    if (last && t <= last[1]) return { step, message: `schedule.${step} must be after schedule.${last[0]}` }
    last = [step, t]
  }
  return null
}

/**
 * Each date's end beside its date (issue 22 item 7): sent with the dates, at most one per date, each after its date's
 * start (null: no end). The message for `date_ends`, or null. Not sent (undefined): nothing to check.
 */
export function dateEndsError(dates: readonly string[] | undefined, ends: readonly (string | null)[] | undefined): string | null {
  if (ends === undefined) return null
  if (!dates) return DATE_ENDS_ALONE
  if (ends.length > dates.length) return DATE_ENDS_TOO_MANY
  if (ends.some((end, i) => end !== null && Date.parse(end) <= Date.parse(dates[i]))) return DATE_END_BEFORE_START
  return null
}

/**
 * A team's smallest size is not above its largest. Compared whenever both are numbers (NaN compares false, so a
 * field that is no number is left to its own check). The message for `min_ppt`, or null.
 */
export function teamSizeError(min: number | undefined, max: number | undefined): string | null {
  return min !== undefined && max !== undefined && min > max ? MIN_ABOVE_MAX : null
}

/**
 * An EXTERNAL registration has its link. `link` null is none; undefined is not sent (the save then checks the
 * stored one). The message for `external_registration_link`, or null.
 */
export function externalLinkError(type: string | undefined, link: string | null | undefined): string | null {
  return type === 'EXTERNAL' && link !== undefined && !link ? EXTERNAL_LINK_MISSING : null
}

/** A question's options against its kind: a CHOICE has two at least, and no option twice. Every message, in order. */
export function questionOptionErrors(q: { label: string; kind: string; options?: readonly string[] }): string[] {
  const options = q.options ?? []
  const out: string[] = []
  if (q.kind === 'CHOICE' && options.length < 2) out.push(`questions: '${q.label}' needs at least two options`)
  if (new Set(options.map((o) => o.trim())).size !== options.length) out.push(`questions: '${q.label}' has the same option twice`)
  return out
}

/** No two questions share an id (new ones have none yet). The message for `questions`, or null. */
export function questionIdsError(questions: readonly { id?: string }[]): string | null {
  const ids = questions.flatMap((q) => (q.id ? [q.id] : []))
  return new Set(ids).size === ids.length ? null : QUESTION_ID_TWICE
}

// ---- Rules of a save against the event as stored (the repository's, inside its transaction) ----

/** What these rules read of the stored event, in the contract's names. */
export interface StoredEvent {
  id: number
  min_ppt: number
  ma_ppt: number
  registration_type: string
  external_registration_link: string | null
  tickets_sold: number
  fair_window_seconds: number
  state: string
  /** Whether the fair opening's draw is set or done. */
  fair_draw_set: boolean
}

/** What a save sends that these rules read (undefined: not sent, the stored value stands). */
export interface SaveInput {
  parent_id?: number | null
  min_ppt?: number
  ma_ppt?: number
  registration_type?: string
  external_registration_link?: string | null
  ticket_count?: number
  fair_start?: { window_seconds: number } | null
}

/** The teams already formed, read only when a save changes the largest team (teamFactsNeeded). */
export interface TeamFacts {
  /** Students registered. */
  registered: number
  /** The largest team's size (a student alone counts as one). */
  largest: number
}

export type SaveRefusal = 'minAboveMax' | 'externalLinkMissing' | 'ticketCountBelowSold' | 'teamModeLocked' | 'teamsTooBig' | 'fairStartLocked'

/** Whether the save changes the largest team of a stored event, so the rules need the teams formed. */
export const teamFactsNeeded = (input: SaveInput, before: StoredEvent | null): boolean =>
  before !== null && input.ma_ppt !== undefined && input.ma_ppt !== before.ma_ppt

/** Whether a stored event's fair window is fixed: it has reached TICKET_OPEN, or its draw is set or done. */
const fairLocked = (before: StoredEvent) => before.state === 'TICKET_OPEN' || before.fair_draw_set

/**
 * The first rule a save breaks against the stored event (null on create: `before` null), in the order the save
 * answers them: the team sizes and the external link as they will stand (the fields sent over the stored ones),
 * tickets not below those collected, a team event not switched to individual (or back) once students registered,
 * teams not below one already formed, the fair window fixed once tickets opened. Null: the save may go on.
 */
export function saveRefusal(input: SaveInput, before: StoredEvent | null, teams: TeamFacts | null): SaveRefusal | null {
  if (teamSizeError(input.min_ppt ?? before?.min_ppt ?? 1, input.ma_ppt ?? before?.ma_ppt ?? 1)) return 'minAboveMax'
  const link = input.external_registration_link !== undefined ? input.external_registration_link : (before?.external_registration_link ?? null)
  if (externalLinkError(input.registration_type ?? before?.registration_type ?? 'ONPLATFORM', link)) return 'externalLinkMissing'
  if (!before) return null
  if (input.ticket_count !== undefined && input.ticket_count < before.tickets_sold) return 'ticketCountBelowSold'
  if (teams && input.ma_ppt !== undefined && teamFactsNeeded(input, before)) {
    if (teams.registered > 0 && (before.ma_ppt === 1) !== (input.ma_ppt === 1)) return 'teamModeLocked'
    if (teams.largest > input.ma_ppt && before.ma_ppt > 1) return 'teamsTooBig'
  }
  if (input.fair_start !== undefined && (input.fair_start?.window_seconds ?? 0) !== before.fair_window_seconds && fairLocked(before)) return 'fairStartLocked'
  return null
}

export type ParentRefusal = 'parentSelf' | 'parentNotTopLevel' | 'parentOfChildren'

/** A parent that is the event itself (checked before the parent is read). */
export const parentSelf = (parentId: number | null | undefined, eventId: number | undefined): boolean =>
  parentId != null && eventId !== undefined && parentId === eventId

/**
 * One level of sub-events (issue 21 item 8, the importer's rule too): the parent is a top-level event, and the event
 * made its sub-event has none of its own. The refusal, or null.
 */
export function parentPlacement(parent: { parent_id: number | null }, hasChildren: boolean): ParentRefusal | null {
  if (parent.parent_id !== null) return 'parentNotTopLevel'
  if (hasChildren) return 'parentOfChildren'
  return null
}
