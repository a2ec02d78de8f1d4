// The API of API.md declared once: every call's method, path, auth, request and answers, as zod/mini schemas.
// The server's routes take their validation and serialisation from here, the OpenAPI document is generated from
// here, the tests walk this registry, and contract/types.ts derives the wire types the app uses from it (with
// `import type`, so no zod reaches the phone through the types).
import * as z from 'zod/mini'
import { COLLEGE, DEGREE, EVENT_STATES, REGISTRATION_TYPES } from './constants.ts'
import { MESSAGES } from './messages.ts'
import { createTeamForm, joinTeamForm, onboardingFields, branchFitsYear } from './schemas.ts'

/** Ids are PostgreSQL `integer` columns: a larger number can name nothing and must not reach the database. */
export const MAX_ID = 2_147_483_647

const missing = (input: unknown) => input === undefined || input === null || input === ''

/** Schema metadata for the OpenAPI document (zod copies these keys into the generated JSON Schema). */
const doc = <T extends z.ZodMiniType>(schema: T, meta: z.core.GlobalMeta): T => {
  z.globalRegistry.add(schema, meta)
  return schema
}

// ---- Entities on the wire (API.md "Entities on the wire") ----

const url = z.nullable(z.string())

export const user = doc(
  z.object({
    id: z.int(),
    name: z.string(),
    email: z.string(),
    photo_url: url,
    college: z.nullable(z.string()),
    phone_number: z.nullable(z.string()),
    roll_number: z.nullable(z.string()),
    gender: z.nullable(z.enum(['MALE', 'FEMALE'])),
    year: z.nullable(z.int()),
    branch: z.nullable(z.string()),
    degree: z.nullable(z.string()),
    interests: z.array(z.string()),
  }),
  { id: 'User', description: '`phone_number` and `roll_number` are null until onboarding.' },
)

export const organizer = doc(z.object({ id: z.int(), name: z.string(), photo_url: url }), { id: 'Organizer' })

export const teamMember = z.object({ user: z.object({ id: z.int(), name: z.string(), photo_url: url }) })

export const team = doc(
  z.object({ id: z.int(), name: z.string(), invite_code: z.string(), leader_id: z.int(), Participant: z.array(teamMember) }),
  { id: 'Team', description: 'Members leader first, then by joining order.' },
)

const teamlet = z.object({ id: z.int(), name: z.string() })

export const summaryParticipant = z.object({ ticket_collected: z.boolean(), team: z.nullable(teamlet) })

export const detailParticipant = z.object({
  id: z.int(),
  ticket_collected: z.boolean(),
  ticket_code: z.nullable(z.string()),
  team: z.nullable(team),
  // The caller's own rating (issue 14: the feedback popup shows it when reopened); never another student's. The
  // server always sends it; optional because a copy the app kept offline from before it existed may lack it.
  rating: doc(z.optional(z.nullable(z.int())), { description: 'The caller’s own rating of the event (1–5), null before they rate it. Always sent.' }),
})

const eventFields = {
  id: z.int(),
  name: z.string(),
  description: z.string(),
  event_page_image_url: url,
  banner_url: url,
  dates: z.array(z.string()),
  venue: z.string(),
  tags: z.array(z.string()),
  organizer,
  parent_id: z.nullable(z.int()),
  children: z.array(z.object({ id: z.int() })),
  state: z.enum(EVENT_STATES),
  fee: z.int(),
  ma_ppt: z.int(),
  registration_type: z.enum(REGISTRATION_TYPES),
  external_registration_link: url,
  start_in_event_activity: z.boolean(),
  in_event_activity: url,
  is_ticket_feature_enabled: z.boolean(),
  ticket_count: z.int(),
  tickets_sold: z.int(),
}

export const eventSummary = doc(
  z.object({ ...eventFields, Participant: z.union([z.literal(false), summaryParticipant]) }),
  { id: 'EventSummary', description: 'An event in a list: no `long_description`; `Participant` is false or the caller’s participation.' },
)

export const eventDetail = doc(
  z.object({ ...eventFields, long_description: z.string(), Participant: z.union([z.literal(false), detailParticipant]) }),
  { id: 'EventDetail', description: '`ticket_code` is null until a ticket is collected.' },
)

export const eventsByState = z.partialRecord(z.enum(EVENT_STATES), z.array(eventSummary))

export const myEvent = z.object({ id: z.int(), ticket_collected: z.boolean(), team: z.nullable(teamlet), event: eventSummary })

export const council = doc(
  z.object({ id: z.int(), name: z.string(), photo_url: url, phone_number: z.nullable(z.string()), email: z.nullable(z.string()) }),
  { id: 'Council' },
)

export const apiError = doc(z.object({ error: z.literal(true), message: z.string() }), {
  id: 'Error',
  description: 'Every refusal: `message` is readable by a student (the app shows it in a toast).',
})

