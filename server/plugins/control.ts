// The operator's way into a running server on the embedded database (issue 27): PGlite has one writer, the
// server, which holds its data folder's lock, so `npm run cli -- backup <file>` asks the server to write the backup
// (server/backup/archive.ts) instead of opening the folder itself. The server listens on loopback only, on a port
// the system picks, and writes that port and a fresh random token into the data folder (campus-events-control.json,
// readable by its owner only): whoever may read the data folder may ask for a backup of it, nobody else, and
// nothing of this reaches the network. Absent on PostgreSQL and for a database in memory. The other operator commands
// (role:grant, councils, import, token...) are run here too while the server runs (issue 37 item 4: a council's first
// organiser cost a restart), by the same code the command line runs on its own (server/cli/commands.ts).
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fp from 'fastify-plugin'
import { CONTROL_FILE, writeBackup } from '../backup/archive.ts'
import { CliError, runCommand } from '../cli/commands.ts'
import type { Database } from '../db/index.ts'

export interface ControlFile {
  pid: number
  port: number
  token: string
  started_at: string
}

export const controlFileOf = (dataDir: string) => join(dataDir, CONTROL_FILE)

/** The control address a running server wrote into `dataDir`, or null. */
export async function readControlFile(dataDir: string): Promise<ControlFile | null> {
  try {
    const value = JSON.parse(await readFile(controlFileOf(dataDir), 'utf8'))
    return value && typeof value.port === 'number' && typeof value.token === 'string' ? value : null
  } catch {
    return null
  }
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body))

export const control = fp(
  async (app, { database, uploadsDir, passphrase }: { database: Database; uploadsDir: string; passphrase?: string }) => {
    const dataDir = database.dataDir
    if (!dataDir || !database.dumpDataDir) return
    const token = randomBytes(32).toString('base64url')
    const wanted = Buffer.from(`Bearer ${token}`)
    let server: Server | null = null
    let busy = false

    const authorised = (req: IncomingMessage) => {
      const given = Buffer.from(req.headers.authorization ?? '')
      return given.length === wanted.length && timingSafeEqual(given, wanted)
    }

    /** One operator command, `{argv}` as typed after `npm run cli --`: answers what it prints, or its mistake. */
    async function command(req: IncomingMessage, res: ServerResponse) {
      if (!authorised(req)) return json(res, 401, { error: true, message: 'Invalid Token' })
      let argv: unknown
      try {
        const chunks: Buffer[] = []
        for await (const chunk of req) chunks.push(chunk as Buffer)
        argv = JSON.parse(Buffer.concat(chunks).toString('utf8')).argv
      } catch {}
      if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string') || ['backup', 'restore'].includes(argv[0]))
        return json(res, 400, { error: true, message: 'argv must be the command line, as strings (not backup or restore).' })
      try {
        const output = await runCommand(argv, { db: database.db, tokens: app.tokens, razorpay: Boolean(app.razorpay) })
        app.log.info({ command: argv[0] }, 'operator command run for the command line')
        json(res, 200, { output })
      } catch (err) {
        if (err instanceof CliError) return json(res, 400, { error: true, message: err.message })
        app.log.error({ err }, 'operator command failed')
        json(res, 500, { error: true, message: (err as Error).message })
      }
    }

    async function backup(req: IncomingMessage, res: ServerResponse) {
      if (!authorised(req)) return json(res, 401, { error: true, message: 'Invalid Token' })
      if (busy) return json(res, 409, { error: true, message: 'A backup is already being written: try again when it is done.' })
      busy = true
      const dir = await mkdtemp(join(tmpdir(), 'campus-backup-out-'))
      const file = join(dir, 'backup.tar')
      try {
        const manifest = await writeBackup(database, { uploadsDir, file, passphrase })
        app.log.info({ tables: manifest.tables, images: manifest.uploads.files }, 'backup written for the command line')
        const { size } = await stat(file)
        res.writeHead(200, {
          'content-type': 'application/x-tar',
          'content-length': String(size),
          'x-backup-manifest': Buffer.from(JSON.stringify(manifest)).toString('base64url'),
        })
        await new Promise<void>((resolve) => {
          const stream = createReadStream(file)
          stream.on('error', () => res.destroy())
          res.on('close', resolve)
          stream.pipe(res)
        })
      } catch (err) {
        app.log.error({ err }, 'backup failed')
        if (!res.headersSent) json(res, 500, { error: true, message: `The backup failed: ${(err as Error).message}` })
        else res.destroy()
      } finally {
        busy = false
        await rm(dir, { recursive: true, force: true })
      }
    }

    app.addHook('onReady', async () => {
      server = createServer((req, res) => {
        if (req.method === 'POST' && req.url === '/backup') void backup(req, res)
        else if (req.method === 'POST' && req.url === '/command') void command(req, res)
        else json(res, 404, { error: true, message: 'Not found.' })
      })
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject)
        server!.listen(0, '127.0.0.1', () => resolve())
      })
      const address: ControlFile = { pid: process.pid, port: (server.address() as AddressInfo).port, token, started_at: new Date().toISOString() }
      const file = controlFileOf(dataDir)
      await writeFile(`${file}.tmp`, JSON.stringify(address), { mode: 0o600 })
      await rename(`${file}.tmp`, file)
    })
    app.addHook('onClose', async () => {
      // Only our own address is removed (a later server may have written its own).
      if ((await readControlFile(dataDir))?.token === token) await rm(controlFileOf(dataDir), { force: true })
      if (!server) return
      const closed = new Promise<void>((resolve) => server!.close(() => resolve()))
      server.closeAllConnections()
      await closed
    })
  },
  { name: 'control' },
)
