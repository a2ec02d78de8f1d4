// What the benchmarks that drive the compiled server share: fresh databases next to an admin URL (dropped after),
// spawning build/server/main.js (or any node script) and waiting for its first answer, a private Redis, the CPU
// time a process has used, and the machine's load printed beside every timing.
import { type ChildProcess, execSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, mkdtempSync, openSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import postgres from 'postgres'
import { freePort } from '../test/e2e/support/server.ts'

/**
 * The compiled server, as `npm start` runs it (the bench scripts build it first); BENCH_SERVER names another build's
 * (comparing two builds in alternating runs, e.g. issue 27's metrics overhead).
 */
export const SERVER = process.env.BENCH_SERVER || 'build/server/main.js'

/** `uptime`'s line (the load averages): printed beside every timing, since the machine is shared. */
export function uptime(): string {
  try {
    return execSync('uptime', { encoding: 'utf8' }).trim()
  } catch {
    return '(uptime unavailable)'
  }
}

/** Fresh databases created next to an admin URL; `dropAll` removes every one this made. */
export function databases(adminUrl: string, prefix: string) {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} })
  const created: string[] = []
  return {
    admin,
    async fresh(label = ''): Promise<string> {
      const name = `${prefix}_${label ? `${label}_` : ''}${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
      await admin.unsafe(`CREATE DATABASE ${name}`)
      created.push(name)
      const url = new URL(adminUrl)
      url.pathname = `/${name}`
      return url.toString()
    },
    async dropAll() {
      for (const name of created) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    },
  }
}

export interface Child {
  url: URL
  child: ChildProcess
  /** The process's output so far (stdout and stderr go to a file, so logging costs the child, not the bench). */
  log(): string
  /** Bytes the process has written to its output. */
  logBytes(): number
  stop(): Promise<void>
}

/**
 * Spawns `node [nodeArgs] script` with PORT/HOST set, its output into a temporary file, and waits until
 * `ready` (a path) answers 2xx (GET, or POST with `readyBody`).
 */
export async function spawnNode(options: { script: string; nodeArgs?: string[]; env?: NodeJS.ProcessEnv; ready: string; readyBody?: string }): Promise<Child> {
  const port = await freePort()
  const outFile = join(mkdtempSync(join(tmpdir(), 'bench-out-')), 'output.log')
  const out = openSync(outFile, 'a')
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.script], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', APP_URL: `http://127.0.0.1:${port}`, ...options.env },
    stdio: ['ignore', out, out],
  })
  closeSync(out)
  const log = () => {
    try {
      return readFileSync(outFile, 'utf8')
    } catch {
      return ''
    }
  }
  const url = new URL(`http://127.0.0.1:${port}`)
  for (const deadline = Date.now() + 60_000; ; ) {
    if (child.exitCode !== null) throw new Error(`${options.script} exited early:\n${log().slice(-4000)}`)
    try {
      const init = options.readyBody === undefined ? {} : { method: 'POST', body: options.readyBody, headers: { 'content-type': 'application/json' } }
      if ((await fetch(new URL(options.ready, url), init)).ok) break
    } catch {}
    if (Date.now() > deadline) throw new Error(`${options.script} did not start:\n${log().slice(-4000)}`)
    await new Promise((r) => setTimeout(r, 200))
  }
  return {
    url,
    child,
    log,
    logBytes: () => {
      try {
        return statSync(outFile).size
      } catch {
        return 0
      }
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** The compiled server on `databaseUrl`, as a bench runs it (no static files, its own data folder). */
export function spawnServer(databaseUrl: string, env: NodeJS.ProcessEnv = {}, nodeArgs: string[] = []): Promise<Child> {
  return spawnNode({
    script: SERVER,
    nodeArgs,
    ready: '/api/v1/health',
    env: {
      DATABASE_URL: databaseUrl,
      NODE_ENV: 'test',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-data-')),
      STATIC_DIR: join(tmpdir(), 'bench-no-static'),
      ...env,
    },
  })
}

export interface RedisMonitor {
  /** Commands the clients sent (commands run inside a script are not counted: one script, one trip), by name. */
  stop(): Promise<{ commands: number; byCommand: Record<string, number> }>
}

/** A private redis-server on a free port (no persistence), so what it sees is this bench's alone. */
export async function privateRedis(): Promise<{ url: string; pid: number | undefined; monitor(): Promise<RedisMonitor>; stop(): void }> {
  const port = await freePort()
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
  const cli = (...args: string[]) => execSync(`redis-cli -p ${port} ${args.join(' ')}`, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
  for (let i = 0; ; i++) {
    try {
      if (cli('PING').trim() === 'PONG') break
    } catch {}
    if (i > 100) throw new Error('redis-server did not start')
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid,
    async monitor() {
      // MONITOR prints every command with its source: "[db address]" for a client, "[db lua]" inside a script.
      const mon = spawn('redis-cli', ['-p', String(port), 'MONITOR'], { stdio: ['ignore', 'pipe', 'ignore'] })
      const byCommand: Record<string, number> = {}
      let commands = 0
      let rest = ''
      let ready: () => void
      const started = new Promise<void>((r) => (ready = r))
      mon.stdout!.setEncoding('utf8')
      mon.stdout!.on('data', (chunk: string) => {
        const lines = (rest + chunk).split('\n')
        rest = lines.pop() ?? ''
        for (const line of lines) {
          if (line.trim() === 'OK') ready()
          const m = /^[\d.]+ \[\d+ ([^\]]+)\] "([^"]+)"/.exec(line)
          if (!m || m[1] === 'lua') continue
          commands += 1
          const name = m[2].toLowerCase()
          byCommand[name] = (byCommand[name] ?? 0) + 1
        }
      })
      await Promise.race([started, new Promise((r) => setTimeout(r, 2000))])
      return {
        async stop() {
          await new Promise((r) => setTimeout(r, 100))
          mon.kill('SIGTERM')
          return { commands, byCommand }
        },
      }
    },
    stop: () => void child.kill('SIGTERM'),
  }
}

/** CPU time (user + system, ms) a process has used so far, from /proc; 0 where /proc is not there. */
export function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // utime + stime, in USER_HZ (100) ticks
  } catch {
    return 0
  }
}

export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
export const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  )

export { freePort }
