// Set-up for the offline, update, accessibility walks and the load benchmark: a signed-in, onboarded student,
// an organiser's state moves through the operator CLI (the embedded database is single-process, so the server
// is stopped for it and started again on the same port and data: same origin, same tokens), and a collected
// ticket.
import { spawn } from 'node:child_process'
import type { Page } from '@playwright/test'
import { startServer, type RunningServer } from './support/server.ts'

export interface Tokens {
  accessToken: string
  refreshToken: string
}

export async function call<T = any>(url: string, token: string | null, path: string, body: unknown = true): Promise<T> {
  const res = await fetch(`${url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  const data = await res.json().catch(() => null)
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(data)}`)
  return data as T
}

let count = 0

/** Signs in through the development sign-in form (as the browser posts it); onboarding not done. */
export async function newcomer(url: string, name = 'Kabir Shah'): Promise<Tokens> {
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, '.')}.${process.pid}.${++count}.${Date.now()}@example.edu`
  const res = await fetch(`${url}/api/v1/auth/dev`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name, email }).toString(),
    redirect: 'manual',
  })
  const location = res.headers.get('location') ?? ''
  const fragment = new URLSearchParams(location.slice(location.indexOf('#') + 1))
  const tokens = { accessToken: fragment.get('accessToken') ?? '', refreshToken: fragment.get('refreshToken') ?? '' }
  if (!tokens.accessToken || !tokens.refreshToken) throw new Error(`development sign-in failed: ${res.status} ${location}`)
  return tokens
}

/** Signs in through the development sign-in form (as the browser posts it) and completes onboarding. */
export async function student(url: string, name = 'Meera Iyer'): Promise<Tokens> {
  const tokens = await newcomer(url, name)
  const n = count
  const { user } = await call(url, tokens.accessToken, '/user/p/me')
  await call(url, tokens.accessToken, '/user/p/update', {
    phone_number: `98${String(10_000_000 + n * 7919 + (process.pid % 1000)).slice(-8)}`,
    roll_number: `16010${String(100000 + n)}`,
    gender: 'FEMALE',
    year: 2027,
    branch: 'Computer_Engineering',
    interests: ['Web Development', 'AI/ML'],
    degree: 'B.tech',
    college: 'KJSCE',
    id: user.id,
  })
  return tokens
}

/** Puts the tokens where the app keeps them (SPEC §3), from a page of the app's origin. */
export async function signIn(page: Page, url: string, tokens: Tokens) {
  await page.goto(url + '/login')
  await page.evaluate((t) => {
    localStorage.setItem('accessToken', t.accessToken)
    localStorage.setItem('refreshToken', t.refreshToken)
  }, tokens)
}

function cli(dataDir: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/index.ts', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (out += d))
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`cli ${args.join(' ')}: ${code} ${out}`))))
  })
}

/** Stops the server, moves an event to `state`, starts it again on the same port and data. */
export async function moveEvent(server: RunningServer, id: number, state: string, env: Record<string, string> = {}) {
  const { port } = new URL(server.url)
  await server.stop()
  await cli(server.dataDir, ['event:state', String(id), state])
  return startServer({ ...env, PORT: port, DATA_DIR: server.dataDir })
}

/** The id of the demo event named `name`. */
export async function eventId(url: string, token: string, name: string): Promise<number> {
  const { events } = await call(url, token, '/event/p/get')
  const found = Object.values(events as Record<string, { id: number; name: string }[]>)
    .flat()
    .find((e) => e.name === name)
  if (!found) throw new Error(`no demo event named ${name}`)
  return found.id
}

/**
 * Garba Night (demo data, tickets enabled) opened for registration, the student registered, tickets opened and
 * the student's ticket collected. Returns the restarted server, the event id and the ticket code.
 */
export async function collectedTicket(server: RunningServer, tokens: Tokens, env: Record<string, string> = {}) {
  const id = await eventId(server.url, tokens.accessToken, 'Garba Night')
  server = await moveEvent(server, id, 'REGISTRATION_OPEN', env)
  await call(server.url, tokens.accessToken, '/event/p/register-for-event', { event_id: id })
  server = await moveEvent(server, id, 'TICKET_OPEN', env)
  const { ticket_code } = await call(server.url, tokens.accessToken, '/event/p/claim-ticket', { event_id: id })
  return { server, id, code: ticket_code as string }
}

/** Resolves once a service worker controls the page (installed, activated and claimed it). */
export async function controlledBySW(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, { timeout: 30_000 })
}
