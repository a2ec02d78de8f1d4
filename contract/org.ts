// The calls of the organiser console and the audit log (API.md Part 2 "Organiser calls"), declared the way contract/api.ts declares Part 1 (docs/architecture.md): built from
// define.ts and entities.ts only (never from api.ts, which joins this file into CALLS).
//
// Beyond API.md (what the console needs and API.md is silent on):
// - POST /org/p/councils {}: the councils the caller manages (every council for an admin), each with its organisers.
// - /org/p/event/staff and /org/p/council/organizers without `email`: only the list (nothing changes).
// - The participants' rows carry `answers` (the registration answers, by question id) and the answer carries the
//   event's `questions`, so the console can label the answers' columns.
// - POST /org/p/audit {event_id?, before?}: newest first, 100 a page; `before` an entry id to read on from.
// - EventInput: on create (no `id`) `name` and `organizer_id` are required and every other field has a default;
//   on update only the fields sent change. A new event starts as DRAFT; its state moves only by /org/p/event/state
//   (or the schedule).
import * as z from 'zod/mini'
import { ALL_EVENT_STATES, REGISTRATION_TYPES } from './constants.ts'
import { apiError, bearer, type CallSpec, doc, fields, inTimestampRange, MAX_ID, missing, noFields, ok, positiveId } from './define.ts'
import { council, eventFields, paymentSettings, question, QUESTION_KINDS } from './entities.ts'
import { isHttpUrl } from './questions.ts'
import { doorDay } from './door.ts'
import { activityPoints, activityPointsInput } from './points.ts'
import { UPI_NAME_MESSAGE, UPI_PAIR_MESSAGE, UPI_VPA_MESSAGE, upiNameError, upiVpaError } from './payment-rules.ts'
import { PAYMENT_LIMITS, paymentMethodsError } from './payment-settings.ts'

export { ANSWER_LIMITS, answerError, checkAnswers, isHttpUrl } from './questions.ts'
import { EVENT_LIMITS } from './limits.ts'
import {
  dateEndsError,
  EXTERNAL_LINK_MISSING,
  externalLinkError,
  MIN_ABOVE_MAX,
  QUESTION_ID_TWICE,
  questionIdsError,
  questionOptionErrors,
  scheduleOutOfOrder,
  teamSizeError,
} from './event-rules.ts'
import { SCHEDULE_STEPS, type ScheduleKey } from './schedule-steps.ts'

/**
 * The body those calls take: twenty LONG_TEXT answers of 2,000 characters, 3 bytes each in UTF-8 (Devanagari),
 * are 120 KB, beyond the server's 16 KB for other calls.
 */
export const ANSWERS_BODY_LIMIT = 160 * 1024

/**
 * The body /org/p/event/save takes: a long_description of 20,000 characters and twenty questions of fifty options
 * of 200 characters, 3 bytes each in UTF-8, are about 700 KB.
 */
export const EVENT_SAVE_BODY_LIMIT = 1024 * 1024

/** The registration answers a student sends with register-for-event, create-team/ and join-team/, by question id. */
export const answersField = z.optional(z.nullable(z.record(z.string(), z.unknown(), { error: 'answers must be an object of answers by question id' })))

// ---- Limits of an event's fields: contract/limits.ts (no zod there: the console's forms import them) ----

export { EVENT_LIMITS } from './limits.ts'

/** The longest draw window a fair opening may have, in seconds. */
export const FAIR_WINDOW_MAX = EVENT_LIMITS.fair_window

/** The steps of a schedule in the order they happen, with the state each starts. */
export { SCHEDULE_STEPS, type ScheduleKey } from './schedule-steps.ts'

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i

/** Whether a string is an ISO-8601 date-time with an offset (or Z) naming a real instant in the years 1 to 9999. */
export const isIsoDateTime = (s: string) => ISO_DATE_TIME.test(s) && inTimestampRange(Date.parse(s))

/** An image address: an absolute http(s) URL or one of this server's uploads (`/uploads/...`). */
export const isImageUrl = (s: string) => isHttpUrl(s) || /^\/uploads\/[A-Za-z0-9._-]+$/.test(s)

// ---- Field schemas (each message names the field) ----

