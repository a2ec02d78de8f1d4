// Issue 9: `npm run db:generate` works again. The migrations after 0003 are hand-written SQL (functions, triggers,
// partial indexes drizzle-kit cannot express), so the last snapshot (meta/0009_snapshot.json) was rebuilt from
// schema.ts. This keeps the two in step: drizzle-kit, run against a copy of the migrations folder, must find
// nothing to generate; a column added to schema.ts without its migration (or the reverse in the snapshot) fails.
import { execFile } from 'node:child_process'
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'

const dir = mkdtempSync(join(tmpdir(), 'migrations-snapshot-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('the drizzle snapshot', () => {
  it('matches schema.ts: drizzle-kit generate finds no change', async () => {
    const out = join(dir, 'migrations')
    cpSync('server/db/migrations', out, { recursive: true })
    const before = readdirSync(out).sort()
    const config = join(dir, 'drizzle.config.mjs')
    // drizzle-kit reads `out` relative to the working folder: run it in the copy's.
    writeFileSync(config, `export default ${JSON.stringify({ dialect: 'postgresql', schema: resolve('server/db/schema.ts'), out: 'migrations' })}\n`)
    const { stdout, stderr } = await promisify(execFile)(resolve('node_modules/.bin/drizzle-kit'), ['generate', '--config', config], {
      cwd: dir,
      timeout: 60_000,
    })
    expect(stdout + stderr).toContain('No schema changes')
    expect(readdirSync(out).sort()).toEqual(before)
  }, 90_000)
})
