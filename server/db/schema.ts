// The whole schema (issue 2): every later issue builds on it without reshaping it.
import { sql } from 'drizzle-orm'
import {
  bigserial,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgEnum,
  pgSequence,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'
import { ALL_EVENT_STATES, GENDERS, REGISTRATION_TYPES } from '../../contract/constants.ts'

// DRAFT first: an event exists in the console before students can see it (API.md Part 2, "Event lifecycle").
export const eventState = pgEnum('event_state', ALL_EVENT_STATES)
export const registrationType = pgEnum('registration_type', REGISTRATION_TYPES)
export const gender = pgEnum('gender', GENDERS)

/** An event's activity points as stored (events.activity_points): contract/points.ts declares the wire form. */
export interface ActivityPointsValue {
  category: string
  points: number
  per_day: boolean
  winner: number
  volunteer: number
  organiser: number
}

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow()

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    // Who the identity provider says the user is: never shown on the wire.
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    photoUrl: text('photo_url'),
    college: text('college'),
    phoneNumber: text('phone_number'),
    rollNumber: text('roll_number'),
    gender: gender('gender'),
    year: integer('year'),
    branch: text('branch'),
    degree: text('degree'),
    interests: jsonb('interests').$type<string[]>().notNull().default([]),
    // The chapter's administrators (API.md Part 2 "Roles"): granted only by the operator CLI.
    isAdmin: boolean('is_admin').notNull().default(false),
    /** A lateral-entry student: the college's lateral-entry target of activity points applies (migration 0012). */
    lateralEntry: boolean('lateral_entry').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_identity').on(t.issuer, t.subject),
    // One student per mobile number and per student ID (any case): the index decides, never a read first.
    uniqueIndex('users_phone_number').on(t.phoneNumber),
    uniqueIndex('users_roll_number').on(sql`lower(${t.rollNumber})`),
    index('users_year_branch').on(t.year, t.branch),
  ],
)

export const councils = pgTable('councils', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  photoUrl: text('photo_url'),
  phoneNumber: text('phone_number'),
  email: text('email'),
  /** UPI straight to the council (issue 35, API.md Part 4): its UPI id (VPA) and payee name; UPI is offered only with both. */
  upiVpa: text('upi_vpa'),
  upiName: text('upi_name'),
  createdAt: createdAt(),
})

