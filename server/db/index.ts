// Opens the database the configuration names: a real PostgreSQL when a URL is given, otherwise the
// embedded PGlite (PostgreSQL in WebAssembly) in a folder, or in memory for tests. Both are migrated on open.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import * as schema from './schema.ts'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>

export interface Database {
  db: Db
  kind: 'postgres' | 'pglite'
  close(): Promise<void>
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

/**
 * The prepared initial database (issue 15 item 6): an embedded database with every migration applied, dumped at
 * `npm run build` (scripts/prepare-db.ts). A first start on a new data folder loads it instead of initialising
 * PostgreSQL and running the migrations, which took seconds and most of the memory; migrations added since are
 * still applied by `migrate` below. Absent (running from source, tests): the usual initialisation.
 */
export const PREPARED_PGLITE = fileURLToPath(new URL('./initial-pglite.tar.gz', import.meta.url))

/** A data folder PGlite has not initialised yet (missing or empty), which the prepared database can fill. */
function isNewDataDir(dataDir: string): boolean {
  try {
    return readdirSync(dataDir).length === 0
  } catch {
    return true
  }
}

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
  const prepared = options.dataDir && isNewDataDir(options.dataDir) && existsSync(PREPARED_PGLITE) ? new Blob([readFileSync(PREPARED_PGLITE)]) : undefined
  const client = options.dataDir ? new PGlite(options.dataDir, prepared ? { loadDataDir: prepared } : {}) : new PGlite()
  const db = drizzle(client, { schema })
  await migrate(db, { migrationsFolder })
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() }
}

export { schema }
