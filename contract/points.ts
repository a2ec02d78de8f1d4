// Activity points (issue 26, API.md Part 3: "declared in contract/ by the work that adds them"), declared the way
// contract/api.ts declares Part 1 (docs/architecture.md): built from define.ts and entities.ts only.
//
// What a student, an organiser and an admin see (all beyond API.md, which names the feature only):
// - An event gives points through `activity_points` on EventInput/OrgEvent: null (none) or {category, points,
//   per_day, winner, volunteer, organiser}. `category` is one of the college's categories (an admin's list).
// - A student's record is never stored or edited: it is computed from verified facts on every read. ATTENDED: a
//   check-in at the door (`points`, times the event days the door scanned the ticket when `per_day`); WINNER: marked
//   by an organiser once the event is COMPLETED (audited); VOLUNTEER: the event's door volunteers; ORGANISER: the
//   organisers of its council granted before the event ended. Roles count once the event is ONGOING or COMPLETED.
//   Undo a check-in, unmark a winner, remove a volunteer: the points go with it.
// - Privacy: POST /user/p/points answers the caller's own record only; an admin reads any student's
//   (/org/p/points/student); an organiser sees points only of their own council's events (/org/p/event/points).
// - Each entry of the transcript PDF carries a verification code; GET /verify/{code} (the certificates' public
//   page) confirms it as one more kind, and says when the entry no longer stands.
import * as z from 'zod/mini'
import { bearer, type CallSpec, doc, fields, missing, noFields, ok, positiveId } from './define.ts'

export const POINT_KINDS = ['ATTENDED', 'WINNER', 'VOLUNTEER', 'ORGANISER'] as const
export type PointKind = (typeof POINT_KINDS)[number]

export const DEFAULT_CATEGORIES = ['Technical', 'Cultural', 'Sports', 'Social service/NSS', 'Entrepreneurship', 'Professional body'] as const

export const POINTS_LIMITS = {
  /** Points an event gives for one kind of entry (AICTE's activities give 5 to 20; a year-long role 30 or more). */
  points: 100,
  category: 60,
  categories: 30,
  /** A target above 1,000 points is no degree's. */
  target: 1000,
  title: 60,
  branch: 80,
} as const

const req = (field: string) => `${field} is a required field`

function wholeNumber(field: string, min: number, max: number) {
  const message = `${field} must be a whole number from ${min} to ${max}`
  return z.int({ error: message }).check(z.gte(min, message), z.lte(max, message))
}

function text(field: string, max: number) {
  return z.pipe(
    z.string({ error: (iss) => (missing(iss.input) ? req(field) : `${field} must be text`) }).check(
      z.refine((s) => s.trim().length > 0, req(field)),
      z.maxLength(max, `${field} must be at most ${max} characters`),
    ),
    z.transform((s) => s.trim()),
  )
}

// ---- The event's points ----

export const activityPoints = doc(
  z.object({
    category: z.string(),
    /** For a check-in at the door (for each event day the door scanned the ticket, when per_day). */
    points: z.int(),
    per_day: z.boolean(),
    winner: z.int(),
    volunteer: z.int(),
    organiser: z.int(),
  }),
  { id: 'ActivityPoints', description: 'What an event gives in activity points; null on an event that gives none.' },
)

/** What an organiser sends in EventInput.activity_points: null gives no points; the roles' points default to 0. */
export const activityPointsInput = z.nullable(
  z.object(
    {
      category: text('activity_points.category', POINTS_LIMITS.category),
      points: wholeNumber('activity_points.points', 0, POINTS_LIMITS.points),
      per_day: z.optional(z.boolean({ error: 'activity_points.per_day must be true or false' })),
      winner: z.optional(wholeNumber('activity_points.winner', 0, POINTS_LIMITS.points)),
      volunteer: z.optional(wholeNumber('activity_points.volunteer', 0, POINTS_LIMITS.points)),
      organiser: z.optional(wholeNumber('activity_points.organiser', 0, POINTS_LIMITS.points)),
    },
    { error: 'activity_points must be null or {category, points, per_day, winner, volunteer, organiser}' },
  ),
)

// ---- The record ----

export const pointEntry = doc(
  z.object({
    event: z.object({ id: z.int(), name: z.string(), dates: z.array(z.string()), council: z.string() }),
    category: z.string(),
    kind: z.enum(POINT_KINDS),
    points: z.int(),
    /** ATTENDED at a per-day event: the days the door scanned the ticket; else null. */
    days: z.nullable(z.int()),
    /** A winner's title ("First place"), when the organiser gave one. */
    title: z.nullable(z.string()),
    /** When it was earned: the check-in, the winner's mark, or the event's first date for a role. */
    earned_at: z.nullable(z.string()),
  }),
  { id: 'PointEntry' },
)

