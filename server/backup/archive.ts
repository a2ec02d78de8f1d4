// Backups of the embedded database (issue 27 item 2): one tar file holding PGlite's own dump of the data folder
// (dumpDataDir, taken between transactions: server/db/index.ts), the uploaded images, and a manifest with the
// release's newest migration and every table's row count. A restore unpacks it into a NEW data folder (never over
// a live one), puts the images where UPLOADS_DIR says, opens the database (applying the migrations of this release
// if the backup is older) and checks every table's row count against the manifest. PostgreSQL is backed up with
// pg_dump instead (docs/deployment.md "Backups"). Written by the running server (plugins/control.ts, for
// `npm run cli -- backup` while it runs) or by the command line itself when no server holds the folder.
import { createHash } from 'node:crypto'
import { createWriteStream, existsSync } from 'node:fs'
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { pipeline } from 'node:stream/promises'
import * as tar from 'tar'
import { LOCK_FILE } from '../db/data-dir-lock.ts'
import { keepPrivate } from '../db/data-dir-private.ts'
import { type Database, openDatabase, unpackDataDir } from '../db/index.ts'
import { databaseRowCounts, LATEST_MIGRATION } from '../db/ops.ts'
import { isSealed, SealBroken, sealing, unseal } from './sealed.ts'

export const BACKUP_FORMAT = 'campus-events-backup'
export const BACKUP_VERSION = 1
export const MANIFEST_FILE = 'campus-events-backup.json'
export const DATABASE_FILE = 'pglite-data.tar.gz'
/** The running server's control address (plugins/control.ts), in the data folder: left out of a restore. */
export const CONTROL_FILE = 'campus-events-control.json'

export interface BackupManifest {
  format: typeof BACKUP_FORMAT
  version: number
  created_at: string
  database: 'pglite'
  /** The newest migration of the release that wrote it (server/db/ops.ts LATEST_MIGRATION). */
  migration: number
  database_file: { name: string; bytes: number; sha256: string }
  /** Every table's rows when the dump was taken (the same transaction-free moment). */
  tables: Record<string, number>
  /** The images: inside the data folder's dump (UPLOADS_DIR under DATA_DIR, the default) or beside it, under uploads/. */
  uploads: { in: 'data-folder' | 'archive'; files: number; bytes: number }
}

/** A restore refused or failed for a reason an operator can act on: printed as is. */
export class BackupError extends Error {}

const inside = (child: string, parent: string) => {
  const rel = relative(resolve(parent), resolve(child))
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && rel !== '..')
}

async function filesIn(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0
  let bytes = 0
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])
  for (const e of entries) {
    if (!e.isFile()) continue
    files += 1
    bytes += (await stat(join(e.parentPath, e.name))).size
  }
  return { files, bytes }
}

/**
 * Writes a backup of `database` (PGlite, on disk) and the images in `uploadsDir` to `file` (a tar archive), through
 * a temporary file renamed at the end, so `file` is never half written. The file is 0600 whatever the umask (it holds
 * the JWT secret and the VAPID keys: issue 36 item 1), and sealed with `passphrase` when one is given
 * (BACKUP_PASSPHRASE: server/backup/sealed.ts). Answers the manifest.
 */
