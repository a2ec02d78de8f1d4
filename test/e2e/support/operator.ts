// What an organiser does between two steps of a walk: move an event to another state with the operator
// command line (`npm run cli -- event:state`, API.md). The embedded database is single-process, so, as the CLI's
// usage says, the server is stopped first and started again afterwards on the same DATA_DIR and the same port
// (same origin: the browser keeps its stored tokens; same JWT secret, kept in DATA_DIR: the tokens stay valid).
import { spawn } from 'node:child_process'
import { startServer, type RunningServer } from './server.ts'

/** Runs node with `args` to its end; what it printed on stdout and stderr, kept apart. */
function runNode(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    child.once('error', reject)
    child.once('exit', (code) => resolve({ code, out, err }))
  })
}

/** Runs one CLI command on the embedded database in `dataDir` and returns what it printed (JSON). */
export async function cli(dataDir: string, args: string[]): Promise<string> {
  const { code, out, err } = await runNode(['--import', 'tsx', 'server/cli/index.ts', ...args], {
    DATA_DIR: dataDir,
    NODE_ENV: 'test',
  })
  if (code !== 0) throw new Error(`cli ${args.join(' ')} exited ${code}: ${err || out}`)
  return out
}

/** One statement on the embedded database in `dataDir` (the server must be stopped); returns the rows. */
export async function query(dataDir: string, sql: string): Promise<Record<string, unknown>[]> {
  // A child process, as the CLI is: PGlite's WebAssembly stays out of the test runner.
  const script = `
    import { PGlite } from '@electric-sql/pglite'
    const db = new PGlite(process.env.DATA_DIR)
    try { process.stdout.write(JSON.stringify((await db.query(process.env.SQL)).rows)) } finally { await db.close() }`
  const { code, out, err } = await runNode(['--input-type=module', '-e', script], { DATA_DIR: dataDir, SQL: sql })
  if (code !== 0) throw new Error(`query failed (${code}): ${err}`)
  return JSON.parse(out)
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
  return startServer({ ...server.env, DATA_DIR: server.dataDir, PORT: port, APP_URL: server.url })
}