export const pointsRecord = doc(
  z.object({
    total: z.int(),
    /** The college's target, or its lateral-entry target for a lateral-entry student. */
    target: z.int(),
    lateral_entry: z.boolean(),
    by_category: z.array(z.object({ category: z.string(), points: z.int() })),
    /** Newest first. */
    entries: z.array(pointEntry),
    /** When the record was computed (the app shows it offline). */
    as_of: z.string(),
  }),
  { id: 'PointsRecord', description: 'A student’s activity points, computed from verified facts on every read: never stored, never edited.' },
)

export const pointsSettings = doc(z.object({ categories: z.array(z.string()), target: z.int(), lateral_entry_target: z.int() }), {
  id: 'PointsSettings',
})

const personShape = { id: z.int(), name: z.string(), email: z.string() }

export const eventWinner = doc(z.object({ user: z.object(personShape), title: z.nullable(z.string()), marked_at: z.string() }), { id: 'EventWinner' })

export const eventPointsRow = doc(
  z.object({ user: z.object({ ...personShape, roll_number: z.nullable(z.string()) }), kind: z.enum(POINT_KINDS), points: z.int(), days: z.nullable(z.int()) }),
  { id: 'EventPointsRow' },
)

export const studentRow = doc(
  z.object({
    user: z.object({ ...personShape, roll_number: z.nullable(z.string()), branch: z.nullable(z.string()), year: z.nullable(z.int()) }),
    lateral_entry: z.boolean(),
    points: z.int(),
    target: z.int(),
  }),
  { id: 'PointsStudent' },
)

/** What /verify/{code} answers as JSON for a transcript entry's code (the certificates' page, one more kind). */
export const verifiedPoints = doc(
  z.object({
    error: z.literal(false),
    kind: z.literal('ACTIVITY_POINTS'),
    activity_points: z.object({
      code: z.string(),
      name: z.string(),
      event: z.string(),
      council: z.string(),
      date: z.nullable(z.string()),
      category: z.string(),
      role: z.enum(POINT_KINDS),
      points: z.int(),
      /** false once the fact it came from is gone (check-in undone, winner unmarked, role removed): points 0. */
      stands: z.boolean(),
    }),
  }),
  { id: 'VerifiedActivityPoints' },
)

// ---- Request fields ----

const email = z.pipe(
  z.string({ error: (iss) => (missing(iss.input) ? req('email') : 'email must be an e-mail address') }).check(
    z.maxLength(320, 'email must be an e-mail address'),
    z.refine((s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s.trim()), 'email must be an e-mail address'),
  ),
  z.transform((s) => s.trim().toLowerCase()),
)

const YEAR_MESSAGE = 'year must be a graduation year, e.g. 2027'
/** A graduation year, as a number or (in a query) its digits. */
const year = z.pipe(
  z.union(
    [
      z.int({ error: YEAR_MESSAGE }).check(z.gte(2000, YEAR_MESSAGE), z.lte(2100, YEAR_MESSAGE)),
      z.string({ error: YEAR_MESSAGE }).check(z.regex(/^\s*(20\d\d|2100)\s*$/, YEAR_MESSAGE)),
    ],
    {
      error: YEAR_MESSAGE,
    },
  ),
  z.transform((v) => Number(v)),
)

/** A branch as the screens show it or in its wire form (underscores); compared in the wire form. */
const branch = z.pipe(
  z.string({ error: 'branch must be text' }).check(z.maxLength(POINTS_LIMITS.branch, `branch must be at most ${POINTS_LIMITS.branch} characters`)),
  z.transform((s) => (s.trim() === '' ? null : s.trim().replace(/ +/g, '_'))),
)

const categoryList = z.array(text('categories', POINTS_LIMITS.category), { error: 'categories must be a list of texts' }).check(
  z.minLength(1, 'categories must name at least one category'),
  z.maxLength(POINTS_LIMITS.categories, `categories must have at most ${POINTS_LIMITS.categories} entries`),
  z.refine((cs) => new Set(cs.map((c) => c.trim().toLowerCase())).size === cs.length, 'categories has the same category twice'),
)

/** The id in /user/p/points/transcript.pdf needs none; the export's query: both filters optional. */
export const exportQuery = z.object({ year: z.optional(year), branch: z.optional(branch) })

export const POINTS_MESSAGES = {
  categoryUnknown: (categories: string[]) => `activity_points.category must be one of the college’s categories: ${categories.join(', ')}`,
  winnersAfterEvent: 'Winners can be marked once the event is completed.',
  notParticipant: 'This student is not a participant of this event.',
  studentNotFound: 'No student has signed in with this e-mail.',
} as const