export async function writeBackup(
  database: Database,
  { uploadsDir, file, passphrase }: { uploadsDir: string; file: string; passphrase?: string },
): Promise<BackupManifest> {
  if (!database.dumpDataDir || !database.dataDir)
    throw new BackupError('Only the embedded database in a data folder is backed up this way; PostgreSQL: pg_dump (docs/deployment.md "Backups").')
  const staging = await mkdtemp(join(tmpdir(), 'campus-backup-'))
  try {
    const { tar: dump, rows } = await database.dumpDataDir()
    await writeFile(join(staging, DATABASE_FILE), dump)
    const uploadsInData = inside(uploadsDir, database.dataDir)
    const images = await filesIn(uploadsDir)
    // Images outside the data folder go in beside the dump (a link followed when the archive is written).
    const withUploads = !uploadsInData && existsSync(uploadsDir)
    if (withUploads) await symlink(resolve(uploadsDir), join(staging, 'uploads'), 'dir')
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      created_at: new Date().toISOString(),
      database: 'pglite',
      migration: LATEST_MIGRATION,
      database_file: { name: DATABASE_FILE, bytes: dump.byteLength, sha256: createHash('sha256').update(dump).digest('hex') },
      tables: rows,
      uploads: { in: uploadsInData ? 'data-folder' : 'archive', ...images },
    }
    await writeFile(join(staging, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`)
    await mkdir(dirname(resolve(file)), { recursive: true })
    const partial = `${file}.partial`
    // A partial file left by a crash may have other permissions: the new one is created 0600.
    await rm(partial, { force: true })
    const archive = tar.create({ cwd: staging, follow: true, portable: true }, [MANIFEST_FILE, DATABASE_FILE, ...(withUploads ? ['uploads'] : [])])
    const out = createWriteStream(partial, { mode: 0o600 })
    await (passphrase ? pipeline(archive, await sealing(passphrase), out) : pipeline(archive, out))
    await chmod(partial, 0o600)
    await rename(partial, file)
    return manifest
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

/** Reads the manifest of a backup file without unpacking the rest (a sealed one is opened into a temporary file first). */
export async function readManifest(file: string, passphrase?: string): Promise<BackupManifest> {
  const opened = await openedBackup(file, passphrase)
  try {
    return await manifestOf(opened.file)
  } finally {
    await opened.done()
  }
}

async function manifestOf(file: string): Promise<BackupManifest> {
  let text = ''
  await tar.list({
    file,
    filter: (path) => path === MANIFEST_FILE,
    onReadEntry: (entry) => {
      entry.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8')
      })
    },
  })
  return parseManifest(text, file)
}

function parseManifest(text: string, file: string): BackupManifest {
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(text)
  } catch {
    throw new BackupError(`${file} is not a backup of this app (no ${MANIFEST_FILE} inside).`)
  }
  if (manifest?.format !== BACKUP_FORMAT) throw new BackupError(`${file} is not a backup of this app.`)
  if (manifest.version > BACKUP_VERSION)
    throw new BackupError(`${file} was written by a newer release (backup format ${manifest.version}): restore it with that release.`)
  return manifest
}

export interface RestoreResult {
  dataDir: string
  uploadsDir: string
  created_at: string
  /** Every table's rows: in the backup, and in the restored database. */
  tables: Record<string, { backup: number; restored: number }>
  images: number
  /** Whether the backup came from an older release (its migrations were applied on opening). */
  migrated: boolean
}

const isEmptyOrMissing = async (dir: string) => (await readdir(dir).catch(() => [])).length === 0

/**
 * Restores `file` into `dataDir`, which must be new (missing or empty), with the images into `uploadsDir`; then opens
 * the database (migrating it to this release) and checks each table's row count against the backup's manifest.
 */
export async function restoreBackup(
  file: string,
  { dataDir, uploadsDir, passphrase }: { dataDir: string; uploadsDir: string; passphrase?: string },
): Promise<RestoreResult> {
  if (!existsSync(file)) throw new BackupError(`${file}: no such file.`)
  if (!(await isEmptyOrMissing(dataDir)))
    throw new BackupError(
      `${dataDir} is not empty: a restore writes a new data folder and never over one in use. Choose a new folder (--data-dir), then point DATA_DIR at it.`,
    )
  const opened = await openedBackup(file, passphrase)
  const staging = await mkdtemp(join(tmpdir(), 'campus-restore-'))
  try {
    // Only files and folders are taken from the archive (node-tar keeps every path inside `staging`).
    await tar
      .extract({
        file: opened.file,
        cwd: staging,
        strict: true,
        filter: (_path, entry) => 'type' in entry && (entry.type === 'File' || entry.type === 'Directory'),
      })
      .catch((err) => {
        throw new BackupError(`${file} cannot be read as a backup: ${(err as Error).message}`)
      })
    const manifest = parseManifest(await readFile(join(staging, MANIFEST_FILE), 'utf8').catch(() => ''), file)
    const dump = await readFile(join(staging, DATABASE_FILE)).catch(() => null)
    if (!dump || createHash('sha256').update(dump).digest('hex') !== manifest.database_file.sha256)
      throw new BackupError(`${file} is damaged: its database does not match the checksum written with it.`)
    if (manifest.migration > LATEST_MIGRATION)
      throw new BackupError(`${file} was written by a newer release (its database has migrations this release does not know): restore it with that release.`)
    await mkdir(dataDir, { recursive: true })
    unpackDataDir(join(staging, DATABASE_FILE), dataDir)
    // The running server's lock and control address came along in the dump: they belong to that process.
    await rm(join(dataDir, LOCK_FILE), { force: true })
    await rm(join(dataDir, CONTROL_FILE), { force: true })
    const defaultUploads = join(dataDir, 'uploads')
    if (manifest.uploads.in === 'archive') {
      if (existsSync(join(staging, 'uploads'))) await cp(join(staging, 'uploads'), uploadsDir, { recursive: true, force: false })
    } else if (resolve(uploadsDir) !== resolve(defaultUploads) && existsSync(defaultUploads)) {
      // Backed up inside the data folder, restored where this configuration keeps its images.
      await cp(defaultUploads, uploadsDir, { recursive: true, force: false })
      await rm(defaultUploads, { recursive: true, force: true })
    }
    // The new folder private before it is opened (issue 36 item 1): its jwt-secret and vapid.json came with the dump.
    keepPrivate(dataDir)
    const database = await openDatabase({ dataDir })
    let restored: Record<string, number>
    try {
      restored = await databaseRowCounts(database.db)
    } finally {
      await database.close()
    }
    const migrated = manifest.migration < LATEST_MIGRATION
    const tables = Object.fromEntries(Object.entries(manifest.tables).map(([t, n]) => [t, { backup: n, restored: restored[t] ?? 0 }]))
    const wrong = Object.entries(tables).filter(([, c]) => c.backup !== c.restored)
    if (!migrated && wrong.length > 0)
      throw new BackupError(
        `The restored database differs from the backup: ${wrong.map(([t, c]) => `${t} ${c.restored} rows, backup ${c.backup}`).join('; ')}.`,
      )
    return {
      dataDir: resolve(dataDir),
      uploadsDir: resolve(uploadsDir),
      created_at: manifest.created_at,
      tables,
      images: (await filesIn(uploadsDir)).files,
      migrated,
    }
  } finally {
    await rm(staging, { recursive: true, force: true })
    await opened.done()
  }
}

/**
 * The backup as a plain tar: the file itself, or, sealed, opened with the passphrase into a private temporary file
 * (removed by `done`). Refused in words an operator acts on: no passphrase for a sealed file, or the wrong one.
 */
async function openedBackup(file: string, passphrase: string | undefined): Promise<{ file: string; done(): Promise<void> }> {
  if (!existsSync(file)) throw new BackupError(`${file}: no such file.`)
  if (!(await isSealed(file))) return { file, done: async () => {} }
  if (!passphrase) throw new BackupError(`${file} is sealed with a passphrase: set BACKUP_PASSPHRASE to the one it was written with.`)
  const dir = await mkdtemp(join(tmpdir(), 'campus-unseal-'))
  const done = () => rm(dir, { recursive: true, force: true })
  try {
    await unseal(file, join(dir, 'backup.tar'), passphrase)
  } catch (err) {
    await done()
    if (err instanceof SealBroken) throw new BackupError(`The passphrase (BACKUP_PASSPHRASE) does not open ${file}, or the file was changed: nothing restored.`)
    throw err
  }
  return { file: join(dir, 'backup.tar'), done }
}
