// The calls of the door (API.md Part 2 "At the door"), declared the way contract/api.ts declares Part 1 (docs/architecture.md): built from
// define.ts and entities.ts only (never from api.ts, which joins this file into CALLS).
import * as z from 'zod/mini'
import { apiError, bearer, doc, fields, inTimestampRange, missing, ok, positiveId, url, type CallSpec } from './define.ts'
import { teamlet } from './entities.ts'

/** The event states in which the door checks tickets (API.md Part 2). */
export const DOOR_STATES = ['TICKET_OPEN', 'TICKET_CLOSED', 'ONGOING'] as const

/** How many scans one /door/p/sync may carry (the body limit is 16 KB: a device sends its queue in chunks). */
export const SYNC_MAX = 100

const eventRef = { event_id: positiveId('event_id') }

const required = (field: string, rule: string) => (iss: { input?: unknown }) => (missing(iss.input) ? `${field} is a required field` : `${field} ${rule}`)

/** A ticket code as the barcode carries it: 1 to 64 printable ASCII characters (Code 128 set B), spaces trimmed. */
export const ticketCode = z
  .string({ error: required('ticket_code', 'must be text') })
  .check(
    z.trim(),
    z.minLength(1, { error: 'ticket_code is a required field' }),
    z.maxLength(64, { error: 'ticket_code must be at most 64 characters' }),
    z.regex(/^[\x20-\x7e]+$/, { error: 'ticket_code must be printable characters' }),
  )

/** A scan's id, made by the device (a UUID): the same id gets the first answer again. */
export const scanId = doc(
  z
    .string({ error: required('scan_id', 'must be a UUID') })
    .check(z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, { error: 'scan_id must be a UUID' })),
  { format: 'uuid' },
)

/** The gate's name the volunteer typed on the door screen ("North", "Gate 2"): 1 to 40 characters. */
export const gate = z
  .string({ error: required('gate', 'must be text') })
  .check(z.trim(), z.minLength(1, { error: 'gate is a required field' }), z.maxLength(40, { error: 'gate must be at most 40 characters' }))

/** When the device scanned the ticket while offline: an ISO date-time with offset. */
export const scannedAt = doc(
  z.pipe(
    z.string({ error: required('scanned_at', 'must be a date-time') }),
    z.transform((s, ctx) => {
      const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/.test(s) ? Date.parse(s) : Number.NaN
      if (!inTimestampRange(ms)) {
        ctx.issues.push({ code: 'custom', input: s, message: 'scanned_at must be an ISO date-time with offset' })
        return z.NEVER
      }
      return new Date(ms).toISOString()
    }),
  ),
  { type: 'string', format: 'date-time' },
)

/**
 * Beyond API.md (issue 25 item 4): the holder's answer to a registration question its organiser marked "show at
 * the door", in the questions' order; questions not so marked, and unanswered ones, are never listed.
 */
export const doorAnswer = doc(z.object({ label: z.string(), answer: z.string() }), { id: 'DoorAnswer' })

/**
 * Who holds the ticket, as the door screen shows them. `door_answers` (issue 25 item 4): the ticket holder's own
 * answers to the questions marked "show at the door" (on a team event, the member holding this ticket, not the
 * team leader's); absent when there is none.
 */
export const attendee = doc(z.object({ name: z.string(), photo_url: url, team: z.nullable(teamlet), door_answers: z.optional(z.array(doorAnswer)) }), {
  id: 'Attendee',
})

/** Beyond API.md (issue 25 item 3): the event day a scan counted for, 'YYYY-MM-DD' in IST (contract/admission.ts). */
const day = z.optional(z.string())

export const checkedIn = doc(
  z.object({
    error: z.literal(false),
    result: z.literal('CHECKED_IN'),
    attendee,
    checked_in_at: z.string(),
    scan_id: z.optional(z.string()),
    day,
    /** Beyond API.md (issue 25 item 3): in again after scanning out, on an event with re-entry; `checked_in_at` is this entry's time. */
    reentry: z.optional(z.boolean()),
  }),
  { id: 'CheckedIn', description: 'The ticket is checked in now (for today, on a multi-day event).' },
)