const req = (field: string) => `${field} is a required field`

function text(field: string, max: number, options: { required?: boolean } = {}) {
  return z.string({ error: (iss) => (missing(iss.input) && options.required ? req(field) : `${field} must be text`) }).check(
    z.refine((s) => !options.required || s.trim().length > 0, req(field)),
    z.maxLength(max, `${field} must be at most ${max} characters`),
  )
}

/** Ticket transfer's cut-off (issue 25), in minutes before the first date: at most a week. */
export const TRANSFER_CLOSES_MAX = EVENT_LIMITS.transfer_closes

function wholeNumber(field: string, min: number, max: number) {
  const message = `${field} must be a whole number from ${min} to ${max}`
  return z.int({ error: message }).check(z.gte(min, message), z.lte(max, message))
}

/** EventInput.payment (API.md Part 4): each part optional, each checked with a message naming it. */
function paymentInput() {
  const { pay_within_minutes: pay, refund_until_hours: refund } = PAYMENT_LIMITS
  return z.object(
    {
      pay_within_minutes: z.optional(wholeNumber('payment.pay_within_minutes', pay.min, pay.max)),
      refund_until_hours: z.optional(wholeNumber('payment.refund_until_hours', refund.min, refund.max)),
      methods: z.optional(
        z
          .array(z.string({ error: 'payment.methods may only contain RAZORPAY, UPI and DESK' }), {
            error: 'payment.methods must be a list of RAZORPAY, UPI and DESK',
          })
          .check(
            z.superRefine((methods, ctx) => {
              const message = paymentMethodsError(methods)
              if (message) ctx.addIssue({ code: 'custom', input: methods, message })
            }),
          ),
      ),
    },
    { error: 'payment must be an object: {"pay_within_minutes", "refund_until_hours", "methods"}' },
  )
}

function flag(field: string) {
  return z.boolean({ error: `${field} must be true or false` })
}

/** A nullable link (null or '' clears it). */
function link(field: string, check: (s: string) => boolean, what: string) {
  const message = `${field} must be ${what}`
  return z.pipe(
    z.nullable(z.string({ error: message }).check(z.maxLength(EVENT_LIMITS.url, `${field} must be at most ${EVENT_LIMITS.url} characters`))),
    z.transform((s: string | null, ctx) => {
      const v = s?.trim() ?? ''
      if (v === '') return null
      if (check(v)) return v
      ctx.issues.push({ code: 'custom', input: s, message })
      return z.NEVER
    }),
  )
}

function dateTime(field: string) {
  const message = `${field} must be a date and time with its offset, e.g. 2026-03-06T18:00:00+05:30`
  return z.string({ error: message }).check(z.refine(isIsoDateTime, message))
}

const nullableDateTime = (field: string) =>
  z.pipe(
    z.optional(
      z.nullable(z.union([z.literal(''), dateTime(field)], { error: `${field} must be a date and time with its offset, e.g. 2026-03-06T18:00:00+05:30` })),
    ),
    z.transform((s) => (s ? s : null)),
  )

/** The schedule as an organiser sends it: every step optional (missing or null: no such step), in order. */
export const scheduleInput = z.pipe(
  z.transform((body: unknown) => (body === null || body === undefined ? {} : body)),
  z
    .object(
      Object.fromEntries(SCHEDULE_STEPS.map(([key]) => [key, nullableDateTime(`schedule.${key}`)])) as Record<ScheduleKey, ReturnType<typeof nullableDateTime>>,
      { error: 'schedule must be an object of date-times' },
    )
    .check(
      z.superRefine((s, ctx) => {
        const breach = scheduleOutOfOrder(s)
        if (breach) ctx.addIssue({ code: 'custom', input: s[breach.step], path: [breach.step], message: breach.message })
      }),
    ),
)

const QUESTION_ID = /^[A-Za-z0-9_-]{1,40}$/

