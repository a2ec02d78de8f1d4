// The build, and what `npm start` does before it runs the server (issue 21 item 14, issue 22 item 13).
//
//   tsx scripts/build.ts            the app (dist/) and the server (build/)       npm run build
//   tsx scripts/build.ts --server   the server alone                               npm run build:server
//   tsx scripts/build.ts --start    what changed since the last build, if any      npm start (then node build/server/main.js)
//
// Each part is built into a fresh folder beside the checkout and swapped in whole when it is complete: a build
// never deletes build/ or dist/ under a running server (a second `npm start` did), and a failed build leaves the
// last good one in place. Each part's folder holds a fingerprint of what it was built from (.inputs: the sources'
// paths and bytes, the lockfile, the build settings), so `--start` builds nothing when nothing changed (a restart
// took 66 s, all of it building). And `--start` refuses at once, before building anything, while another server
// holds the embedded database's folder (DATA_DIR's lock, server/db/data-dir-lock.ts): the second server could
// not have opened it anyway.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { lockHolder } from '../server/db/data-dir-lock.ts'

const ROOT = join(import.meta.dirname, '..')
const FINGERPRINT = '.inputs'

interface Part {
  /** The folder it is served or run from. */
  out: string
  /** Files and folders whose bytes it is built from. */
  inputs: string[]
  /** Environment variables that change what is built. */
  env: (name: string) => boolean
  /** Builds into `dir` (a fresh folder). */
  build(dir: string): void
}

const run = (command: string, args: string[]) => execFileSync(command, args, { cwd: ROOT, stdio: 'inherit' })
const bin = (name: string) => join(ROOT, 'node_modules/.bin', name)

const PARTS: Record<'app' | 'server', Part> = {
  app: {
    out: 'dist',
    inputs: ['src', 'public', 'contract', 'index.html', 'vite.config.ts', 'scripts/staff-assets.ts', 'tsconfig.json', 'package-lock.json', 'scripts/build.ts'],
    env: (name) => name.startsWith('VITE_'),
    build: (dir) => run(bin('vite'), ['build', '--outDir', dir, '--emptyOutDir']),
  },
  server: {
    out: 'build',
    inputs: ['server', 'contract', 'tsconfig.json', 'tsconfig.server.json', 'package-lock.json', 'scripts/prepare-db.ts', 'scripts/build.ts'],
    env: () => false,
    build: (dir) => {
      run(bin('tsc'), ['-p', 'tsconfig.server.json', '--outDir', dir])
      for (const what of ['migrations', 'demo.json']) cpSync(join(ROOT, 'server/db', what), join(dir, 'server/db', what), { recursive: true })
      run(bin('tsx'), ['scripts/prepare-db.ts', join(dir, 'server/db/initial-pglite.tar.gz')])
    },
  },
}

/** Every file under the inputs, in a stable order. */
function filesOf(path: string): string[] {
  const full = join(ROOT, path)
  if (!existsSync(full)) return []
  if (!statSync(full).isDirectory()) return [path]
  return readdirSync(full)
    .sort()
    .flatMap((name) => filesOf(join(path, name)))
}

/** What a part is built from: the inputs' paths and bytes, the settings that change it, Node's major version. */
export function fingerprint(part: Part): string {
  const hash = createHash('sha256')
  for (const file of part.inputs.flatMap(filesOf)) hash.update(`${relative(ROOT, join(ROOT, file))}\0`).update(readFileSync(join(ROOT, file)))
  for (const name of Object.keys(process.env).filter(part.env).sort()) hash.update(`${name}=${process.env[name]}\0`)
  hash.update(process.versions.node.split('.')[0]!)
  return hash.digest('hex')
}

function upToDate(part: Part, print: string): boolean {
  try {
    return readFileSync(join(ROOT, part.out, FINGERPRINT), 'utf8') === print
  } catch {
    return false
  }
}

/** Builds a part into a fresh folder and swaps it in whole. */
function buildPart(name: string, part: Part, print: string) {
  const fresh = join(ROOT, `.${part.out}.next-${process.pid}`)
  const old = join(ROOT, `.${part.out}.old-${process.pid}`)
  rmSync(fresh, { recursive: true, force: true })
  mkdirSync(fresh, { recursive: true })
  try {
    const started = Date.now()
    part.build(fresh)
    writeFileSync(join(fresh, FINGERPRINT), print)
    const target = join(ROOT, part.out)
    // Two renames: the old folder out of the way, the new one in its place; the old one goes after.
    if (existsSync(target)) renameSync(target, old)
    renameSync(fresh, target)
    rmSync(old, { recursive: true, force: true })
    console.log(`build: ${name} built into ${part.out}/ in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  } finally {
    rmSync(fresh, { recursive: true, force: true })
  }
}

function main(args: string[]) {
  const start = args.includes('--start')
  const names = args.includes('--server') ? (['server'] as const) : (['app', 'server'] as const)
  if (start && !process.env.DATABASE_URL) {
    const dataDir = process.env.DATA_DIR || './data'
    const holder = lockHolder(dataDir)
    if (holder) {
      console.error(
        `npm start: a server is already running on the database folder ${dataDir} (pid ${holder.pid}${holder.startedAt ? `, since ${holder.startedAt}` : ''}). ` +
          'Nothing was built or started. Stop that server first, or start this one with another DATA_DIR (or DATABASE_URL, PostgreSQL).',
      )
      process.exit(1)
    }
  }
  for (const name of names) {
    const part = PARTS[name]
    const print = fingerprint(part)
    if (start && upToDate(part, print)) {
      console.log(`build: ${name} unchanged since the last build (${part.out}/), not rebuilt`)
      continue
    }
    buildPart(name, part, print)
  }
}

main(process.argv.slice(2))
