// Push subscriptions and the outbox of notifications (API.md Part 2 "Around the event"). Every message is a row of
// inbox_messages for every recipient (issue 37 item 2), written with the change that causes it (often in SQL:
// migration 0006's triggers, waitlist_offer(), fair_draw()); the trigger inbox_messages_push (migration 0023) queues
// a row of push_outbox for the recipients with a subscription, sent later by the push tick (server/push/sender.ts),
// never on the request's path.
// Taking rows out of the outbox is one DELETE ... FOR UPDATE SKIP LOCKED, so with several instances each
// notification is sent by one of them; a transient failure is queued again by that instance (retry()), for the
// one subscription it failed for, not before its backoff (migration 0009).
import { sql } from 'drizzle-orm'
import { NOTIFY_LIMITS } from '../../../contract/notify-limits.ts'
import type { Db } from '../index.ts'
import { recordAudit } from '../audit.ts'
import { type Outcome, outcomeOf, Refused, rowsOf } from '../outcomes.ts'

export interface Subscription {
  endpoint: string
  keys: { p256dh: string; auth: string }
}

export interface Notification {
  title: string
  body: string
  /** The app's path the notification opens. */
  url: string
  tag?: string
}

export interface OutboxItem extends Notification {
  id: number
  userId: number
  /** Sends tried before this one (0: a new notification). */
  attempts: number
  subscriptions: Subscription[]
}

export type Audience = 'PARTICIPANTS' | 'TICKET_HOLDERS' | 'WAITLIST'

/** An organiser's messages per event in 24 hours. */
export const NOTIFY_PER_DAY = NOTIFY_LIMITS.per_day

/**
 * Subscriptions one student keeps (issue 21 item 4: one student stored 200, and one notification made 200 sends to
 * hosts of their choosing): a phone, a laptop, a tablet and their browsers fit in 10. The bound per host is per
 * student too (a phone and a laptop on one push service, a spare): a bound over all students would cut off a
 * real push service, on which every Chrome or every Safari subscription of the college lives.
 */
export const PUSH_PER_STUDENT = 10
export const PUSH_PER_HOST = 4

/** The host of an endpoint, as the cap per host counts it (an unreadable URL is a host of its own). */
function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).hostname.toLowerCase()
  } catch {
    return endpoint
  }
}

