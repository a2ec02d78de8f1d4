// The real server from source (server/main.ts) as a process of its own on a data folder, as `npm run dev:api` runs
// it: for the tests of what only a running process shows (the backup it writes for the command line, the commands it
// runs while it holds the embedded database).
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CONTROL_FILE } from '../../server/backup/archive.ts'
import { freePort } from '../e2e/support/server.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

export interface Server {
  url: string
  child: ChildProcess
  output: () => string
  stop(): Promise<number | null>
}

/** The real server from source (server/main.ts) on the data folder, as `npm run dev:api` runs it; ready when /health/ready says so. */
export async function startServer(dataDir: string, env: NodeJS.ProcessEnv = {}): Promise<Server> {
  const port = await freePort()
  let log = ''
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      STATIC_DIR: join(tmpdir(), 'no-static'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  const url = `http://127.0.0.1:${port}`
  for (const deadline = Date.now() + 90_000; ; ) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${log}`)
    const ready = await fetch(`${url}/api/v1/health/ready`).catch(() => null)
    if (ready?.ok && existsSync(join(dataDir, CONTROL_FILE))) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`the server did not become ready:\n${log}`)
    }
    await new Promise((r) => setTimeout(r, 200)) // kept: the step of a poll until the server is ready
  }
  return {
    url,
    child,
    output: () => log,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode)
        child.once('exit', (code) => resolve(code))
        child.kill('SIGTERM')
      }),
  }
}
