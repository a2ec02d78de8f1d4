// The calls of around the event: waitlist, give-back, push, calendar feed, certificates (API.md Part 2 "Around the event"), declared the way contract/api.ts declares Part 1 (docs/architecture.md): built from
// define.ts and entities.ts only (never from api.ts, which joins this file into CALLS).
import * as z from 'zod/mini'
import { bearer, doc, fields, MAX_ID, ok, refusals, type CallSpec } from './define.ts'

export const AROUND_CALLS = {
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
      'Public verification of a certificate: a page, or JSON with `Accept: application/json` (name, event, council, date of the event). An unknown code answers 404.',
    params: z.object({ code: doc(z.string(), { description: 'The verification code printed on the certificate.' }) }),
    answers: {
      200: {
        description: 'The certificate is genuine: a page, or its details as JSON.',
        content: {
          'text/html': { schema: z.string() },
          'application/json': {
            schema: doc(
              z.object({
                error: z.literal(false),
                certificate: z.object({ code: z.string(), name: z.string(), event: z.string(), council: z.string(), date: z.nullable(z.string()) }),
              }),
              { id: 'VerifiedCertificate' },
            ),
          },
        },
      },
      ...refusals(404, 429, 503),
    },
  },
} as const satisfies Record<string, CallSpec>
