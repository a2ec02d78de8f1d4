// Before the server tests: the migrated empty embedded database, dumped once for the whole run (each test's PGlite starts
// from a copy of it: test/server/helpers.ts). And it says loudly, at the start and the end of a run, when the
// concurrency suites could not run on PostgreSQL (issue 23 item 6): without TEST_DATABASE_URL they run on PGlite only,
// which runs statements one at a time, so a race there proves nothing.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { dumpMigratedPglite, openDatabase } from '../../server/db/index.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding the migrated empty embedded database (PGlite's dumpDataDir, uncompressed). */
    migratedPglite: string
    /** A migrated PostgreSQL database each test's database is copied from (CREATE DATABASE ... TEMPLATE); '' without TEST_DATABASE_URL. */
    migratedPostgres: string
  }
}

/** A migrated database on the PostgreSQL TEST_DATABASE_URL names, and how to drop it. */
async function migratedPostgres(adminUrl: string) {
  const { default: postgres } = await import('postgres')
  const name = `t_migrated_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  await admin.unsafe(`CREATE DATABASE ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  // Migrated, then closed: a database can be copied only while nobody is connected to it.
  await (await openDatabase({ url: url.toString(), max: 1 })).close()
  return {
    name,
    async drop() {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    },
  }
}

export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), 'campus-migrated-'))
  const file = join(dir, 'pglite.tar')
  writeFileSync(file, Buffer.from(await (await dumpMigratedPglite('none')).arrayBuffer()))
  project.provide('migratedPglite', file)
  const adminUrl = process.env.TEST_DATABASE_URL
  const template = adminUrl ? await migratedPostgres(adminUrl) : undefined
  project.provide('migratedPostgres', template?.name ?? '')
  const removeDump = () => rmSync(dir, { recursive: true, force: true })
  if (template)
    return async () => {
      removeDump()
      await template.drop()
    }
  const line = '='.repeat(100)
  const say = () =>
    console.warn(
      `\n${line}\nPOSTGRESQL SUITES SKIPPED: TEST_DATABASE_URL is not set, so the concurrency suites (claims, teams, waitlist, door,\n` +
        `fair draw, transfers, backups...) ran on PGlite alone, where nothing races. Run them where races happen:\n` +
        `  TEST_DATABASE_URL=postgres://root@127.0.0.1:5432/test npm run test:unit   (.ci/run does)\n${line}\n`,
    )
  say()
  // Again at the end, where it is read.
  return () => {
    removeDump()
    say()
  }
}