/** A registration question as an organiser sends it (`id` optional: the server names new ones). */
export const questionInput = z
  .object(
    {
      id: z.optional(z.string({ error: 'questions: id must be text' }).check(z.regex(QUESTION_ID, 'questions: id must be 1 to 40 letters, digits, - or _'))),
      label: text('questions: label', EVENT_LIMITS.question_label, { required: true }),
      kind: z.enum(QUESTION_KINDS, { error: `questions: kind must be one of ${QUESTION_KINDS.join(', ')}` }),
      options: z.optional(
        z
          .array(text('questions: option', EVENT_LIMITS.option, { required: true }), { error: 'questions: options must be a list of texts' })
          .check(z.maxLength(EVENT_LIMITS.options, `questions: at most ${EVENT_LIMITS.options} options`)),
      ),
      required: z.optional(flag('questions: required')),
      /** Issue 25 item 4: the answer appears at the door with the verdict (default false). */
      show_at_door: z.optional(flag('questions: show_at_door')),
    },
    { error: 'questions must be a list of questions' },
  )
  .check(
    z.superRefine((q, ctx) => {
      for (const message of questionOptionErrors(q)) ctx.addIssue({ code: 'custom', input: q, path: ['options'], message })
    }),
  )

/**
 * What an organiser sends to create (no `id`) or update (`id`) an event. Every field is optional here: on create
 * the server requires `name` and `organizer_id` (messages as below) and fills the rest with defaults; on update
 * only the fields sent change. Cross-field rules the server checks against the stored event too: min_ppt ≤ ma_ppt,
 * an EXTERNAL event has a link, ticket_count ≥ tickets_sold (409), council and parent among the caller's (403).
 */
export const eventInputShape = {
  id: z.optional(positiveId('id')),
  name: z.optional(text('name', EVENT_LIMITS.name, { required: true })),
  description: z.optional(text('description', EVENT_LIMITS.description)),
  long_description: z.optional(text('long_description', EVENT_LIMITS.long_description)),
  event_page_image_url: z.optional(link('event_page_image_url', isImageUrl, 'an http(s) address or an uploaded image')),
  banner_url: z.optional(link('banner_url', isImageUrl, 'an http(s) address or an uploaded image')),
  dates: z.optional(
    z
      .array(dateTime('dates'), { error: 'dates must be a list of date-times' })
      .check(z.maxLength(EVENT_LIMITS.dates, `dates must have at most ${EVENT_LIMITS.dates} entries`)),
  ),
  /**
   * Each date's end (issue 22 item 7), in the order of `dates` and sent with them: a date-time after that date's
   * start, or null. Without it, a change of `dates` keeps the end of each date that stays.
   */
  date_ends: z.optional(
    z
      .array(z.nullable(dateTime('date_ends')), { error: 'date_ends must be a list of date-times or nulls' })
      .check(z.maxLength(EVENT_LIMITS.dates, `date_ends must have at most ${EVENT_LIMITS.dates} entries`)),
  ),
  venue: z.optional(text('venue', EVENT_LIMITS.venue)),
  tags: z.optional(
    z
      .array(text('tags', EVENT_LIMITS.tag, { required: true }), { error: 'tags must be a list of texts' })
      .check(z.maxLength(EVENT_LIMITS.tags, `tags must have at most ${EVENT_LIMITS.tags} entries`)),
  ),
  organizer_id: z.optional(positiveId('organizer_id')),
  parent_id: z.optional(z.nullable(positiveId('parent_id'))),
  fee: z.optional(wholeNumber('fee', 0, EVENT_LIMITS.fee)),
  ma_ppt: z.optional(wholeNumber('ma_ppt', 1, EVENT_LIMITS.ppt)),
  min_ppt: z.optional(wholeNumber('min_ppt', 1, EVENT_LIMITS.ppt)),
  registration_type: z.optional(z.enum(REGISTRATION_TYPES, { error: `registration_type must be one of ${REGISTRATION_TYPES.join(', ')}` })),
  external_registration_link: z.optional(link('external_registration_link', isHttpUrl, 'an http(s) address')),
  start_in_event_activity: z.optional(flag('start_in_event_activity')),
  in_event_activity: z.optional(link('in_event_activity', isHttpUrl, 'an http(s) address')),
  is_ticket_feature_enabled: z.optional(flag('is_ticket_feature_enabled')),
  ticket_count: z.optional(wholeNumber('ticket_count', 0, EVENT_LIMITS.ticket_count)),
  schedule: z.optional(scheduleInput),
  /**
   * A fair opening (API.md Part 3): `{window_seconds}`, 0 to 3600; 0 or null turns it off (first come, first served).
   * On create, a ticketed event without it gets 60. It cannot change once the event has reached TICKET_OPEN (409).
   */
  fair_start: z.optional(
    z.nullable(
      z.object(
        { window_seconds: wholeNumber('fair_start.window_seconds', 0, FAIR_WINDOW_MAX) },
        { error: 'fair_start must be an object: {"window_seconds": a whole number of seconds}' },
      ),
    ),
  ),
  questions: z.optional(
    z.array(questionInput, { error: 'questions must be a list of questions' }).check(
      z.maxLength(EVENT_LIMITS.questions, `questions: at most ${EVENT_LIMITS.questions}`),
      z.refine((qs) => questionIdsError(qs) === null, QUESTION_ID_TWICE),
    ),
  ),
  /** Activity points (issue 26, contract/points.ts): null gives none; the category must be the college's. */
  activity_points: z.optional(activityPointsInput),
  /** Ticket transfer (issue 25, contract/transfer.ts): transfers close this many minutes before the first date; null: open until check-in. */
  transfer_closes_minutes: z.optional(z.nullable(wholeNumber('transfer_closes_minutes', 0, TRANSFER_CLOSES_MAX))),
  /** Re-entry (issue 25 item 3, contract/admission.ts): the door scans out and in; false (the default): one entry a day. */
  reentry: z.optional(flag('reentry')),
  /** A code that changes every 30 s (issue 25, contract/time-code.ts); false for printed tickets, whose plain code the door then accepts. Default true. */
  rotating_codes: z.optional(z.boolean({ error: 'rotating_codes must be true or false' })),
  /**
   * How a paid event takes its fee (API.md Part 4), ignored when `fee` is 0: the minutes a claimed place is held for
   * its payment, until how many hours before the event a paid ticket given back is refunded, and the ways to pay.
   * On update only the parts sent change; a new paid event gets 15 minutes, 24 hours and every method. RAZORPAY is
   * refused where the server has no Razorpay keys, UPI where the council has no UPI id and payee name.
   */
  payment: z.optional(paymentInput()),
}

