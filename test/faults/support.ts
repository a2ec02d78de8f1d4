// What the faults suite (issue 27, `npm run test:faults`) runs its cases on, all of it its own: a private PostgreSQL
// cluster (initdb + pg_ctl on a free port, run as the postgres user when this runs as root) that a case may restart,
// a private redis-server it stops and starts, nginx with docs/deployment.md's own proxy configuration in front of two
// instances of the compiled server started with the deployment recipe's environment, and databases of its own on
// the shared PostgreSQL (TEST_DATABASE_URL) whose backends it may terminate. It never stops or restarts the shared
// PostgreSQL or Redis. Every binary it needs is looked for first; what is missing is named (the suite then skips,
// loudly).
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process'
import { promisify } from 'node:util'
import { randomBytes } from 'node:crypto'
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import postgres from 'postgres'
import webpush from 'web-push'
import { freePort } from '../e2e/support/server.ts'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const SERVER = join(ROOT, 'build/server/main.js')

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function which(name: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null
  } catch {
    return null
  }
}

/** The newest installed PostgreSQL's programs (Debian keeps them out of PATH). */
export function postgresBin(): string | null {
  const base = '/usr/lib/postgresql'
  const versions = existsSync(base)
    ? readdirSync(base)
        .filter((v) => existsSync(join(base, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : []
  if (versions.length > 0) return join(base, versions[0], 'bin')
  const initdb = which('initdb')
  return initdb ? join(initdb, '..') : null
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

/** What this machine lacks for each kind of case, in words an operator can act on (null: nothing). */
export function missing(): { privatePostgres: string | null; common: string | null; sharedPostgres: string | null } {
  const common: string[] = []
  if (!which('redis-server')) common.push('redis-server (apt-get install redis-server)')
  if (!which('nginx') && !existsSync('/usr/sbin/nginx')) common.push('nginx (apt-get install nginx-light)')
  if (!existsSync(SERVER)) common.push(`${SERVER} (npm run build:server; npm run test:faults builds it)`)
  const bin = postgresBin()
  const pg: string[] = []
  if (!bin) pg.push('initdb and pg_ctl (apt-get install postgresql)')
  if (isRoot()) {
    if (!which('runuser')) pg.push('runuser (util-linux), to run PostgreSQL as the postgres user')
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' })
    } catch {
      pg.push('a postgres system user (PostgreSQL refuses to run as root)')
    }
  }
  return {
    common: common.length ? `missing: ${common.join(', ')}` : null,
    privatePostgres: pg.length ? `missing: ${pg.join(', ')}` : null,
    sharedPostgres: process.env.TEST_DATABASE_URL ? null : 'TEST_DATABASE_URL is not set (.ci/run sets postgres://root@127.0.0.1:5432/test)',
  }
}

// ---- A private PostgreSQL cluster ----

export interface PrivatePostgres {
  /** A URL for database `name` (the cluster's superuser, trust authentication on loopback). */
  url(name?: string): string
  /** `pg_ctl restart -m <mode>`, waiting until it accepts connections again; answers the seconds it took. */
  restart(mode: 'fast' | 'immediate'): Promise<number>
  /**
   * The server and every backend killed with SIGKILL (a crash no shutdown runs for), left down for `seconds`, then
   * started again (crash recovery), waiting until it accepts connections; answers the seconds it was away.
   */
  killFor(seconds: number): Promise<number>
  stop(): void
}

export async function privatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin()!
  const dir = mkdtempSync(join(tmpdir(), 'campus-faults-pg-'))
  const data = join(dir, 'data')
  const port = await freePort()
  // PostgreSQL refuses to run as root: as root the cluster belongs to, and runs as, the postgres user.
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }))
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }))
    chownSync(dir, uid, gid)
  }
  const run = (program: string, args: string[]) =>
    execFileSync(isRoot() ? 'runuser' : join(bin, program), isRoot() ? ['-u', 'postgres', '--', join(bin, program), ...args] : args, {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    })
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'])
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c shared_buffers=32MB`
  const ctlArgs = (...args: string[]) => ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', '-t', '60', ...args]
  run('pg_ctl', ctlArgs('start'))
  return {
    url: (name = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${name}`,
    async restart(mode) {
      // Asynchronously: the rush's clients keep sending (and meeting the fault) while pg_ctl waits for the restart.
      const started = performance.now()
      const args = ctlArgs('-m', mode, 'restart')
      await promisify(execFile)(isRoot() ? 'runuser' : join(bin, 'pg_ctl'), isRoot() ? ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args] : args, {
        cwd: dir,
      })
      return (performance.now() - started) / 1000
    },
    async killFor(seconds) {
      const started = performance.now()
      // The postmaster's pid is the first line of postmaster.pid; its children are the backends and workers.
      const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0])
      const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
        .split('\n')
        .map(Number)
        .filter((pid) => pid > 0)
      for (const pid of [postmaster, ...children]) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {}
      }
      await sleep(seconds * 1000)
      await promisify(execFile)(
        isRoot() ? 'runuser' : join(bin, 'pg_ctl'),
        isRoot() ? ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...ctlArgs('start')] : ctlArgs('start'),
        {
          cwd: dir,
        },
      )
      return (performance.now() - started) / 1000
    },
    stop() {
      try {
        run('pg_ctl', ctlArgs('-m', 'immediate', 'stop'))
      } catch {}
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Fresh databases next to an admin URL, each dropped by `dropAll`. */
export function databases(adminUrl: string, prefix: string) {
  const admin = postgres(adminUrl, { max: 2, onnotice: () => {} })
  const created: string[] = []
  return {
    admin,
    async fresh(): Promise<string> {
      const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
      await admin.unsafe(`CREATE DATABASE ${name}`)
      created.push(name)
      const url = new URL(adminUrl)
      url.pathname = `/${name}`
      return url.toString()
    },
    async dropAll() {
      for (const name of created) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {})
      await admin.end({ timeout: 5 })
    },
  }
}

