// The calls of around the event: waitlist, give-back, push, calendar feed, certificates (API.md Part 2 "Around the event"), declared the way contract/api.ts declares Part 1 (docs/architecture.md): built from
// define.ts and entities.ts only (never from api.ts, which joins this file into CALLS).
import * as z from 'zod/mini'
import { bearer, type CallSpec, doc, fields, MAX_ID, message, ok, positiveId, refusals } from './define.ts'
import { NOTIFY_LIMITS } from './notify-limits.ts'
import { verifiedPoints } from './points.ts'

const eventId = { event_id: positiveId('event_id') }

/** A required string field, trimmed, between `min` and `max` characters; the messages name the field. */
function text(field: string, max: number) {
  const error = (iss: { input?: unknown }) =>
    iss.input === undefined || iss.input === null || iss.input === '' ? `${field} is a required field` : `${field} must be text of 1 to ${max} characters`
  return z.pipe(
    z.string({ error }),
    z.transform((s: string, ctx) => {
      const v = s.trim()
      if (v.length >= 1 && v.length <= max && !v.includes('\u0000')) return v
      ctx.issues.push({
        code: 'custom',
        input: s,
        message: v.length === 0 ? `${field} is a required field` : `${field} must be text of 1 to ${max} characters`,
      })
      return z.NEVER
    }),
  )
}

/** An https URL of a push service (what a browser's PushSubscription.endpoint is). */
const endpoint = z.pipe(
  z.string({ error: (iss) => (iss.input === undefined || iss.input === null ? 'endpoint is a required field' : 'endpoint must be an https URL') }),
  z.transform((s: string, ctx) => {
    let ok = false
    try {
      const u = new URL(s)
      ok = (u.protocol === 'https:' || u.protocol === 'http:') && s.length <= 2048
    } catch {}
    if (ok) return s
    ctx.issues.push({ code: 'custom', input: s, message: 'endpoint must be an https URL' })
    return z.NEVER
  }),
)

const base64url = (field: string, max: number) =>
  z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? `${field} is a required field` : `${field} must be base64url text`) })
    .check(z.regex(/^[A-Za-z0-9_-]+=*$/, { error: `${field} must be base64url text` }), z.maxLength(max, { error: `${field} must be base64url text` }))

/** A browser PushSubscription as JSON: `{endpoint, keys: {p256dh, auth}}` (expirationTime is ignored). */
export const pushSubscription = doc(
  z.object(
    {
      endpoint,
      keys: z.object(
        { p256dh: base64url('subscription.keys.p256dh', 200), auth: base64url('subscription.keys.auth', 100) },
        { error: (iss) => (iss.input === undefined ? 'subscription.keys is a required field' : 'subscription.keys must be an object') },
      ),
    },
    { error: (iss) => (iss.input === undefined || iss.input === null ? 'subscription is a required field' : 'subscription must be a PushSubscription object') },
  ),
  { id: 'PushSubscription', description: 'A browser PushSubscription as JSON (`subscription.toJSON()`).' },
)

export const NOTIFY_AUDIENCES = ['PARTICIPANTS', 'TICKET_HOLDERS', 'WAITLIST'] as const

/** One audience of an organiser's message: its students, and those of them with notifications on. */
const audienceReach = z.object({ students: z.int(), notifications_on: z.int() })