export const events = pgTable(
  'events',
  {
    id: serial('id').primaryKey(),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    longDescription: text('long_description').notNull().default(''),
    eventPageImageUrl: text('event_page_image_url'),
    bannerUrl: text('banner_url'),
    // ISO-8601 date-times with offset, in order; the first is the event's date.
    dates: jsonb('dates').$type<string[]>().notNull().default([]),
    // The end of each date, in the same order (null: not given); migration 0014.
    dateEnds: jsonb('date_ends').$type<(string | null)[]>().notNull().default([]),
    venue: text('venue').notNull().default(''),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    organizerId: integer('organizer_id')
      .notNull()
      .references(() => councils.id),
    parentId: integer('parent_id').references((): any => events.id, { onDelete: 'set null' }),
    state: eventState('state').notNull().default('UPCOMING'),
    fee: integer('fee').notNull().default(0),
    maPpt: integer('ma_ppt').notNull().default(1),
    // The smallest team that may collect tickets; a smaller team is shown as incomplete.
    minPpt: integer('min_ppt').notNull().default(1),
    registrationType: registrationType('registration_type').notNull().default('ONPLATFORM'),
    externalRegistrationLink: text('external_registration_link'),
    startInEventActivity: boolean('start_in_event_activity').notNull().default(false),
    inEventActivity: text('in_event_activity'),
    isTicketFeatureEnabled: boolean('is_ticket_feature_enabled').notNull().default(false),
    ticketCount: integer('ticket_count').notNull().default(0),
    ticketsSold: integer('tickets_sold').notNull().default(0),
    // The schedule of state moves (API.md Part 2 "Event lifecycle"): when each time passes, the scheduler moves
    // the event to the state that step starts. Null: no such step.
    registrationOpensAt: timestamp('registration_opens_at', { withTimezone: true }),
    registrationClosesAt: timestamp('registration_closes_at', { withTimezone: true }),
    ticketsOpenAt: timestamp('tickets_open_at', { withTimezone: true }),
    ticketsCloseAt: timestamp('tickets_close_at', { withTimezone: true }),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** Steps timed at or before this have been applied, or overruled by a manual move; later ones are due. */
    scheduleAppliedThrough: timestamp('schedule_applied_through', { withTimezone: true }),
    /** Registration questions: [{id, label, kind, options, required}] (API.md Part 2 "Registration questions"). */
    questions: jsonb('questions').$type<unknown[]>().notNull().default([]),
    /** What the event gives in activity points (migration 0012, issue 26): null gives none. */
    activityPoints: jsonb('activity_points').$type<ActivityPointsValue | null>(),
    createdAt: createdAt(),
    /** Raised by a trigger when what the calendar feed shows changes (migration 0008): SEQUENCE and LAST-MODIFIED. */
    calendarSequence: integer('calendar_sequence').notNull().default(0),
    calendarModifiedAt: timestamp('calendar_modified_at', { withTimezone: true }).notNull().defaultNow(),
    // A fair opening (issue 24, migration 0011): the draw window in seconds (0: first come, first served), the
    // seed fixed when it is set (secret until the draw), when the draw is due (set on reaching TICKET_OPEN), when
    // it ran (the once-only mark) and how many entered.
    fairWindowSeconds: integer('fair_window_seconds').notNull().default(0),
    fairSeed: text('fair_seed'),
    fairDrawAt: timestamp('fair_draw_at', { withTimezone: true }),
    fairDrawnAt: timestamp('fair_drawn_at', { withTimezone: true }),
    fairEntrantCount: integer('fair_entrant_count'),
    /** Transfers close this many minutes before the first date (migration 0015, issue 25); null: open until check-in. */
    transferClosesMinutes: integer('transfer_closes_minutes'),
    /** Re-entry (migration 0017, issue 25 item 3): the door scans out and in; false: one entry a day. */
    reentry: boolean('reentry').notNull().default(false),
    /** Tickets show a code that changes every 30 s (migration 0016, issue 25); false for printed tickets. */
    rotatingCodes: boolean('rotating_codes').notNull().default(true),
    // Paid events (issue 35, migration 0020): how long a place is held for its payment, until how many hours before the
    // first date a paid ticket given back is refunded, the methods the event takes, the places held now (kept by the
    // payments trigger, as tickets_sold by the participants one), and when an organiser cancelled it.
    payWithinMinutes: integer('pay_within_minutes').notNull().default(15),
    refundUntilHours: integer('refund_until_hours').notNull().default(24),
    paymentMethods: jsonb('payment_methods').$type<string[]>().notNull().default(['RAZORPAY', 'UPI', 'DESK']),
    ticketsHeld: integer('tickets_held').notNull().default(0),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    index('events_parent').on(t.parentId),
    index('events_state').on(t.state),
    // The calendar's month and the list order (migration 0007).
    index('events_first_date').on(sql`(${t.dates}->>0)`, t.id),
    index('events_last_date').on(sql`(${t.dates}->>-1)`),
    check('events_fee_nonnegative', sql`${t.fee} >= 0`),
    check('events_ma_ppt_positive', sql`${t.maPpt} >= 1`),
    check('events_min_ppt_within_max', sql`${t.minPpt} >= 1 AND ${t.minPpt} <= ${t.maPpt}`),
    // The backstop against overselling: whatever the code does, the tickets and the places held for payment cannot
    // pass the limit (issue 35: a held place counts while it is held).
    check('events_tickets_within_count', sql`${t.ticketsSold} >= 0 AND ${t.ticketsHeld} >= 0 AND ${t.ticketsSold} + ${t.ticketsHeld} <= ${t.ticketCount}`),
    check('events_pay_within_minutes', sql`${t.payWithinMinutes} BETWEEN 1 AND 60`),
    check('events_refund_until_hours', sql`${t.refundUntilHours} BETWEEN 0 AND 720`),
    check('events_fair_window_range', sql`${t.fairWindowSeconds} >= 0 AND ${t.fairWindowSeconds} <= 3600`),
    check('events_fair_seed_set', sql`${t.fairWindowSeconds} = 0 OR ${t.fairSeed} IS NOT NULL`),
    index('events_fair_draw_due').on(t.fairDrawAt).where(sql`${t.fairDrawAt} IS NOT NULL AND ${t.fairDrawnAt} IS NULL`),
    check('events_transfer_closes_minutes', sql`${t.transferClosesMinutes} IS NULL OR ${t.transferClosesMinutes} BETWEEN 0 AND 10080`),
  ],
)

