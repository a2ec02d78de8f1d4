// Issue 37 item 4: roles without a restart. With the embedded database the command line refused while the server ran,
// so a council's first admin or organiser cost a restart. Now ADMIN_EMAILS makes those accounts admins at sign-in,
// and every operator command run while the server holds the folder is run by that server.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rowsOf } from '../../server/db/outcomes.ts'
import { testApp, type TestApp } from './helpers.ts'
import { type Server, startServer } from './spawned-server.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const exec = promisify(execFile)

/** The development sign-in as the app's form posts it; answers the access token of the redirect's fragment. */
async function signIn(send: (body: Record<string, string>) => Promise<{ status: number; location: string }>, email: string) {
  const { status, location } = await send({ name: 'Asha Admin', email })
  expect(status).toBe(302)
  return new URLSearchParams(location.split('#')[1]).get('accessToken')!
}

describe('ADMIN_EMAILS (in process)', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ env: { ADMIN_EMAILS: ' First@College.edu , second@college.edu' } })
  }, 60_000)
  afterAll(() => t.close())

  const send = async (body: Record<string, string>) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/dev', payload: body })
    return { status: res.statusCode, location: String(res.headers.location) }
  }
  const me = async (token: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/v1/user/p/me', headers: { authorization: `Bearer ${token}` }, payload: {} })).json().user

  it('an account signing in with a listed e-mail (any case) is an admin from that sign-in, audited once; others are not', async () => {
    const token = await signIn(send, 'first@college.edu')
    expect((await me(token)).roles.admin).toBe(true)
    // Admin calls work at once: the console's councils.
    const councils = await t.app.inject({
      method: 'POST',
      url: '/api/v1/org/p/council/save',
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'Robotics Council' },
    })
    expect(councils.statusCode).toBe(200)
    await signIn(send, 'FIRST@college.edu')
    const audit = rowsOf(await t.database.db.execute(sql`SELECT actor_kind, action, after FROM audit_log WHERE action = 'role.grant'`))
    expect(audit).toEqual([{ actor_kind: 'config', action: 'role.grant', after: expect.objectContaining({ role: 'admin', by: 'ADMIN_EMAILS' }) }])
    const other = await signIn(send, 'student@college.edu')
    expect((await me(other)).roles.admin).toBe(false)
  })
})

describe('the command line while the server runs on the embedded database', () => {
  let work: string
  let server: Server
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'roles-live-'))
    server = await startServer(join(work, 'data'), { JWT_SECRET: 'roles-live-secret-0123456789' })
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
    rmSync(work, { recursive: true, force: true })
  })

  const cli = async (...args: string[]) => {
    try {
      const { stdout } = await exec(process.execPath, ['--import', 'tsx', 'server/cli/index.ts', ...args], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: '', DATA_DIR: join(work, 'data'), JWT_SECRET: 'roles-live-secret-0123456789' },
        timeout: 60_000,
      })
      return { code: 0, out: stdout, err: '' }
    } catch (err) {
      const e = err as { code?: number; stdout?: string; stderr?: string }
      return { code: typeof e.code === 'number' ? e.code : 1, out: e.stdout ?? '', err: e.stderr ?? '' }
    }
  }

  it('role:grant, councils and token are run by the server, and the role works at once; a mistake is printed as before', async () => {
    const form = async (body: Record<string, string>) => {
      const res = await fetch(`${server.url}/api/v1/auth/dev`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        redirect: 'manual',
      })
      return { status: res.status, location: res.headers.get('location') ?? '' }
    }
    const token = await signIn(form, 'bela@college.edu')
    const councils = await cli('councils')
    expect(councils.code, councils.err).toBe(0)
    const slug = JSON.parse(councils.out)[0].slug as string
    const granted = await cli('role:grant', 'bela@college.edu', 'organizer', slug)
    expect(granted.code, granted.err).toBe(0)
    const councilId = JSON.parse(granted.out).roles.councils[0]
    const me = await fetch(`${server.url}/api/v1/user/p/me`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    })
    expect((await me.json()).user.roles.councils).toEqual([councilId])
    const minted = await cli('token', 'support@college.edu')
    expect(minted.code, minted.err).toBe(0)
    const supportMe = await fetch(`${server.url}/api/v1/user/p/me`, {
      method: 'POST',
      headers: { authorization: `Bearer ${JSON.parse(minted.out).accessToken}`, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(supportMe.status).toBe(200)
    const wrong = await cli('role:grant', 'nobody@college.edu', 'admin')
    expect(wrong.code).toBe(1)
    expect(wrong.err).toContain('No user with the e-mail nobody@college.edu has signed in yet')
    // The server is still the folder's one writer, and still running.
    expect(server.child.exitCode).toBeNull()
  }, 120_000)
})