// ---- A private Redis ----

export interface PrivateRedis {
  url: string
  stop(): Promise<void>
  start(): Promise<void>
}

export async function privateRedis(): Promise<PrivateRedis> {
  const port = await freePort()
  let child: ChildProcess | null = null
  const ping = () => {
    try {
      return execFileSync('redis-cli', ['-p', String(port), 'PING'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() === 'PONG'
    } catch {
      return false
    }
  }
  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = track(spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' }))
      for (let i = 0; !ping(); i++) {
        if (i > 200) throw new Error('redis-server did not start')
        await sleep(25)
      }
    },
    async stop() {
      const c = child
      if (!c || c.exitCode !== null || c.signalCode !== null) return
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve())
        c.kill('SIGTERM')
      })
    },
  }
  await redis.start()
  return redis
}

// ---- nginx with docs/deployment.md's configuration ----

/** The fenced block of docs/deployment.md after `marker` (an HTML comment naming it), without its fences. */
export function docBlock(marker: string): string {
  const doc = readFileSync(join(ROOT, 'docs/deployment.md'), 'utf8')
  const at = doc.indexOf(marker)
  if (at < 0) throw new Error(`docs/deployment.md has no ${marker}`)
  const open = doc.indexOf('```', at)
  const start = doc.indexOf('\n', open) + 1
  return doc.slice(start, doc.indexOf('\n```', start))
}

/** The documented addresses of the two instances, replaced by the suite's. */
export const RECIPE_UPSTREAMS = ['10.0.0.11:3000', '10.0.0.12:3000']

/**
 * nginx on a free loopback port with the proxy configuration of docs/deployment.md ("<!-- recipe: nginx -->"): its
 * upstream pointed at `upstreams`, plain HTTP instead of TLS (the certificate lines and the redirect from port 80
 * left out), inside a minimal main configuration of this suite's own (paths in a temporary folder).
 */