export function pushRepository(db: Db) {
  return {
    /**
     * Stores the caller's subscription (issue 21 item 4): an endpoint the caller already holds is renewed (its keys,
     * and it counts as the newest); one another student holds is refused and stays theirs (a shared browser makes a
     * new subscription instead: src/stores/push.ts). Then the caller keeps at most PUSH_PER_STUDENT subscriptions,
     * and at most PUSH_PER_HOST on one push service's host, the oldest dropped. One transaction, under the
     * student's row lock, so two subscribes at once cannot both keep an eleventh.
     */
    async subscribe(userId: number, s: Subscription): Promise<Outcome> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          await tx.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`)
          const kept = rowsOf(
            await tx.execute(sql`
              INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES (${userId}, ${s.endpoint}, ${s.keys.p256dh}, ${s.keys.auth})
              ON CONFLICT (endpoint) DO UPDATE SET p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, created_at = now()
                WHERE push_subscriptions.user_id = EXCLUDED.user_id
              RETURNING id`),
          )
          if (kept.length === 0) throw new Refused('endpointTaken')
          const mine = rowsOf(
            await tx.execute(sql`SELECT id, endpoint FROM push_subscriptions WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC`),
          ) as { id: number; endpoint: string }[]
          const perHost = new Map<string, number>()
          const dropped: number[] = []
          mine.forEach((row, i) => {
            const host = hostOf(row.endpoint)
            const n = (perHost.get(host) ?? 0) + 1
            perHost.set(host, n)
            if (i >= PUSH_PER_STUDENT || n > PUSH_PER_HOST) dropped.push(Number(row.id))
          })
          if (dropped.length > 0)
            await tx.execute(
              sql`DELETE FROM push_subscriptions WHERE id IN (${sql.join(
                dropped.map((id) => sql`${id}`),
                sql`, `,
              )})`,
            )
          return undefined
        }),
      )
    },

    async unsubscribe(userId: number, endpoint: string): Promise<void> {
      await db.execute(sql`DELETE FROM push_subscriptions WHERE user_id = ${userId} AND endpoint = ${endpoint}`)
    },

    /** A subscription the push service no longer knows (404/410). */
    async forget(endpoint: string): Promise<void> {
      await db.execute(sql`DELETE FROM push_subscriptions WHERE endpoint = ${endpoint}`)
    },

    /**
     * A message in the inbox of each of these students (once each; a student deleted meanwhile gets none), pushed
     * besides to those with a subscription (the trigger); answers how many inboxes got it.
     */
    async queue(userIds: number[], n: Notification, handle: Db = db): Promise<number> {
      if (userIds.length === 0) return 0
      const rows = rowsOf(
        await handle.execute(sql`
          INSERT INTO inbox_messages (user_id, title, body, url, tag)
          SELECT u.id, ${n.title}, ${n.body}, ${n.url}, ${n.tag ?? null}::text FROM users u
            WHERE u.id = ANY(${`{${userIds.join(',')}}`}::int[])
            ORDER BY u.id
          RETURNING id`),
      )
      return rows.length
    },

    /**
     * The reminder an hour before an event, for its ticket holders: once per event and start time (the
     * event_reminders key decides, so two instances never both remind).
     */
    async queueReminders(): Promise<number> {
      const rows = rowsOf(
        await db.execute(sql`
          WITH due AS (
            SELECT e.id, e.name, e.venue, e.starts_at FROM events e
              WHERE e.starts_at > now() AND e.starts_at <= now() + interval '1 hour'
                AND e.state IN ('TICKET_OPEN', 'TICKET_CLOSED', 'ONGOING')
          ), marked AS (
            INSERT INTO event_reminders (event_id, starts_at) SELECT id, starts_at FROM due
              ON CONFLICT DO NOTHING RETURNING event_id
          )
          INSERT INTO inbox_messages (user_id, title, body, url, tag)
          SELECT p.user_id, due.name || ' starts soon',
                 'It starts at ' || to_char(due.starts_at AT TIME ZONE 'Asia/Kolkata', 'FMHH12:MI AM') || CASE WHEN due.venue <> '' THEN ' at ' || due.venue ELSE '' END || '. Have your ticket ready.',
                 '/ticket/' || due.id, 'reminder-' || due.id
            FROM marked JOIN due ON due.id = marked.event_id
            JOIN participants p ON p.event_id = due.id AND p.ticket_collected
          RETURNING id`),
      )
      return rows.length
    },

    /**
     * Takes up to `limit` notifications that are due out of the outbox (this instance alone sends them), with
     * the subscriptions to send them to: all the student's, or for a retry the one it failed for.
     */
    async take(limit = 200): Promise<OutboxItem[]> {
      const rows = rowsOf(
        await db.execute(sql`
          WITH taken AS (
            DELETE FROM push_outbox WHERE id IN (
              SELECT id FROM push_outbox WHERE not_before <= now() ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
            RETURNING id, user_id, title, body, url, tag, attempts, endpoint
          )
          SELECT t.id, t.user_id, t.title, t.body, t.url, t.tag, t.attempts,
                 coalesce(json_agg(json_build_object('endpoint', s.endpoint, 'p256dh', s.p256dh, 'auth', s.auth)) FILTER (WHERE s.id IS NOT NULL), '[]') AS subs
            FROM taken t LEFT JOIN push_subscriptions s ON s.user_id = t.user_id AND (t.endpoint IS NULL OR s.endpoint = t.endpoint)
            GROUP BY t.id, t.user_id, t.title, t.body, t.url, t.tag, t.attempts ORDER BY t.id`),
      ) as {
        id: number | string
        user_id: number
        title: string
        body: string
        url: string
        tag: string | null
        attempts: number
        subs: unknown
      }[]
      return rows.map((r) => {
        const subs = (typeof r.subs === 'string' ? JSON.parse(r.subs) : r.subs) as { endpoint: string; p256dh: string; auth: string }[]
        return {
          id: Number(r.id),
          userId: r.user_id,
          title: r.title,
          body: r.body,
          url: r.url,
          tag: r.tag ?? undefined,
          attempts: Number(r.attempts),
          subscriptions: subs.map((s) => ({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } })),
        }
      })
    },

    /**
     * Queues a taken notification again for one subscription, after `delaySeconds`, as its attempt number
     * `attempts` + 1. Only the instance that took the row (and deleted it) calls this, so there is one copy.
     * A subscription deleted meanwhile takes nothing: the retry is then taken with no one to send to.
     */
    async retry(item: OutboxItem, endpoint: string, attempts: number, delaySeconds: number): Promise<void> {
      await db.execute(sql`
        INSERT INTO push_outbox (user_id, title, body, url, tag, attempts, not_before, endpoint)
        VALUES (${item.userId}, ${item.title}, ${item.body}, ${item.url}, ${item.tag ?? null}::text, ${attempts},
                now() + make_interval(secs => ${delaySeconds}), ${endpoint})`)
    },

    /**
     * What the console's "Send a notification" form shows (issue 22 item 1): per audience, its students and those of
     * them with a subscription (a message reaches those); the messages left in the last 24 hours, and when the
     * oldest of them leaves the window. Organisers of the event's council and admins only; reads only.
     */
    async notifyStatus(
      access: { councilId: number; manage: boolean } | null,
      eventId: number,
    ): Promise<
      Outcome<{ audiences: Record<Audience, { students: number; notifications_on: number }>; limit: number; remaining: number; frees_at: string | null }>
    > {
      if (!access) return { ok: false, refusal: 'eventNotFound' }
      if (!access.manage) return { ok: false, refusal: 'notOrganiser' }
      const [reach] = rowsOf(
        await db.execute(sql`
          WITH audience AS (
            SELECT p.user_id, p.ticket_collected, false AS waiting FROM participants p WHERE p.event_id = ${eventId}
            UNION ALL
            SELECT w.user_id, false, true FROM waitlist w WHERE w.event_id = ${eventId}
          ), reach AS (
            SELECT a.*, EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = a.user_id) AS on_ FROM audience a
          )
          SELECT count(DISTINCT user_id) FILTER (WHERE NOT waiting)::int AS participants,
                 count(DISTINCT user_id) FILTER (WHERE NOT waiting AND on_)::int AS participants_on,
                 count(DISTINCT user_id) FILTER (WHERE ticket_collected)::int AS holders,
                 count(DISTINCT user_id) FILTER (WHERE ticket_collected AND on_)::int AS holders_on,
                 count(DISTINCT user_id) FILTER (WHERE waiting)::int AS waiting,
                 count(DISTINCT user_id) FILTER (WHERE waiting AND on_)::int AS waiting_on
            FROM reach`),
      ) as Record<string, number>[]
      const [sent] = rowsOf(
        await db.execute(
          sql`SELECT count(*)::int AS n, min(at) + interval '24 hours' AS frees_at
                FROM audit_log WHERE event_id = ${eventId} AND action = 'event.notify' AND at > now() - interval '24 hours'`,
        ),
      ) as { n: number; frees_at: Date | string | null }[]
      const n = (key: string) => Number(reach?.[key] ?? 0)
      return {
        ok: true,
        value: {
          audiences: {
            PARTICIPANTS: { students: n('participants'), notifications_on: n('participants_on') },
            TICKET_HOLDERS: { students: n('holders'), notifications_on: n('holders_on') },
            WAITLIST: { students: n('waiting'), notifications_on: n('waiting_on') },
          },
          limit: NOTIFY_PER_DAY,
          remaining: Math.max(0, NOTIFY_PER_DAY - Number(sent?.n ?? 0)),
          frees_at: sent?.frees_at ? new Date(sent.frees_at).toISOString() : null,
        },
      }
    },

    /**
     * An organiser's message to an event's participants, ticket holders or waitlist: organisers of its council
     * and admins only, at most NOTIFY_PER_DAY per event in 24 hours (counted in the audit log, under the
     * event's row lock), audited. Every student of the audience gets it in their inbox (`in_app`); `sent`: those of
     * them with a subscription, whom the trigger queues a push for.
     */
    async organiserMessage(
      actorId: number,
      access: { councilId: number; manage: boolean } | null,
      input: { eventId: number; title: string; body: string; to: Audience },
    ): Promise<Outcome<{ sent: number; in_app: number }>> {
      if (!access) return { ok: false, refusal: 'eventNotFound' }
      if (!access.manage) return { ok: false, refusal: 'notOrganiser' }
      return outcomeOf(() =>
        db.transaction(async (tx) => {
          const [ev] = rowsOf(await tx.execute(sql`SELECT id FROM events WHERE id = ${input.eventId} FOR UPDATE`))
          if (!ev) throw new Refused('eventNotFound')
          const [{ n, wait }] = rowsOf(
            await tx.execute(
              sql`SELECT count(*)::int AS n, ceil(extract(epoch FROM min(at) + interval '24 hours' - now()))::int AS wait
                    FROM audit_log WHERE event_id = ${input.eventId} AND action = 'event.notify' AND at > now() - interval '24 hours'`,
            ),
          ) as { n: number; wait: number | null }[]
          // Retry-After: when the oldest message of the last 24 hours leaves them.
          if (Number(n) >= NOTIFY_PER_DAY) throw new Refused('notifyLimit', undefined, Math.max(1, Number(wait ?? 1)))
          const audience =
            input.to === 'WAITLIST'
              ? sql`SELECT user_id FROM waitlist WHERE event_id = ${input.eventId}`
              : input.to === 'TICKET_HOLDERS'
                ? sql`SELECT user_id FROM participants WHERE event_id = ${input.eventId} AND ticket_collected`
                : sql`SELECT user_id FROM participants WHERE event_id = ${input.eventId}`
          // One message per student (DISTINCT: a student is in an audience once), in every inbox; the trigger
          // pushes to those with a subscription, whom `sent` counts.
          const [counts] = rowsOf(
            await tx.execute(sql`
              WITH added AS (
                INSERT INTO inbox_messages (user_id, title, body, url, tag)
                SELECT a.user_id, ${input.title}, ${input.body}, ${`/event-details/${input.eventId}`}, ${`message-${input.eventId}`}
                  FROM (SELECT DISTINCT user_id FROM (${audience}) x) a ORDER BY a.user_id
                RETURNING user_id
              )
              SELECT count(*)::int AS in_app,
                     count(*) FILTER (WHERE EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = added.user_id))::int AS sent
                FROM added`),
          ) as { in_app: number; sent: number }[]
          const result = { sent: Number(counts?.sent ?? 0), in_app: Number(counts?.in_app ?? 0) }
          await recordAudit(tx, {
            actorId,
            actorKind: 'user',
            action: 'event.notify',
            councilId: access.councilId,
            eventId: input.eventId,
            after: { title: input.title, body: input.body, to: input.to, ...result },
          })
          return result
        }),
      )
    },
  }
}

export type PushRepository = ReturnType<typeof pushRepository>