// ---- Request fields ----

/**
 * A positive id: a whole number, or a numeric string (ids are compared as numbers, API.md). The messages name
 * the field the way every 400 of the API does.
 */
export function positiveId(field: string) {
  const error = (iss: { input?: unknown }) => (missing(iss.input) ? `${field} is a required field` : `${field} must be a positive whole number`)
  return z.pipe(
    z.union([z.int({ error }).check(z.gte(1, { error }), z.lte(MAX_ID, { error })), z.string({ error }).check(z.regex(/^\s*\d{1,15}\s*$/, { error }))], { error }),
    z.transform((value, ctx) => {
      const n = Number(value)
      if (n >= 1 && n <= MAX_ID) return n
      ctx.issues.push({ code: 'custom', input: value, message: error({ input: value }) })
      return z.NEVER
    }),
  )
}

const RATING_INVALID = 'Rating must be a whole number from 1 to 5.'

/** A rating: a whole number 1 to 5, as a number or a one-digit string; one message for every mistake. */
const rating = z.pipe(
  z.union(
    [
      z.int({ error: RATING_INVALID }).check(z.gte(1, RATING_INVALID), z.lte(5, RATING_INVALID)),
      z.string({ error: RATING_INVALID }).check(z.regex(/^\s*[1-5]\s*$/, RATING_INVALID)),
    ],
    { error: RATING_INVALID },
  ),
  z.transform((value) => Number(value)),
)

/** A value the server checks itself and answers 401 for (never 400): the refresh token of a session. */
const refreshToken = doc(z.optional(z.unknown()), { type: 'string', description: 'The refresh token from sign-in or the last refresh.' })

const isFields = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * A JSON object body. API.md: the app sends the literal body `true`, and `{}` or an empty body must work too,
 * so anything that is not an object reads as no fields (and a call with fields then names the first missing one).
 */
export function fields<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.pipe(z.transform((body: unknown) => (isFields(body) ? body : {})), z.object(shape))
}

/** The body of a call that takes no fields: `true`, `{}`, an empty body, anything. */
export const noFields = fields({})

/** The profile fields of /user/p/update; fields outside this list are dropped, never written. */
export const profileUpdate = z
  .object({
    id: z.optional(z.nullable(positiveId('id'))),
    ...onboardingFields,
    // Checked after the other fields (below), in the order the route always answered.
    degree: doc(z.optional(z.unknown()), { type: 'string', enum: [DEGREE] }),
    college: doc(z.optional(z.unknown()), { type: 'string', enum: [COLLEGE] }),
  })
  .check(
    z.refine((p) => branchFitsYear(p.branch, p.year), { message: MESSAGES.branchForYear, path: ['branch'] }),
    z.refine((p) => missing(p.degree) || p.degree === DEGREE, { message: `Degree must be '${DEGREE}'`, path: ['degree'] }),
    z.refine((p) => missing(p.college) || p.college === COLLEGE, { message: `College must be '${COLLEGE}'`, path: ['college'] }),
  )

export const eventRef = { event_id: positiveId('event_id') }

export const createTeamBody = { ...eventRef, team_name: createTeamForm.shape.team_name }
export const joinTeamBody = { ...eventRef, invite_code: joinTeamForm.shape.invite_code }
export const removeFromTeamBody = { team_id: positiveId('team_id'), user_id: positiveId('user_id') }
export const deleteTeamBody = { ...eventRef, team_id: positiveId('team_id') }

/** The id in /event/p/get/{id}: a path that names no event (abc, -1, 1.5, past MAX_ID) is an unknown event, 404. */
export const eventPathId = doc(
  z.pipe(
    z.string(),
    z.transform((raw) => (/^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= MAX_ID ? Number(raw) : null)),
  ),
  { pattern: '^\\d{1,10}$', description: 'The event id; anything that names no event answers 404.' },
)

// ---- Answers ----

const ok = <S extends z.core.$ZodLooseShape>(shape: S) => doc(z.object({ error: z.literal(false), ...shape }), { description: 'Done.' })
const message = z.string()

/** What each refusal means, for the document; the message always says it in a student's words. */
const REFUSAL_MEANINGS: Record<number, string> = {
  400: 'Invalid input: the message names the field, in the SPEC wording.',
  401: 'A missing, malformed, expired or revoked token: `Invalid Token`.',
  403: 'Not allowed: wrong state, not the leader, not a participant…',
  404: 'Unknown id (or a call that does not exist here).',
  409: 'Conflict: already registered, team full, sold out, already collected, duplicate team name, a mobile number or student ID another student holds.',
  413: 'The body is over 16 KB.',
  415: 'The body is not JSON.',
  429: 'Rate limited: `Retry-After` says how many seconds to wait.',
  503: 'Busy or restarting (with `Retry-After`), or a shared counter is briefly unavailable.',
}