export async function startNginx(port: number, upstreams: URL[]): Promise<{ url: string; config: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'campus-faults-nginx-'))
  chmodSync(dir, 0o777)
  let site = docBlock('<!-- recipe: nginx -->')
  RECIPE_UPSTREAMS.forEach((documented, i) => {
    if (!site.includes(documented)) throw new Error(`the documented nginx configuration no longer names ${documented}`)
    site = site.replace(documented, upstreams[i].host)
  })
  site = site
    .split('\n')
    .filter((line) => !/^\s*ssl_certificate/.test(line) && !/^server \{ listen 80;/.test(line))
    .join('\n')
    .replace(/listen 443 ssl( http2)?;/, `listen 127.0.0.1:${port};`)
  if (!site.includes(`listen 127.0.0.1:${port};`)) throw new Error('the documented nginx configuration no longer has "listen 443 ssl"')
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp), { mode: 0o777 })
  const config = `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
daemon off;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
${site}
}
`
  writeFileSync(join(dir, 'nginx.conf'), config)
  const nginx = which('nginx') ?? '/usr/sbin/nginx'
  execFileSync(nginx, ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'pipe' })
  const child = track(spawn(nginx, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: 'ignore' }))
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited:\n${readFileSync(join(dir, 'error.log'), 'utf8')}`)
    if (
      await fetch(`${url}/api/v1/health/live`).then(
        (r) => r.status < 600,
        () => false,
      )
    )
      break
    if (i > 400) throw new Error('nginx did not answer')
    await sleep(25)
  }
  return {
    url,
    config,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true })
          resolve()
        })
        child.kill('SIGQUIT')
      }),
  }
}

// ---- The instances, with the recipe's environment ----

export interface Secrets {
  JWT_SECRET: string
  METRICS_TOKEN: string
  VAPID_PUBLIC_KEY: string
  VAPID_PRIVATE_KEY: string
}

export function secrets(): Secrets {
  const vapid = webpush.generateVAPIDKeys()
  return {
    JWT_SECRET: randomBytes(48).toString('base64url'),
    METRICS_TOKEN: randomBytes(24).toString('hex'),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
  }
}

/** The recipe's variables (docs/deployment.md "<!-- recipe: environment -->"), by name, as `KEY=value` lines say. */
export function recipeVariables(): string[] {
  return docBlock('<!-- recipe: environment -->')
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=/.exec(line.trim())?.[1])
    .filter((name): name is string => Boolean(name))
}

export interface Instance {
  name: string
  url: URL
  metricsUrl: string
  child: ChildProcess
  log(): string
  stop(): Promise<void>
}

/**
 * Starts the compiled server with the recipe's environment: every variable the recipe names gets this suite's
 * value (`values`); a variable the suite has no value for fails here, so the recipe cannot name a setting that is
 * not exercised.
 */
export async function startInstance(name: string, values: Record<string, string>, port: number): Promise<Instance> {
  const metricsPort = await freePort()
  const mine: Record<string, string> = { ...values, HOST: '127.0.0.1', PORT: String(port), METRICS_PORT: String(metricsPort) }
  const env: Record<string, string> = {}
  for (const key of recipeVariables()) {
    if (mine[key] === undefined) throw new Error(`docs/deployment.md's recipe sets ${key}: the faults suite has no value for it (test/faults/support.ts)`)
    env[key] = mine[key]
  }
  const outDir = mkdtempSync(join(tmpdir(), `campus-faults-${name}-`))
  const child = track(
    spawn(process.execPath, [SERVER], {
      cwd: ROOT,
      // Only the recipe's variables (and PATH): nothing of this process's environment leaks into the instance.
      env: { PATH: process.env.PATH ?? '', ...env, STATIC_DIR: join(outDir, 'no-static') },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  )
  let log = ''
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  const url = new URL(`http://127.0.0.1:${port}`)
  for (const deadline = Date.now() + 60_000; ; ) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`instance ${name} exited:\n${log.slice(-4000)}`)
    if (
      await fetch(new URL('/api/v1/health/ready', url)).then(
        (r) => r.ok,
        () => false,
      )
    )
      break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`instance ${name} did not become ready:\n${log.slice(-4000)}`)
    }
    await sleep(100)
  }
  return {
    name,
    url,
    metricsUrl: `http://127.0.0.1:${metricsPort}/metrics`,
    child,
    log: () => log,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** Polls `check` every 50 ms (each check given at most 2 s) until it holds; answers the seconds it took, or throws after `limitMs`. */
export async function until(what: string, check: () => Promise<boolean>, limitMs = 30_000): Promise<number> {
  const started = performance.now()
  for (;;) {
    const bounded = Promise.race([check().catch(() => false), sleep(2000).then(() => false)])
    if (await bounded) return (performance.now() - started) / 1000
    if (performance.now() - started > limitMs) throw new Error(`${what}: not within ${limitMs / 1000} s`)
    await sleep(50)
  }
}

/** Every process this suite started, so that none outlives it even when a case fails half way (killAll). */
const children = new Set<ChildProcess>()
export function track(child: ChildProcess): ChildProcess {
  children.add(child)
  child.once('exit', () => children.delete(child))
  return child
}
export function killAll(): number {
  let n = 0
  for (const child of children) if (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')) n += 1
  return n
}