/** A student entered in an event's draw (migration 0011): written once by the claim in the window. */
export const fairEntrants = pgTable(
  'fair_entrants',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    enteredAt: timestamp('entered_at', { withTimezone: true }).notNull().defaultNow(),
    // The entrant's draw key, computed at entry (migration 0013); secret until the draw publishes the seed.
    key: text('key'),
    /**
     * 32 lowercase hex digits the app makes at entry (API.md Part 3, draw_nonce; migration 0018): the key is the HMAC of
     * `<user id>:<nonce>`, so the published keys cannot be linked to user ids. Null for an entry made before 0018.
     */
    nonce: text('nonce'),
    /** What the draw did with this entrant: WON, WAITLISTED, or NOT_ELIGIBLE (set by fair_draw(); null before it). */
    outcome: text('outcome'),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userId] }), index('fair_entrants_user').on(t.userId)],
)

/** The published record of an event's draw (migration 0011): seed, counts, sorted keys, the last winner's key. */
export const fairDraws = pgTable('fair_draws', {
  eventId: integer('event_id')
    .primaryKey()
    .references(() => events.id, { onDelete: 'cascade' }),
  drawnAt: timestamp('drawn_at', { withTimezone: true }).notNull().defaultNow(),
  seed: text('seed').notNull(),
  entrants: integer('entrants').notNull(),
  winners: integer('winners').notNull(),
  waitlisted: integer('waitlisted').notNull(),
  lastWinnerKey: text('last_winner_key'),
  keys: text('keys').array().notNull(),
})

export const teams = pgTable(
  'teams',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    inviteCode: text('invite_code').notNull(),
    leaderId: integer('leader_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('teams_event_name').on(t.eventId, sql`lower(${t.name})`), uniqueIndex('teams_event_invite_code').on(t.eventId, t.inviteCode)],
)

export const participants = pgTable(
  'participants',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teamId: integer('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    ticketCollected: boolean('ticket_collected').notNull().default(false),
    ticketCode: text('ticket_code'),
    ticketCollectedAt: timestamp('ticket_collected_at', { withTimezone: true }),
    rating: smallint('rating'),
    ratedAt: timestamp('rated_at', { withTimezone: true }),
    // Set once by the door when the ticket is scanned (issue 12); null until then.
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }),
    checkedInGate: text('checked_in_gate'),
    /** Answers to the event's registration questions, by question id. */
    answers: jsonb('answers').$type<Record<string, string>>().notNull().default({}),
    /** How often the ticket this student holds changed hands (migration 0015, issue 25): it moves with the ticket, at most 2; 0 without a ticket (issue 36 item 7). */
    ticketTransfers: smallint('ticket_transfers').notNull().default(0),
    /** The secret of the ticket's time code (migration 0016, issue 25): 40 hex digits, new with every ticket code (a trigger). */
    ticketSecret: text('ticket_secret'),
    createdAt: createdAt(),
  },
  (t) => [
    // One registration per student and event: the key, not a read-then-write check.
    uniqueIndex('participants_event_user').on(t.eventId, t.userId),
    uniqueIndex('participants_ticket_code').on(t.ticketCode),
    index('participants_user').on(t.userId),
    index('participants_team').on(t.teamId),
    index('participants_event_checked_in').on(t.eventId).where(sql`${t.checkedInAt} IS NOT NULL`),
    index('participants_user_checked_in').on(t.userId).where(sql`${t.checkedInAt} IS NOT NULL`),
    check('participants_rating_range', sql`${t.rating} IS NULL OR (${t.rating} BETWEEN 1 AND 5)`),
    check('participants_checked_in_holds_ticket', sql`${t.checkedInAt} IS NULL OR ${t.ticketCollected}`),
    check(
      'participants_ticket_has_code',
      sql`(${t.ticketCollected} AND ${t.ticketCode} IS NOT NULL) OR (NOT ${t.ticketCollected} AND ${t.ticketCode} IS NULL)`,
    ),
    check('participants_ticket_has_secret', sql`(${t.ticketCode} IS NULL) = (${t.ticketSecret} IS NULL)`),
    // The transfer count belongs to a ticket (issue 36 item 7): a student without one has none to carry to the next.
    check('participants_transfers_with_ticket', sql`${t.ticketCollected} OR ${t.ticketTransfers} = 0`),
  ],
)

