// The database functions' one readable home (issue 38 item 2): server/db/functions/<name>.sql holds each function
// as the database runs it today. The migrations keep their history (a migration is never edited once applied), and
// a migration that changes a function is written from its file:
//
//   npm run db:generate -- --custom --name <what changed>   an empty migration, with its snapshot and journal entry
//   (edit server/db/functions/<name>.sql)
//   npm run db:function -- <name> [<name>...]               appends each file's definition to the newest migration
//
// test/server/db-functions.test.ts fails when a file and the newest migration defining its function differ, or when
// a migrated database runs a function that has no file.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const MIGRATIONS_DIR = fileURLToPath(new URL('../server/db/migrations', import.meta.url))
export const FUNCTIONS_DIR = fileURLToPath(new URL('../server/db/functions', import.meta.url))

/** `CREATE OR REPLACE FUNCTION name(...) ... $tag$ body $tag$;`: the header has no `$`, the body ends at its own tag. */
const DEFINITION = /CREATE OR REPLACE FUNCTION\s+(\w+)\s*\([^$]*?\$(\w*)\$([\s\S]*?)\$\2\$\s*;/g
const DROP = /DROP FUNCTION IF EXISTS\s+(\w+)/g
/** The file's line naming the migrations that defined it; kept by `npm run db:function`. */
const HISTORY = /^-- Migrations: (.*)$/m

export interface Definition {
  name: string
  /** The whole statement, from CREATE to the closing `;`. */
  statement: string
  /** What PostgreSQL keeps as the function's source (pg_proc.prosrc): the text between the dollar quotes. */
  body: string
  /** Where the statement starts in the text it was read from. */
  at: number
}

/** Every function a piece of SQL defines, in order. */
export function definitionsIn(sql: string): Definition[] {
  return [...sql.matchAll(DEFINITION)].map((m) => ({ name: m[1], statement: m[0], body: m[3], at: m.index }))
}

export const migrationFiles = () =>
  readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort()

/** Each function the migrations leave in the database: its newest definition and every migration that defined it. */
export function functionsOfMigrations(): Map<string, { definition: Definition; migrations: string[] }> {
  const functions = new Map<string, { definition: Definition; migrations: string[] }>()
  const history = new Map<string, string[]>()
  for (const file of migrationFiles()) {
    const sql = readFileSync(join(MIGRATIONS_DIR, file), 'utf8')
    const number = file.slice(0, 4)
    // In the order written: a migration may drop a function and define it again with other arguments.
    const steps = [
      ...definitionsIn(sql).map((definition) => ({ at: definition.at, definition, dropped: undefined })),
      ...[...sql.matchAll(DROP)].map((m) => ({ at: m.index, definition: undefined, dropped: m[1] })),
    ].sort((a, b) => a.at - b.at)
    for (const step of steps)
      if (step.definition) {
        // A function dropped and made again (other arguments) keeps its history: it is still the one file.
        const migrations = [...(history.get(step.definition.name) ?? [])]
        if (migrations.at(-1) !== number) migrations.push(number)
        history.set(step.definition.name, migrations)
        functions.set(step.definition.name, { definition: step.definition, migrations })
      } else if (step.dropped) functions.delete(step.dropped)
  }
  return functions
}

/** Each function file: the one definition it holds, and the migrations its history line names. */
export function functionFiles(): Map<string, { definition: Definition; migrations: string[]; text: string }> {
  const files = new Map<string, { definition: Definition; migrations: string[]; text: string }>()
  for (const file of readdirSync(FUNCTIONS_DIR).filter((f) => f.endsWith('.sql'))) {
    const text = readFileSync(join(FUNCTIONS_DIR, file), 'utf8')
    const definitions = definitionsIn(text)
    const name = basename(file, '.sql')
    if (definitions.length !== 1 || definitions[0].name !== name)
      throw new Error(
        `server/db/functions/${file} must define exactly one function, ${name}(); it defines ${definitions.map((d) => d.name).join(', ') || 'none'}.`,
      )
    files.set(name, { definition: definitions[0], migrations: historyOf(text), text })
  }
  return files
}

export const historyOf = (text: string): string[] => HISTORY.exec(text)?.[1].match(/\d{4}/g) ?? []
export const historyLine = (migrations: string[]) => `-- Migrations: ${migrations.join(', ')} (the last holds this definition).`

/** Appends the named functions' files to the newest migration and records it in each file's history line. */
function appendToNewestMigration(names: string[]) {
  const newest = migrationFiles().at(-1)
  if (!newest) throw new Error('No migration to write to: make one with npm run db:generate -- --custom --name <what>.')
  const path = join(MIGRATIONS_DIR, newest)
  const number = newest.slice(0, 4)
  let sql = readFileSync(path, 'utf8').trimEnd()
  for (const name of names) {
    const filePath = join(FUNCTIONS_DIR, `${name}.sql`)
    const text = readFileSync(filePath, 'utf8')
    const history = historyOf(text)
    const updated = history.includes(number) ? text : text.replace(HISTORY, historyLine([...history, number]))
    writeFileSync(filePath, updated)
    sql += `${sql ? '\n--> statement-breakpoint\n' : ''}${updated.trimEnd()}`
  }
  writeFileSync(path, `${sql}\n`)
  console.log(`${names.join(', ')} written into ${newest}`)
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const names = process.argv.slice(2)
  if (names.length === 0) {
    console.error('usage: npm run db:function -- <function name> [...]  (each from server/db/functions/<name>.sql)')
    process.exit(2)
  }
  appendToNewestMigration(names)
}
