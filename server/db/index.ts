// Opens the database the configuration names: a real PostgreSQL when a URL is given, otherwise the
// embedded PGlite (PostgreSQL in WebAssembly) in a folder, or in memory for tests. Both are migrated on open.
import { fileURLToPath } from 'node:url'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import * as schema from './schema.ts'
import { lockDataDir } from './data-dir-lock.ts'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>

export interface Database {
  db: Db
  kind: 'postgres' | 'pglite'
  close(): Promise<void>
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

/** `url` a postgres:// URL; otherwise `dataDir` for PGlite on disk, or neither for PGlite in memory. */
export async function openDatabase(options: { url?: string; dataDir?: string; max?: number }): Promise<Database> {
  if (options.url) {
    const { default: postgres } = await import('postgres')
    const { drizzle } = await import('drizzle-orm/postgres-js')
    const { migrate } = await import('drizzle-orm/postgres-js/migrator')
    const client = postgres(options.url, { max: options.max ?? 10, onnotice: () => {} })
    const db = drizzle(client, { schema })
    await migrate(db, { migrationsFolder })
    return { db: db as unknown as Db, kind: 'postgres', close: () => client.end({ timeout: 5 }) }
  }
  const { PGlite } = await import('@electric-sql/pglite')
  const { drizzle } = await import('drizzle-orm/pglite')
  const { migrate } = await import('drizzle-orm/pglite/migrator')
  // One process at a time on a folder (data-dir-lock.ts): refused with what to do while another holds it.
  const release = options.dataDir ? lockDataDir(options.dataDir) : () => {}
  try {
    const client = options.dataDir ? new PGlite(options.dataDir) : new PGlite()
    const db = drizzle(client, { schema })
    await migrate(db, { migrationsFolder })
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      close: async () => {
        try {
          await client.close()
        } finally {
          release()
        }
      },
    }
  } catch (err) {
    release()
    throw err
  }
}

export { schema }
