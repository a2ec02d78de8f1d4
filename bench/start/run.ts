// `npm run bench:start` (issue 15 item 6): the compiled server (build/server/main.js) on the embedded database:
// a first start on a new data folder, then a later start on the same folder. For each: milliseconds from spawn
// to the first 200 of /api/v1/health, and the peak resident memory (VmHWM). Prints the load average beside.
// Then `npm start` itself, started and restarted with nothing changed (issue 22 item 13: a restart took 66 s, all
// of it rebuilding): seconds from `npm start` to the first answer, the build check included.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../test/e2e/support/server.ts'

async function start(dataDir: string, label: string) {
  const port = await freePort()
  const started = Date.now()
  const child = spawn(process.execPath, ['build/server/main.js'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', JWT_SECRET: 'bench-start', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  let ms = -1
  let peakKb = 0
  const rss = () => {
    try {
      const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))
      if (m) peakKb = Math.max(peakKb, Number(m[1]))
    } catch {}
  }
  for (let i = 0; i < 1200 && ms < 0; i++) {
    rss()
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`)
      if (res.status === 200) ms = Date.now() - started
    } catch {}
    if (ms < 0) await new Promise((r) => setTimeout(r, 25))
  }
  rss()
  child.kill('SIGTERM')
  await new Promise((r) => child.once('exit', r))
  console.log(
    `${label.padEnd(28)} first answer ${ms < 0 ? 'never (30 s)' : `${(ms / 1000).toFixed(2)} s`}  peak resident ${(peakKb / 1024).toFixed(0)} MB  load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
}

/** `npm start` from spawn to the first 200 (the build check, a build if one is due, the server's start); then stopped. */
async function npmStart(dataDir: string, label: string) {
  const port = await freePort()
  const started = Date.now()
  const child = spawn('npm', ['start'], {
    detached: true,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', JWT_SECRET: 'bench-start', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  let ms = -1
  while (ms < 0 && Date.now() - started < 600_000) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status === 200) ms = Date.now() - started
    } catch {}
    if (ms < 0) await new Promise((r) => setTimeout(r, 50))
  }
  process.kill(-child.pid!, 'SIGTERM')
  await new Promise((r) => child.once('exit', r))
  console.log(
    `${label.padEnd(28)} first answer ${ms < 0 ? 'never (10 min)' : `${(ms / 1000).toFixed(1)} s`}  load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-'))
try {
  await start(dataDir, 'first start (new folder)')
  await start(dataDir, 'later start (same folder)')
  await npmStart(dataDir, 'npm start')
  await npmStart(dataDir, 'npm start again, unchanged')
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
