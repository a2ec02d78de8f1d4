// The API of API.md declared once: every call's method, path, auth, request and answers, as zod/mini schemas.
// The server's routes take their validation and serialisation from here, the OpenAPI document is generated from
// here, the tests walk this registry, and contract/types.ts derives the wire types the app uses from it (with
// `import type`, so no zod reaches the phone through the types).
//
// Part 1 (the student app's calls) is declared below; Part 2's areas each declare theirs in a file of their own
// (org.ts, door.ts, around.ts; Part 3's operations in ops.ts), built from define.ts and entities.ts, and CALLS joins them all.
import * as z from 'zod/mini'
import { COLLEGE, DEGREE, SIGN_IN_STATE } from './constants.ts'
import { MESSAGES } from './messages.ts'
import { createTeamForm, joinTeamForm, onboardingFields, branchFitsYear } from './schemas.ts'
import { ALWAYS, bearer, doc, fields, html, isFields, MAX_ID, message, missing, noFields, ok, positiveId, redirect, refusals, type CallSpec } from './define.ts'
import { council, eventDetail, eventsByState, myEvent, team, user } from './entities.ts'
import { ANSWERS_BODY_LIMIT, answersField, ORG_CALLS } from './org.ts'
import { DOOR_CALLS } from './door.ts'
import { AROUND_CALLS } from './around.ts'
import { PAYMENT_CALLS } from './payments.ts'
import { PAYMENT_ADMIN_CALLS } from './payment-admin.ts'
import { DESK_RECEIPT_CALLS, PAYMENT_ORG_CALLS } from './payments-org.ts'
import { OPS_CALLS } from './ops.ts'
import { POINTS_CALLS } from './points.ts'
import { TRANSFER_CALLS } from './transfer.ts'
import { INBOX_CALLS, unread } from './inbox.ts'

/** The app's one-time sign-in value (src/stores/session-flows.ts makes 32 random bytes, base64url). */
const appState = z.optional(
  z.string({ error: 'state must be a string' }).check(z.regex(SIGN_IN_STATE, { error: 'state must be 16 to 128 letters, digits, - or _' })),
)

export * from './define.ts'
export * from './entities.ts'

// ---- Request fields of Part 1 ----

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

/**
 * API.md Part 3: the nonce the app makes when it enters a draw, 32 lowercase hex digits; the draw key is
 * HMAC-SHA256(seed, `<user id>:<nonce>`). Optional: the server makes one for an entry without it.
 */
export const drawNonce = z.optional(
  z.nullable(
    z.string({ error: 'draw_nonce must be 32 lowercase hex digits' }).check(z.regex(/^[0-9a-f]{32}$/, { error: 'draw_nonce must be 32 lowercase hex digits' })),
  ),
)

export const createTeamBody = { ...eventRef, team_name: createTeamForm.shape.team_name, answers: answersField }
export const joinTeamBody = { ...eventRef, invite_code: joinTeamForm.shape.invite_code, answers: answersField }
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

/** The narrowing fields of POST /event/p/get (issue 15): each optional; without any, the whole list as before. */
export const LIST_SCOPES = ['home'] as const
const MONTH_INVALID = 'month must be a month as YYYY-MM'
export const listQuery = {
  scope: z.optional(z.enum(LIST_SCOPES, { error: `scope must be one of: ${LIST_SCOPES.join(', ')}` })),
  month: z.optional(z.string({ error: MONTH_INVALID }).check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/, MONTH_INVALID))),
  parent_id: z.optional(positiveId('parent_id')),
  mine: z.optional(z.boolean({ error: 'mine must be true or false' })),
}