export const POINTS_CALLS = {
  myPoints: {
    method: 'POST',
    path: '/user/p/points',
    auth: 'bearer',
    tag: 'points',
    summary: 'The caller’s own activity points: total, target, by category and every entry, computed from verified facts.',
    body: noFields,
    answers: { 200: ok({ record: pointsRecord }), ...bearer() },
  },
  pointsTranscript: {
    method: 'GET',
    path: '/user/p/points/transcript.pdf',
    auth: 'bearer',
    tag: 'points',
    summary: 'The caller’s transcript of activity points (PDF): every entry with its verification code, checkable at /verify/{code}.',
    answers: { 200: { description: 'The transcript.', content: { 'application/pdf': { schema: z.string() } } }, ...bearer() },
  },
  orgEventPoints: {
    method: 'POST',
    path: '/org/p/event/points',
    auth: 'bearer',
    tag: 'points',
    summary: 'The points an event of the caller’s councils has given, by student and kind (organisers of its council and admins).',
    body: fields({ event_id: positiveId('event_id') }),
    answers: { 200: ok({ activity_points: z.nullable(activityPoints), points: z.array(eventPointsRow) }), ...bearer(403, 404) },
  },
  orgEventWinners: {
    method: 'POST',
    path: '/org/p/event/winners',
    auth: 'bearer',
    tag: 'points',
    summary:
      'Marks (or with remove: true unmarks) a participant as a winner of a COMPLETED event, with an optional title; without user_id only lists them. Audited.',
    body: fields({
      event_id: positiveId('event_id'),
      user_id: z.optional(positiveId('user_id')),
      title: z.optional(
        z.nullable(
          z.pipe(
            z.string({ error: 'title must be text' }).check(z.maxLength(POINTS_LIMITS.title, `title must be at most ${POINTS_LIMITS.title} characters`)),
            z.transform((s) => (s.trim() === '' ? null : s.trim())),
          ),
        ),
      ),
      remove: z.optional(z.boolean({ error: 'remove must be true or false' })),
    }),
    answers: { 200: ok({ winners: z.array(eventWinner) }), ...bearer(403, 404) },
  },
  pointsSettingsGet: {
    method: 'POST',
    path: '/org/p/points/settings',
    auth: 'bearer',
    tag: 'points',
    summary: 'The college’s categories and targets (organisers and admins: the event editor offers the categories).',
    body: noFields,
    answers: { 200: ok({ settings: pointsSettings }), ...bearer(403) },
  },
  pointsSettingsSave: {
    method: 'POST',
    path: '/org/p/points/settings/save',
    auth: 'bearer',
    tag: 'points',
    summary: 'Admins only: changes the categories, the target (default 100) and the lateral-entry target (default 75); only the fields sent. Audited.',
    body: fields({
      categories: z.optional(categoryList),
      target: z.optional(wholeNumber('target', 1, POINTS_LIMITS.target)),
      lateral_entry_target: z.optional(wholeNumber('lateral_entry_target', 1, POINTS_LIMITS.target)),
    }),
    answers: { 200: ok({ settings: pointsSettings }), ...bearer(403) },
  },
  pointsStudent: {
    method: 'POST',
    path: '/org/p/points/student',
    auth: 'bearer',
    tag: 'points',
    summary: 'Admins only: a student’s record by e-mail; with lateral_entry, marks them a lateral-entry student or not (audited).',
    body: fields({ email, lateral_entry: z.optional(z.boolean({ error: 'lateral_entry must be true or false' })) }),
    answers: { 200: ok({ student: studentRow, record: pointsRecord }), ...bearer(403, 404) },
  },
  pointsBelowTarget: {
    method: 'POST',
    path: '/org/p/points/below-target',
    auth: 'bearer',
    tag: 'points',
    summary:
      'Admins only: the students of a graduation year (default: the year in its final year now, July to June) below their target, fewest points first; optionally of one branch.',
    body: fields({ year: z.optional(year), branch: z.optional(branch) }),
    answers: { 200: ok({ year: z.int(), students: z.array(studentRow) }), ...bearer(403) },
  },
  pointsExportCsv: {
    method: 'GET',
    path: '/org/p/points/export.csv',
    auth: 'bearer',
    tag: 'points',
    summary:
      "Admins only: every student's points as CSV, filtered by graduation year and branch (query, both optional): a column per category, total, target, below target, last earned (Asia/Kolkata). UTF-8 with BOM, formula-safe cells as the participants' CSV; streamed.",
    querystring: exportQuery,
    answers: { 200: { description: 'The points as CSV.', content: { 'text/csv': { schema: z.string() } } }, ...bearer(403) },
  },
} as const satisfies Record<string, CallSpec>