type Refusal = { description: string; content: { 'application/json': { schema: typeof apiError } } }

/** Refusals a call may answer, each with the error shape. */
const refusals = (...statuses: number[]): Record<number, Refusal> =>
  Object.fromEntries(statuses.map((s) => [s, { description: REFUSAL_MEANINGS[s], content: { 'application/json': { schema: apiError } } }]))

// Every call can be refused for its body (400, 413, 415), its rate (429) and an overloaded or restarting server (503).
const ALWAYS = [400, 413, 415, 429, 503]

/** A 302 answer, described for the document: no body. */
const redirect = (description: string) => doc(z.null(), { description })
const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } })

export type Auth = 'bearer' | 'public'

export interface CallSpec {
  method: 'GET' | 'POST'
  /** Under /api/v1, as API.md writes it (the team calls end with a slash and answer without it too). */
  path: string
  auth: Auth
  summary: string
  tag: 'auth' | 'user' | 'events' | 'teams' | 'councils' | 'server'
  params?: z.core.$ZodType
  querystring?: z.core.$ZodType
  body?: z.core.$ZodType
  /** By status: a schema for JSON answers, or a description (with its content) for redirects and pages. */
  answers: Record<number, z.core.$ZodType | { description: string; content: Record<string, { schema: z.core.$ZodType }> }>
}

/** Answers of a bearer call: the refusals common to every call, 401, and the call's own. */
const bearer = (...statuses: number[]) => refusals(...ALWAYS, 401, ...statuses)

