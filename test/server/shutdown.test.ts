// Graceful shutdown (issue 6), on the real server process (server/main.ts): SIGTERM lets a request in flight
// finish, refuses new connections, closes the database and exits within 10 s. The request is held in
// flight the way a slow phone holds one: its body arrives in two parts, with SIGTERM in between.
import { spawn, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { freePort } from '../e2e/support/server.ts'

interface Server {
  child: ChildProcess
  port: number
  dataDir: string
  log: () => string
  exited: Promise<{ code: number | null; at: number }>
}

async function start(): Promise<Server> {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'campus-shutdown-'))
  let log = ''
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      STATIC_DIR: join(dataDir, 'none'),
      LOG_LEVEL: 'info',
      NODE_ENV: 'test',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.once('exit', (code) => resolve({ code, at: Date.now() })))
  // Starting is not what is tested (exiting is): a loaded machine took over 60 s to start it through tsx.
  const deadline = Date.now() + 150_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`)
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status === 200) break
    } catch {}
    if (Date.now() > deadline) {
      // Not left running when the test gives up on it (a loaded machine once left one behind, holding its port).
      child.kill('SIGKILL')
      throw new Error(`server did not start:\n${log}`)
    }
    await new Promise((r) => setTimeout(r, 200)) // kept: the step of a poll until the server answers
  }
  return { child, port, dataDir, log: () => log, exited }
}

/** A POST whose body is sent in two parts; the second part is sent when `finish` is called. */
function slowPost(port: number, path: string, body: string) {
  const half = Math.floor(body.length / 2)
  // biome-ignore lint/style/useConst: assigned inside the request callback below
  let answer!: Promise<{ status: number; headers: Record<string, unknown>; text: string }>
  const req = request({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
  })
  answer = new Promise((resolve, reject) => {
    req.on('response', (res) => {
      let text = ''
      res.on('data', (d) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }))
    })
    req.on('error', reject)
  })
  req.write(body.slice(0, half))
  return { finish: () => req.end(body.slice(half)), answer }
}

let running: Server | undefined
afterEach(() => {
  if (running?.child.exitCode === null) running.child.kill('SIGKILL')
  running = undefined
})

describe('graceful shutdown of server/main.ts', () => {
  it('SIGTERM: the request in flight completes (and its write is kept), new connections are refused, exit 0 within 10 s', async () => {
    const s = (running = await start())
    const inFlight = slowPost(s.port, '/api/v1/auth/dev', 'name=Late+Student&email=late%40example.edu')
    // Kept: the server's reading of the headers cannot be seen from outside its process; 300 ms stands for it.
    await new Promise((r) => setTimeout(r, 300))

    const signalled = Date.now()
    s.child.kill('SIGTERM')

    // The listener closes: a new connection is refused (or, on a connection already open, 503). Asked until it is
    // (it waited a fixed 500 ms), while the request in flight stays unfinished.
    const fresh = () =>
      fetch(`http://127.0.0.1:${s.port}/api/v1/health`).then(
        (r) => `status ${r.status}`,
        (e) => String(e.cause?.code ?? e),
      )
    await expect.poll(fresh, { timeout: 10_000, interval: 50 }).toMatch(/ECONNREFUSED|status 503/)
    const closedAfter = Date.now() - signalled

    inFlight.finish()
    const res = await inFlight.answer
    expect(res.status).toBe(302)
    expect(String(res.headers.location)).toMatch(/\/login#accessToken=[^&]+&refreshToken=/)

    const { code, at } = await s.exited
    console.log(`shutdown: listener closed ${closedAfter} ms and exit ${code} ${at - signalled} ms after SIGTERM (the in-flight request finished between)`)
    expect(code).toBe(0)
    expect(at - signalled).toBeLessThan(10_000)
    expect(s.log()).toMatch(/shutting down/)

    // The database was closed cleanly and holds the write of the request that was in flight.
    const { PGlite } = await import('@electric-sql/pglite')
    const db = new PGlite(s.dataDir)
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE email = 'late@example.edu'`)
    await db.close()
    expect(rows[0].n).toBe(1)
  }, 240_000)

  it('a request that never finishes does not hold the process: it exits within 10 s anyway', async () => {
    const s = (running = await start())
    const stuck = slowPost(s.port, '/api/v1/auth/dev', 'name=Never+Finishes&email=never%40example.edu') // never finished
    const dropped = stuck.answer.then(
      () => 'answered',
      (e) => String(e.code),
    )
    // Kept: the server's reading of the headers cannot be seen from outside its process; 300 ms stands for it.
    await new Promise((r) => setTimeout(r, 300))
    const signalled = Date.now()
    s.child.kill('SIGTERM')
    const { code, at } = await s.exited
    expect(at - signalled).toBeLessThan(10_000)
    expect(code).toBe(1) // the deadline in main.ts, not a clean close: the request was cut off
    expect(await dropped).toBe('ECONNRESET')
  }, 240_000)
})