/**
 * Each date's end beside its date (issue 22 item 7), checked on the save's body itself: sent with the dates, at most
 * one per date, each after its date's start.
 */
const dateEndsRule = z.superRefine((e: { dates?: string[]; date_ends?: (string | null)[] }, ctx) => {
  const message = dateEndsError(e.dates, e.date_ends)
  if (message) ctx.addIssue({ code: 'custom', input: e.date_ends, path: ['date_ends'], message })
})

/** The body of /org/p/event/save: the fields, and the rule that ties each end time to its date. */
export const eventSaveBody = fields(eventInputShape).check(dateEndsRule)

/** The cross-field rules checkable from the input alone (the form's and the server's first pass). */
export const eventInput = z.object(eventInputShape).check(
  dateEndsRule,
  z.superRefine((e, ctx) => {
    const teams = teamSizeError(e.min_ppt, e.ma_ppt)
    if (teams) ctx.addIssue({ code: 'custom', input: e.min_ppt, path: ['min_ppt'], message: teams })
    const link = externalLinkError(e.registration_type, e.external_registration_link)
    if (link) ctx.addIssue({ code: 'custom', input: null, path: ['external_registration_link'], message: link })
  }),
)

/** The organiser's own messages for the rules the server checks against the stored event. */
export const ORG_MESSAGES = {
  nameRequired: req('name'),
  organizerRequired: req('organizer_id'),
  minAboveMax: MIN_ABOVE_MAX,
  externalLink: EXTERNAL_LINK_MISSING,
  parentSelf: 'parent_id must name another event, not this one or one of its sub-events',
  parentNotTopLevel: 'parent_id must name a top-level event: a sub-event cannot have sub-events of its own',
  parentOfChildren: 'This event has sub-events, so it cannot be a sub-event itself: it must stay top-level',
} as const

// ---- Answers ----

export const ratingsCounts = z.object({ count: z.int(), average: z.nullable(z.number()), by_star: z.array(z.int()) })

