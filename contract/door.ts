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

/** Who holds the ticket, as the door screen shows them. */
export const attendee = doc(z.object({ name: z.string(), photo_url: url, team: z.nullable(teamlet) }), { id: 'Attendee' })

export const checkedIn = doc(
  z.object({ error: z.literal(false), result: z.literal('CHECKED_IN'), attendee, checked_in_at: z.string(), scan_id: z.optional(z.string()) }),
  { id: 'CheckedIn', description: 'The ticket is checked in now.' },
)

export const alreadyCheckedIn = doc(
  z.object({
    error: z.literal(true),
    message: z.string(),
    result: z.literal('ALREADY_CHECKED_IN'),
    attendee,
    checked_in_at: z.string(),
    gate: z.nullable(z.string()),
    scan_id: z.optional(z.string()),
  }),
  { id: 'AlreadyCheckedIn', description: 'The ticket was checked in before: when and at which gate.' },
)

export const unknownTicket = doc(
  z.object({ error: z.literal(true), message: z.string(), result: z.literal('UNKNOWN_TICKET'), scan_id: z.optional(z.string()) }),
  { id: 'UnknownTicket', description: 'No ticket of this event has this code (the message says when it is another event’s).' },
)

export const notCheckedIn = doc(
  z.object({ error: z.literal(true), message: z.string(), result: z.literal('NOT_CHECKED_IN'), attendee, scan_id: z.optional(z.string()) }),
  {
    id: 'NotCheckedIn',
    description:
      'Beyond API.md (issue 21 item 13): a repeated scan_id whose check-in was undone since: the ticket is not checked in now. A new scan (a new scan_id) checks it in.',
  },
)

export const transferredTicket = doc(
  z.object({ error: z.literal(true), message: z.string(), result: z.literal('TRANSFERRED'), scan_id: z.optional(z.string()) }),
  {
    id: 'TransferredTicket',
    description: 'Beyond API.md (issue 25): a code that stopped working when its holder gave the ticket to a friend, who holds a new code.',
  },
)

export const expiredCode = doc(z.object({ error: z.literal(true), message: z.string(), result: z.literal('EXPIRED_CODE'), scan_id: z.optional(z.string()) }), {
  id: 'ExpiredCode',
  description:
    'Beyond API.md (issue 25): the event’s tickets rotate and the code read has no time code (typed, or a picture from before), or one outside the current 30-second step and one either side (a screenshot over a minute old), or a wrong one. Answered 410 by check-in; nothing is recorded.',
})

/** One scan's answer, as check-in answers it (the sync's results carry the scan_id). */
export const scanResult = z.union([checkedIn, alreadyCheckedIn, unknownTicket, notCheckedIn, transferredTicket, expiredCode])

export const doorEvent = doc(
  z.object({ id: z.int(), name: z.string(), dates: z.array(z.string()), venue: z.string(), tickets_sold: z.int(), checked_in: z.int() }),
  { id: 'DoorEvent' },
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
    /** Beyond API.md (issue 25): the secret of the ticket's time code (contract/time-code.ts); null when the event's tickets do not rotate. */
    secret: z.optional(z.nullable(z.string())),
  }),
  { id: 'DoorTicket' },
)

export const offlineScan = z.object({ ticket_code: ticketCode, scan_id: scanId, gate, scanned_at: scannedAt })

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
      'Every ticket of the event, for a door device to check offline; `as_of` is when the list was read (the device corrects its clock by it). Beyond API.md: `released`, the codes of its tickets given back (issue 22 item 12); `rotating_codes`, whether its tickets show a code that changes every 30 s, each ticket then with its `secret` (issue 25).',
    body: fields(eventRef),
    answers: {
      200: ok({ tickets: z.array(doorTicket), as_of: z.string(), released: z.array(z.string()), rotating_codes: z.optional(z.boolean()) }),
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
  undoCheckIn: {
    method: 'POST',
    path: '/door/p/check-in/undo',
    auth: 'bearer',
    tag: 'door',
    summary: 'Undoes a ticket’s check-in (audited): it can be scanned in again.',
    body: fields({ ...eventRef, ticket_code: ticketCode }),
    answers: { 200: ok({ message: z.string() }), ...bearer(403, 404, 409) },
  },
  doorSync: {
    method: 'POST',
    path: '/door/p/sync',
    auth: 'bearer',
    tag: 'door',
    summary:
      'Scans made offline, each answered as check-in would (with its scan_id), in the order sent; a time code (issue 25) is checked against its scanned_at; of one ticket’s scans the earliest scanned_at is checked in. A scanned_at outside the ticket’s door window (before the ticket was collected, or after now) counts as its nearest end; a check-in whose time or gate a sync rewrites is audited (door.rewrite).',
    body: fields({
      ...eventRef,
      scans: z
        .array(offlineScan, { error: required('scans', 'must be a list of scans') })
        .check(z.maxLength(SYNC_MAX, { error: `scans must hold at most ${SYNC_MAX} scans` })),
    }),
    answers: { 200: ok({ results: z.array(scanResult) }), ...bearer(403, 404, 409) },
  },
} as const satisfies Record<string, CallSpec>
