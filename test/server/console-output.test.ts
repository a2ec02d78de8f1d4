// Issue 14, item 10: what the server prints for the person who started it. LOG_FORMAT decides JSON or readable
// lines (a terminal gets readable ones, a pipe JSON); the readable lines keep the masking of the logger; and the
// real server process, on its first start, says where the app is, that demo data was loaded, and to use a
// phone-sized window.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config.ts'
import { logFormat, loggerFor, prettyLine, startupLines } from '../../server/console-output.ts'
import { freePort } from '../e2e/support/server.ts'
import { testApp } from './helpers.ts'

describe('LOG_FORMAT', () => {
  it.each([
    [{}, true, 'pretty'],
    [{}, false, 'json'],
    [{ LOG_FORMAT: 'json' }, true, 'json'],
    [{ LOG_FORMAT: 'pretty' }, false, 'pretty'],
    [{ LOG_FORMAT: ' JSON ' }, true, 'json'],
    [{ LOG_FORMAT: '' }, false, 'json'],
  ] as const)('%j on a terminal: %s → %s', (env, terminal, format) => {
    expect(logFormat(env, terminal)).toBe(format)
  })

  it('refuses another value, naming the two it takes', () => {
    expect(() => logFormat({ LOG_FORMAT: 'yaml' }, true)).toThrow('LOG_FORMAT must be json or pretty, not "yaml"')
  })

  it('JSON gives the logger no stream of its own (pino writes JSON lines to stdout)', () => {
    expect(loggerFor({ LOG_LEVEL: 'warn' }, { write: () => {}, isTTY: false })).toEqual({ level: 'warn' })
  })
})

describe('readable lines', () => {
  it('shows time, level and message, the request as method and path, the answer as status and time', () => {
    const time = new Date(2026, 10, 21, 9, 5, 7).getTime()
    expect(
      prettyLine(
        JSON.stringify({
          level: 30,
          time,
          pid: 1,
          hostname: 'h',
          reqId: 'req-1',
          req: { method: 'POST', url: '/api/v1/event/p/get' },
          msg: 'incoming request',
        }),
      ),
    ).toBe('09:05:07 INFO  incoming request POST /api/v1/event/p/get (req-1)')
    expect(prettyLine(JSON.stringify({ level: 30, time, reqId: 'req-1', res: { statusCode: 200 }, responseTime: 3.14159, msg: 'request completed' }))).toBe(
      '09:05:07 INFO  request completed 200 3.1 ms (req-1)',
    )
    expect(prettyLine(JSON.stringify({ level: 40, time, status: 409, reason: 'Tickets are sold out.', msg: 'refused' }))).toBe(
      '09:05:07 WARN  refused status=409 reason=Tickets are sold out.',
    )
    expect(prettyLine('not json')).toBe('not json')
  })

  it('a server logging to a terminal prints readable lines, still without tokens or phone numbers', async () => {
    const out: string[] = []
    const logger = loggerFor({ LOG_FORMAT: 'pretty' }, { write: (text) => out.push(text), isTTY: false })
    const t = await testApp({ app: { logger } })
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/user/p/me?accessToken=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc',
        headers: { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc' },
      })
      expect(res.statusCode).toBe(401)
      t.app.log.info({ detail: 'call 9876543210' }, 'a note')
    } finally {
      await t.close()
    }
    const text = out.join('')
    // One line for the refused request (plugins/logging.ts requestLog): the request, its time, status and reason.
    expect(text).toMatch(
      /^\d\d:\d\d:\d\d INFO  refused POST \/api\/v1\/user\/p\/me\?accessToken=\[redacted\] \d+\.\d ms status=401 reason=Invalid Token route=\/api\/v1\/user\/p\/me \(req-1\)$/m,
    )
    expect(text).toMatch(/a note detail=call \[phone\]/)
    expect(text).not.toMatch(/eyJ|9876543210|^\{/m)
  })
})

describe('the startup lines', () => {
  const config = (env: NodeJS.ProcessEnv = {}) => loadConfig({ APP_URL: 'http://localhost:3000', STATIC_DIR: join(tmpdir(), 'no-build-here'), ...env })

  it('without a build: where the API is and how to build the app; demo data loaded with its counts', () => {
    const lines = startupLines({ config: config(), demo: { councils: { a: 1, b: 2 }, events: { x: 1, y: 2, z: 3 } } })
    expect(lines).toEqual([
      'The API is running at http://localhost:3000/api/v1, but the app is not built (no ' +
        join(tmpdir(), 'no-build-here') +
        '/index.html): run npm run build, or npm start, which builds it first.',
      'Demo data loaded: 2 councils and 3 events, dated around today (only on a first start; later starts keep the data as it is).',
    ])
  })

  it('a later start says no demo data was added', () => {
    expect(startupLines({ config: config(), demo: null })[1]).toBe(
      'Demo data: not loaded, the database already holds councils (demo data is only loaded into an empty one).',
    )
  })

  it('the real server on a first start, its output piped: JSON lines saying where the app is, the demo data and a phone-sized window; LOG_FORMAT=pretty makes them readable', async () => {
    const run = async (env: Record<string, string>) => {
      const port = await freePort()
      const dataDir = mkdtempSync(join(tmpdir(), 'campus-console-'))
      // A built app to serve, whether or not dist/ has been built in this checkout.
      mkdirSync(join(dataDir, 'static'))
      writeFileSync(join(dataDir, 'static/index.html'), '<!doctype html><title>app</title>')
      let output = ''
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          APP_URL: `http://localhost:${port}`,
          DATA_DIR: dataDir,
          STATIC_DIR: join(dataDir, 'static'),
          LOG_LEVEL: 'info',
          NODE_ENV: 'test',
          DATABASE_URL: '',
          REDIS_URL: '',
          GOOGLE_CLIENT_ID: '',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child.stdout.on('data', (d) => (output += d))
      child.stderr.on('data', (d) => (output += d))
      try {
        const deadline = Date.now() + 60_000
        while (!/Google sign-in is not configured/.test(output)) {
          if (child.exitCode !== null || Date.now() > deadline) throw new Error(`server did not announce itself:\n${output}`)
          await new Promise((r) => setTimeout(r, 100)) // kept: the step of a poll for the line
        }
      } finally {
        // (An exit already seen fires no second 'exit': waiting for one would hang the test.)
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((r) => child.once('exit', r))
          child.kill('SIGTERM')
          await exited
        }
        rmSync(dataDir, { recursive: true, force: true })
      }
      return { output, port }
    }

    const piped = await run({})
    const entries = piped.output
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
    const messages = entries.map((e) => e.msg as string)
    const where = messages.find((m) => m.includes(`http://localhost:${piped.port}`))
    expect(where).toMatch(/phone-sized window/)
    expect(messages.some((m) => /^Demo data loaded: \d+ councils and \d+ events/.test(m))).toBe(true)
    expect(entries.find((e) => /Google sign-in is not configured/.test(e.msg)).level).toBe(40)

    const pretty = await run({ LOG_FORMAT: 'pretty' })
    expect(pretty.output).toMatch(/^\d\d:\d\d:\d\d INFO  Demo data loaded: \d+ councils and \d+ events/m)
    expect(pretty.output).toMatch(/^\d\d:\d\d:\d\d WARN  Google sign-in is not configured/m)
    expect(pretty.output).not.toMatch(/^\{/m)
  }, 120_000)
})
