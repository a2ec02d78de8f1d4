// Issue 38 item 4: every model is built in one place, src/models.ts. This guards it: no module of src/ but that one
// builds a model instance at its top level (a module-level singleton), no store module calls a builder there, and the
// rooms' table in src/models.ts lists every builder the store modules export (the builders themselves stay in their
// rooms' chunks, so the table is types only).
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '../..')
const src = join(root, 'src')

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return files(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

const sources = files(src).map((path) => ({ path: relative(root, path), text: readFileSync(path, 'utf8') }))

/** The models' names: every `createModel` factory of src/ (`export const InboxModel = createModel(...)`). */
const modelNames = new Set(sources.flatMap(({ text }) => [...text.matchAll(/^export const (\w+) = createModel\(/gm)].map((m) => m[1])))

/** Each top-level `const`/`let`/`var` of a module: its first line and its initializer (up to the next top-level line). */
function topLevelBindings(text: string): { line: string; init: string }[] {
  const lines = text.split('\n')
  const found: { line: string; init: string }[] = []
  lines.forEach((line, i) => {
    if (!/^(export )?(const|let|var) /.test(line)) return
    let statement = line
    for (let j = i + 1; j < lines.length && !/^\S/.test(lines[j]); j++) statement += `\n${lines[j]}`
    const eq = statement.search(/\s=\s/)
    if (eq >= 0) found.push({ line, init: statement.slice(eq).replace(/^\s=\s+/, '') })
  })
  return found
}

/** What a module builds at its top level: a model instance anywhere; in a store module, also a builder's result. */
function singletonsIn(path: string, text: string, models: ReadonlySet<string>): string[] {
  return topLevelBindings(text)
    .filter(({ init }) => {
      const made = /^new (\w+)\(/.exec(init)
      if (made && models.has(made[1])) return true
      // A store module holds models and their builders; it never calls one for itself.
      return path.startsWith('src/stores/') && /^(build\w*|create(?!Model\b)\w*|room)\(/.test(init)
    })
    .map(({ line }) => `${path}: ${line.trim()}`)
}

describe('models are built in src/models.ts only (issue 38 item 4)', () => {
  it('knows the models (the check below looks for their instances)', () => {
    for (const name of ['SessionModel', 'EventsModel', 'EventDetailModel', 'DoorModel', 'DoorQueue', 'OrgModel', 'InboxModel', 'TeamModel'])
      expect(modelNames).toContain(name)
  })

  it('the check finds a module-level instance, and a store calling its own builder', () => {
    const models = new Set(['InboxModel', 'TeamModel'])
    expect(singletonsIn('src/stores/inbox.ts', 'export const inbox = new InboxModel({ calls, session })\n', models)).toHaveLength(1)
    expect(singletonsIn('src/stores/team.ts', 'export const teamActions =\n  new TeamModel({\n    detail,\n  })\n', models)).toHaveLength(1)
    expect(singletonsIn('src/stores/event-detail.ts', 'export const { eventDetail } = buildEventDetail({ events, session })\n', models)).toHaveLength(1)
    expect(singletonsIn('src/stores/event-lists.ts', 'export const eventLists = createEventLists(api.getEvents)\n', models)).toHaveLength(1)
    expect(singletonsIn('src/pages/inbox/index.tsx', 'const inbox = new InboxModel({ calls })\n', models)).toHaveLength(1)
    // A builder, a model inside a function, a page asking the room: none is a module-level instance.
    const fine = [
      'export const buildInbox = ({ session }) => new InboxModel({ calls, session })',
      'export function buildTeam() {\n  const team = new TeamModel({})\n  return team\n}',
      'export const TeamModel = createModel(() => ({}))',
    ].join('\n')
    expect(singletonsIn('src/stores/inbox.ts', fine, models)).toEqual([])
    expect(singletonsIn('src/pages/inbox/index.tsx', 'const inbox = room(buildInbox)\n', models)).toEqual([])
  })

  it('no module of src/ but src/models.ts builds a model at its top level', () => {
    const found = sources.filter(({ path }) => path !== 'src/models.ts').flatMap(({ path, text }) => singletonsIn(path, text, modelNames))
    expect(found).toEqual([])
  })

  it("src/models.ts's table lists every builder a store module exports, and nothing else", () => {
    const models = readFileSync(join(src, 'models.ts'), 'utf8')
    const listed = [...models.matchAll(/typeof import\('\.\/stores\/([\w-]+)\.ts'\)\.(build\w+)/g)].map((m) => `${m[1]}.${m[2]}`).sort()
    const exported = sources
      .filter(({ path }) => path.startsWith('src/stores/'))
      .flatMap(({ path, text }) =>
        [...text.matchAll(/^export (?:const|function) (build\w+)/gm)].map((m) => `${path.replace(/^src\/stores\/|\.ts$/g, '')}.${m[1]}`),
      )
      .sort()
    expect(exported.length).toBeGreaterThan(10)
    expect(listed).toEqual(exported)
  })
})