export const eventCounts = doc(
  z.object({
    registered: z.int(),
    teams: z.int(),
    tickets_sold: z.int(),
    checked_in: z.int(),
    /** Students waiting for a ticket (0 until the waitlist exists). */
    waitlist: z.int(),
    /** Beyond API.md: students in the event's draw (a fair opening), live during the window. */
    entrants: z.int(),
    ratings: ratingsCounts,
    /** Beyond API.md (issue 25 item 3): who came on each event day (one entry for a single-day event), and who is inside now. */
    days: z.optional(z.array(doorDay)),
  }),
  { id: 'EventCounts' },
)

const { state: _state, ...eventFieldsButState } = eventFields

export const orgEvent = doc(
  z.object({
    ...eventFieldsButState,
    state: z.enum(ALL_EVENT_STATES),
    /** Each date's end or null, in the order of `dates` (issue 22 item 7). */
    date_ends: z.array(z.nullable(z.string())),
    long_description: z.string(),
    questions: z.array(question),
    /** Activity points (issue 26): null when the event gives none. */
    activity_points: z.nullable(activityPoints),
    /** Ticket transfer (issue 25): minutes before the first date when transfers close; null: open until check-in. */
    transfer_closes_minutes: z.nullable(z.int()),
    /** Re-entry (issue 25 item 3): the door scans out and in. */
    reentry: z.boolean(),
    /** Issue 25: whether its tickets show a code that changes every 30 s (false: printed tickets, the plain code). */
    rotating_codes: z.boolean(),
    /** API.md Part 4: the payment settings as stored (every method the event takes), null when the fee is 0. */
    payment: z.nullable(paymentSettings),
    counts: eventCounts,
    /** Beyond API.md (issue 24): a fair opening's result once drawn (the seed and entrants are in fair_start); null before. */
    draw: z.nullable(z.object({ winners: z.int(), waitlisted: z.int() })),
  }),
  { id: 'OrgEvent', description: 'An event as its organisers see it: every state including DRAFT, with live counts.' },
)

export const orgPerson = doc(z.object({ id: z.int(), name: z.string(), email: z.string() }), { id: 'OrgPerson' })

export const participantRow = doc(
  z.object({
    user: z.object({
      id: z.int(),
      name: z.string(),
      email: z.string(),
      roll_number: z.nullable(z.string()),
      phone_number: z.nullable(z.string()),
      branch: z.nullable(z.string()),
      year: z.nullable(z.int()),
    }),
    team: z.nullable(z.object({ id: z.int(), name: z.string() })),
    registered_at: z.string(),
    ticket_collected: z.boolean(),
    ticket_code: z.nullable(z.string()),
    checked_in_at: z.nullable(z.string()),
    rating: z.nullable(z.int()),
    waitlist_position: z.nullable(z.int()),
    /** The registration answers, by question id. */
    answers: z.record(z.string(), z.string()),
  }),
  { id: 'ParticipantRow' },
)

/**
 * A council as its organisers and admins see it: beyond API.md's Council, its UPI id and payee name (issue 35), null
 * until set; UPI straight to the council is offered only where both are.
 */
export const orgCouncil = doc(z.object({ ...council.shape, upi_vpa: z.nullable(z.string()), upi_name: z.nullable(z.string()) }), { id: 'OrgCouncil' })

export const councilWithOrganizers = doc(z.object({ ...orgCouncil.shape, organizers: z.array(orgPerson) }), { id: 'ManagedCouncil' })

export const auditEntry = doc(
  z.object({
    id: z.int(),
    at: z.string(),
    actor_id: z.nullable(z.int()),
    actor_kind: z.enum(['user', 'scheduler', 'cli']),
    actor_name: z.nullable(z.string()),
    action: z.string(),
    council_id: z.nullable(z.int()),
    event_id: z.nullable(z.int()),
    before: z.unknown(),
    after: z.unknown(),
  }),
  { id: 'AuditEntry' },
)

export const email = z.pipe(
  z.string({ error: 'email must be an e-mail address' }).check(
    z.maxLength(320, 'email must be an e-mail address'),
    z.refine((s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s.trim()), 'email must be an e-mail address'),
  ),
  z.transform((s) => s.trim().toLowerCase()),
)

