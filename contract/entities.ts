// The entities on the wire (API.md "Entities on the wire", and what Part 2 adds to them), as zod/mini schemas.
// contract/types.ts derives the app's types from these; the server's answers are serialised by them.
import * as z from 'zod/mini'
import { EVENT_STATES, REGISTRATION_TYPES } from './constants.ts'
import { doc, url } from './define.ts'
import { PAYMENT_METHODS, PAYMENT_STATUSES } from './payment-rules.ts'

/** What the signed-in user may do beyond being a student (API.md Part 2 "Roles"). */
export const roles = doc(
  z.object({
    admin: z.boolean(),
    /** Councils the user organises (explicit grants; an admin manages every council without being listed). */
    councils: z.array(z.int()),
    /** Events the user is a door volunteer of (explicit grants). */
    door_events: z.array(z.int()),
  }),
  { id: 'Roles' },
)

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
    roles,
  }),
  { id: 'User', description: '`phone_number` and `roll_number` are null until onboarding.' },
)

export const organizer = doc(z.object({ id: z.int(), name: z.string(), photo_url: url }), { id: 'Organizer' })

export const teamMember = z.object({ user: z.object({ id: z.int(), name: z.string(), photo_url: url }) })

export const team = doc(z.object({ id: z.int(), name: z.string(), invite_code: z.string(), leader_id: z.int(), Participant: z.array(teamMember) }), {
  id: 'Team',
  description: 'Members leader first, then by joining order.',
})

export const teamlet = z.object({ id: z.int(), name: z.string() })

export const summaryParticipant = z.object({ ticket_collected: z.boolean(), team: z.nullable(teamlet) })

const dateTime = z.nullable(z.string())

/** A waitlisted student's place: their position, and the deadline of a ticket held for them (else null). */
export const waitlistPlace = doc(z.object({ position: z.int(), offer_expires_at: dateTime }), { id: 'WaitlistPlace' })

/**
 * The caller's place in an event's draw (API.md Part 3): when they entered, and PENDING until the draw, then what the
 * draw did: WON or WAITLISTED, or (beyond API.md, issue 36 item 8) NOT_ELIGIBLE when at the draw the entrant could no
 * longer take a ticket (no longer registered, a ticket already, a team below its minimum size). `nonce`: the 32 hex
 * digits of the entry's draw nonce, shown to this student only, so the app recomputes their own key
 * (HMAC-SHA256(seed, `<user id>:<nonce>`)); null for an entry made before nonces. Beyond API.md: `position`, their
 * key's place in the sorted `fair_start.keys` (1 is first), null until the draw.
 */
export const DRAW_RESULTS = ['PENDING', 'WON', 'WAITLISTED', 'NOT_ELIGIBLE'] as const
export const drawEntry = doc(z.object({ entered_at: z.string(), result: z.enum(DRAW_RESULTS), nonce: z.nullable(z.string()), position: z.nullable(z.int()) }), {
  id: 'DrawEntry',
})

/**
 * An event's payment settings (API.md Part 4), on EventDetail and the console's events, null when the fee is 0.
 * `methods`: those the event takes that are available (Razorpay configured on the server; UPI where the council has
 * its UPI id and payee name).
 */
export const paymentSettings = doc(
  z.object({
    pay_within_minutes: z.int(),
    refund_until_hours: z.int(),
    methods: z.array(z.enum(PAYMENT_METHODS)),
  }),
  { id: 'PaymentSettings' },
)

/**
 * The caller's payment for their place (API.md Part 4): `amount` in paise; `pay_by` the held place's deadline;
 * `receipt` the receipt's number once PAID (the PDF: GET /event/p/receipt/{event_id}); beyond API.md `reference`, ours,
 * in a UPI payment's note and at the desk.
 */
export const participantPayment = doc(
  z.object({
    status: z.enum(PAYMENT_STATUSES),
    amount: z.int(),
    method: z.nullable(z.enum(PAYMENT_METHODS)),
    pay_by: z.string(),
    paid_at: dateTime,
    receipt: z.nullable(z.string()),
    reference: z.string(),
  }),
  { id: 'ParticipantPayment' },
)

export const detailParticipant = z.object({
  id: z.int(),
  ticket_collected: z.boolean(),
  ticket_code: z.nullable(z.string()),
  /**
   * Beyond API.md (issue 25): the secret of the ticket's time code (contract/time-code.ts), 40 hex digits; null
   * without a ticket or when the event's tickets do not rotate (`rotating_codes` off: printed tickets).
   */
  ticket_secret: z.optional(z.nullable(z.string())),
  team: z.nullable(team),
  /** When the door scanned the ticket; null until then. */
  checked_in_at: dateTime,
  /** The caller's own rating, 1 to 5; null before rating. */
  rating: z.nullable(z.int()),
  /** Null unless the caller is on the waitlist of a sold-out event. */
  waitlist: z.nullable(waitlistPlace),
  /** The caller's answers to the registration questions, by question id. */
  answers: z.record(z.string(), z.string()),
  /** Null unless the caller entered the event's draw (API.md Part 3). */
  draw: z.nullable(drawEntry),
  /** API.md Part 4, on a paid event: null before a place is held, then the caller's payment for it (absent on a free event). */
  payment: z.optional(z.nullable(participantPayment)),
  /**
   * Beyond API.md (issue 37 item 3): on an event of more than one day (contract/admission.ts), once a ticket is
   * collected, the IST days ('YYYY-MM-DD') the door has admitted it on, in order; absent otherwise.
   */
  days_used: z.optional(z.array(z.string())),
})