/** The student app's calls (API.md Part 1). */
export const STUDENT_CALLS = {
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
    // The app's one-time value for this sign-in: it comes back beside the tokens, so the app accepts only the
    // answer to a sign-in it started (login CSRF, issue 10).
    querystring: z.object({ state: appState }),
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
      302: redirect(
        'To {APP_URL}/login#accessToken=…&refreshToken=…&state=… (tokens in the fragment, never the query; state is the app’s, from GET /auth/google), or #error=… with the reason.',
      ),
      ...refusals(404, 429, 503),
    },
  },
  devSignIn: {
    method: 'POST',
    path: '/auth/dev',
    auth: 'public',
    tag: 'auth',
    summary: 'Development sign-in (only without Google settings, never in production): a name and an e-mail, as a form post or JSON.',
    body: fields({ name: doc(z.optional(z.unknown()), { type: 'string' }), email: doc(z.optional(z.unknown()), { type: 'string' }), state: appState }),
    answers: {
      302: redirect('To {APP_URL}/login#accessToken=…&refreshToken=…&state=… (the state the form carried)'),
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
    summary: 'The signed-in student, and how many of their messages are unread (contract/inbox.ts).',
    body: noFields,
    answers: { 200: ok({ user, unread }), ...bearer() },
  },
  updateProfile: {
    method: 'POST',
    path: '/user/p/update',
    auth: 'bearer',
    tag: 'user',
    summary: 'Writes the onboarding fields (SPEC §5 rules and messages); `id`, if sent, must be the caller’s.',
    body: z.pipe(
      z.transform((body: unknown) => (isFields(body) ? body : {})),
      profileUpdate,
    ),
    answers: { 200: ok({ message, user }), ...bearer(403, 409) },
  },
  events: {
    method: 'POST',
    path: '/event/p/get',
    auth: 'bearer',
    tag: 'events',
    summary:
      'Every event as a summary, grouped by state (a key only where non-empty). Optional fields narrow the list (issue 15), combined with AND: `scope: "home"` (what Home shows: upcoming, registration open, tickets open, ongoing, and the caller’s collected tickets of events whose tickets closed), `month: "YYYY-MM"` (events with a date within a week of that month, for the calendar), `parent_id` (the children of one event), `mine: true` (events the caller takes part in). No fields (`true`, `{}`): every event, as before.',
    body: fields(listQuery),
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
    summary:
      'One event in full, with the caller’s participation. After a fair opening’s draw, `fair_start.keys` (every entrant’s draw key, sorted: about 1.3 MB at 20,000 entrants) is filled only when the body says `keys: true` (the draw’s check page); otherwise it is empty and everything else is the same.',
    params: z.object({ id: eventPathId }),
    body: fields({ keys: z.optional(z.boolean({ error: 'keys must be true or false' })) }),
    answers: { 200: ok({ event: eventDetail }), ...bearer(404) },
  },
  drawKeys: {
    method: 'GET',
    path: '/event/p/draw-keys/:id',
    auth: 'bearer',
    tag: 'events',
    summary:
      'A fair opening’s published draw keys (API.md Part 3: every entrant’s key, sorted; the same list as `fair_start.keys` of the event with `keys: true`), for the draw’s check page. The list never changes after the draw: it is made once per event and sent precompressed (brotli or gzip, by Accept-Encoding), with an `ETag` and a year’s `Cache-Control`; `If-None-Match` with that ETag answers 304. 404 before the draw. Limited per student (429 with Retry-After), together with the event’s `keys: true`.',
    params: z.object({ id: eventPathId }),
    answers: {
      200: doc(ok({ keys: z.array(z.string()) }), {
        description: 'The keys, sorted.',
        headers: {
          ETag: { type: 'string', description: 'A weak validator of the list, the same in every encoding: send it back as If-None-Match.' },
          'Cache-Control': { type: 'string', description: '`private, max-age=31536000, immutable`: the list never changes after the draw.' },
        },
      }),
      304: doc(z.null(), { description: 'Not modified: If-None-Match named this list’s ETag (no body).' }),
      ...bearer(404),
    },
  },
  register: {
    method: 'POST',
    path: '/event/p/register-for-event',
    auth: 'bearer',
    tag: 'events',
    summary: 'Registers the caller for an individual event open for registration, with the answers to its questions.',
    body: fields({ ...eventRef, answers: answersField }),
    bodyLimit: ANSWERS_BODY_LIMIT,
    answers: {
      // API.md Part 4: an event with a fee and no tickets holds the registration until pay_by (first: the answer is
      // serialised by the first shape it fits, and every answer fits the plain one).
      200: z.union([ok({ result: z.literal('PAYMENT_PENDING'), pay_by: z.string(), message }), ok({ message })]),
      ...bearer(403, 404, 409),
    },
  },
  claimTicket: {
    method: 'POST',
    path: '/event/p/claim-ticket',
    auth: 'bearer',
    tag: 'events',
    summary:
      'Claims the caller’s ticket: TICKET_OPEN, tickets enabled, registered; one each, never past ticket_count. Inside a fair opening’s window (API.md Part 3) it enters the caller in the draw instead (IN_DRAW; a second entry changes nothing).',
    body: fields({ ...eventRef, draw_nonce: drawNonce }),
    answers: {
      200: z.union([
        ok({ result: z.literal('CLAIMED'), message, ticket_code: z.string() }),
        ok({ result: z.literal('IN_DRAW'), draw_at: z.string(), message }),
        // API.md Part 4: on a paid event the place is held until pay_by; the ticket comes once it is paid.
        ok({ result: z.literal('PAYMENT_PENDING'), pay_by: z.string(), message }),
      ]),
      ...bearer(403, 404, 409),
    },
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
    bodyLimit: ANSWERS_BODY_LIMIT,
    answers: { 200: ok({ message, team }), ...bearer(403, 404, 409) },
  },
  joinTeam: {
    method: 'POST',
    path: '/event/p/join-team/',
    auth: 'bearer',
    tag: 'teams',
    summary: 'Joins a team by its invite code; wrong codes are limited per student.',
    body: fields(joinTeamBody),
    bodyLimit: ANSWERS_BODY_LIMIT,
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

/** Every call of the API: Part 1, Part 2's areas and Part 3's operations. */
export const CALLS = {
  ...STUDENT_CALLS,
  ...ORG_CALLS,
  ...DOOR_CALLS,
  ...AROUND_CALLS,
  ...PAYMENT_CALLS,
  ...PAYMENT_ADMIN_CALLS,
  ...PAYMENT_ORG_CALLS,
  ...DESK_RECEIPT_CALLS,
  ...OPS_CALLS,
  ...POINTS_CALLS,
  ...TRANSFER_CALLS,
  ...INBOX_CALLS,
} as const satisfies Record<string, CallSpec>

export type CallName = keyof typeof CALLS
export type Calls = typeof CALLS

/** What a client sends as a call's body (the object behind the body's normalising pipe). */
export type Request<N extends CallName> = Calls[N] extends { body: z.ZodMiniPipe<z.core.$ZodType, infer O extends z.core.$ZodType> } ? z.input<O> : never
/** The path a call is declared at (a literal type, for checking a client's paths against the contract). */
export type PathOf<N extends CallName> = Calls[N]['path']
/** The 200 answer of a call, `error: false` included. */
export type Answer<N extends CallName> = Calls[N]['answers'] extends { 200: infer A extends z.core.$ZodType } ? z.output<A> : never

/** Each POST call by the path it is declared at (a path with a parameter, like /event/p/get/:id, is named by its call). */
type PostCalls = {
  [N in CallName as Calls[N]['method'] extends 'POST' ? (Calls[N]['path'] extends `${string}:${string}` ? never : Calls[N]['path']) : never]: N
}
export type PostPath = keyof PostCalls
/**
 * A client's POST typed by the path alone (issue 38 item 5): the path is named once, and the body and the answer
 * are the contract's for the call declared there. Types only: a client casts its own request function to it.
 */
export type PostByPath<Options = never> = <P extends PostPath>(path: P, body?: Request<PostCalls[P]> | true, options?: Options) => Promise<Answer<PostCalls[P]>>
