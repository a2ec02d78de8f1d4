// The operator commands of API.md ("Operator command line"), as functions of the database and the token
// services so that tests run them directly; index.ts only wires them to the configured database.
import { readFile } from 'node:fs/promises'
import { ALL_EVENT_STATES as EVENT_STATES, type AnyEventState as EventState } from '../../contract/constants.ts'
import type { Db } from '../db/index.ts'
import { CatalogueError, importCatalogue } from '../db/events/catalogue.ts'
import { eventsRepository } from '../db/events/events.ts'
import { sessionsRepository } from '../db/people/sessions.ts'
import { usersRepository } from '../db/people/users.ts'
import { rolesRepository } from '../db/people/roles.ts'
import { recordAudit } from '../db/audit.ts'
import { councilsRepository } from '../db/events/councils.ts'
import type { AccessTokens } from '../auth/tokens.ts'

export const USAGE = `Usage: npm run cli -- <command>
  import <file.json> [--force]   create or update councils and events from an import file: its format,
                                 and what an update overwrites, in docs/import.md (example: docs/import-example.json);
                                 an event students take part in keeps its state and images unless --force
  event:state <id> <STATE>       move an event to a state: ${EVENT_STATES.join(', ')}
  token <email> [--name NAME]    create the user if needed and print {"accessToken","refreshToken"}
  councils                       list the councils: id, slug, name and organisers' e-mails
  role:grant <email> admin                    make the user an admin (manages every council and grants roles)
  role:grant <email> organizer <council>      make the user an organiser of a council (its id or slug)
  role:revoke <email> admin | organizer <council>   take the role back
                                 (the user must have signed in once; every account with that e-mail is changed;
                                 an admin also adds organisers in the app: Organiser console > Councils)
  backup <file>                  the embedded database and its images into one file, while the server runs
                                 (the server writes it) or not; PostgreSQL: pg_dump (docs/deployment.md "Backups")
  restore <file> [--data-dir <new folder>] [--uploads-dir <folder>]
                                 a backup into a NEW data folder (default DATA_DIR, which must then be empty),
                                 checked table by table; then start the server on that folder
Works on DATABASE_URL, or on the embedded database in DATA_DIR (default ./data): while a server runs on that
folder, the server runs the command (the embedded database has one writer); otherwise the command opens it.`

/** A mistake of the operator: printed as is, without a stack trace, and the exit status is 1. */
export class CliError extends Error {}

export interface CliContext {
  db: Db
  tokens: AccessTokens
  /** Whether the server has Razorpay's keys (the import refuses RAZORPAY among an event's ways to pay without them). */
  razorpay?: boolean
}

/** Runs one command and returns what it prints (JSON on success). */
export async function runCommand(argv: string[], ctx: CliContext): Promise<string> {
  const [command, ...args] = argv
  switch (command) {
    case 'import':
      return JSON.stringify(await importFile(ctx.db, args, ctx.razorpay === true), null, 2)
    case 'event:state':
      return JSON.stringify(await setEventState(ctx.db, args))
    case 'token':
      return JSON.stringify(await tokenFor(ctx, args))
    case 'councils':
      if (args.length) throw new CliError('Usage: npm run cli -- councils')
      return JSON.stringify(await councilsRepository(ctx.db).forOperator(), null, 2)
    case 'role:grant':
    case 'role:revoke':
      return JSON.stringify(await setRole(ctx.db, args, command === 'role:grant'))
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      throw new CliError(USAGE)
    default:
      throw new CliError(`Unknown command "${command}".\n${USAGE}`)
  }
}

async function importFile(db: Db, argv: string[], razorpay: boolean) {
  const force = argv.includes('--force')
  const args = argv.filter((a) => a !== '--force')
  if (args.length !== 1) throw new CliError('Usage: npm run cli -- import <file.json> [--force]')
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
    return await importCatalogue(db, data, { force, razorpay })
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
  await recordAudit(db, { actorId: null, actorKind: 'cli', action: 'event.state', eventId: row.id, after: { state: row.state } })
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

const ROLE_USAGE = 'Usage: npm run cli -- role:grant|role:revoke <email> admin | organizer <council id or slug>'

/** role:grant / role:revoke (API.md Part 2 "Roles"): prints the e-mail, the accounts changed and their roles now. */
async function setRole(db: Db, args: string[], granted: boolean) {
  const [rawEmail, role, rawCouncil, ...extra] = args
  if (!rawEmail || !role || extra.length > 0) throw new CliError(ROLE_USAGE)
  const email = rawEmail.trim().toLowerCase()
  if (!EMAIL.test(email)) throw new CliError(`"${rawEmail}" is not an e-mail address.`)
  const roles = rolesRepository(db)
  let ids: number[]
  let councilId: number | null = null
  if (role === 'admin') {
    if (rawCouncil !== undefined) throw new CliError(ROLE_USAGE)
    ids = await roles.setAdmin(email, granted)
  } else if (role === 'organizer' || role === 'organiser') {
    // The council by its id or its slug (issue 22 item 4: `councils` lists both).
    const wanted = (rawCouncil ?? '').trim().toLowerCase()
    if (!wanted) throw new CliError(`The council id must be a positive whole number or a council's slug (npm run cli -- councils lists them).\n${ROLE_USAGE}`)
    const known = await councilsRepository(db).forOperator()
    const byId = /^\d{1,9}$/.test(wanted)
    const council = known.find((c) => (byId ? c.id === Number(wanted) : c.slug.toLowerCase() === wanted))
    if (!council) {
      const list = known.map((c) => `${c.id} ${c.slug} (${c.name})`).join(', ') || 'none yet'
      throw new CliError(`No council with ${byId ? `id ${wanted}` : `slug "${rawCouncil}"`} (councils: ${list}).`)
    }
    councilId = council.id
    ids = await roles.setOrganizer(email, councilId, granted)
  } else {
    throw new CliError(`Unknown role "${role}": use admin or organizer.\n${ROLE_USAGE}`)
  }
  if (ids.length === 0) {
    throw new CliError(
      `No user with the e-mail ${email} has signed in yet: ask them to sign in once (or create a support account with \`token ${email}\`), then run this again.`,
    )
  }
  const action = granted ? 'role.grant' : 'role.revoke'
  await recordAudit(db, { actorId: null, actorKind: 'cli', action, councilId, after: { email, role, council_id: councilId, users: ids } })
  return { email, users: ids, roles: await roles.of(ids[0]) }
}
