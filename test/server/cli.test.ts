// The operator command line of API.md: the commands as functions on a test database, then the real
// `tsx server/cli/index.ts` process on a PGlite folder, as an operator runs it.
import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CliError, runCommand } from '../../server/cli/commands.ts'
import { rotateRefreshToken } from '../../server/db/people/sessions.ts'
import { accessTokens, loadSecret } from '../../server/auth/tokens.ts'
import { schema, openDatabase, type Database } from '../../server/db/index.ts'
import { testDatabase } from './helpers.ts'

const { events, users } = schema
const root = fileURLToPath(new URL('../..', import.meta.url))

const FILE = {
  councils: [{ slug: 'csi', name: 'CSI-KJSCE', phone_number: '9820011223', email: 'csi@example.edu' }],
  events: [
    { slug: 'fest', name: 'Fest', dates: ['2026-11-25T10:00:00+05:30'], organizer: 'csi', state: 'UPCOMING' },
    { slug: 'talk', name: 'Talk', dates: ['2026-11-26T10:00:00+05:30'], organizer: 'csi', parent: 'fest' },
  ],
}

describe('cli commands', () => {
  let database: Database
  const tokens = accessTokens(new TextEncoder().encode('cli-test-secret'))
  const run = (...argv: string[]) => runCommand(argv, { db: database.db, tokens })
  const dir = mkdtempSync(join(tmpdir(), 'campus-cli-'))

  beforeAll(async () => {
    database = await testDatabase()
  })
  afterAll(() => database.close())

  it('import prints the id map and can be run again with the same result', async () => {
    const file = join(dir, 'catalogue.json')
    writeFileSync(file, JSON.stringify(FILE))
    const out = JSON.parse(await run('import', file))
    const rows = await database.db.select().from(events)
    const id = (slug: string) => rows.find((r) => r.slug === slug)!.id
    expect(out).toEqual({ councils: { csi: expect.any(Number) }, events: { fest: id('fest'), talk: id('talk') } })
    expect(JSON.parse(await run('import', file))).toEqual(out)
  })

  it('import refuses a missing file, bad JSON and an invalid catalogue with readable messages', async () => {
    await expect(run('import', join(dir, 'nope.json'))).rejects.toThrow(new CliError(`Cannot read ${join(dir, 'nope.json')}: no such file`))
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{"councils": [')
    await expect(run('import', bad)).rejects.toThrow(/is not valid JSON/)
    writeFileSync(bad, JSON.stringify({ events: [{ slug: 'x', name: 'X', dates: ['2026-11-25T10:00:00Z'], organizer: 'ghost' }] }))
    // The councils the operator may name are listed: the ones of the database here (the file has none).
    await expect(run('import', bad)).rejects.toThrow(
      '- events[0] "x".organizer: no council with slug "ghost" in the file or the database (valid council slugs: csi)',
    )
    await expect(run('import')).rejects.toThrow('Usage: npm run cli -- import <file.json>')
  })

  it('event:state moves an event and refuses unknown ids and states', async () => {
    const [fest] = await database.db.select().from(events).where(eq(events.slug, 'fest'))
    expect(JSON.parse(await run('event:state', String(fest.id), 'registration_open'))).toEqual({ id: fest.id, slug: 'fest', state: 'REGISTRATION_OPEN' })
    const [after] = await database.db.select().from(events).where(eq(events.id, fest.id))
    expect(after.state).toBe('REGISTRATION_OPEN')
    await expect(run('event:state', '99999', 'COMPLETED')).rejects.toThrow('No event with id 99999.')
    await expect(run('event:state', 'abc', 'COMPLETED')).rejects.toThrow('The event id must be a positive whole number, not "abc".')
    await expect(run('event:state', String(fest.id), 'LIVE')).rejects.toThrow(/Unknown state "LIVE": use one of DRAFT, UPCOMING, /)
    // API.md Part 2: DRAFT is a state like the others (students stop seeing the event).
    expect(JSON.parse(await run('event:state', String(fest.id), 'draft'))).toEqual({ id: fest.id, slug: 'fest', state: 'DRAFT' })
  })

  it('token creates the user once (issuer cli, subject the e-mail) and prints working tokens', async () => {
    const first = JSON.parse(await run('token', 'Load.Tester@Example.edu', '--name', 'Load Tester'))
    expect(Object.keys(first)).toEqual(['accessToken', 'refreshToken'])
    const [user] = await database.db
      .select()
      .from(users)
      .where(and(eq(users.issuer, 'cli'), eq(users.subject, 'load.tester@example.edu')))
    expect(user).toMatchObject({ email: 'load.tester@example.edu', name: 'Load Tester' })
    expect(await tokens.verify(first.accessToken)).toBe(user.id)
    const rotated = await rotateRefreshToken({ db: database.db, tokens }, first.refreshToken)
    expect(rotated).toMatchObject({ ok: true, userId: user.id })

    const second = JSON.parse(await run('token', 'load.tester@example.edu'))
    expect(await tokens.verify(second.accessToken)).toBe(user.id)
    const all = await database.db.select().from(users).where(eq(users.issuer, 'cli'))
    expect(all).toHaveLength(1)
    expect(all[0].name).toBe('Load Tester')
  })

  it('token refuses a non-address and a --name without value; unknown commands show the usage', async () => {
    await expect(run('token', 'not-an-email')).rejects.toThrow('"not-an-email" is not an e-mail address.')
    await expect(run('token', 'a@b.co', '--name')).rejects.toThrow(/--name needs a value/)
    await expect(run('frobnicate')).rejects.toThrow(/Unknown command "frobnicate"\.\nUsage: npm run cli -- <command>/)
  })
})

describe('cli process', () => {
  const exec = promisify(execFile)
  const dataDir = mkdtempSync(join(tmpdir(), 'campus-cli-data-'))
  const cli = (...args: string[]) =>
    exec(process.execPath, ['--import', 'tsx', 'server/cli/index.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', JWT_SECRET: '', NODE_ENV: 'development' },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err) => ({ code: err.code as number, stdout: err.stdout as string, stderr: err.stderr as string }),
    )

  it('imports into the PGlite database in DATA_DIR, prints a token the server accepts, and exits 1 on a mistake', async () => {
    const file = join(dataDir, 'catalogue.json')
    writeFileSync(file, JSON.stringify(FILE))
    const imported = await cli('import', file)
    expect(imported.code).toBe(0)
    expect(Object.keys(JSON.parse(imported.stdout).events)).toEqual(['fest', 'talk'])

    const token = await cli('token', 'ops@example.edu')
    expect(token.code).toBe(0)
    const { accessToken } = JSON.parse(token.stdout)
    // The server reads the same secret from DATA_DIR, so it accepts this token.
    const serverTokens = accessTokens(await loadSecret(undefined, dataDir))
    expect(await serverTokens.verify(accessToken)).toEqual(expect.any(Number))

    const wrong = await cli('event:state', '1', 'NOPE')
    expect(wrong.code).toBe(1)
    expect(wrong.stderr.trim()).toBe(
      'Unknown state "NOPE": use one of DRAFT, UPCOMING, REGISTRATION_OPEN, REGISTRATION_CLOSED, TICKET_OPEN, TICKET_CLOSED, ONGOING, COMPLETED.',
    )
    expect(wrong.stderr).not.toMatch(/at .*\.ts:\d+/) // no stack trace for an operator's mistake

    const db = await openDatabase({ dataDir })
    try {
      const rows = await db.db.select({ slug: events.slug }).from(events)
      expect(rows.map((r) => r.slug).sort()).toEqual(['fest', 'talk'])
    } finally {
      await db.close()
    }
    // Three processes, each opening PGlite: a generous bound on a loaded machine (60 s passed at load 17).
  }, 180_000)
})