/** A chain of refresh tokens issued from one sign-in; a replayed token revokes the whole chain. */
export const refreshFamilies = pgTable('refresh_families', {
  id: uuid('id').primaryKey(),
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
  absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true }).notNull(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }),
  revokedReason: text('revoked_reason'),
})

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    familyId: uuid('family_id')
      .notNull()
      .references(() => refreshFamilies.id, { onDelete: 'cascade' }),
    // SHA-256 of the opaque token; the token itself is never stored.
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('refresh_tokens_family').on(t.familyId)],
)

/** Failed attempts (join codes, ...) counted per user and window, for rate limits that survive restarts. */
export const attemptCounters = pgTable('attempt_counters', {
  key: text('key').primaryKey(),
  count: integer('count').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
})

/** Organisers of a council: they manage its events and their door volunteers (granted by an admin). */
export const councilOrganizers = pgTable(
  'council_organizers',
  {
    councilId: integer('council_id')
      .notNull()
      .references(() => councils.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    grantedBy: integer('granted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.councilId, t.userId] }), index('council_organizers_user').on(t.userId)],
)

/** Door volunteers of an event: they check tickets at that event only (granted by an organiser of its council). */
export const eventStaff = pgTable(
  'event_staff',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    grantedBy: integer('granted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userId] }), index('event_staff_user').on(t.userId)],
)

/**
 * Every organiser and admin write, and every move the scheduler makes: who, when, what, before and after.
 * No foreign keys on the council and event: the history outlives what it describes.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The signed-in user who acted; null for the scheduler and the operator CLI. */
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** 'user' | 'scheduler' | 'cli' */
    actorKind: text('actor_kind').notNull(),
    /** What was done, e.g. 'event.save', 'event.state', 'role.grant'. */
    action: text('action').notNull(),
    councilId: integer('council_id'),
    eventId: integer('event_id'),
    before: jsonb('before'),
    after: jsonb('after'),
  },
  (t) => [index('audit_log_event').on(t.eventId, t.id), index('audit_log_at').on(t.at)],
)

// ---- Around the event: waitlist and push (migration 0006) ----

/** The waitlist of a sold-out event, in joining order (id); an offered row holds a freed place until it expires. */
export const waitlist = pgTable(
  'waitlist',
  {
    id: serial('id').primaryKey(),
    // No foreign keys of their own to events and users (migration 0013): waitlist_participant below implies both,
    // and each FK was a row check and lock per row of a draw's waitlist.
    eventId: integer('event_id').notNull(),
    userId: integer('user_id').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    offeredAt: timestamp('offered_at', { withTimezone: true }),
    offerExpiresAt: timestamp('offer_expires_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('waitlist_event_user').on(t.eventId, t.userId),
    index('waitlist_offer_expires').on(t.offerExpiresAt).where(sql`${t.offerExpiresAt} IS NOT NULL`),
    check('waitlist_offer_pair', sql`(${t.offeredAt} IS NULL) = (${t.offerExpiresAt} IS NULL)`),
    foreignKey({ name: 'waitlist_participant', columns: [t.eventId, t.userId], foreignColumns: [participants.eventId, participants.userId] })
      .onDelete('cascade')
      .onUpdate('cascade'),
  ],
)

/** The codes of tickets given back (migration 0014): the door tells them from codes of no ticket (issue 22 item 12). */
export const releasedTickets = pgTable('released_tickets', {
  ticketCode: text('ticket_code').primaryKey(),
  eventId: integer('event_id')
    .notNull()
    .references(() => events.id, { onDelete: 'cascade' }),
  releasedAt: timestamp('released_at', { withTimezone: true }).notNull().defaultNow(),
})

/** A browser's Web Push subscription. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('push_subscriptions_endpoint').on(t.endpoint), index('push_subscriptions_user').on(t.userId)],
)

/** Notifications waiting to be sent by the push tick; a transient failure is queued again (migration 0009). */
export const pushOutbox = pgTable(
  'push_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // No foreign key (migration 0013): a row is sent within seconds, to the student's subscriptions, which go with
    // the student; one for a student deleted meanwhile finds none and is dropped. A draw writes one per entrant.
    userId: integer('user_id').notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    url: text('url').notNull(),
    tag: text('tag'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Sends tried before this row. */
    attempts: integer('attempts').notNull().default(0),
    /** Not taken before this time (the retry's backoff). */
    notBefore: timestamp('not_before', { withTimezone: true }).notNull().defaultNow(),
    /** A retry goes to this subscription only; NULL: all the student's subscriptions. */
    endpoint: text('endpoint'),
  },
  (t) => [index('push_outbox_due').on(t.notBefore)],
)

/**
 * A student's inbox (issue 37 item 2): every message sent to them, whether or not a push reached a phone. Writers
 * insert here for every recipient; the trigger inbox_messages_push (server/db/functions/inbox_messages_push.sql)
 * queues the push_outbox row for those with a subscription. Read marks live here, so every device agrees; the
 * around-the-event tick deletes messages older than INBOX_KEEP_DAYS.
 */
export const inboxMessages = pgTable(
  'inbox_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    body: text('body').notNull(),
    url: text('url').notNull(),
    tag: text('tag'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    index('inbox_messages_user_id').on(t.userId, t.id.desc()),
    index('inbox_messages_user_unread').on(t.userId).where(sql`${t.readAt} IS NULL`),
    index('inbox_messages_created_at').on(t.createdAt),
  ],
)

/** The reminder an hour before an event, sent once per event and start time. */
export const eventReminders = pgTable(
  'event_reminders',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'event_reminders_pkey', columns: [t.eventId, t.startsAt] })],
)

