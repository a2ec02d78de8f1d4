// Opens the database the configuration names: a real PostgreSQL when a URL is given, otherwise the
// embedded PGlite (PostgreSQL in WebAssembly) in a folder, or in memory for tests. Both are migrated on open.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { dirname, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gunzipSync } from 'node:zlib'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import * as schema from './schema.ts'
import { lockDataDir } from './data-dir-lock.ts'
import { keepPrivate } from './data-dir-private.ts'
import { tableRowCounts } from './row-counts.ts'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>

export interface Database {
  db: Db
  kind: 'postgres' | 'pglite'
  /** Connections the pool may open: PostgreSQL's `max`; 1 for the embedded database (one in-process session). */
  poolMax: number
  /** PostgreSQL: the application_name of this process's connections, to find them in pg_stat_activity (metrics). */
  applicationName?: string
  /** The embedded database's folder (absent in memory and on PostgreSQL). */
  dataDir?: string
  /**
   * The embedded database: its data folder as a gzipped tar (PGlite's dumpDataDir) and the row count of every table,
   * both read while no transaction of this process is half done (server/backup/archive.ts). Absent on PostgreSQL,
   * whose backup is pg_dump (docs/deployment.md "Backups").
   */
  dumpDataDir?(): Promise<{ tar: Uint8Array; rows: Record<string, number> }>
  close(): Promise<void>
}

/** How long a PostgreSQL connection attempt may take (s): a database that does not answer fails the request, never hangs it. */
export const CONNECT_TIMEOUT_SECONDS = 5

/** This process's name in pg_stat_activity: the host and pid, so two instances' connections are told apart. */
const applicationNameOf = () => `campus-events ${hostname()} ${process.pid}`.slice(0, 63)

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url))

/**
 * The prepared initial database (issue 15 item 6): an embedded database with every migration applied, dumped at
 * `npm run build` (scripts/prepare-db.ts). A first start on a new data folder unpacks it into the folder instead of
 * initialising PostgreSQL and running the migrations, which took seconds and most of the memory; migrations added
 * since are still applied by `migrate` below. Absent (running from source, tests): the usual initialisation.
 * Unpacked here rather than handed to PGlite (its loadDataDir): PGlite unpacks it through its in-memory file
 * system, about 140 MB more resident at the peak of a first start (issue 15 item 6: ≤ 400 MB).
 */
export const PREPARED_PGLITE = fileURLToPath(new URL('./initial-pglite.tar.gz', import.meta.url))

/** The embedded database's buffer pool (PostgreSQL's shared_buffers). */
export const PGLITE_SHARED_BUFFERS = '16MB'

/** A data folder PGlite has not initialised yet (missing or empty), which the prepared database can fill. */
function isNewDataDir(dataDir: string): boolean {
  try {
    return readdirSync(dataDir).length === 0
  } catch {
    return true
  }
}

/**
 * Unpacks a gzipped tar of a data folder (PGlite's dumpDataDir: directories and regular files, short names) into
 * `dir`. Anything else in the archive, or a path leaving `dir`, is refused.
 */
export function unpackDataDir(tarGz: string, dir: string): void {
  const tar = gunzipSync(readFileSync(tarGz))
  const root = resolve(dir)
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512)
    if (header.every((b) => b === 0)) break // the end-of-archive blocks
    const field = (from: number, length: number) => {
      const text = header.toString('latin1', from, from + length)
      const end = text.indexOf('\0')
      return end < 0 ? text : text.slice(0, end)
    }
    const prefix = field(257, 5) === 'ustar' ? field(345, 155) : ''
    const name = (prefix ? `${prefix}/` : '') + field(0, 100)
    const size = Number.parseInt(field(124, 12).trim() || '0', 8)
    const type = field(156, 1) || '0'
    const path = resolve(root, `./${name.replace(/^\/+/, '')}`)
    if (!Number.isFinite(size) || (path !== root && !path.startsWith(root + sep))) throw new Error(`the prepared database has a bad entry: ${name}`)
    at += 512
    // Private whatever the umask (issue 36 item 1): the folder holds the JWT secret and the VAPID keys.
    if (type === '5') mkdirSync(path, { recursive: true, mode: 0o700 })
    else if (type === '0') {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
      writeFileSync(path, tar.subarray(at, at + size), { mode: 0o600 })
    } else throw new Error(`the prepared database has an entry of type ${type}: ${name}`)
    at += Math.ceil(size / 512) * 512
  }
}