export const alreadyCheckedIn = doc(
  z.object({
    error: z.literal(true),
    message: z.string(),
    result: z.literal('ALREADY_CHECKED_IN'),
    code: z.literal('ALREADY_CHECKED_IN'),
    attendee,
    checked_in_at: z.string(),
    gate: z.nullable(z.string()),
    scan_id: z.optional(z.string()),
    day,
  }),
  { id: 'AlreadyCheckedIn', description: 'The ticket was checked in before (today, on a multi-day event): when and at which gate.' },
)

export const unknownTicket = doc(
  z.object({
    error: z.literal(true),
    message: z.string(),
    result: z.literal('UNKNOWN_TICKET'),
    code: z.literal('UNKNOWN_TICKET'),
    scan_id: z.optional(z.string()),
  }),
  { id: 'UnknownTicket', description: 'No ticket of this event has this code (the message says when it is another event’s).' },
)

export const notCheckedIn = doc(
  z.object({
    error: z.literal(true),
    message: z.string(),
    result: z.literal('NOT_CHECKED_IN'),
    code: z.literal('NOT_CHECKED_IN'),
    attendee,
    scan_id: z.optional(z.string()),
  }),
  {
    id: 'NotCheckedIn',
    description:
      'Beyond API.md (issue 21 item 13): a repeated scan_id whose check-in was undone since: the ticket is not checked in now. A new scan (a new scan_id) checks it in.',
  },
)

export const transferredTicket = doc(
  z.object({ error: z.literal(true), message: z.string(), result: z.literal('TRANSFERRED'), code: z.literal('TRANSFERRED'), scan_id: z.optional(z.string()) }),
  {
    id: 'TransferredTicket',
    description: 'Beyond API.md (issue 25): a code that stopped working when its holder gave the ticket to a friend, who holds a new code.',
  },
)

export const expiredCode = doc(
  z.object({
    error: z.literal(true),
    message: z.string(),
    result: z.literal('EXPIRED_CODE'),
    code: z.literal('EXPIRED_CODE'),
    scan_id: z.optional(z.string()),
  }),
  {
    id: 'ExpiredCode',
    description:
      'Beyond API.md (issue 25): the event’s tickets rotate and the code read has no time code (typed, or a picture from before), or one outside the current 30-second step and one either side (a screenshot over a minute old), or a wrong one. Answered 410 by check-in; nothing is recorded.',
  },
)

export const checkedOut = doc(
  z.object({ error: z.literal(false), result: z.literal('CHECKED_OUT'), attendee, checked_out_at: z.string(), scan_id: z.optional(z.string()), day }),
  { id: 'CheckedOut', description: 'Beyond API.md (issue 25 item 3): scanned out on an event with re-entry; the ticket can come in again today.' },
)

export const notInside = doc(
  z.object({
    error: z.literal(true),
    message: z.string(),
    result: z.literal('NOT_INSIDE'),
    code: z.literal('NOT_INSIDE'),
    attendee,
    scan_id: z.optional(z.string()),
    day,
  }),
  {
    id: 'NotInside',
    description:
      'Beyond API.md (issue 25 item 3): a scan out of a ticket that is not inside (not in today, or out already), or of an event without re-entry (the message says so). Nothing changes.',
  },
)

/** One scan's answer, as check-in (or check-out) answers it (the sync's results carry the scan_id). */
export const scanResult = z.union([checkedIn, alreadyCheckedIn, unknownTicket, notCheckedIn, transferredTicket, checkedOut, notInside, expiredCode])

/** Which way a scan goes through the gate (issue 25 item 3): OUT only on an event with re-entry. */
export const DIRECTIONS = ['IN', 'OUT'] as const
export const direction = z.enum(DIRECTIONS, { error: `direction must be one of ${DIRECTIONS.join(', ')}` })

