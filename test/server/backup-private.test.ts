// Issue 36 item 1: a backup gave away the keys. The archive was written 0644 under the usual umask, and inside it are
// jwt-secret and vapid.json, so whoever could read it could sign an admin's token; restore wrote jwt-secret 0644; the
// PGlite folder and its WAL were world-readable. Now: backups 0600 whatever the umask, the data folder 0700 and its
// files 0600 at start and at restore, and BACKUP_PASSPHRASE seals the archive (AES-256-GCM), refused when wrong.
// Through the operator's command line, as run by hand (umask 000: the worst case).
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { restoreBackup } from '../../server/backup/archive.ts'
import { openDatabase } from '../../server/db/index.ts'
import { tableHashes } from '../fixtures/table-hashes.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const exec = promisify(execFile)

/** `npm run cli -- <args>` under `umask 000`, with the environment given (no JWT_SECRET: the data folder's own). */
async function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  try {
    const command = `umask 000 && exec "${process.execPath}" --import tsx server/cli/index.ts ${args.map((a) => `'${a}'`).join(' ')}`
    const { stdout, stderr } = await exec('sh', ['-c', command], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', JWT_SECRET: '', BACKUP_PASSPHRASE: '', NODE_ENV: 'test', ...env },
      timeout: 120_000,
    })
    return { code: 0, out: stdout, err: stderr }
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof e.code === 'number' ? e.code : 1, out: e.stdout ?? '', err: e.stderr ?? String(err) }
  }
}

const mode = (path: string) => statSync(path).mode & 0o777

/** Every path of a folder (itself included) whose permissions let anyone but the owner in. */
function notPrivate(dir: string): string[] {
  const open: string[] = []
  if (mode(dir) !== 0o700) open.push(`${dir} ${mode(dir).toString(8)}`)
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(e.parentPath, e.name)
    const want = e.isDirectory() ? 0o700 : 0o600
    if (!e.isSymbolicLink() && mode(path) !== want) open.push(`${path.slice(dir.length)} ${mode(path).toString(8)}`)
  }
  return open
}

async function hashesOf(dataDir: string) {
  const database = await openDatabase({ dataDir })
  try {
    return await tableHashes(database.db)
  } finally {
    await database.close()
  }
}

let work: string
let dataDir: string
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'backup-private-'))
  dataDir = join(work, 'data')
  // A data folder made by the command line under umask 000: the database, and the JWT secret it generates.
  const made = await cli({ DATA_DIR: dataDir }, 'token', 'asha@college.edu', '--name', 'Asha')
  expect(made.code, made.err).toBe(0)
}, 180_000)
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('backups and the data folder are private (issue 36 item 1)', () => {
  it('the data folder is 0700 with its files 0600 after the command line opened it, umask 000 notwithstanding', () => {
    expect(readdirSync(dataDir)).toContain('jwt-secret')
    expect(notPrivate(dataDir)).toEqual([])
  })

  it('a backup is 0600, and its restore is a private folder whose jwt-secret is the source’s, 0600', async () => {
    const file = join(work, 'plain.tar')
    const backup = await cli({ DATA_DIR: dataDir }, 'backup', file)
    expect(backup.code, backup.err).toBe(0)
    expect(mode(file)).toBe(0o600)
    const restored = join(work, 'restored-plain')
    const restore = await cli({ DATA_DIR: restored }, 'restore', file)
    expect(restore.code, restore.err).toBe(0)
    expect(notPrivate(restored)).toEqual([])
    expect(mode(join(restored, 'jwt-secret'))).toBe(0o600)
    expect(readFileSync(join(restored, 'jwt-secret'), 'utf8')).toBe(readFileSync(join(dataDir, 'jwt-secret'), 'utf8'))
  }, 180_000)

  it('BACKUP_PASSPHRASE seals the backup: no secret readable in it; restore refuses without it, with a wrong one, and a changed byte', async () => {
    const passphrase = 'correct horse battery staple'
    const file = join(work, 'sealed.tar')
    const backup = await cli({ DATA_DIR: dataDir, BACKUP_PASSPHRASE: passphrase }, 'backup', file)
    expect(backup.code, backup.err).toBe(0)
    expect(mode(file)).toBe(0o600)
    const bytes = readFileSync(file)
    const secret = readFileSync(join(dataDir, 'jwt-secret'))
    expect(bytes.includes(secret)).toBe(false)
    expect(bytes.includes(Buffer.from('campus-events-backup.json'))).toBe(false)

    // The refusals, by the function the command runs (a process each would add seconds, not checks).
    const restoreInto = (into: string, from = file, phrase?: string) =>
      restoreBackup(from, { dataDir: join(work, into), uploadsDir: join(work, into, 'uploads'), passphrase: phrase })
    await expect(restoreInto('never-1')).rejects.toThrow('is sealed with a passphrase: set BACKUP_PASSPHRASE to the one it was written with.')
    await expect(restoreInto('never-2', file, 'Correct horse battery staple')).rejects.toThrow('The passphrase (BACKUP_PASSPHRASE) does not open')
    const changed = Buffer.from(bytes)
    changed[Math.floor(changed.length / 2)] ^= 0x01
    writeFileSync(join(work, 'changed.tar'), changed)
    await expect(restoreInto('never-3', join(work, 'changed.tar'), passphrase)).rejects.toThrow('The passphrase (BACKUP_PASSPHRASE) does not open')
    for (const never of ['never-1', 'never-2', 'never-3']) expect(readdirSync(work)).not.toContain(never)

    const restored = join(work, 'restored-sealed')
    const restore = await cli({ DATA_DIR: restored, BACKUP_PASSPHRASE: passphrase }, 'restore', file)
    expect(restore.code, restore.err).toBe(0)
    expect(notPrivate(restored)).toEqual([])
    expect(await hashesOf(restored)).toEqual(await hashesOf(dataDir))
  }, 240_000)
})
