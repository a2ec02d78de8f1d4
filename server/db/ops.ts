// What an operator asks of the database (issue 27): whether it answers with every migration of this release applied
// (GET /health/ready), and the figures read at each scrape of /metrics: the push outbox's depth and this instance's
// connections to PostgreSQL by state (the pool). Every read here is a single short statement.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import type { Database, Db } from './index.ts'
import { rowsOf } from './outcomes.ts'
import { tableRowCounts } from './row-counts.ts'

/**
 * The newest migration this release carries: Drizzle records each applied migration's `when` (from the journal) as
 * `created_at` in drizzle.__drizzle_migrations, so the database has them all when its newest is at least this one.
 */
export const LATEST_MIGRATION: number = Math.max(
  ...(
    JSON.parse(readFileSync(fileURLToPath(new URL('./migrations/meta/_journal.json', import.meta.url)), 'utf8')) as {
      entries: { when: number }[]
    }
  ).entries.map((e) => e.when),
)

export interface DatabaseGauges {
  /** Notifications waiting in push_outbox, and those of them already due. */
  outbox: number
  outboxDue: number
  /** PostgreSQL: this instance's connections by pg_stat_activity state (active, idle, idle in transaction...). */
  connections: Record<string, number> | null
}

const num = (v: unknown) => Number(v ?? 0)

export function opsRepository(db: Db, database: Pick<Database, 'kind' | 'applicationName'>) {
  return {
    /** Whether every migration of this release is applied (the newest recorded is at least LATEST_MIGRATION). */
    async migrationsApplied(): Promise<boolean> {
      const [row] = rowsOf(await db.execute(sql`SELECT max(created_at) AS last FROM drizzle.__drizzle_migrations`)) as { last: unknown }[]
      return num(row?.last) >= LATEST_MIGRATION
    },

    /** The scrape's database figures, in one round trip on PostgreSQL and one call on PGlite. */
    async gauges(): Promise<DatabaseGauges> {
      const own = database.kind === 'postgres' && database.applicationName
      const [row] = rowsOf(
        await db.execute(sql`
          SELECT
            (SELECT count(*) FROM push_outbox) AS outbox,
            (SELECT count(*) FROM push_outbox WHERE not_before <= now()) AS outbox_due,
            ${
              own
                ? sql`(SELECT coalesce(json_object_agg(state, n), '{}'::json) FROM (
                    SELECT coalesce(state, 'unknown') AS state, count(*) AS n FROM pg_stat_activity
                    WHERE application_name = ${database.applicationName} GROUP BY 1) s)`
                : sql`NULL`
            } AS connections`),
      ) as { outbox: unknown; outbox_due: unknown; connections: unknown }[]
      const raw = typeof row.connections === 'string' ? JSON.parse(row.connections) : row.connections
      const connections = raw && typeof raw === 'object' ? Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, num(v)])) : null
      return { outbox: num(row.outbox), outboxDue: num(row.outbox_due), connections }
    },
  }
}

export type OpsRepository = ReturnType<typeof opsRepository>

/** Every table's row count through Drizzle on an open database (a restore's check against its backup's manifest). */
export const databaseRowCounts = (db: Db) => tableRowCounts(async (text) => rowsOf(await db.execute(sql.raw(text))) as Record<string, unknown>[])