/** An event day as the door sees it (issue 25 item 3): the IST day, its span (for dayOf offline), and the count. */
export const doorDay = doc(z.object({ day: z.string(), label: z.string(), starts_at: z.string(), ends_at: z.string(), checked_in: z.int(), inside: z.int() }), {
  id: 'DoorDay',
  description:
    '`label`: "Day 2 · 28 Nov" (empty for a single-day event); `checked_in`: tickets admitted that day; `inside`: of those, in now (re-entry events; else the same).',
})

/** A ticket's admission on one day, as the door list carries it (contract/admission.ts Admission). */
export const doorAdmission = z.object({ day: z.string(), checked_in_at: z.string(), gate: z.nullable(z.string()), inside: z.boolean() })

export const doorEvent = doc(
  z.object({
    id: z.int(),
    name: z.string(),
    dates: z.array(z.string()),
    venue: z.string(),
    tickets_sold: z.int(),
    checked_in: z.int(),
    /** Beyond API.md (issue 25 item 3): the door scans out and in. */
    reentry: z.optional(z.boolean()),
    /** Beyond API.md (issue 25 item 3): the event's days, with who came on each. */
    days: z.optional(z.array(doorDay)),
    /** Beyond API.md (issue 35): the fee in paise, said where the desk takes it (`/door/p/desk/*`). */
    desk_fee: z.optional(z.int()),
  }),
  { id: 'DoorEvent', description: '`checked_in`: tickets checked in on any day.' },
)

export const doorTicket = doc(
  z.object({
    ticket_code: z.string(),
    name: z.string(),
    photo_url: url,
    team: z.nullable(teamlet),
    checked_in_at: z.nullable(z.string()),
    /** Beyond API.md: the gate of the check-in, so an offline device can say where (null until checked in). */
    gate: z.nullable(z.string()),
    /** Beyond API.md (issue 25 item 3): its admissions, one per event day it came on; `checked_in_at`/`gate` are the latest's. */
    admissions: z.optional(z.array(doorAdmission)),
    /** Beyond API.md (issue 25 item 4): the holder's answers to the questions marked "show at the door"; absent when none. */
    door_answers: z.optional(z.array(doorAnswer)),
    /** Beyond API.md (issue 25): the secret of the ticket's time code (contract/time-code.ts); null when the event's tickets do not rotate. */
    secret: z.optional(z.nullable(z.string())),
  }),
  { id: 'DoorTicket' },
)

export const offlineScan = z.object({ ticket_code: ticketCode, scan_id: scanId, gate, scanned_at: scannedAt, direction: z.optional(direction) })

const refusal = (description: string, schema: z.core.$ZodType) => ({ description, content: { 'application/json': { schema } } })

