// `npm run cli -- backup <file>` and `restore <file>` (issue 27): the embedded database's backups
// (server/backup/archive.ts). A backup is written by the running server when one holds the data folder (asked
// through its control address, plugins/control.ts), or by this process when none does. A restore writes a new data
// folder. On PostgreSQL both answer with the pg_dump / pg_restore commands of docs/deployment.md instead.
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { dirname, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { type BackupManifest, BackupError, restoreBackup, writeBackup } from '../backup/archive.ts'
import type { Config } from '../config.ts'
import { DataDirLocked } from '../db/data-dir-lock.ts'
import { openDatabase } from '../db/index.ts'
import { readControlFile } from '../plugins/control.ts'
import { uploadsDirOf } from '../plugins/uploads.ts'
import { CliError } from './commands.ts'

export const POSTGRES_BACKUP =
  'The database is PostgreSQL (DATABASE_URL): back it up with pg_dump and restore with pg_restore, and copy the images folder (UPLOADS_DIR) beside it; the commands are in docs/deployment.md "Backups".'

/** What a backup reports: where it went, how it was taken, and what it holds. */
function summary(file: string, manifest: BackupManifest, by: string) {
  return {
    file: resolve(file),
    written_by: by,
    created_at: manifest.created_at,
    tables: manifest.tables,
    rows: Object.values(manifest.tables).reduce((a, b) => a + b, 0),
    images: manifest.uploads.files,
    database_bytes: manifest.database_file.bytes,
  }
}

/** Asks the running server for the backup; null when no server answers at the address in the data folder. */
async function fromRunningServer(dataDir: string, file: string): Promise<BackupManifest | null> {
  const address = await readControlFile(dataDir)
  if (!address) return null
  const partial = `${file}.partial`
  return new Promise((resolvePromise, reject) => {
    const req = request(
      { host: '127.0.0.1', port: address.port, path: '/backup', method: 'POST', headers: { authorization: `Bearer ${address.token}` } },
      (res) => {
        if (res.statusCode !== 200) {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (d) => (text += d))
          res.on('end', () => {
            let message = text
            try {
              message = JSON.parse(text).message
            } catch {}
            reject(new CliError(`The running server (pid ${address.pid}) refused the backup: ${message}`))
          })
          return
        }
        const manifest = JSON.parse(Buffer.from(String(res.headers['x-backup-manifest'] ?? ''), 'base64url').toString('utf8')) as BackupManifest
        mkdir(dirname(resolve(file)), { recursive: true })
          // 0600 whatever the umask (issue 36 item 1): the backup holds the JWT secret and the VAPID keys.
          .then(() => rm(partial, { force: true }))
          .then(() => pipeline(res, createWriteStream(partial, { mode: 0o600 })))
          .then(() => rename(partial, file))
          .then(() => resolvePromise(manifest))
          .catch(async (err) => {
            await rm(partial, { force: true })
            reject(new CliError(`The backup from the running server was cut short: ${(err as Error).message}`))
          })
      },
    )
    // Nobody at that address: the server that wrote it is gone (killed); the folder is free to open here.
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNREFUSED' ? resolvePromise(null) : reject(err)))
    req.end()
  })
}

/**
 * Runs an operator command in the running server (issue 37 item 4), which holds the embedded database: what it
 * prints, or null when no server answers at the address in the data folder (the command then opens the folder).
 */
export async function commandInRunningServer(dataDir: string, argv: string[]): Promise<string | null> {
  const address = await readControlFile(dataDir)
  if (!address) return null
  const body = JSON.stringify({ argv })
  return new Promise((resolvePromise, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: address.port,
        path: '/command',
        method: 'POST',
        headers: { authorization: `Bearer ${address.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (d) => (text += d))
        res.on('end', () => {
          let answer: { output?: string; message?: string } = {}
          try {
            answer = JSON.parse(text)
          } catch {}
          if (res.statusCode === 200 && typeof answer.output === 'string') resolvePromise(answer.output)
          else reject(new CliError(answer.message ?? `The running server (pid ${address.pid}) answered ${res.statusCode}.`))
        })
      },
    )
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNREFUSED' ? resolvePromise(null) : reject(err)))
    req.end(body)
  })
}

export async function backupCommand(args: string[], config: Config): Promise<string> {
  if (args.length !== 1 || args[0].startsWith('-')) throw new CliError('Usage: npm run cli -- backup <file>')
  if (config.databaseUrl) throw new CliError(POSTGRES_BACKUP)
  const [file] = args
  const asked = await fromRunningServer(config.dataDir, file)
  if (asked) return JSON.stringify(summary(file, asked, 'the running server'), null, 2)
  let database: Awaited<ReturnType<typeof openDatabase>>
  try {
    database = await openDatabase({ dataDir: config.dataDir })
  } catch (err) {
    if (err instanceof DataDirLocked)
      throw new CliError(`${err.message}\nThat process did not answer at the control address in the folder: stop it, then run the backup again.`)
    throw err
  }
  try {
    const manifest = await writeBackup(database, { uploadsDir: uploadsDirOf(config), file, passphrase: config.backupPassphrase })
    return JSON.stringify(summary(file, manifest, 'the command line (no server was running)'), null, 2)
  } finally {
    await database.close()
  }
}

export async function restoreCommand(args: string[], config: Config): Promise<string> {
  const rest = [...args]
  const option = (name: string) => {
    const at = rest.indexOf(name)
    if (at < 0) return undefined
    const value = rest[at + 1]
    if (!value || value.startsWith('--')) throw new CliError(`${name} needs a folder`)
    rest.splice(at, 2)
    return value
  }
  const dataDir = option('--data-dir') ?? config.dataDir
  const uploadsDir =
    option('--uploads-dir') ??
    (config.uploadsDir && config.uploadsDir !== `${config.dataDir.replace(/\/+$/, '')}/uploads` ? config.uploadsDir : `${dataDir.replace(/\/+$/, '')}/uploads`)
  if (rest.length !== 1) throw new CliError('Usage: npm run cli -- restore <file> [--data-dir <new folder>] [--uploads-dir <folder>]')
  if (config.databaseUrl) throw new CliError(POSTGRES_BACKUP)
  try {
    return JSON.stringify(await restoreBackup(rest[0], { dataDir, uploadsDir, passphrase: config.backupPassphrase }), null, 2)
  } catch (err) {
    if (err instanceof BackupError) throw new CliError(err.message)
    throw err
  }
}
