// What the server prints, for the person who started it (issue 14): where the app is, whether demo data was
// loaded, how to sign in without Google, and to use a phone-sized window; and the logs, as JSON lines for a log
// collector, or as short readable lines on a terminal. LOG_FORMAT=json|pretty chooses; by default a terminal gets
// pretty and anything else (a pipe, a file, a container's log driver) gets JSON.
// The pretty printer is written here (~40 lines) rather than taken from pino-pretty: that package brings thirteen
// more, one of which (strip-json-comments 5.1) asks for Node 22, and this app runs on Node 20.
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Config } from './config.ts'
import type { ImportResult } from './db/events/catalogue.ts'

export type LogFormat = 'json' | 'pretty'

/** LOG_FORMAT if set (json or pretty), else pretty on a terminal and JSON anywhere else. */
export function logFormat(env: NodeJS.ProcessEnv, isTerminal: boolean): LogFormat {
  const asked = (env.LOG_FORMAT ?? '').trim().toLowerCase()
  if (asked === 'json' || asked === 'pretty') return asked
  if (asked) throw new Error(`LOG_FORMAT must be json or pretty, not "${env.LOG_FORMAT}"`)
  return isTerminal ? 'pretty' : 'json'
}

interface Output {
  write(text: string): unknown
  isTTY?: boolean
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' }
const clock = (time: unknown) => new Date(typeof time === 'number' ? time : Date.now()).toTimeString().slice(0, 8)
const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

/** One JSON log line (already masked by the logger) as one readable line: time, level, message, the rest. */
export function prettyLine(json: string): string {
  let entry: Record<string, unknown>
  try {
    entry = JSON.parse(json)
  } catch {
    return json.trimEnd()
  }
  const { level, time, msg, pid: _pid, hostname: _host, reqId, req, res, responseTime, ...rest } = entry
  const parts = [clock(time), LEVELS[level as number] ?? String(level), msg === undefined ? '' : String(msg)]
  // Fastify's two request lines: the method and path going in, the status and time coming out.
  if (req && typeof req === 'object') parts.push(`${(req as any).method} ${(req as any).url}`)
  if (res && typeof res === 'object') parts.push(`${(res as any).statusCode}`)
  if (typeof responseTime === 'number') parts.push(`${responseTime.toFixed(1)} ms`)
  for (const [key, value] of Object.entries(rest)) parts.push(`${key}=${shown(value)}`)
  if (reqId !== undefined) parts.push(`(${reqId})`)
  return parts.filter(Boolean).join(' ')
}

/** Fastify's logger options for this process: the level, and a pretty stream when the format is pretty. */
export function loggerFor(env: NodeJS.ProcessEnv = process.env, out: Output = process.stdout): Record<string, unknown> {
  const level = env.LOG_LEVEL || 'info'
  if (logFormat(env, !!out.isTTY) === 'json') return { level }
  const stream = {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line) out.write(prettyLine(line) + '\n')
    },
  }
  return { level, stream }
}

export interface Started {
  config: Config
  /** What the demo import wrote on this start; null when nothing was imported (later starts, production). */
  demo: ImportResult | null
}

/** The lines a person needs once the server listens. */
export function startupLines({ config, demo }: Started): string[] {
  const built = !!config.staticDir && existsSync(resolve(config.staticDir, 'index.html'))
  const lines = [
    built
      ? `CSI Events is running at ${config.appUrl} — open it in a phone-sized window (your browser's device mode): on a wide window the app only asks for a mobile device.`
      : `The API is running at ${config.appUrl}/api/v1, but the app is not built (no ${config.staticDir}/index.html): run npm run build, or npm start, which builds it first.`,
  ]
  if (demo) {
    lines.push(
      `Demo data loaded: ${Object.keys(demo.councils).length} councils and ${Object.keys(demo.events).length} events, dated around today (only on a first start; later starts keep the data as it is).`,
    )
  } else if (!config.production) {
    lines.push('Demo data: not loaded, the database already holds councils (demo data is only loaded into an empty one).')
  }
  return lines
}

/** Prints the startup lines through the server's logger (a JSON line each, or a readable one on a terminal). */
export function announceStart(app: FastifyInstance, started: Started) {
  for (const line of startupLines(started)) app.log.info(line)
  if (!started.config.google) {
    app.log.warn('Google sign-in is not configured: "Continue with Google" opens a development sign-in form (any name and e-mail).')
  }
}
