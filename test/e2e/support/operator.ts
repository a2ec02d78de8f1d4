// What an organiser does between two steps of a walk: move an event to another state with the operator
// command line (`npm run cli -- event:state`, API.md). The embedded database is single-process, so, as the CLI's
// usage says, the server is stopped first and started again afterwards on the same DATA_DIR and the same port
// (same origin: the browser keeps its stored tokens; same JWT secret, kept in DATA_DIR: the tokens stay valid).
import { spawn } from 'node:child_process'
import { startServer, type RunningServer } from './server.ts'

/** Runs one CLI command on the embedded database in `dataDir` and returns what it printed (JSON). */
export function cli(dataDir: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/index.ts', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`cli ${args.join(' ')} exited ${code}: ${err || out}`)),
    )
  })
}

/** One statement on the embedded database in `dataDir` (the server must be stopped); returns the rows. */
export function query(dataDir: string, sql: string): Promise<Record<string, unknown>[]> {
  // A child process, as the CLI is: PGlite's WebAssembly stays out of the test runner.
  const script = `
    import { PGlite } from '@electric-sql/pglite'
    const db = new PGlite(process.env.DATA_DIR)
    try { process.stdout.write(JSON.stringify((await db.query(process.env.SQL)).rows)) } finally { await db.close() }`
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, DATA_DIR: dataDir, SQL: sql },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`query failed (${code}): ${err}`))))
  })
}

/**
 * Stops `server`, runs each `event:state` move (and `more`, while the database is free), and starts the server
 * again on the same data and port. Returns the new handle; the URL is unchanged.
 */
export async function moveEvents(
  server: RunningServer,
  moves: [id: number, state: string][],
  more?: (dataDir: string) => Promise<void>,
): Promise<RunningServer> {
  const { port } = new URL(server.url)
  await server.stop()
  for (const [id, state] of moves) {
    const printed = JSON.parse(await cli(server.dataDir, ['event:state', String(id), state]))
    if (printed.state !== state) throw new Error(`event ${id} is ${printed.state}, not ${state}`)
  }
  await more?.(server.dataDir)
  return startServer({ DATA_DIR: server.dataDir, PORT: port, APP_URL: server.url })
}