/**
 * Every scan a door device makes (issue 12), by the id the device gave it, with the server's first answer: a
 * repeated scan_id gets that answer again. `offline`: it came through /door/p/sync, `scanned_at` the device's time.
 */
export const doorScans = pgTable(
  'door_scans',
  {
    scanId: uuid('scan_id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    ticketCode: text('ticket_code').notNull(),
    gate: text('gate').notNull(),
    answer: jsonb('answer'),
    scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull().defaultNow(),
    offline: boolean('offline').notNull().default(false),
    scannedBy: integer('scanned_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('door_scans_event_ticket').on(t.eventId, t.ticketCode)],
)

/**
 * A ticket's admission on one event day (migration 0017, issue 25 item 3): the IST day (contract/admission.ts dayOf),
 * its first entry (when, at which gate, by which scan, offline or not) and, with re-entry, whether the holder is in
 * now and when they last went in or out. One row per ticket and day: the key, not a read-then-write check.
 * participants.checked_in_at and checked_in_gate mirror the latest day's row (null when none).
 */
export const admissions = pgTable(
  'admissions',
  {
    participantId: integer('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }).notNull(),
    gate: text('gate'),
    scanId: uuid('scan_id'),
    offline: boolean('offline').notNull().default(false),
    inside: boolean('inside').notNull().default(true),
    movedAt: timestamp('moved_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ name: 'admissions_pkey', columns: [t.participantId, t.day] }), index('admissions_event_day').on(t.eventId, t.day)],
)

/**
 * A student's personal calendar feed (migration 0008). The URL's secret is an HMAC of the server's secret over the
 * user id and `nonce`, never stored; `secret_hash` (its SHA-256) finds the student from a URL. Rotating writes a
 * new nonce and hash, so the old URL answers 404.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: createdAt(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('calendar_feeds_secret_hash').on(t.secretHash)],
)

/** The verification code of a participant's certificate (migration 0008): random, made on the first download, stable. */
export const certificates = pgTable(
  'certificates',
  {
    participantId: integer('participant_id')
      .primaryKey()
      .references(() => participants.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('certificates_code').on(t.code)],
)

/**
 * An organiser's uploaded image (migration 0010, issue 21 item 9): `<name>.webp` and `<name>-card.webp` in
 * UPLOADS_DIR, their bytes counted against the organiser's quota (UPLOAD_QUOTA_MB) until the files are removed (an
 * image no event or council uses, a day after its upload: server/uploads/sweep.ts).
 */
export const uploads = pgTable(
  'uploads',
  {
    name: text('name').primaryKey(),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    bytes: integer('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_uploaded_by').on(t.uploadedBy)],
)

// ---- Activity points (migration 0012, issue 26) ----

/** The college's settings of activity points: one row (id 1). */
export const pointsSettings = pgTable(
  'points_settings',
  {
    id: smallint('id').primaryKey().default(1),
    categories: jsonb('categories').$type<string[]>().notNull(),
    target: integer('target').notNull().default(100),
    lateralEntryTarget: integer('lateral_entry_target').notNull().default(75),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('points_settings_one_row', sql`${t.id} = 1`), check('points_settings_targets', sql`${t.target} >= 0 AND ${t.lateralEntryTarget} >= 0`)],
)

/** The winners of an event, marked by its organisers once it is completed; each a participant of the event. */
export const eventWinners = pgTable(
  'event_winners',
  {
    eventId: integer('event_id').notNull(),
    userId: integer('user_id').notNull(),
    title: text('title'),
    markedBy: integer('marked_by').references(() => users.id, { onDelete: 'set null' }),
    markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'event_winners_pkey', columns: [t.eventId, t.userId] }),
    index('event_winners_user').on(t.userId),
    foreignKey({ name: 'event_winners_participant', columns: [t.eventId, t.userId], foreignColumns: [participants.eventId, participants.userId] })
      .onDelete('cascade')
      .onUpdate('cascade'),
  ],
)

/** The verification code of one entry of a student's record, made when a transcript first prints it. */
export const pointCodes = pgTable(
  'point_codes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    code: text('code').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'point_codes_pkey', columns: [t.userId, t.eventId, t.kind] }),
    uniqueIndex('point_codes_code').on(t.code),
    check('point_codes_kind', sql`${t.kind} IN ('ATTENDED', 'WINNER', 'VOLUNTEER', 'ORGANISER')`),
  ],
)

/** Every move of a ticket's place to a friend (migration 0015, issue 25), with the code that stopped working. */
export const ticketTransfers = pgTable(
  'ticket_transfers',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    fromUserId: integer('from_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    toUserId: integer('to_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    oldCode: text('old_code').notNull(),
    transferredAt: timestamp('transferred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ticket_transfers_old_code').on(t.oldCode), index('ticket_transfers_event').on(t.eventId)],
)

/** Receipt numbers (issue 35): one sequence for every council's receipts, taken when a payment becomes PAID. */
export const paymentReceiptNo = pgSequence('payment_receipt_no', { startWith: 1001 })

/**
 * A place held or paid for (issue 35, API.md Part 4, migration 0020): one row per hold, whatever the method. A live
 * one (PENDING, AWAITING_CONFIRMATION, PAID) is unique per student and event; `double_of` marks a second payment for a
 * place already paid (two payments on one order, Razorpay after UPI), refunded automatically and never live. Amounts
 * in paise. The trigger payments_count_holds keeps events.tickets_held.
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    participantId: integer('participant_id').references(() => participants.id, { onDelete: 'set null' }),
    kind: text('kind').notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull().default('INR'),
    status: text('status').notNull().default('PENDING'),
    method: text('method'),
    reference: text('reference').notNull(),
    payBy: timestamp('pay_by', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    razorpayOrderId: text('razorpay_order_id'),
    razorpayPaymentId: text('razorpay_payment_id'),
    utr: text('utr'),
    utrAt: timestamp('utr_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    confirmedBy: integer('confirmed_by').references(() => users.id, { onDelete: 'set null' }),
    deskMode: text('desk_mode'),
    receiptNo: integer('receipt_no'),
    refundRequestedAt: timestamp('refund_requested_at', { withTimezone: true }),
    razorpayRefundId: text('razorpay_refund_id'),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    refundedBy: integer('refunded_by').references(() => users.id, { onDelete: 'set null' }),
    expiredAt: timestamp('expired_at', { withTimezone: true }),
    doubleOf: integer('double_of').references((): any => payments.id),
    /** A job working on the row (asking the gateway, refunding) until then: another instance leaves it alone. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** When the reconciliation last asked the gateway about this order (a webhook can be lost). */
    gatewayCheckedAt: timestamp('gateway_checked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('payments_reference').on(t.reference),
    uniqueIndex('payments_razorpay_order').on(t.razorpayOrderId),
    uniqueIndex('payments_razorpay_payment').on(t.razorpayPaymentId),
    uniqueIndex('payments_utr').on(t.utr),
    uniqueIndex('payments_receipt_no').on(t.receiptNo),
    uniqueIndex('payments_razorpay_refund').on(t.razorpayRefundId),
    uniqueIndex('payments_live').on(t.eventId, t.userId).where(sql`${t.status} IN ('PENDING', 'AWAITING_CONFIRMATION', 'PAID') AND ${t.doubleOf} IS NULL`),
    index('payments_due').on(t.payBy).where(sql`${t.status} = 'PENDING'`),
    index('payments_refunds_due').on(t.eventId).where(sql`${t.status} = 'REFUND_PENDING'`),
    index('payments_event').on(t.eventId, t.status),
    index('payments_user').on(t.userId),
    check('payments_amount_positive', sql`${t.amount} > 0`),
    check('payments_kind', sql`${t.kind} IN ('TICKET', 'REGISTRATION')`),
    check('payments_status', sql`${t.status} IN ('PENDING', 'AWAITING_CONFIRMATION', 'PAID', 'EXPIRED', 'REFUND_PENDING', 'REFUNDED')`),
    check('payments_method', sql`${t.method} IS NULL OR ${t.method} IN ('RAZORPAY', 'UPI', 'DESK')`),
    check('payments_desk_mode', sql`${t.deskMode} IS NULL OR ${t.deskMode} IN ('CASH', 'UPI')`),
    check('payments_currency', sql`${t.currency} = 'INR'`),
    // Paid, refunding or refunded: when and by which method, with its receipt.
    check('payments_paid_has_method', sql`${t.status} NOT IN ('PAID', 'REFUND_PENDING', 'REFUNDED') OR (${t.paidAt} IS NOT NULL AND ${t.method} IS NOT NULL)`),
  ],
)

/**
 * The money, as it moved (issue 35): a capture or a refund, in paise, written in the same transaction as the
 * payment's status. Captured − refunded = the amounts of PAID payments + those of REFUND_PENDING ones, always.
 * `gateway_ref` names what moved it (a Razorpay payment or refund id, `utr:<UTR>`, `desk:<payment id>`), once per kind.
 */
export const paymentLedger = pgTable(
  'payment_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    eventId: integer('event_id').notNull(),
    kind: text('kind').notNull(),
    method: text('method').notNull(),
    amount: integer('amount').notNull(),
    gatewayRef: text('gateway_ref').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('payment_ledger_ref').on(t.kind, t.gatewayRef),
    index('payment_ledger_event').on(t.eventId),
    check('payment_ledger_kind', sql`${t.kind} IN ('CAPTURE', 'REFUND')`),
    check('payment_ledger_amount_positive', sql`${t.amount} > 0`),
  ],
)

/** Every webhook the gateway sent, by its event id (X-Razorpay-Event-Id): recorded once, with what it did. */
export const gatewayEvents = pgTable('gateway_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  payload: jsonb('payload').notNull(),
  outcome: text('outcome').notNull(),
})