export const DOOR_CALLS = {
  doorEvents: {
    method: 'POST',
    path: '/door/p/events',
    auth: 'bearer',
    tag: 'door',
    summary:
      'The events where the caller may check tickets now (door volunteer of it, organiser of its council, admin), in TICKET_OPEN, TICKET_CLOSED or ONGOING.',
    body: fields({}),
    answers: { 200: ok({ events: z.array(doorEvent) }), ...bearer() },
  },
  doorTickets: {
    method: 'POST',
    path: '/door/p/tickets',
    auth: 'bearer',
    tag: 'door',
    summary:
      'Every ticket of the event, for a door device to check offline; `as_of` is when the list was read (the device corrects its clock by it). Beyond API.md: `released`, the codes of its tickets given back (issue 22 item 12); `days` and `reentry`, so the device applies the per-day and re-entry rules offline (issue 25 item 3); `rotating_codes`, whether its tickets show a code that changes every 30 s, each ticket then with its `secret` (issue 25 item 1).',
    body: fields(eventRef),
    answers: {
      200: ok({
        tickets: z.array(doorTicket),
        as_of: z.string(),
        released: z.array(z.string()),
        days: z.array(doorDay),
        reentry: z.boolean(),
        rotating_codes: z.optional(z.boolean()),
      }),
      ...bearer(403, 404),
    },
  },
  checkIn: {
    method: 'POST',
    path: '/door/p/check-in',
    auth: 'bearer',
    tag: 'door',
    summary:
      'Checks a ticket in. Where the event’s tickets rotate (issue 25), `ticket_code` is the text read: the ticket code, `-` and its time code, checked by the server’s clock (EXPIRED_CODE, 410, when missing, wrong or over a step old). A repeated scan_id answers the ticket’s state now: its first answer while the check-in it made stands (ALREADY_CHECKED_IN when another scan’s does, NOT_CHECKED_IN once it was undone); any number of gates scanning one ticket at once give one CHECKED_IN. Another event’s ticket is named in the 404’s message only when the caller may see that event.',
    body: fields({ ...eventRef, ticket_code: ticketCode, scan_id: scanId, gate }),
    answers: {
      200: checkedIn,
      ...bearer(403),
      404: refusal(
        'UNKNOWN_TICKET: no ticket of this event has this code; TRANSFERRED: the code stopped working when its ticket went to a friend; or the event does not exist.',
        z.union([unknownTicket, transferredTicket, apiError]),
      ),
      409: refusal(
        'ALREADY_CHECKED_IN (when and at which gate); NOT_CHECKED_IN (a repeated scan_id whose check-in was undone); or the scan_id was already used for another ticket.',
        z.union([alreadyCheckedIn, notCheckedIn, apiError]),
      ),
      410: refusal(
        'EXPIRED_CODE (issue 25): the time code is missing, wrong, or outside the current 30-second step and one either side.',
        z.union([expiredCode, apiError]),
      ),
    },
  },
  checkOut: {
    method: 'POST',
    path: '/door/p/check-out',
    auth: 'bearer',
    tag: 'door',
    summary:
      'Beyond API.md (issue 25 item 3): scans a ticket out, on an event with re-entry, so it can come in again today. A separate call (and the door screen’s In/Out switch) so that a double read at the entrance can never check someone out. The scan_id makes retries safe as for check-in.',
    body: fields({ ...eventRef, ticket_code: ticketCode, scan_id: scanId, gate }),
    answers: {
      200: checkedOut,
      ...bearer(403),
      404: refusal('UNKNOWN_TICKET or TRANSFERRED, as for check-in; or the event does not exist.', z.union([unknownTicket, transferredTicket, apiError])),
      409: refusal(
        'NOT_INSIDE: the ticket is not in today, or the event has no re-entry (the message says which); or the scan_id was already used for another ticket.',
        z.union([notInside, apiError]),
      ),
      410: refusal('EXPIRED_CODE, as for check-in: a scan out reads the same barcode.', z.union([expiredCode, apiError])),
    },
  },
  undoCheckIn: {
    method: 'POST',
    path: '/door/p/check-in/undo',
    auth: 'bearer',
    tag: 'door',
    summary: 'Undoes a ticket’s check-in (audited): it can be scanned in again. On a multi-day event, today’s admission (issue 25 item 3).',
    body: fields({ ...eventRef, ticket_code: ticketCode }),
    answers: { 200: ok({ message: z.string() }), ...bearer(403, 404, 409) },
  },
  doorSync: {
    method: 'POST',
    path: '/door/p/sync',
    auth: 'bearer',
    tag: 'door',
    summary:
      'Scans made offline, each answered as check-in would (with its scan_id), in the order sent; a time code (issue 25 item 1) is checked against its scanned_at; of one ticket’s scans the earliest scanned_at is checked in. A scanned_at that cannot be believed (issue 36 item 6: before the ticket was issued, or after the sync’s receipt plus two minutes) answers EXPIRED_CODE and records nothing; a check-in whose time or gate a sync rewrites is audited (door.rewrite). Beyond API.md (issue 25 item 3): each scan counts for the event day of its scanned_at (one check-in per ticket and day); `direction` OUT scans out on an event with re-entry, in scanned_at order with the ins.',
    body: fields({
      ...eventRef,
      scans: z
        .array(offlineScan, { error: required('scans', 'must be a list of scans') })
        .check(z.maxLength(SYNC_MAX, { error: `scans must hold at most ${SYNC_MAX} scans` })),
    }),
    answers: { 200: ok({ results: z.array(scanResult) }), ...bearer(403, 404, 409) },
  },
} as const satisfies Record<string, CallSpec>
