// A student's inbox (issue 37 item 2, contract/inbox.ts): every message they were sent, newest first, with read
// marks kept here so their phones and laptop agree. The writers (server/db/people/push.ts, the SQL functions of
// migration 0023) insert into inbox_messages; this repository reads a page, counts the unread and marks read, always
// within the caller's own messages. The around-the-event tick deletes messages older than INBOX_KEEP_DAYS.
import { sql } from 'drizzle-orm'
import { INBOX_PAGE } from '../../../contract/inbox.ts'
import type { Db } from '../index.ts'
import { rowsOf } from '../outcomes.ts'

/** How long a message is kept. */
export const INBOX_KEEP_DAYS = 180
/** Messages deleted per statement when old ones are cleared, and statements per tick at most. */
export const INBOX_PURGE_BATCH = 1000
export const INBOX_PURGE_BATCHES = 10

export interface InboxMessage {
  id: number
  title: string
  body: string
  url: string
  created_at: string
  read: boolean
}

export function inboxRepository(db: Db) {
  /** The caller's unread messages: one count over the partial index inbox_messages_user_unread. */
  async function unread(userId: number): Promise<number> {
    const [row] = rowsOf(await db.execute(sql`SELECT count(*)::int AS n FROM inbox_messages WHERE user_id = ${userId} AND read_at IS NULL`)) as { n: number }[]
    return Number(row?.n ?? 0)
  }

  return {
    unread,

    /** A page of the caller's messages, newest first: those older than `before` when given; `more`: an older page exists. */
    async page(userId: number, before: number | null): Promise<{ messages: InboxMessage[]; unread: number; more: boolean }> {
      const older = before == null ? sql`` : sql`AND id < ${before}::bigint`
      const rows = rowsOf(
        await db.execute(sql`
          SELECT id, title, body, url, created_at, read_at IS NOT NULL AS read FROM inbox_messages
            WHERE user_id = ${userId} ${older}
            ORDER BY id DESC LIMIT ${INBOX_PAGE + 1}`),
      ) as { id: number | string; title: string; body: string; url: string; created_at: Date | string; read: boolean }[]
      const messages = rows.slice(0, INBOX_PAGE).map((r) => ({
        id: Number(r.id),
        title: r.title,
        body: r.body,
        url: r.url,
        created_at: new Date(r.created_at).toISOString(),
        read: r.read === true,
      }))
      return { messages, unread: await unread(userId), more: rows.length > INBOX_PAGE }
    },

    /**
     * Marks read the caller's unread messages with an id up to `upTo`; answers the unread count left. Another
     * student's id, or one already read, changes nothing (a read message keeps its first read_at).
     */
    async markRead(userId: number, upTo: number): Promise<number> {
      await db.execute(sql`UPDATE inbox_messages SET read_at = now() WHERE user_id = ${userId} AND id <= ${upTo}::bigint AND read_at IS NULL`)
      return unread(userId)
    },

    /**
     * Deletes messages older than `days`, INBOX_PURGE_BATCH at a time (short statements, short locks), at most
     * INBOX_PURGE_BATCHES statements per call; answers how many went. Two instances at once skip each other's rows.
     */
    async purgeOld(days = INBOX_KEEP_DAYS): Promise<number> {
      let total = 0
      for (let i = 0; i < INBOX_PURGE_BATCHES; i++) {
        const gone = rowsOf(
          await db.execute(sql`
            DELETE FROM inbox_messages WHERE id IN (
              SELECT id FROM inbox_messages WHERE created_at < now() - make_interval(days => ${days}::int)
                LIMIT ${INBOX_PURGE_BATCH} FOR UPDATE SKIP LOCKED)
            RETURNING id`),
        )
        total += gone.length
        if (gone.length < INBOX_PURGE_BATCH) break
      }
      return total
    },
  }
}

export type InboxRepository = ReturnType<typeof inboxRepository>