const removeFlag = z.optional(flag('remove'))

export const councilInputShape = {
  id: z.optional(positiveId('id')),
  name: z.optional(text('name', 120, { required: true })),
  photo_url: z.optional(link('photo_url', isImageUrl, 'an http(s) address or an uploaded image')),
  phone_number: z.optional(
    z.pipe(
      z.nullable(z.string({ error: 'phone_number must be text' }).check(z.maxLength(32, 'phone_number must be at most 32 characters'))),
      z.transform((s) => (s?.trim() ? s.trim() : null)),
    ),
  ),
  email: z.optional(z.nullable(z.union([z.literal(''), email], { error: 'email must be an e-mail address' }))),
  /** UPI straight to the council (issue 35): its UPI id, like name@bank, and the payee's name; both or neither (null clears both). */
  upi_vpa: z.optional(
    z.nullable(
      z.pipe(
        z.string({ error: UPI_VPA_MESSAGE }).check(z.refine((v) => upiVpaError(v.trim()) === null, UPI_VPA_MESSAGE)),
        z.transform((v) => v.trim()),
      ),
    ),
  ),
  upi_name: z.optional(
    z.nullable(
      z.pipe(
        z.string({ error: UPI_NAME_MESSAGE }).check(z.refine((v) => upiNameError(v) === null, UPI_NAME_MESSAGE)),
        z.transform((v) => v.trim()),
      ),
    ),
  ),
}

/** A council's UPI id and payee name go together (issue 35): sent both or neither, both set or both null. */
const upiPairRule = z.superRefine((c: { upi_vpa?: string | null; upi_name?: string | null }, ctx) => {
  if (c.upi_vpa === undefined && c.upi_name === undefined) return
  if (c.upi_vpa === undefined || c.upi_name === undefined || (c.upi_vpa === null) !== (c.upi_name === null))
    ctx.addIssue({
      code: 'custom',
      input: c.upi_vpa,
      path: [c.upi_vpa === undefined || c.upi_vpa === null ? 'upi_vpa' : 'upi_name'],
      message: UPI_PAIR_MESSAGE,
    })
})

/** The id in /org/p/event/{id}/participants.csv: anything that names no event answers 404. */
export const csvPathId = doc(
  z.pipe(
    z.string(),
    z.transform((raw) => (/^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= MAX_ID ? Number(raw) : null)),
  ),
  { pattern: '^\\d{1,10}$', description: 'The event id; anything that names no event answers 404.' },
)

/** The largest image /org/p/upload takes. */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024