export const AROUND_CALLS = {
  releaseTicket: {
    method: 'POST',
    path: '/event/p/release-ticket',
    auth: 'bearer',
    tag: 'around',
    summary: 'Gives the caller’s ticket back while the event is TICKET_OPEN: its code stops working at once and the place is offered to the waitlist.',
    body: fields(eventId),
    answers: { 200: ok({ message }), ...bearer(403, 404, 409) },
  },
  waitlist: {
    method: 'POST',
    path: '/event/p/waitlist',
    auth: 'bearer',
    tag: 'around',
    summary: 'Joins (`join: true`) or leaves the waitlist of a sold-out TICKET_OPEN event the caller is registered for.',
    body: fields({ ...eventId, join: z.boolean({ error: (iss) => (iss.input === undefined ? 'join is a required field' : 'join must be true or false') }) }),
    answers: { 200: ok({ position: z.optional(z.int()), message }), ...bearer(403, 404, 409) },
  },
  pushKey: {
    method: 'GET',
    path: '/push/key',
    auth: 'public',
    tag: 'around',
    summary: 'The VAPID public key (base64url), for PushManager.subscribe’s applicationServerKey.',
    answers: { 200: ok({ publicKey: z.string() }), ...refusals(429, 503) },
  },
  pushSubscribe: {
    method: 'POST',
    path: '/push/p/subscribe',
    auth: 'bearer',
    tag: 'around',
    summary:
      'Stores the caller’s push subscription. A student keeps at most 10, and at most 4 on one push service’s host: the oldest are dropped. An endpoint another student holds stays theirs: 409 (the app then makes a new subscription). With PUSH_ENDPOINTS=public (production), an endpoint that is not https on a host with public addresses is refused with 400.',
    body: fields({ subscription: pushSubscription }),
    answers: { 200: ok({}), ...bearer(409) },
  },
  pushUnsubscribe: {
    method: 'POST',
    path: '/push/p/unsubscribe',
    auth: 'bearer',
    tag: 'around',
    summary: 'Forgets the caller’s subscription with this endpoint (an unknown endpoint changes nothing).',
    body: fields({ endpoint }),
    answers: { 200: ok({}), ...bearer() },
  },
  orgNotify: {
    method: 'POST',
    path: '/org/p/event/notify',
    auth: 'bearer',
    tag: 'organiser',
    summary:
      'Organisers of the event’s council and admins: a message to its participants, ticket holders or waitlist, kept in each one’s inbox and pushed to those with notifications on; at most 5 a day per event.',
    body: fields({
      ...eventId,
      title: text('title', NOTIFY_LIMITS.title),
      body: text('body', NOTIFY_LIMITS.body),
      to: z.enum(NOTIFY_AUDIENCES, { error: `to must be one of ${NOTIFY_AUDIENCES.join(', ')}` }),
    }),
    // `in_app` beyond API.md (issue 37 item 2, contract/inbox.ts): students whose inbox got the message; `sent`:
    // those reached by push besides.
    answers: { 200: ok({ sent: z.int(), in_app: z.int() }), ...bearer(403, 404) },
  },
  // Beyond API.md (issue 22 item 1): what the console's "Send a notification" form shows before sending.
  orgNotifyStatus: {
    method: 'POST',
    path: '/org/p/event/notify/status',
    auth: 'bearer',
    tag: 'organiser',
    summary:
      'Organisers of the event’s council and admins: before a message is sent, how many students each audience has and how many of them have notifications on (a message reaches those), and how many of the 5 messages a day are left: `remaining` in the last 24 hours, `frees_at` when the oldest of them leaves the 24 hours (null when none was sent). Changes nothing.',
    body: fields(eventId),
    answers: {
      200: ok({
        audiences: z.object({
          PARTICIPANTS: audienceReach,
          TICKET_HOLDERS: audienceReach,
          WAITLIST: audienceReach,
        }),
        limit: z.int(),
        remaining: z.int(),
        frees_at: z.nullable(z.string()),
      }),
      ...bearer(403, 404),
    },
  },
  // ---- The calendar feed and certificates (keep these together, at the end) ----
  calendarFeed: {
    method: 'POST',
    path: '/user/p/calendar',
    auth: 'bearer',
    tag: 'around',
    summary:
      'The secret URL of the caller’s personal calendar feed (https; the app shows it as webcal:// too). `rotate: true` replaces the secret and kills the old URL.',
    body: fields({ rotate: z.optional(z.nullable(z.boolean({ error: 'rotate must be true or false' }))) }),
    answers: { 200: ok({ url: z.string() }), ...bearer() },
  },
  calendar: {
    method: 'GET',
    path: '/calendar/:secret.ics',
    auth: 'public',
    tag: 'around',
    summary:
      'The personal calendar feed (RFC 5545, TZID Asia/Kolkata): one VEVENT per date of each event the student is registered for, with stable UIDs. The secret is the credential; an unknown one answers 404.',
    params: z.object({ secret: doc(z.string(), { description: 'The secret from POST /user/p/calendar.' }) }),
    answers: {
      200: { description: 'The feed.', content: { 'text/calendar': { schema: z.string() } } },
      ...refusals(404, 429, 503),
    },
  },
  certificate: {
    method: 'GET',
    path: '/event/p/certificate/:event_id',
    auth: 'bearer',
    tag: 'around',
    summary:
      'The caller’s one-page participation certificate (PDF) of a COMPLETED event at which the door checked them in: name, event, council, date, and a verification code.',
    params: z.object({
      event_id: doc(
        z.pipe(
          z.string(),
          z.transform((raw) => (/^\d{1,10}$/.test(raw) && Number(raw) >= 1 && Number(raw) <= MAX_ID ? Number(raw) : null)),
        ),
        { pattern: '^\\d{1,10}$', description: 'The event id; anything that names no event answers 404.' },
      ),
    }),
    answers: {
      200: { description: 'The certificate.', content: { 'application/pdf': { schema: z.string() } } },
      ...bearer(403, 404),
    },
  },
  verifyCertificate: {
    method: 'GET',
    path: '/verify/:code',
    auth: 'public',
    tag: 'around',
    summary:
      'Public verification of a certificate: a page, or JSON with `Accept: application/json` (name, event, council, date of the event). An unknown code answers 404. The same answers at the short address `/verify/{code}` on the server’s origin, the one certificates and transcripts print.',
    params: z.object({ code: doc(z.string(), { description: 'The verification code printed on the certificate.' }) }),
    answers: {
      200: {
        description: 'The certificate is genuine: a page, or its details as JSON.',
        content: {
          'text/html': { schema: z.string() },
          'application/json': {
            // One more kind (issue 26): a code of an entry of an activity points transcript (contract/points.ts).
            schema: z.union([
              doc(
                z.object({
                  error: z.literal(false),
                  certificate: z.object({ code: z.string(), name: z.string(), event: z.string(), council: z.string(), date: z.nullable(z.string()) }),
                }),
                { id: 'VerifiedCertificate' },
              ),
              verifiedPoints,
            ]),
          },
        },
      },
      ...refusals(404, 429, 503),
    },
  },
} as const satisfies Record<string, CallSpec>
