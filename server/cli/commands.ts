// The operator commands of API.md ("Operator command line"), as functions of the database and the token
// services so that tests run them directly; index.ts only wires them to the configured database.
import { readFile } from 'node:fs/promises'
import { EVENT_STATES, type EventState } from '../../contract/constants.ts'
import type { Db } from '../db/index.ts'
import { CatalogueError, importCatalogue } from '../db/catalogue.ts'
import { eventsRepository } from '../db/events.ts'
import { sessionsRepository } from '../db/sessions.ts'
import { usersRepository } from '../db/users.ts'
import type { AccessTokens } from '../auth/tokens.ts'

export const USAGE = `Usage: npm run cli -- <command>
  import <file.json>             create or update councils and events from an import file: its format,
                                 and what an update overwrites, in docs/import.md (example: docs/import-example.json)
  event:state <id> <STATE>       move an event to a state: ${EVENT_STATES.join(', ')}
  token <email> [--name NAME]    create the user if needed and print {"accessToken","refreshToken"}
Works on DATABASE_URL, or on the embedded database in DATA_DIR (default ./data): stop the server first
in that case, as the embedded database must not be opened by two processes at once.`

/** A mistake of the operator: printed as is, without a stack trace, and the exit status is 1. */
export class CliError extends Error {}

export interface CliContext {
  db: Db
  tokens: AccessTokens
}

/** Runs one command and returns what it prints (JSON on success). */
export async function runCommand(argv: string[], ctx: CliContext): Promise<string> {
  const [command, ...args] = argv
  switch (command) {
    case 'import':
      return JSON.stringify(await importFile(ctx.db, args), null, 2)
    case 'event:state':
      return JSON.stringify(await setEventState(ctx.db, args))
    case 'token':
      return JSON.stringify(await tokenFor(ctx, args))
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      throw new CliError(USAGE)
    default:
      throw new CliError(`Unknown command "${command}".\n${USAGE}`)
  }
}

async function importFile(db: Db, args: string[]) {
  if (args.length !== 1) throw new CliError('Usage: npm run cli -- import <file.json>')
  const [file] = args
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (err) {
    throw new CliError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`)
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (err) {
    throw new CliError(`${file} is not valid JSON: ${(err as Error).message}`)
  }
  try {
    return await importCatalogue(db, data)
  } catch (err) {
    if (err instanceof CatalogueError) throw new CliError(err.message)
    throw err
  }
}

async function setEventState(db: Db, args: string[]) {
  if (args.length !== 2) throw new CliError('Usage: npm run cli -- event:state <id> <STATE>')
  const [rawId, rawState] = args
  const id = /^\d{1,9}$/.test(rawId) ? Number(rawId) : 0
  if (id <= 0) throw new CliError(`The event id must be a positive whole number, not "${rawId}".`)
  const state = rawState.toUpperCase() as EventState
  if (!EVENT_STATES.includes(state)) throw new CliError(`Unknown state "${rawState}": use one of ${EVENT_STATES.join(', ')}.`)
  const row = await eventsRepository(db).setState(id, state)
  if (!row) throw new CliError(`No event with id ${id}.`)
  return row
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

async function tokenFor(ctx: CliContext, args: string[]) {
  const rest = [...args]
  let name: string | undefined
  const at = rest.indexOf('--name')
  if (at >= 0) {
    name = rest[at + 1]
    if (!name || !name.trim()) throw new CliError('--name needs a value, e.g. --name "Asha Patel"')
    rest.splice(at, 2)
  }
  if (rest.length !== 1) throw new CliError('Usage: npm run cli -- token <email> [--name NAME]')
  const email = rest[0].trim().toLowerCase()
  if (!EMAIL.test(email)) throw new CliError(`"${rest[0]}" is not an e-mail address.`)

  const userId = await usersRepository(ctx.db).upsertOperatorAccount(email, name?.trim())
  return sessionsRepository({ db: ctx.db, tokens: ctx.tokens }).start(userId)
}