export const ORG_CALLS = {
  orgEvents: {
    method: 'POST',
    path: '/org/p/events',
    auth: 'bearer',
    tag: 'organiser',
    summary:
      'Every event the caller manages (organisers: their councils’; admins: all), every state including DRAFT, with live counts. 403 without an organiser role.',
    body: noFields,
    answers: { 200: ok({ events: z.array(orgEvent) }), ...bearer(403) },
  },
  orgEventSave: {
    method: 'POST',
    path: '/org/p/event/save',
    auth: 'bearer',
    tag: 'organiser',
    summary: 'Creates (no id; starts as DRAFT) or updates (id; only the fields sent) an event of a council the caller manages.',
    body: eventSaveBody,
    bodyLimit: EVENT_SAVE_BODY_LIMIT,
    answers: { 200: ok({ event: orgEvent }), ...bearer(403, 404, 409) },
  },
  orgEventState: {
    method: 'POST',
    path: '/org/p/event/state',
    auth: 'bearer',
    tag: 'organiser',
    summary: 'Moves an event to any of the eight states by hand; the schedule’s steps already passed are not replayed.',
    body: fields({
      event_id: positiveId('event_id'),
      state: z.enum(ALL_EVENT_STATES, { error: (iss) => (missing(iss.input) ? req('state') : `state must be one of ${ALL_EVENT_STATES.join(', ')}`) }),
    }),
    answers: { 200: ok({ event: orgEvent }), ...bearer(403, 404) },
  },
  orgUpload: {
    method: 'POST',
    path: '/org/p/upload',
    auth: 'bearer',
    tag: 'organiser',
    summary:
      'multipart/form-data with one image (JPEG, PNG or WebP, at most 5 MB and 25 megapixels): re-encoded as WebP in two widths; answers the details one’s url (`/uploads/<name>.webp`); the card one is the sibling `/uploads/<name>-card.webp`. An organiser keeps at most UPLOAD_QUOTA_MB (100 MB) of images; an image no event or council uses is removed a day after its upload.',
    answers: {
      200: ok({ url: z.string() }),
      ...bearer(403),
      413: {
        description:
          'Beyond API.md (issue 21 item 9): the image is over 5 MB, or over 25 megapixels, or would take the organiser’s images over their quota (UPLOAD_QUOTA_MB); the message says which.',
        content: { 'application/json': { schema: apiError } },
      },
      415: {
        description: 'Not a JPEG, PNG or WebP image (judged by its bytes), not readable as one, or not multipart/form-data.',
        content: { 'application/json': { schema: apiError } },
      },
    },
  },
  orgParticipants: {
    method: 'POST',
    path: '/org/p/event/participants',
    auth: 'bearer',
    tag: 'organiser',
    summary: 'Everyone registered for the event, with team, ticket, check-in, rating and registration answers.',
    body: fields({ event_id: positiveId('event_id') }),
    answers: { 200: ok({ participants: z.array(participantRow), questions: z.array(question) }), ...bearer(403, 404) },
  },
  orgParticipantsCsv: {
    method: 'GET',
    path: '/org/p/event/:id/participants.csv',
    auth: 'bearer',
    tag: 'organiser',
    summary:
      "The participants as CSV: UTF-8 with BOM, formula-safe cells (a cell starting with = + - @, or a part of one after a ;, gets a leading '; a cell with , or ; is quoted, for Excel in either kind of locale), a column per registration question; streamed.",
    params: z.object({ id: csvPathId }),
    answers: { 200: { description: 'The participants as CSV.', content: { 'text/csv': { schema: z.string() } } }, ...bearer(403, 404) },
  },
  orgEventStaff: {
    method: 'POST',
    path: '/org/p/event/staff',
    auth: 'bearer',
    tag: 'organiser',
    summary: 'Adds (or with remove: true removes) a door volunteer by e-mail; without email only lists them. The user must have signed in once (404).',
    body: fields({ event_id: positiveId('event_id'), email: z.optional(email), remove: removeFlag }),
    answers: { 200: ok({ staff: z.array(orgPerson) }), ...bearer(403, 404) },
  },
  orgCouncilOrganizers: {
    method: 'POST',
    path: '/org/p/council/organizers',
    auth: 'bearer',
    tag: 'organiser',
    summary: 'Admins only: adds (or with remove: true removes) an organiser of a council by e-mail; without email only lists them.',
    body: fields({ council_id: positiveId('council_id'), email: z.optional(email), remove: removeFlag }),
    answers: { 200: ok({ organizers: z.array(orgPerson) }), ...bearer(403, 404) },
  },
  orgCouncilSave: {
    method: 'POST',
    path: '/org/p/council/save',
    auth: 'bearer',
    tag: 'organiser',
    summary: 'Admins only: creates (no id; name required) or updates (id; only the fields sent) a council.',
    body: fields(councilInputShape).check(upiPairRule),
    answers: { 200: ok({ council: orgCouncil }), ...bearer(403, 404) },
  },
  orgCouncils: {
    method: 'POST',
    path: '/org/p/councils',
    auth: 'bearer',
    tag: 'organiser',
    summary: 'The councils the caller manages (every council for an admin), each with its organisers. 403 without an organiser role.',
    body: noFields,
    answers: { 200: ok({ councils: z.array(councilWithOrganizers) }), ...bearer(403) },
  },
  orgAudit: {
    method: 'POST',
    path: '/org/p/audit',
    auth: 'bearer',
    tag: 'organiser',
    summary: 'Admins only: the audit log, newest first, 100 a page (`before`: an entry id to read on from), of one event with event_id.',
    body: fields({ event_id: z.optional(positiveId('event_id')), before: z.optional(positiveId('before')) }),
    answers: { 200: ok({ entries: z.array(auditEntry) }), ...bearer(403) },
  },
} as const satisfies Record<string, CallSpec>
