// Backups (issue 27 item 2). The embedded database: `npm run cli -- backup <file>` while the real server runs on
// the folder (the server writes it: plugins/control.ts), during a stream of writes and at rest, and without a server;
// `restore <file>` into a new folder; every table's rows equal to the source's, the uploaded images with them.
// PostgreSQL: the pg_dump / pg_restore commands of docs/deployment.md "Backups", run as written, rows compared.
import { execFile } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { eq, sql } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { accessTokens } from '../../server/auth/tokens.ts'
import { CONTROL_FILE, MANIFEST_FILE, readManifest } from '../../server/backup/archive.ts'
import { POSTGRES_BACKUP } from '../../server/cli/backup.ts'
import { LOCK_FILE } from '../../server/db/data-dir-lock.ts'
import { seedDemoData } from '../../server/db/demo.ts'
import { openDatabase, schema } from '../../server/db/index.ts'
import { rowsOf } from '../../server/db/outcomes.ts'
import { tableHashes } from '../fixtures/table-hashes.ts'
import { testDatabase } from './helpers.ts'
import { type Server, startServer } from './spawned-server.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const exec = promisify(execFile)
const JWT_SECRET = randomBytes(32).toString('base64url')
const uptime = () =>
  `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')}`

/** `npm run cli -- <args>` as an operator runs it (from source, through tsx), on `env`. */
async function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['--import', 'tsx', 'server/cli/index.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', JWT_SECRET, ...env },
      timeout: 120_000,
    })
    return { code: 0, out: stdout, err: stderr }
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof e.code === 'number' ? e.code : 1, out: e.stdout ?? '', err: e.stderr ?? String(err) }
  }
}

/** Every file of a folder (recursively) with its bytes' sha256: two folders with equal maps hold the same files. */
function filesOf(dir: string): Record<string, string> {
  if (!existsSync(dir)) return {}
  const out: Record<string, string> = {}
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue
    const path = join(e.parentPath, e.name)
    out[path.slice(dir.length + 1)] = `${statSync(path).size}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`
  }
  return out
}

async function hashesOfFolder(dataDir: string) {
  const database = await openDatabase({ dataDir })
  try {
    return await tableHashes(database.db)
  } finally {
    await database.close()
  }
}

