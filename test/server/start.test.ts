// `npm start` in a checkout where a server already runs (issue 21 item 14): it deleted build/ (npm run build began
// with rm -rf build) under the running server, rebuilt for a minute, and then could not open the database anyway.
// Now it refuses at once while the data folder's lock is held, building nothing, and a build goes into a fresh
// folder swapped in whole. And a start with nothing changed since the last build builds nothing (issue 22 item 13:
// a restart took 66 s, all of it the build): scripts/build.ts. The real commands, in this checkout.
import { execFile, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { lockDataDir } from '../../server/db/data-dir-lock.ts'

const ROOT = join(import.meta.dirname, '../..')

/** What the build folders are now: a folder's inode changes when it is deleted or swapped. */
function snapshot() {
  const of = (dir: string) => {
    const path = join(ROOT, dir)
    if (!existsSync(path)) return null
    const inputs = join(path, '.inputs')
    return { inode: statSync(path).ino, inputs: existsSync(inputs) ? readFileSync(inputs, 'utf8') : null }
  }
  return { build: of('build'), dist: of('dist') }
}

describe('npm start', () => {
  it('refuses at once, building nothing, while a server holds the data folder’s lock (it deleted build/ under it before)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'start-locked-'))
    // This process takes the lock as a running server does (server/db/index.ts).
    const release = lockDataDir(dataDir, 'node build/server/main.js')
    const before = snapshot()
    try {
      const child = spawn('npm', ['start'], {
        cwd: ROOT,
        detached: true,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', PORT: '1', HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      child.stdout!.on('data', (d) => (output += d))
      child.stderr!.on('data', (d) => (output += d))
      // Bounded: were it to build and start a server (the old behaviour), it is stopped after two minutes.
      const stop = setTimeout(() => process.kill(-child.pid!, 'SIGTERM'), 120_000)
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
      clearTimeout(stop)
      expect(code).toBe(1)
      expect(output).toContain(`npm start: a server is already running on the database folder ${dataDir} (pid ${process.pid}`)
      expect(output).toContain('Nothing was built or started.')
      expect(snapshot()).toEqual(before)
    } finally {
      release()
    }
  }, 180_000)

  it('with nothing changed since the last build, builds nothing: build/ and dist/ stay as they are', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'start-unchanged-'))
    const prepare = (): Promise<string> =>
      promisify(execFile)(join(ROOT, 'node_modules/.bin/tsx'), ['scripts/build.ts', '--start'], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
        maxBuffer: 64 * 1024 * 1024,
      }).then((r) => r.stdout)
    // The first may build (the checkout's sources may be newer than its build); the second finds it current.
    await prepare()
    const before = snapshot()
    expect(before.build?.inputs).toMatch(/^[0-9a-f]{64}$/)
    const second = await prepare()
    expect(second).toContain('build: app unchanged since the last build (dist/), not rebuilt')
    expect(second).toContain('build: server unchanged since the last build (build/), not rebuilt')
    expect(snapshot()).toEqual(before)
  }, 600_000)
})
