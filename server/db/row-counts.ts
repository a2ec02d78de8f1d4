// Every table's row count, in two statements, through any driver's own call: a backup counts inside PGlite's
// transaction (server/db/index.ts), a restore through Drizzle (server/db/ops.ts databaseRowCounts).

/** Runs one SQL text and answers its rows (each driver's own call: a backup counts inside PGlite's transaction). */
export type RunSql = (text: string) => Promise<Record<string, unknown>[]>

/** The row count of every table of the app (schema public), in two statements. */
export async function tableRowCounts(run: RunSql): Promise<Record<string, number>> {
  const tables = (
    await run(`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`)
  ).map((r) => String(r.t))
  if (tables.length === 0) return {}
  const counts = await run(tables.map((t) => `SELECT '${t.replace(/'/g, "''")}' AS t, count(*) AS n FROM "${t.replace(/"/g, '""')}"`).join(' UNION ALL '))
  return Object.fromEntries(counts.map((r) => [String(r.t), Number(r.n)]).sort(([a], [b]) => String(a).localeCompare(String(b))))
}
