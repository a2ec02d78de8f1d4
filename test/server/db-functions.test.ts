// Issue 38 item 2: each database function has one readable home, server/db/functions/<name>.sql, the definition the
// database runs today. The migrations keep the history; these tests keep the two in step (scripts/db-functions.ts).
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../server/db/index.ts'
import { rowsOf } from '../../server/db/outcomes.ts'
import { definitionsIn, functionFiles, functionsOfMigrations, historyLine } from '../../scripts/db-functions.ts'
import { DB_KINDS, testDatabase } from './helpers.ts'

const files = functionFiles()
const migrations = functionsOfMigrations()

describe('server/db/functions/', () => {
  it('has a file for every function the migrations leave, and none for a function they drop or never made', () => {
    expect([...files.keys()].sort()).toEqual([...migrations.keys()].sort())
  })

  it.each([...migrations.keys()])('%s.sql is the newest migration’s definition, word for word', (name) => {
    const file = files.get(name)!
    const newest = migrations.get(name)!
    expect(file.definition.statement).toBe(newest.definition.statement)
    // The history line names every migration that defined it, so the newest one is found without searching.
    expect(file.migrations).toEqual(newest.migrations)
    expect(file.text).toContain(historyLine(newest.migrations))
  })

  it('finds a definition that differs from its file (the check can fail)', () => {
    const [name, file] = [...files.entries()][0]
    const changed = definitionsIn(file.definition.statement.replace('BEGIN', 'BEGIN\n  PERFORM 1;'))[0]
    expect(changed.name).toBe(name)
    expect(changed.statement).not.toBe(migrations.get(name)!.definition.statement)
  })
})

describe.each(DB_KINDS)('a migrated database (%s)', (kind) => {
  let database: Database
  beforeAll(async () => {
    database = await testDatabase(kind)
  })
  afterAll(() => database.close())

  it('runs exactly the functions of server/db/functions/, each with its file’s body', async () => {
    const rows = rowsOf(
      await database.db.execute(sql`
        SELECT p.proname AS name, p.prosrc AS body FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public'
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
        ORDER BY p.proname`),
    ) as { name: string; body: string }[]
    expect(rows.map((r) => r.name)).toEqual([...files.keys()].sort())
    for (const row of rows) expect(row.body, row.name).toBe(files.get(row.name)!.definition.body)
  })
})
