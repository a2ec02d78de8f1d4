// `npm run cli -- <command>`: the operator commands on the configured database (DATABASE_URL, or PGlite in
// DATA_DIR), without the server running. Exits 1 with a readable message on any mistake.
import { loadConfig } from '../config.ts'
import { openDatabase, type Database } from '../db/index.ts'
import { accessTokens, loadSecret } from '../auth/tokens.ts'
import { CliError, USAGE, runCommand } from './commands.ts'
import { backupCommand, commandInRunningServer, restoreCommand } from './backup.ts'

const argv = process.argv.slice(2)
if (['help', '--help', '-h'].includes(argv[0])) {
  process.stdout.write(USAGE + '\n')
  process.exit(0)
}

let database: Database | undefined
let status = 0
try {
  const config = loadConfig()
  // Backups go through the running server when one holds the embedded database, and a restore writes a new
  // folder: neither opens the configured database here first (server/cli/backup.ts).
  if (argv[0] === 'backup' || argv[0] === 'restore') {
    process.stdout.write(`${await (argv[0] === 'backup' ? backupCommand : restoreCommand)(argv.slice(1), config)}\n`)
    process.exit(0)
  }
  // The embedded database while a server runs on it: the server runs the command (issue 37 item 4: no restart).
  const ran = config.databaseUrl || argv.length === 0 ? null : await commandInRunningServer(config.dataDir, argv)
  if (ran !== null) {
    process.stdout.write(`${ran}\n`)
    process.exit(0)
  }
  database = await openDatabase(config.databaseUrl ? { url: config.databaseUrl, max: 2 } : { dataDir: config.dataDir })
  // The same secret as the server (JWT_SECRET, or the one kept in DATA_DIR), so its tokens are accepted.
  const tokens = accessTokens(await loadSecret(config.jwtSecret, config.dataDir))
  process.stdout.write((await runCommand(argv, { db: database.db, tokens, razorpay: Boolean(config.razorpay) })) + '\n')
} catch (err) {
  status = 1
  process.stderr.write((err instanceof CliError || err instanceof Error ? err.message : String(err)) + '\n')
} finally {
  await database?.close().catch(() => {})
}
process.exit(status)
