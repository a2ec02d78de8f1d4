// The layering rules of .dependency-cruiser.cjs (issue 23 item 2) fail `npm run lint` when broken: the project's own
// config run by the dependency-cruiser CLI (as `npm run lint` runs it) over a small tree written for the purpose, once
// with each forbidden arrow and once with only the allowed ones (so the test fails if a rule stops matching, and
// also if the rules refuse what they should let through).
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { promisify, stripVTControlCharacters } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const CONFIG = join(ROOT, '.dependency-cruiser.cjs')
const CLI = join(ROOT, 'node_modules/.bin/depcruise')
const run = promisify(execFile)

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** A tree of files (path → text) with the tsconfig the config names; answers the CLI's exit code and output. */
async function cruise(files: Record<string, string>): Promise<{ code: number; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'layering-'))
  dirs.push(dir)
  const all = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', allowImportingTsExtensions: true, noEmit: true, jsx: 'preserve' },
    }),
    'src/stores/session.ts': 'export const session = { name: "Asha" }\nexport type Session = typeof session\n',
    'server/plugins/rate-limit.ts': 'export const studentKey = (id: number) => `writes:user:${id}`\n',
    'server/errors.ts': 'export class HttpError extends Error {}\n',
    'server/db/people/attempts.ts': 'export class AttemptsUnavailable extends Error {}\n',
    ...files,
  }
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), text)
  }
  try {
    // Colour is off and any escape left is stripped: CI sets FORCE_COLOR, which painted the names apart.
    const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }
    const { stdout } = await run(CLI, ['src', 'server', '--config', CONFIG], { cwd: dir, env })
    return { code: 0, out: stripVTControlCharacters(stdout) }
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string }
    return { code: e.code, out: stripVTControlCharacters(e.stdout + e.stderr) }
  }
}

describe('npm run lint refuses the arrows docs/architecture.md forbids', () => {
  it('a component importing a store, auth importing a plugin, domain code importing an HTTP error: each named', async () => {
    const { code, out } = await cruise({
      'src/components/badge/index.tsx': 'import { session } from "../../stores/session.ts"\nexport const Badge = () => session.name\n',
      'server/auth/hook.ts': 'import { studentKey } from "../plugins/rate-limit.ts"\nexport const key = studentKey(1)\n',
      'server/teams/limiter.ts': 'import { HttpError } from "../errors.ts"\nexport const fail = () => new HttpError()\n',
    })
    expect(code).not.toBe(0)
    expect(out).toMatch(/components-read-no-store: src\/components\/badge\/index\.tsx → src\/stores\/session\.ts/)
    expect(out).toMatch(/auth-knows-no-plugins: server\/auth\/hook\.ts → server\/plugins\/rate-limit\.ts/)
    expect(out).toMatch(/domain-knows-no-http: server\/teams\/limiter\.ts → server\/errors\.ts/)
  }, 60_000)

  it('SQL outside server/db/ (issue 36 item 10) and a circle between two server files (issue 38 item 5): each named', async () => {
    const { code, out } = await cruise({
      'node_modules/drizzle-orm/package.json': '{"name":"drizzle-orm","main":"index.js"}',
      'node_modules/drizzle-orm/index.js': 'export const sql = () => ""\n',
      'server/backup/archive.ts': 'import { sql } from "drizzle-orm"\nexport const count = () => sql()\n',
      'server/routes/feeds.ts': 'import { points } from "./verify-points.ts"\nexport const page = () => points\n',
      'server/routes/verify-points.ts': 'import { page } from "./feeds.ts"\nexport const points = 1\nexport const both = () => page()\n',
    })
    expect(code).not.toBe(0)
    expect(out).toMatch(/sql-lives-in-db: server\/backup\/archive\.ts → node_modules\/drizzle-orm\/index\.js/)
    expect(out).toMatch(/no-circular: server\/routes\/(feeds|verify-points)\.ts →/)
  }, 60_000)

  it('the allowed arrows pass: a component taking a store’s type only, domain code throwing its own error, SQL in server/db', async () => {
    const { code, out } = await cruise({
      'src/components/badge/index.tsx':
        'import type { Session } from "../../stores/session.ts"\nexport const Badge = (p: { session: Session }) => p.session.name\n',
      'src/pages/shell/layout.tsx': 'import { session } from "../../stores/session.ts"\nexport const Layout = () => session.name\n',
      'server/teams/limiter.ts': 'import { AttemptsUnavailable } from "../db/attempts.ts"\nexport const fail = () => new AttemptsUnavailable()\n',
      'node_modules/drizzle-orm/package.json': '{"name":"drizzle-orm","main":"index.js"}',
      'node_modules/drizzle-orm/index.js': 'export const sql = () => ""\n',
      'server/db/ops.ts': 'import { sql } from "drizzle-orm"\nexport const count = () => sql()\n',
    })
    expect(out).toContain('no dependency violations found')
    expect(code).toBe(0)
  }, 60_000)
})