describe('backup and restore of the embedded database', () => {
  const work = mkdtempSync(join(tmpdir(), 'campus-backup-test-'))
  const dataDir = join(work, 'data')
  let server: Server | null = null
  let admin = ''
  const students: { id: number; bearer: string }[] = []
  let ticketed = 0

  beforeAll(async () => {
    // The folder as a running campus has it: demo data, an admin (who may upload images), and 2,000 students
    // registered for a ticketed event with room for all of them (their claims are the writes during the backup).
    const database = await openDatabase({ dataDir })
    try {
      await seedDemoData(database.db)
      const sign = accessTokens(new TextEncoder().encode(JWT_SECRET)).sign
      const [a] = await database.db
        .insert(schema.users)
        .values({ issuer: 'test', subject: 'admin', email: 'admin@example.edu', name: 'Admin', isAdmin: true })
        .returning()
      admin = `Bearer ${await sign(a.id)}`
      const [event] = await database.db.select().from(schema.events).where(eq(schema.events.slug, 'garba-night'))
      ticketed = event.id
      await database.db.update(schema.events).set({ ticketCount: 5000 }).where(eq(schema.events.id, ticketed))
      for (let i = 0; i < 2000; i += 500) {
        const made = await database.db
          .insert(schema.users)
          .values(Array.from({ length: 500 }, (_, j) => ({ issuer: 'test', subject: `s${i + j}`, email: `s${i + j}@example.edu`, name: `Student ${i + j}` })))
          .returning({ id: schema.users.id })
        await database.db.insert(schema.participants).values(made.map((u) => ({ eventId: ticketed, userId: u.id })))
        students.push(...(await Promise.all(made.map(async (u) => ({ id: u.id, bearer: `Bearer ${await sign(u.id)}` })))))
      }
    } finally {
      await database.close()
    }
    server = await startServer(dataDir, { JWT_SECRET })
  }, 180_000)
  afterAll(async () => {
    await server?.stop()
  })

  it('while the server runs and students claim and give back tickets: the server writes the backup, and the restore is whole and consistent', async () => {
    // An image uploaded through the running server.
    const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: { r: 20, g: 120, b: 200 } } })
      .png()
      .toBuffer()
    const form = new FormData()
    form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'poster.png')
    const upload = await fetch(`${server!.url}/api/v1/org/p/upload`, { method: 'POST', headers: { authorization: admin }, body: form })
    expect(upload.status, await upload.clone().text()).toBe(200)
    const { url } = (await upload.json()) as { url: string }
    expect(url).toMatch(/^\/uploads\/[0-9a-f]{32}\.webp$/)

    // Claims and give-backs keep arriving from four clients while the backup is taken.
    let writing = true
    let during = 0
    let answered = 0
    let backupStarted = Number.POSITIVE_INFINITY
    const holds = new Set<number>()
    const writer = async (k: number) => {
      for (let i = k; writing; i = (i + 4) % students.length) {
        const s = students[i]
        const path = holds.has(s.id) ? 'release-ticket' : 'claim-ticket'
        const res = await fetch(`${server!.url}/api/v1/event/p/${path}`, {
          method: 'POST',
          headers: { authorization: s.bearer, 'content-type': 'application/json' },
          body: JSON.stringify({ event_id: ticketed }),
        })
        expect(res.status, await res.clone().text()).toBe(200)
        if (path === 'claim-ticket') holds.add(s.id)
        else holds.delete(s.id)
        answered += 1
        if (performance.now() > backupStarted && writing) during += 1
      }
    }
    const writers = Promise.all([0, 1, 2, 3].map(writer))
    // The backup starts once writes are flowing: eight answered (it waited a fixed 300 ms for them).
    await vi.waitFor(() => expect(answered).toBeGreaterThanOrEqual(8), { timeout: 30_000, interval: 20 })
    const file = join(work, 'during-writes.tar')
    backupStarted = performance.now()
    const backup = await cli({ DATA_DIR: dataDir }, 'backup', file)
    const seconds = (performance.now() - backupStarted) / 1000
    writing = false
    await writers
    expect(backup.code, backup.err).toBe(0)
    const summary = JSON.parse(backup.out)
    expect(summary.written_by).toBe('the running server')
    expect(summary.images).toBe(2) // the details and the card width of the one upload
    // The writes went on while the command ran (its dump inside that time).
    expect(during).toBeGreaterThan(0)

    const restored = join(work, 'restored-during-writes')
    const restore = await cli({ DATA_DIR: join(work, 'unused') }, 'restore', file, '--data-dir', restored)
    expect(restore.code, restore.err).toBe(0)
    const result = JSON.parse(restore.out)
    // Row counts are checked by the restore itself against the manifest written in the dump's transaction.
    for (const [table, counts] of Object.entries(result.tables as Record<string, { backup: number; restored: number }>))
      expect(counts.restored, table).toBe(counts.backup)
    expect(result.images).toBe(2)
    expect(existsSync(join(restored, 'uploads', url.slice('/uploads/'.length)))).toBe(true)
    expect(existsSync(join(restored, LOCK_FILE))).toBe(false)
    expect(existsSync(join(restored, CONTROL_FILE))).toBe(false)
    // Consistent: no half of a registration, and every ticket counter equals its holders.
    const database = await openDatabase({ dataDir: restored })
    try {
      const wrong = rowsOf(
        await database.db.execute(
          sql`SELECT e.id FROM events e WHERE e.tickets_sold <> (SELECT count(*) FROM participants p WHERE p.event_id = e.id AND p.ticket_collected)`,
        ),
      )
      expect(wrong).toEqual([])
      const [{ n }] = rowsOf(await database.db.execute(sql`SELECT tickets_sold AS n FROM events WHERE id = ${ticketed}`)) as { n: number }[]
      console.log(
        `backup during writes: ${during} claims and give-backs answered during the ${seconds.toFixed(1)} s of \`npm run cli -- backup\` (${uptime()}); the restored event has ${n} tickets held, equal to its holders; tables: ${JSON.stringify(Object.fromEntries(Object.entries(result.tables as Record<string, { restored: number }>).map(([t, c]) => [t, c.restored])))}`,
      )
    } finally {
      await database.close()
    }
  }, 240_000)

  it('at rest, the server running: the restored folder holds every table’s rows and every image of the source', async () => {
    const file = join(work, 'at-rest.tar')
    const backup = await cli({ DATA_DIR: dataDir }, 'backup', file)
    expect(backup.code, backup.err).toBe(0)
    expect(JSON.parse(backup.out).written_by).toBe('the running server')
    expect((await readManifest(file)).database).toBe('pglite')
    // Nothing is written after the backup: stop the server, then compare its folder with the restored one.
    expect(await server!.stop()).toBe(0)
    server = null
    const restored = join(work, 'restored-at-rest')
    const restore = await cli({ DATA_DIR: restored }, 'restore', file)
    expect(restore.code, restore.err).toBe(0)
    const source = await hashesOfFolder(dataDir)
    expect(Object.keys(source).length).toBeGreaterThan(15)
    expect(await hashesOfFolder(restored)).toEqual(source)
    expect(filesOf(join(restored, 'uploads'))).toEqual(filesOf(join(dataDir, 'uploads')))
    console.log(
      `backup at rest: ${statSync(file).size} bytes; every table equal: ${Object.entries(source)
        .map(([t, h]) => `${t} ${h.split(':')[0]}`)
        .join(', ')}`,
    )
  }, 240_000)

  it('without a server: the command line writes the backup itself; images outside the data folder go along', async () => {
    if (server) expect(await server.stop()).toBe(0)
    server = null
    const uploadsDir = join(work, 'images-elsewhere')
    mkdirSync(uploadsDir, { recursive: true })
    writeFileSync(join(uploadsDir, `${'a'.repeat(32)}.webp`), randomBytes(2048))
    const file = join(work, 'offline.tar')
    const backup = await cli({ DATA_DIR: dataDir, UPLOADS_DIR: uploadsDir }, 'backup', file)
    expect(backup.code, backup.err).toBe(0)
    expect(JSON.parse(backup.out).written_by).toBe('the command line (no server was running)')
    const manifest = await readManifest(file)
    expect(manifest.uploads).toEqual({ in: 'archive', files: 1, bytes: 2048 })
    const restored = join(work, 'restored-offline')
    const restoredImages = join(work, 'restored-images')
    const restore = await cli({ DATA_DIR: restored, UPLOADS_DIR: restoredImages }, 'restore', file)
    expect(restore.code, restore.err).toBe(0)
    expect(await hashesOfFolder(restored)).toEqual(await hashesOfFolder(dataDir))
    expect(filesOf(restoredImages)).toEqual(filesOf(uploadsDir))
  }, 240_000)

  it('refuses: a restore over a folder in use or not empty, a damaged file, a file that is no backup; PostgreSQL points to pg_dump', async () => {
    const file = join(work, 'refusals.tar')
    expect((await cli({ DATA_DIR: dataDir }, 'backup', file)).code).toBe(0)
    const over = await cli({ DATA_DIR: dataDir }, 'restore', file)
    expect(over.code).toBe(1)
    expect(over.err).toContain(`${dataDir} is not empty: a restore writes a new data folder`)

    const damaged = join(work, 'damaged.tar')
    const bytes = readFileSync(file)
    // Flip bytes inside the database part (after the manifest's header and body).
    const at = bytes.indexOf(Buffer.from('pglite-data.tar.gz')) + 4096
    for (let i = 0; i < 64; i++) bytes[at + i] ^= 0xff
    writeFileSync(damaged, bytes)
    const bad = await cli({}, 'restore', damaged, '--data-dir', join(work, 'never-1'))
    expect(bad.code).toBe(1)
    expect(bad.err).toMatch(/is damaged|cannot be read as a backup/)

    const notBackup = join(work, 'not-a-backup.tar')
    writeFileSync(notBackup, 'hello')
    const none = await cli({}, 'restore', notBackup, '--data-dir', join(work, 'never-2'))
    expect(none.code).toBe(1)
    expect(none.err).toMatch(/cannot be read as a backup|is not a backup of this app/)

    const pg = await cli({ DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' }, 'backup', join(work, 'pg.tar'))
    expect(pg.code).toBe(1)
    expect(pg.err.trim()).toBe(POSTGRES_BACKUP)
    expect(MANIFEST_FILE).toBe('campus-events-backup.json')
  }, 120_000)
})

