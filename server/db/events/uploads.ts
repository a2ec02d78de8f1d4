// Organisers' uploaded images (issue 21 item 9): one row per stored image with its bytes, so that an organiser's
// images count against a quota, and the names that events and councils use, so that the others can be removed a
// day after their upload (server/uploads/sweep.ts). The files themselves are server/uploads/images.ts's.
import { and, eq, inArray, isNotNull, like, or, sql } from 'drizzle-orm'
import type { Db } from '../index.ts'
import { type Outcome, outcomeOf, Refused } from '../outcomes.ts'
import { councils, events, uploads, users } from '../schema.ts'

/** The image names in a stored URL (`/uploads/<name>.webp`, `/uploads/<name>-card.webp`, absolute or not). */
const UPLOAD_URL = /\/uploads\/([0-9a-f]{32})(?:-card)?\.webp(?:[?#]|$)/

export function uploadsRepository(db: Db) {
  return {
    /**
     * Records an image of `bytes` for the organiser, unless their images would then pass `quotaBytes`: one
     * transaction under the organiser's row lock, so two uploads at once cannot both pass the quota.
     */
    async record(userId: number, name: string, bytes: number, quotaBytes: number): Promise<Outcome<{ usedBytes: number }>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update')
          const [row] = await tx
            .select({ used: sql<number>`coalesce(sum(${uploads.bytes}), 0)::bigint` })
            .from(uploads)
            .where(eq(uploads.uploadedBy, userId))
          const used = Number(row?.used ?? 0)
          if (used + bytes > quotaBytes) throw new Refused('uploadQuota')
          await tx.insert(uploads).values({ name, uploadedBy: userId, bytes })
          return { usedBytes: used + bytes }
        }),
      )
    },

    /** Forgets images whose files are gone (removed, or never written). */
    async forget(names: string[]): Promise<void> {
      if (names.length > 0) await db.delete(uploads).where(inArray(uploads.name, names))
    },

    /** Every image name an event (its page image or banner) or a council (its photo) uses. */
    async referenced(): Promise<Set<string>> {
      const urls = [
        ...(await db
          .select({ a: events.eventPageImageUrl, b: events.bannerUrl })
          .from(events)
          .where(or(like(events.eventPageImageUrl, '%/uploads/%'), like(events.bannerUrl, '%/uploads/%')))),
        ...(await db
          .select({ a: councils.photoUrl, b: sql<null>`null` })
          .from(councils)
          .where(and(isNotNull(councils.photoUrl), like(councils.photoUrl, '%/uploads/%')))),
      ].flatMap((r) => [r.a, r.b])
      const names = new Set<string>()
      for (const url of urls) {
        const m = url ? UPLOAD_URL.exec(url) : null
        if (m) names.add(m[1]!)
      }
      return names
    },

    /** The bytes of an organiser's stored images. */
    async usedBytes(userId: number): Promise<number> {
      const [row] = await db
        .select({ used: sql<number>`coalesce(sum(${uploads.bytes}), 0)::bigint` })
        .from(uploads)
        .where(eq(uploads.uploadedBy, userId))
      return Number(row?.used ?? 0)
    },
  }
}

export type UploadsRepository = ReturnType<typeof uploadsRepository>
