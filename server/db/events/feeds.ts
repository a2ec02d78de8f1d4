// The calendar feeds and certificates repository (API.md Part 2 "Around the event"). The feed's secret is made by
// the routes (an HMAC of the server's secret, server/feeds/secrets.ts); this stores only its nonce and SHA-256.
// A certificate's verification code is random, made on the first download and kept: the same code ever after.
import { and, asc, eq, ne, sql } from 'drizzle-orm'
import type { Db } from '../index.ts'
import { calendarFeeds, certificates, councils, events, participants, users } from '../schema.ts'
import { done, isUniqueViolation, refused, type Outcome } from '../outcomes.ts'

/** A feed's nonce and the SHA-256 of the secret it yields. */
export interface FeedKey {
  nonce: string
  secretHash: string
}

/** An event as the feed shows it (server/feeds/ics.ts). */
export interface FeedEvent {
  id: number
  name: string
  description: string
  venue: string
  dates: string[]
  /** Each date's end or null, in the order of `dates` (migration 0014). */
  dateEnds: (string | null)[]
  endsAt: string | null
  /** Raised by the database whenever what the feed shows of the event changes (migration 0008). */
  sequence: number
  modifiedAt: Date
}

export interface Certificate {
  code: string
  name: string
  event: string
  council: string
  /** The event's dates (ISO), first to last. */
  dates: string[]
}

/** How many fresh codes to draw when one is taken (p ≈ certificates/32^10 each time). */
const CODE_TRIES = 3

export function feedsRepository(db: Db, randomCode: () => string) {
  return {
    /**
     * The caller's feed nonce. Without `rotate`, the stored one (or `fresh`, stored now, for a first feed);
     * with it, `fresh` replaces the stored one in the same statement, so the old URL finds nobody from then on.
     */
    async feedNonce(userId: number, fresh: FeedKey, rotate: boolean): Promise<string> {
      const values = { userId, nonce: fresh.nonce, secretHash: fresh.secretHash }
      const insert = db.insert(calendarFeeds).values(values)
      const [row] = rotate
        ? await insert
            .onConflictDoUpdate({ target: calendarFeeds.userId, set: { nonce: fresh.nonce, secretHash: fresh.secretHash, rotatedAt: sql`now()` } })
            .returning({ nonce: calendarFeeds.nonce })
        : await insert.onConflictDoNothing({ target: calendarFeeds.userId }).returning({ nonce: calendarFeeds.nonce })
      if (row) return row.nonce
      const [stored] = await db.select({ nonce: calendarFeeds.nonce }).from(calendarFeeds).where(eq(calendarFeeds.userId, userId))
      return stored.nonce
    },

    /** The student whose feed has this secret hash, or null (an unknown or rotated-away secret). */
    async feedOwner(secretHash: string): Promise<{ userId: number; nonce: string } | null> {
      const [row] = await db
        .select({ userId: calendarFeeds.userId, nonce: calendarFeeds.nonce })
        .from(calendarFeeds)
        .where(eq(calendarFeeds.secretHash, secretHash))
      return row ?? null
    },

    /** The events the student is registered for (never a draft), in date order, as the feed shows them. */
    async feedEvents(userId: number): Promise<FeedEvent[]> {
      const rows = await db
        .select({
          id: events.id,
          name: events.name,
          description: events.description,
          venue: events.venue,
          dates: events.dates,
          dateEnds: events.dateEnds,
          endsAt: events.endsAt,
          sequence: events.calendarSequence,
          modifiedAt: events.calendarModifiedAt,
        })
        .from(participants)
        .innerJoin(events, eq(events.id, participants.eventId))
        .where(and(eq(participants.userId, userId), ne(events.state, 'DRAFT')))
        .orderBy(asc(sql`${events.dates}->>0`), asc(events.id))
      return rows.map((r) => ({ ...r, endsAt: r.endsAt ? r.endsAt.toISOString() : null }))
    },

    /**
     * The caller's certificate of an event: only for a participant checked in at the door of a COMPLETED event.
     * The code is made on the first call (a unique index decides between two concurrent first calls).
     */
    async certificate(userId: number, eventId: number): Promise<Outcome<Certificate>> {
      const [row] = await db
        .select({
          state: events.state,
          event: events.name,
          dates: events.dates,
          council: councils.name,
          participantId: participants.id,
          checkedInAt: participants.checkedInAt,
          name: users.name,
        })
        .from(events)
        .innerJoin(councils, eq(councils.id, events.organizerId))
        .leftJoin(participants, and(eq(participants.eventId, events.id), eq(participants.userId, userId)))
        .leftJoin(users, eq(users.id, participants.userId))
        .where(and(eq(events.id, eventId), ne(events.state, 'DRAFT')))
      if (!row) return refused('eventNotFound')
      if (row.state !== 'COMPLETED') return refused('certificateNotReady')
      if (row.participantId === null || row.checkedInAt === null || row.name === null) return refused('certificateNotCheckedIn')
      const participantId = row.participantId
      let code: string | undefined
      for (let i = 0; i < CODE_TRIES && !code; i++) {
        try {
          await db.insert(certificates).values({ participantId, code: randomCode() }).onConflictDoNothing({ target: certificates.participantId })
        } catch (err) {
          if (isUniqueViolation(err, 'certificates_code')) continue
          throw err
        }
        ;[{ code }] = await db.select({ code: certificates.code }).from(certificates).where(eq(certificates.participantId, participantId))
      }
      if (!code) return refused('certificateCodesExhausted')
      return done({ code, name: row.name, event: row.event, council: row.council, dates: row.dates })
    },

    /** The certificate with this verification code, or null. */
    async verify(code: string): Promise<Certificate | null> {
      const [row] = await db
        .select({ code: certificates.code, name: users.name, event: events.name, council: councils.name, dates: events.dates })
        .from(certificates)
        .innerJoin(participants, eq(participants.id, certificates.participantId))
        .innerJoin(users, eq(users.id, participants.userId))
        .innerJoin(events, eq(events.id, participants.eventId))
        .innerJoin(councils, eq(councils.id, events.organizerId))
        .where(eq(certificates.code, code))
      return row ?? null
    },
  }
}

export type FeedsRepository = ReturnType<typeof feedsRepository>