/** The fenced ```sh block of docs/deployment.md that follows `marker`, as its lines. */
function docBlock(marker: string): string {
  const doc = readFileSync(join(root, 'docs/deployment.md'), 'utf8')
  const at = doc.indexOf(marker)
  if (at < 0) throw new Error(`docs/deployment.md has no "${marker}"`)
  const open = doc.indexOf('```sh\n', at)
  return doc.slice(open + 6, doc.indexOf('\n```', open + 6))
}

describe.runIf(process.env.TEST_DATABASE_URL)('backup and restore on PostgreSQL: the commands of docs/deployment.md', () => {
  it('pg_dump and pg_restore as the docs write them: every table’s rows equal, the images with them', async () => {
    const source = await testDatabase('postgres')
    const target = await testDatabase('postgres')
    const work = mkdtempSync(join(tmpdir(), 'campus-pg-backup-'))
    try {
      await seedDemoData(source.db)
      // A claim and a registration on top of the demo, so the triggers' counters are in the dump too.
      const [event] = await source.db.select().from(schema.events).where(eq(schema.events.slug, 'garba-night'))
      const [u] = await source.db.insert(schema.users).values({ issuer: 'test', subject: 'pg', email: 'pg@example.edu', name: 'PG' }).returning()
      await source.db
        .insert(schema.participants)
        .values({ eventId: event.id, userId: u.id, ticketCollected: true, ticketCode: '1234567812345678', ticketCollectedAt: new Date() })
      const uploads = join(work, 'uploads')
      mkdirSync(uploads)
      writeFileSync(join(uploads, `${'b'.repeat(32)}.webp`), randomBytes(1500))
      const restoredUploads = join(work, 'restored-uploads')
      // The target database is empty: no migrations, no tables (pg_restore brings them all).
      await (target.db as any).$client.unsafe('DROP SCHEMA drizzle CASCADE; DROP SCHEMA public CASCADE; CREATE SCHEMA public;')
      const env = { ...process.env, DATABASE_URL: source.url, UPLOADS_DIR: uploads, BACKUP_DIR: work }
      await exec('bash', ['-euo', 'pipefail', '-c', docBlock('<!-- backup: postgres -->')], { env, cwd: work })
      await exec('bash', ['-euo', 'pipefail', '-c', docBlock('<!-- restore: postgres -->')], {
        env: { ...env, DATABASE_URL: target.url, UPLOADS_DIR: restoredUploads },
        cwd: work,
      })
      const before = await tableHashes(source.db)
      expect(Object.keys(before).length).toBeGreaterThan(15)
      expect(await tableHashes(target.db)).toEqual(before)
      expect(filesOf(restoredUploads)).toEqual(filesOf(uploads))
      // The restored database is one this release runs on: opening it migrates nothing and serves.
      const reopened = await openDatabase({ url: target.url, max: 1 })
      await reopened.close()
      expect(await tableHashes(target.db)).toEqual(before)
      console.log(
        `PostgreSQL round trip: every table equal: ${Object.entries(before)
          .map(([t, h]) => `${t} ${h.split(':')[0]}`)
          .join(', ')}`,
      )
    } finally {
      await source.close()
      await target.close()
    }
  }, 180_000)
})
