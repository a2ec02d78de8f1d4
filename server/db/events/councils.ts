// The councils repository: the directory, in name order.
import { asc, sql } from 'drizzle-orm'
import type { Council } from '../../../contract/types.ts'
import type { Db } from '../index.ts'
import { councilOrganizers, councils, users } from '../schema.ts'

export function councilsRepository(db: Db) {
  return {
    list: (): Promise<Council[]> =>
      db
        .select({ id: councils.id, name: councils.name, photo_url: councils.photoUrl, phone_number: councils.phoneNumber, email: councils.email })
        .from(councils)
        .orderBy(asc(councils.name), asc(councils.id)),
    /**
     * The operator's view (issue 22 item 4, `npm run cli -- councils`): each council's id and slug, which
     * `role:grant <email> organizer <council>` takes, and its organisers' e-mails.
     */
    forOperator: (): Promise<{ id: number; slug: string; name: string; organizers: string[] }[]> =>
      db
        .select({
          id: councils.id,
          slug: councils.slug,
          name: councils.name,
          organizers: sql<
            string[]
          >`coalesce((SELECT array_agg(u.email ORDER BY u.email) FROM ${councilOrganizers} o JOIN ${users} u ON u.id = o.user_id WHERE o.council_id = "councils"."id"), '{}')`,
        })
        .from(councils)
        .orderBy(asc(councils.id)),
  }
}

export type CouncilsRepository = ReturnType<typeof councilsRepository>
