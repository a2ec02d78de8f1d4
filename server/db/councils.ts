// The councils repository: the directory, in name order.
import { asc } from 'drizzle-orm'
import type { Council } from '../../contract/types.ts'
import type { Db } from './index.ts'
import { councils } from './schema.ts'

export function councilsRepository(db: Db) {
  return {
    list: (): Promise<Council[]> =>
      db
        .select({ id: councils.id, name: councils.name, photo_url: councils.photoUrl, phone_number: councils.phoneNumber, email: councils.email })
        .from(councils)
        .orderBy(asc(councils.name), asc(councils.id)),
  }
}

export type CouncilsRepository = ReturnType<typeof councilsRepository>