/** When the server moves the event on by itself (API.md Part 2 "Event lifecycle"); each time or null. */
export const schedule = doc(
  z.object({
    registration_opens_at: dateTime,
    registration_closes_at: dateTime,
    tickets_open_at: dateTime,
    tickets_close_at: dateTime,
    starts_at: dateTime,
    ends_at: dateTime,
  }),
  { id: 'Schedule', description: 'ISO date-times with offset: at each, the event moves to the state that step starts.' },
)

/**
 * A fair opening (API.md Part 3): for `window_seconds` after the event reaches TICKET_OPEN, claims enter a draw
 * held at `draw_at`. `seed_hash` (lowercase hex SHA-256 of the seed's UTF-8 bytes) is published from the start;
 * `seed`, `entrants` and `keys` (every entrant's draw key, HMAC-SHA256(key = seed, message = decimal user id) in
 * lowercase hex, ascending) once the draw has run: before it `seed` and `entrants` are null and `keys` empty.
 * Lists (EventSummary, the console's OrgEvent) always carry `keys` empty to stay small: the keys are in
 * EventDetail only, and there only when its fetch asks with `keys: true` (the draw's check page).
 */
export const fairStart = doc(
  z.object({
    window_seconds: z.int(),
    draw_at: dateTime,
    seed_hash: z.string(),
    seed: z.nullable(z.string()),
    entrants: z.nullable(z.int()),
    keys: z.array(z.string()),
  }),
  { id: 'FairStart' },
)

export const QUESTION_KINDS = ['TEXT', 'LONG_TEXT', 'URL', 'CHOICE'] as const

/** A registration question (API.md Part 2 "Registration questions"). */
export const question = doc(
  z.object({
    id: z.string(),
    label: z.string(),
    kind: z.enum(QUESTION_KINDS),
    options: z.array(z.string()),
    required: z.boolean(),
    /**
     * Beyond API.md (issue 25 item 4): the answer is shown to the door volunteer with the check-in's verdict (a
     * T-shirt size, a food choice). Answers to other questions never reach the door. Absent on questions saved before.
     */
    show_at_door: z.optional(z.boolean()),
  }),
  { id: 'Question' },
)

export const eventFields = {
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
  min_ppt: z.int(),
  registration_type: z.enum(REGISTRATION_TYPES),
  external_registration_link: url,
  start_in_event_activity: z.boolean(),
  in_event_activity: url,
  is_ticket_feature_enabled: z.boolean(),
  ticket_count: z.int(),
  tickets_sold: z.int(),
  schedule,
  /** Null: first come, first served. */
  fair_start: z.nullable(fairStart),
}

export const eventSummary = doc(z.object({ ...eventFields, Participant: z.union([z.literal(false), summaryParticipant]) }), {
  id: 'EventSummary',
  description: 'An event in a list: no `long_description`; `Participant` is false or the caller’s participation.',
})

export const eventDetail = doc(
  z.object({
    ...eventFields,
    long_description: z.string(),
    questions: z.array(question),
    Participant: z.union([z.literal(false), detailParticipant]),
    /** Beyond API.md: whether the door has checked anyone in here (then only those checked in may rate it). */
    door_checked_in: z.optional(z.boolean()),
    /** Beyond API.md (issue 25 item 3): the door scans out and in, so a holder may leave and come back. */
    reentry: z.optional(z.boolean()),
    /**
     * Beyond API.md (issue 22 item 11): while every place left is held for waitlisted students (a given-back ticket
     * offered to the next in line), when the soonest of those offers runs out; else null. Others cannot claim until
     * then ('Tickets are sold out.'); the student it is held for sees it in `Participant.waitlist.offer_expires_at`.
     */
    held_until: z.optional(dateTime),
    /** Beyond API.md (issue 25): when the server made this answer; the app corrects the phone's clock by it for the ticket's time code. */
    server_time: z.optional(z.string()),
    /** API.md Part 4: how the fee is paid (on a paid event only). */
    payment: z.optional(z.nullable(paymentSettings)),
    /** Beyond API.md (issue 35): an organiser cancelled the event; its payments are refunded (absent otherwise). */
    cancelled: z.optional(z.boolean()),
  }),
  { id: 'EventDetail', description: '`ticket_code` is null until a ticket is collected.' },
)

export const eventsByState = z.partialRecord(z.enum(EVENT_STATES), z.array(eventSummary))

export const myEvent = z.object({
  id: z.int(),
  ticket_collected: z.boolean(),
  team: z.nullable(teamlet),
  event: eventSummary,
  /** When the door scanned the student in (null until then): My Events offers the certificate of a completed event. */
  checked_in_at: dateTime,
  /** A paid event's receipt number (R-001001, issue 35) while its payment is PAID, absent otherwise: My Events links the receipt PDF. */
  receipt: z.optional(z.nullable(z.string())),
})

export const council = doc(z.object({ id: z.int(), name: z.string(), photo_url: url, phone_number: z.nullable(z.string()), email: z.nullable(z.string()) }), {
  id: 'Council',
})