/**
 * `url` a postgres:// URL; otherwise `dataDir` for PGlite on disk, or neither for PGlite in memory. `from` (in memory
 * only): a data folder dumped by PGlite's dumpDataDir to start from instead of initialising PostgreSQL, which with the
 * migrations took 3-4 s a database (the tests open hundreds: test/server/helpers.ts); migrations it lacks still run.
 */
export async function openDatabase(options: { url?: string; dataDir?: string; max?: number; from?: Blob }): Promise<Database> {
  if (options.url) {
    const { default: postgres } = await import('postgres')
    const { drizzle } = await import('drizzle-orm/postgres-js')
    const { migrate } = await import('drizzle-orm/postgres-js/migrator')
    const max = options.max ?? 10
    const applicationName = applicationNameOf()
    const client = postgres(options.url, {
      max,
      onnotice: () => {},
      connect_timeout: CONNECT_TIMEOUT_SECONDS,
      // After a lost connection, the next attempts come 50 ms, 100 ms, ... at most 1 s apart, with jitter (postgres.js's
      // default grows to 20 s): a database back from a restart is used again within about a second (issue 27).
      backoff: (retries: number) => (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** retries, 1),
      connection: { application_name: applicationName },
    })
    const db = drizzle(client, { schema })
    await migrate(db, { migrationsFolder })
    return { db: db as unknown as Db, kind: 'postgres', poolMax: max, applicationName, close: () => client.end({ timeout: 5 }) }
  }
  const { PGlite } = await import('@electric-sql/pglite')
  const { drizzle } = await import('drizzle-orm/pglite')
  const { migrate } = await import('drizzle-orm/pglite/migrator')
  // Whether the folder is new is read before the lock file is written into it.
  const prepared = !!options.dataDir && isNewDataDir(options.dataDir) && existsSync(PREPARED_PGLITE)
  // One process at a time on a folder (data-dir-lock.ts): refused with what to do while another holds it.
  const release = options.dataDir ? lockDataDir(options.dataDir) : () => {}
  try {
    if (prepared && options.dataDir) unpackDataDir(PREPARED_PGLITE, options.dataDir)
    // PostgreSQL's default buffer pool (shared_buffers, 128 MB) is initialised at start, and was most of the first
    // start's peak resident memory (issue 15 item 6: ≤ 400 MB). 16 MB holds a campus's data many times over; a
    // page not in the pool is one read from the data folder, which the operating system caches anyway.
    const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`]
    const client = options.dataDir
      ? new PGlite(options.dataDir, { startParams })
      : new PGlite({ startParams, ...(options.from && { loadDataDir: options.from }) })
    const db = drizzle(client, { schema })
    await migrate(db, { migrationsFolder })
    // The files PGlite made under the process's umask, private too (issue 36 item 1); later ones are behind the 0700 folder.
    if (options.dataDir) keepPrivate(options.dataDir)
    return {
      db: db as unknown as Db,
      kind: 'pglite',
      poolMax: 1,
      dataDir: options.dataDir,
      async dumpDataDir() {
        // A checkpoint first, so the files need little write-ahead log replayed when a restore opens them; then the
        // folder is read inside a transaction of PGlite's own, which holds every other transaction of this process
        // off (PGlite runs one at a time): none is half done in the copy. Reads and writes wait for the copy (well
        // under a second for a campus's data: docs/deployment.md "Backups").
        await client.exec('CHECKPOINT')
        return client.transaction(async (tx) => {
          const rows = await tableRowCounts(async (text) => (await tx.query<Record<string, unknown>>(text)).rows)
          const dump = await client.dumpDataDir('gzip')
          return { tar: new Uint8Array(await dump.arrayBuffer()), rows }
        })
      },
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

/**
 * A new embedded database with every migration applied, dumped (PGlite's dumpDataDir): the build's prepared database
 * (scripts/prepare-db.ts, gzipped) and the server tests' starting copy (test/server/global-setup.ts, uncompressed).
 */
export async function dumpMigratedPglite(compression: 'gzip' | 'none'): Promise<Blob> {
  const { PGlite } = await import('@electric-sql/pglite')
  const { drizzle } = await import('drizzle-orm/pglite')
  const { migrate } = await import('drizzle-orm/pglite/migrator')
  const client = new PGlite()
  try {
    await migrate(drizzle(client), { migrationsFolder })
    return await client.dumpDataDir(compression)
  } finally {
    await client.close()
  }
}

export { schema }
