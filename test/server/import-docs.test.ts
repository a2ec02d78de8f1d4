// Issue 14, item 9: the import format is documented in docs/import.md with a complete example file. The example
// imports as it is, through the operator's command; it uses every field of the format; the document's tables
// name every field and only those; the command's help points to the document.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CliError, USAGE, runCommand } from '../../server/cli/commands.ts'
import { accessTokens } from '../../server/auth/tokens.ts'
import { CatalogueError, IMPORT_FIELDS, importCatalogue } from '../../server/db/events/catalogue.ts'
import { schema, type Database } from '../../server/db/index.ts'
import { testDatabase } from './helpers.ts'

const doc = (name: string) => fileURLToPath(new URL(`../../docs/${name}`, import.meta.url))
const EXAMPLE = doc('import-example.json')
const example = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as { councils: Record<string, unknown>[]; events: Record<string, unknown>[] }
const markdown = readFileSync(doc('import.md'), 'utf8')

/** The first column of the table under the heading `## {title}`: the fields it documents. */
function tableFields(title: string): string[] {
  const section = markdown.split(/^## /m).find((s) => s.startsWith(title + '\n'))
  if (!section) throw new Error(`docs/import.md has no section "## ${title}"`)
  return [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1])
}

describe('docs/import.md and docs/import-example.json', () => {
  let database: Database
  const run = (...argv: string[]) => runCommand(argv, { db: database.db, tokens: accessTokens(new TextEncoder().encode('docs-test')) })
  beforeAll(async () => {
    database = await testDatabase()
  })
  afterAll(() => database.close())

  it('the example file imports as it is with `import docs/import-example.json`, and a second run changes nothing', async () => {
    const first = JSON.parse(await run('import', EXAMPLE))
    expect(Object.keys(first.councils)).toEqual(example.councils.map((c) => c.slug))
    expect(Object.keys(first.events).sort()).toEqual(example.events.map((e) => e.slug).sort())
    const rows = await database.db.select().from(schema.events)
    expect(rows).toHaveLength(example.events.length)
    expect(JSON.parse(await run('import', EXAMPLE))).toEqual(first)
  })

  it('the example uses every field of the format: each council has them all, each event field appears at least once', () => {
    for (const council of example.councils) expect(Object.keys(council).sort()).toEqual([...IMPORT_FIELDS.councils].sort())
    const used = new Set(example.events.flatMap((e) => Object.keys(e)))
    expect([...used].sort()).toEqual([...IMPORT_FIELDS.events].sort())
  })

  it("the document's tables list exactly the fields of the format, in its order", () => {
    expect(tableFields('Councils')).toEqual(IMPORT_FIELDS.councils)
    expect(tableFields('Events')).toEqual(IMPORT_FIELDS.events)
  })

  it("the command's help names the document and the example, which exist", async () => {
    expect(USAGE).toContain('docs/import.md')
    expect(USAGE).toContain('docs/import-example.json')
    await expect(run('help')).rejects.toThrow(CliError)
  })

  it('an unknown organizer is refused with the valid council slugs listed, and nothing is written', async () => {
    const fresh = await testDatabase()
    try {
      const wrong = { ...example, events: example.events.map((e, i) => (i === 2 ? { ...e, organizer: 'ecel' } : e)) }
      const refusal = await importCatalogue(fresh.db, wrong).catch((err) => err)
      expect(refusal).toBeInstanceOf(CatalogueError)
      expect(refusal.problems).toEqual([
        'events[2] "founders-fair-2027".organizer: no council with slug "ecel" in the file or the database (valid council slugs: ecell-kjsce, rotaract-kjsce)',
      ])
      expect(await fresh.db.select().from(schema.councils)).toEqual([])
      // With no council anywhere, the message says how to add one.
      const none = await importCatalogue(fresh.db, { events: [example.events[3]] }).catch((err) => err)
      expect(none.problems).toEqual([
        'events[0] "blood-drive-2027".organizer: no council with slug "rotaract-kjsce" in the file or the database (there is no council yet: add one under "councils" in the file)',
      ])
    } finally {
      await fresh.close()
    }
  })
})