export const CALLS = {
  health: {
    method: 'GET',
    path: '/health',
    auth: 'public',
    tag: 'server',
    summary: 'For the proxy’s health check: 200 while this instance takes requests, 503 while it would refuse them.',
    answers: { 200: ok({ status: z.literal('ok') }), ...refusals(503) },
  },
  openApi: {
    method: 'GET',
    path: '/openapi.json',
    auth: 'public',
    tag: 'server',
    summary: 'This document: the OpenAPI 3.1 description of every call, generated from the server’s own schemas.',
    answers: { 200: z.record(z.string(), z.unknown()), ...refusals(503) },
  },
  signIn: {
    method: 'GET',
    path: '/auth/google',
    auth: 'public',
    tag: 'auth',
    summary: 'Starts Google sign-in (PKCE S256, state, nonce in a signed cookie). Without Google settings, outside production: the development sign-in form.',
    answers: {
      200: html('The development sign-in form (only without Google settings, never in production).'),
      302: redirect('To Google; or to {APP_URL}/login#error=… when sign-in cannot start.'),
      ...refusals(404, 429, 503),
    },
  },
  signInCallback: {
    method: 'GET',
    path: '/auth/google/callback',
    auth: 'public',
    tag: 'auth',
    summary: 'Google’s redirect back: checks the ID token and signs the student in.',
    // Read from the URL as a whole by the OpenID client; declared for the document (any value reaches the check).
    querystring: z.object({ code: doc(z.optional(z.unknown()), { type: 'string' }), state: doc(z.optional(z.unknown()), { type: 'string' }) }),
    answers: {
      302: redirect('To {APP_URL}/login#accessToken=…&refreshToken=… (tokens in the fragment, never the query), or #error=… with the reason.'),
      ...refusals(404, 429, 503),
    },
  },
  devSignIn: {
    method: 'POST',
    path: '/auth/dev',
    auth: 'public',
    tag: 'auth',
    summary: 'Development sign-in (only without Google settings, never in production): a name and an e-mail, as a form post or JSON.',
    body: fields({ name: doc(z.optional(z.unknown()), { type: 'string' }), email: doc(z.optional(z.unknown()), { type: 'string' }) }),
    answers: {
      302: redirect('To {APP_URL}/login#accessToken=…&refreshToken=…'),
      ...refusals(...ALWAYS, 404),
    },
  },
  refreshToken: {
    method: 'POST',
    path: '/auth/refresh-token',
    auth: 'public',
    tag: 'auth',
    summary: 'Trades a refresh token for a new pair. Each works once; a reused one revokes its family.',
    body: fields({ refreshToken }),
    answers: { 200: ok({ accessToken: z.string(), refreshToken: z.string() }), ...refusals(...ALWAYS, 401) },
  },
  logout: {
    method: 'POST',
    path: '/auth/logout',
    auth: 'public',
    tag: 'auth',
    summary: 'Revokes the refresh token’s family; an unknown or missing token changes nothing.',
    body: fields({ refreshToken }),
    answers: { 200: ok({}), ...refusals(...ALWAYS) },
  },
  me: {
    method: 'POST',
    path: '/user/p/me',
    auth: 'bearer',
    tag: 'user',
    summary: 'The signed-in student.',
    body: noFields,
    answers: { 200: ok({ user }), ...bearer() },
  },
  updateProfile: {
    method: 'POST',
    path: '/user/p/update',
    auth: 'bearer',
    tag: 'user',
    summary: 'Writes the onboarding fields (SPEC §5 rules and messages); `id`, if sent, must be the caller’s.',
    body: z.pipe(z.transform((body: unknown) => (isFields(body) ? body : {})), profileUpdate),
    answers: { 200: ok({ message, user }), ...bearer(403, 409) },
  },
  events: {
    method: 'POST',
    path: '/event/p/get',
    auth: 'bearer',
    tag: 'events',
    summary: 'Every event as a summary, grouped by state (a key only where non-empty).',
    body: noFields,
    answers: { 200: ok({ events: eventsByState }), ...bearer() },
  },
  myEvents: {
    method: 'POST',
    path: '/event/p/get/me',
    auth: 'bearer',
    tag: 'events',
    summary: 'The caller’s participations, each with its event.',
    body: noFields,
    answers: { 200: ok({ events: z.array(myEvent) }), ...bearer() },
  },
  event: {
    method: 'POST',
    path: '/event/p/get/:id',
    auth: 'bearer',
    tag: 'events',
    summary: 'One event in full, with the caller’s participation.',
    params: z.object({ id: eventPathId }),
    body: noFields,
    answers: { 200: ok({ event: eventDetail }), ...bearer(404) },
  },
  register: {
    method: 'POST',
    path: '/event/p/register-for-event',
    auth: 'bearer',
    tag: 'events',
    summary: 'Registers the caller for an individual event open for registration.',
    body: fields(eventRef),
    answers: { 200: ok({ message }), ...bearer(403, 404, 409) },
  },
  claimTicket: {
    method: 'POST',
    path: '/event/p/claim-ticket',
    auth: 'bearer',
    tag: 'events',
    summary: 'Claims the caller’s ticket: TICKET_OPEN, tickets enabled, registered; one each, never past ticket_count.',
    body: fields(eventRef),
    answers: { 200: ok({ message, ticket_code: z.string() }), ...bearer(403, 404, 409) },
  },
  rate: {
    method: 'POST',
    path: '/event/p/rate',
    auth: 'bearer',
    tag: 'events',
    summary: 'Rates a completed event the caller took part in; a second rating replaces the first.',
    body: fields({ ...eventRef, rating }),
    answers: { 200: ok({ message }), ...bearer(403, 404) },
  },
  createTeam: {
    method: 'POST',
    path: '/event/p/create-team/',
    auth: 'bearer',
    tag: 'teams',
    summary: 'Creates a team for a team event open for registration; the caller leads it.',
    body: fields(createTeamBody),
    answers: { 200: ok({ message, team }), ...bearer(403, 404, 409) },
  },
  joinTeam: {
    method: 'POST',
    path: '/event/p/join-team/',
    auth: 'bearer',
    tag: 'teams',
    summary: 'Joins a team by its invite code; wrong codes are limited per student.',
    body: fields(joinTeamBody),
    answers: { 200: ok({ message, team }), ...bearer(403, 404, 409) },
  },
  removeFromTeam: {
    method: 'POST',
    path: '/event/p/remove-from-team/',
    auth: 'bearer',
    tag: 'teams',
    summary: 'The leader removes a member, or a member leaves; the leader is never removed.',
    body: fields(removeFromTeamBody),
    answers: { 200: ok({ message }), ...bearer(403, 404) },
  },
  deleteTeam: {
    method: 'POST',
    path: '/event/p/delete-team/',
    auth: 'bearer',
    tag: 'teams',
    summary: 'The leader deletes the team; its members are unregistered.',
    body: fields(deleteTeamBody),
    answers: { 200: ok({ message }), ...bearer(403, 404) },
  },
  councils: {
    method: 'POST',
    path: '/council/p/get',
    auth: 'bearer',
    tag: 'councils',
    summary: 'The council directory.',
    body: noFields,
    answers: { 200: ok({ councils: z.array(council) }), ...bearer() },
  },
} as const satisfies Record<string, CallSpec>

export type CallName = keyof typeof CALLS
export type Calls = typeof CALLS

/** What a client sends as a call's body (the object behind the body's normalising pipe). */
export type Request<N extends CallName> = Calls[N] extends { body: z.ZodMiniPipe<z.core.$ZodType, infer O extends z.core.$ZodType> } ? z.input<O> : never
/** The path a call is declared at (a literal type, for checking a client's paths against the contract). */
export type PathOf<N extends CallName> = Calls[N]['path']
/** The 200 answer of a call, `error: false` included. */
export type Answer<N extends CallName> = Calls[N]['answers'] extends { 200: infer A extends z.core.$ZodType } ? z.output<A> : never
