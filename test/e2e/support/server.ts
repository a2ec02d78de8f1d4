// Starts the real server as a child process on a fresh embedded database, the way `npm start` runs it: the
// compiled server (build/server/main.js) serving the built app (dist/), both made by `npm run build`, which
// `npm test` runs before Playwright. Stops it after the tests.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const SERVER = 'build/server/main.js'

export interface RunningServer {
  url: string
  dataDir: string
  /** The settings it was started with, for a restart on the same data (operator.ts moveEvents). */
  env: Record<string, string>
  output: () => string
  stop(): Promise<void>
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  // A PORT given in env is kept (a restart on the same data must keep its origin: the browser's storage is per origin).
  const port = env.PORT ? Number(env.PORT) : await freePort()
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'campus-e2e-'))
  const url = `http://localhost:${port}`
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run npm run build first (npm test does).`)
  let log = ''
  const child: ChildProcess = spawn(process.execPath, [SERVER], {
    env: { ...process.env, PORT: String(port), APP_URL: url, DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${log}`)
    try {
      const res = await fetch(`${url}/api/v1/auth/refresh-token`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
      if (res.status < 500) break
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL') // never leave a half-started server behind
      throw new Error(`server did not start within 60 s:\n${log}`)
    }
    await new Promise((r) => setTimeout(r, 200)) // kept: the step of a poll until the server answers
  }
  return {
    url,
    dataDir,
    env,
    output: () => log,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
