// Sessions through the real routes: development sign-in, refresh-token rotation, reuse detection,
// idle and absolute expiry, logout, and the refresh race on every database kind.
import { eq } from 'drizzle-orm'
import webpush from 'web-push'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { hashRefreshToken } from '../../server/db/people/sessions.ts'
import { inlineStyleHashes } from '../../server/plugins/security-headers.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

const FORM = { 'content-type': 'application/x-www-form-urlencoded' }
const JSON_HEADERS = { 'content-type': 'application/json' }
const INVALID = { error: true, message: 'Invalid Token', code: 'INVALID_TOKEN' }

/** The fragment of a redirect to /login as a map. */
function fragmentOf(location: string | undefined) {
  expect(location).toBeTruthy()
  const url = new URL(location!)
  expect(url.origin + url.pathname).toBe('http://app.test/login')
  expect(url.search).toBe('') // tokens and errors never travel in the query
  return Object.fromEntries(new URLSearchParams(url.hash.slice(1)))
}

async function devSignIn(t: TestApp, name: string, email: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/dev', headers: FORM, payload: new URLSearchParams({ name, email }).toString() })
  expect(res.statusCode).toBe(302)
  expect(res.headers['cache-control']).toBe('no-store')
  const f = fragmentOf(res.headers.location as string)
  expect(f.accessToken).toBeTruthy()
  expect(f.refreshToken).toBeTruthy()
  return { accessToken: f.accessToken, refreshToken: f.refreshToken }
}

const refresh = (t: TestApp, refreshToken: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh-token', headers: JSON_HEADERS, payload: JSON.stringify({ refreshToken }) })
const me = (t: TestApp, accessToken: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/user/p/me', headers: { ...JSON_HEADERS, authorization: `Bearer ${accessToken}` }, payload: 'true' })
const logout = (t: TestApp, refreshToken: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: JSON_HEADERS, payload: JSON.stringify({ refreshToken }) })

describe('development sign-in', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp()
  })
  afterAll(() => t.close())

  it('GET /auth/google shows a labelled form without Google settings, with no script and only its own hashed style', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/google' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    const html = res.body
    expect(html).toContain('<title>Development sign-in — not Google</title>')
    expect(html).toContain('<h1>Development sign-in — not Google</h1>')
    expect(html).toMatch(/<form method="post" action="\/api\/v1\/auth\/dev">/)
    expect(html).toContain('<label for="dev-name">Name</label>')
    expect(html).toContain('<input id="dev-name" name="name"')
    expect(html).toContain('<label for="dev-email">E-mail</label>')
    expect(html).toContain('<input id="dev-email" name="email" type="email"')
    expect(html).toContain('<button type="submit">Sign in</button>')
    expect(html).not.toMatch(/<script|style=/i)
    // Issue 14: styled like the app, light and dark, by one <style> the policy allows by its hash and nothing else.
    const styles = inlineStyleHashes(html)
    expect(styles).toHaveLength(1)
    expect(html).toContain('@media (prefers-color-scheme: dark)')
    const policy = String(res.headers['content-security-policy'])
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain(`style-src ${styles[0]};`)
    expect(policy).not.toMatch(/unsafe-inline|script-src/)
  })

  it('POST /auth/dev creates the user (issuer dev, subject = lower-cased e-mail) and redirects with tokens in the fragment', async () => {
    const tokens = await devSignIn(t, '  Priya Shah ', 'Priya.Shah@Example.edu ')
    const user = (await me(t, tokens.accessToken)).json().user
    expect(user).toMatchObject({ name: 'Priya Shah', email: 'priya.shah@example.edu', phone_number: null, roll_number: null })
    const [row] = await t.database.db.select().from(schema.users).where(eq(schema.users.id, user.id))
    expect(row.issuer).toBe('dev')
    expect(row.subject).toBe('priya.shah@example.edu')
    // The refresh token is stored only as its hash.
    const stored = await t.database.db.select().from(schema.refreshTokens)
    expect(stored.some((r) => r.tokenHash === tokens.refreshToken)).toBe(false)
    expect(stored.some((r) => r.tokenHash === hashRefreshToken(tokens.refreshToken))).toBe(true)
  })

  it("carries the app's one-time sign-in value (state) through the form and back beside the tokens (login CSRF, issue 10)", async () => {
    const state = 'AbC_-0123456789xyzXYZ0123456789abcdefghijk'
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/auth/google?state=${state}` })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain(`<input type="hidden" name="state" value="${state}">`)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/dev',
      headers: FORM,
      payload: new URLSearchParams({ name: 'Asha', email: 'asha.state@example.edu', state }).toString(),
    })
    expect(res.statusCode).toBe(302)
    const f = fragmentOf(res.headers.location as string)
    expect(f.state).toBe(state)
    expect(f.accessToken).toBeTruthy()
    // Without a state (an old client), the tokens come back without one: the app ignores them.
    const plain = await devSignIn(t, 'Asha', 'asha.state@example.edu')
    expect(plain.accessToken).toBeTruthy()
  })

  it.each([
    ['too short', 'abc'],
    ['with other characters', 'a'.repeat(20) + '<script>'],
    ['too long', 'a'.repeat(129)],
  ])('refuses a sign-in state %s (400 naming state), at the start and at the form', async (_n, state) => {
    const start = await t.app.inject({ method: 'GET', url: `/api/v1/auth/google?state=${encodeURIComponent(state)}` })
    expect(start.statusCode).toBe(400)
    expect(start.json().message).toMatch(/^state /)
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/dev',
      headers: JSON_HEADERS,
      payload: JSON.stringify({ name: 'A', email: 'a.bad.state@example.edu', state }),
    })
    expect(post.statusCode).toBe(400)
    expect(post.json().message).toMatch(/^state /)
    expect(await t.database.db.select().from(schema.users).where(eq(schema.users.email, 'a.bad.state@example.edu'))).toEqual([])
  })

  it('signs the same person in again as the same user, keeping the onboarding fields', async () => {
    const first = await devSignIn(t, 'Ravi', 'ravi@example.edu')
    const id = (await me(t, first.accessToken)).json().user.id
    await t.database.db.update(schema.users).set({ phoneNumber: '9999999999', rollNumber: 'R9' }).where(eq(schema.users.id, id))
    const again = await devSignIn(t, 'Ravi K', 'RAVI@example.edu')
    const user = (await me(t, again.accessToken)).json().user
    expect(user).toMatchObject({ id, name: 'Ravi K', phone_number: '9999999999', roll_number: 'R9' })
  })

  it.each([
    ['name missing', { email: 'a@example.edu' }, 'Name is a required field'],
    ['name blank', { name: '   ', email: 'a@example.edu' }, 'Name is a required field'],
    ['name too long', { name: 'x'.repeat(81), email: 'a@example.edu' }, 'Name must be at most 80 characters'],
    ['e-mail missing', { name: 'A' }, 'E-mail is a required field'],
    ['e-mail without @', { name: 'A', email: 'not-an-email' }, 'E-mail must be a valid address, like name@example.com'],
    ['e-mail with a space', { name: 'A', email: 'a b@example.edu' }, 'E-mail must be a valid address, like name@example.com'],
  ])('refuses %s with the form again (400), creating nobody', async (_n, fields, message) => {
    const before = (await t.database.db.select().from(schema.users)).length
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/dev',
      headers: FORM,
      payload: new URLSearchParams(fields as Record<string, string>).toString(),
    })
    expect(res.statusCode).toBe(400)
    expect(res.headers.location).toBeUndefined()
    expect(res.body).toContain(`<p role="alert" id="dev-error"><strong>${message}</strong></p>`)
    expect((await t.database.db.select().from(schema.users)).length).toBe(before)
  })

  it('escapes what it echoes back into the form', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/dev',
      headers: FORM,
      payload: new URLSearchParams({ name: '<script>x</script>', email: '"><b>' }).toString(),
    })
    expect(res.statusCode).toBe(400)
    expect(res.body).not.toContain('<script>')
    expect(res.body).toContain('value="&lt;script&gt;x&lt;/script&gt;"')
    expect(res.body).toContain('value="&quot;&gt;&lt;b&gt;"')
  })

  it('answers a JSON client with a JSON 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/dev', headers: JSON_HEADERS, payload: JSON.stringify({ name: 'A' }) })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ error: true, message: 'E-mail is a required field', code: 'INVALID_INPUT' })
  })

  it('applies ALLOWED_EMAIL_DOMAINS to the development form too', async () => {
    const strict = await testApp({ env: { ALLOWED_EMAIL_DOMAINS: 'somaiya.edu' } })
    try {
      const res = await strict.app.inject({ method: 'POST', url: '/api/v1/auth/dev', headers: FORM, payload: 'name=A&email=a%40gmail.com' })
      expect(res.statusCode).toBe(400)
      expect(res.body).toContain('Please sign in with your college account (@somaiya.edu).')
      const ok = await strict.app.inject({ method: 'POST', url: '/api/v1/auth/dev', headers: FORM, payload: 'name=A&email=a%40somaiya.edu' })
      expect(ok.statusCode).toBe(302)
    } finally {
      await strict.close()
    }
  })

  it('does not exist in production', async () => {
    const prod = await testApp({
      env: { NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', GOOGLE_ISSUER: 'http://127.0.0.1:9/', ...vapidEnv() },
    })
    try {
      const res = await prod.app.inject({ method: 'POST', url: '/api/v1/auth/dev', headers: FORM, payload: 'name=A&email=a%40example.edu' })
      expect(res.statusCode).toBe(404)
      expect(res.json().error).toBe(true)
      expect(await prod.database.db.select().from(schema.users)).toEqual([])
    } finally {
      await prod.close()
    }
  })

  it('does not exist when Google is configured, even outside production', async () => {
    const g = await testApp({ env: { GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', GOOGLE_ISSUER: 'http://127.0.0.1:9/' } })
    try {
      const res = await g.app.inject({ method: 'POST', url: '/api/v1/auth/dev', headers: FORM, payload: 'name=A&email=a%40example.edu' })
      expect(res.statusCode).toBe(404)
      // With the provider unreachable, GET /google sends the student back to the login screen with a reason.
      const start = await g.app.inject({ method: 'GET', url: '/api/v1/auth/google' })
      expect(start.statusCode).toBe(302)
      expect(fragmentOf(start.headers.location as string)).toEqual({ error: 'Google sign-in is unavailable right now. Please try again in a minute.' })
    } finally {
      await g.close()
    }
  })
})

describe('refresh tokens and logout', () => {
  let t: TestApp
  let n = 0
  const signIn = () => devSignIn(t, 'Refresher', `refresher${++n}@example.edu`)
  beforeAll(async () => {
    // The reuse grace off: these replays come straight after the first use (the grace: session-revocation.test.ts).
    t = await testApp({ env: { REFRESH_REUSE_GRACE_SECONDS: '0' } })
  })
  afterAll(() => t.close())

  it('trades a refresh token for a new pair; the new access token works', async () => {
    const first = await signIn()
    const res = await refresh(t, first.refreshToken)
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'error', 'refreshToken'])
    expect(body.error).toBe(false)
    expect(body.refreshToken).not.toBe(first.refreshToken)
    expect((await me(t, body.accessToken)).statusCode).toBe(200)
    // The successor works in turn: rotation goes on.
    expect((await refresh(t, body.refreshToken)).statusCode).toBe(200)
  })

  it('refuses a replayed refresh token and revokes its whole family, the newest token included', async () => {
    const first = await signIn()
    const second = (await refresh(t, first.refreshToken)).json()
    const third = (await refresh(t, second.refreshToken)).json()
    const replay = await refresh(t, first.refreshToken)
    expect(replay.statusCode).toBe(401)
    expect(replay.json()).toEqual(INVALID)
    const newest = await refresh(t, third.refreshToken)
    expect(newest.statusCode).toBe(401)
    expect(newest.json()).toEqual(INVALID)
    const families = await t.database.db.select().from(schema.refreshFamilies).where(eq(schema.refreshFamilies.revokedReason, 'reuse'))
    expect(families.length).toBeGreaterThanOrEqual(1)
  })

  it('leaves other sign-ins of the same user alone when one family is revoked', async () => {
    const phone = await devSignIn(t, 'Two Phones', 'two@example.edu')
    const laptop = await devSignIn(t, 'Two Phones', 'two@example.edu')
    await refresh(t, phone.refreshToken)
    await refresh(t, phone.refreshToken) // replay: phone's family is revoked
    expect((await refresh(t, laptop.refreshToken)).statusCode).toBe(200)
  })

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['a number', 42],
    ['an object', { $ne: null }],
    ['unknown', 'A'.repeat(43)],
    ['too long', 'A'.repeat(5000)],
  ])('answers 401 Invalid Token for a %s refresh token', async (_n, token) => {
    const res = await refresh(t, token)
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual(INVALID)
  })

  it('answers 401 for an access token sent as a refresh token', async () => {
    const { accessToken } = await signIn()
    const res = await refresh(t, accessToken)
    expect(res.statusCode).toBe(401)
  })

  it('refuses a refresh token past its idle expiry, without revoking the family', async () => {
    const { refreshToken } = await signIn()
    await t.database.db
      .update(schema.refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.refreshTokens.tokenHash, hashRefreshToken(refreshToken)))
    const res = await refresh(t, refreshToken)
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual(INVALID)
    const [row] = await t.database.db
      .select()
      .from(schema.refreshTokens)
      .where(eq(schema.refreshTokens.tokenHash, hashRefreshToken(refreshToken)))
    expect(row.usedAt).toBeNull()
  })

  it('refuses every token of a family past its absolute expiry, however fresh the token', async () => {
    const { refreshToken } = await signIn()
    const [tok] = await t.database.db
      .select()
      .from(schema.refreshTokens)
      .where(eq(schema.refreshTokens.tokenHash, hashRefreshToken(refreshToken)))
    await t.database.db
      .update(schema.refreshFamilies)
      .set({ absoluteExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.refreshFamilies.id, tok.familyId))
    const res = await refresh(t, refreshToken)
    expect(res.statusCode).toBe(401)
    expect(res.json()).toEqual(INVALID)
    // No successor was issued.
    expect(await t.database.db.select().from(schema.refreshTokens).where(eq(schema.refreshTokens.familyId, tok.familyId))).toHaveLength(1)
  })

  it('gives a successor no more life than its family has left', async () => {
    const { refreshToken } = await signIn()
    const [tok] = await t.database.db
      .select()
      .from(schema.refreshTokens)
      .where(eq(schema.refreshTokens.tokenHash, hashRefreshToken(refreshToken)))
    const soon = new Date(Date.now() + 60_000)
    await t.database.db.update(schema.refreshFamilies).set({ absoluteExpiresAt: soon }).where(eq(schema.refreshFamilies.id, tok.familyId))
    const next = (await refresh(t, refreshToken)).json()
    const [succ] = await t.database.db
      .select()
      .from(schema.refreshTokens)
      .where(eq(schema.refreshTokens.tokenHash, hashRefreshToken(next.refreshToken)))
    expect(succ.expiresAt.getTime()).toBeLessThanOrEqual(soon.getTime())
  })

  it('refuses the tokens of a deleted user', async () => {
    const { accessToken, refreshToken } = await devSignIn(t, 'Gone', 'gone@example.edu')
    const id = (await me(t, accessToken)).json().user.id
    await t.database.db.delete(schema.users).where(eq(schema.users.id, id))
    expect((await refresh(t, refreshToken)).statusCode).toBe(401)
  })

  it('logout revokes the family: neither the token nor its successors refresh again', async () => {
    const first = await signIn()
    const second = (await refresh(t, first.refreshToken)).json()
    const res = await logout(t, second.refreshToken)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ error: false })
    expect((await refresh(t, second.refreshToken)).statusCode).toBe(401)
    const [tok] = await t.database.db
      .select()
      .from(schema.refreshTokens)
      .where(eq(schema.refreshTokens.tokenHash, hashRefreshToken(second.refreshToken)))
    const [family] = await t.database.db.select().from(schema.refreshFamilies).where(eq(schema.refreshFamilies.id, tok.familyId))
    expect(family.revokedReason).toBe('logout')
    expect(family.revokedAt).toBeInstanceOf(Date)
  })

  it('logout is idempotent: an unknown, missing or already revoked token answers {error:false}', async () => {
    const { refreshToken } = await signIn()
    for (const token of [refreshToken, refreshToken, 'B'.repeat(43), undefined, 12]) {
      const res = await logout(t, token)
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual({ error: false })
    }
    const empty = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout' })
    expect(empty.json()).toEqual({ error: false })
  })
})

describe.each(DB_KINDS)('refresh race on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind, env: { REFRESH_REUSE_GRACE_SECONDS: '0' } })
  }, 60_000)
  afterAll(() => t.close())

  it('20 simultaneous refreshes with one token yield at most one successor, and a later replay revokes the family', async () => {
    const { refreshToken } = await devSignIn(t, 'Racer', `racer-${kind}@example.edu`)
    const results = await Promise.all(Array.from({ length: 20 }, () => refresh(t, refreshToken)))
    const ok = results.filter((r) => r.statusCode === 200)
    expect(ok.length).toBeLessThanOrEqual(1)
    expect(results.every((r) => r.statusCode === 200 || r.statusCode === 401)).toBe(true)
    for (const r of results.filter((r) => r.statusCode !== 200)) expect(r.json()).toEqual(INVALID)

    const [tok] = await t.database.db
      .select()
      .from(schema.refreshTokens)
      .where(eq(schema.refreshTokens.tokenHash, hashRefreshToken(refreshToken)))
    const family = await t.database.db.select().from(schema.refreshTokens).where(eq(schema.refreshTokens.familyId, tok.familyId))
    expect(family.length).toBeLessThanOrEqual(2) // the first token and at most one successor

    const replay = await refresh(t, refreshToken)
    expect(replay.statusCode).toBe(401)
    const [f] = await t.database.db.select().from(schema.refreshFamilies).where(eq(schema.refreshFamilies.id, tok.familyId))
    expect(f.revokedAt).toBeInstanceOf(Date)
    if (ok.length === 1) expect((await refresh(t, ok[0].json().refreshToken)).statusCode).toBe(401)
  }, 60_000)
})

/** Web Push keys, required in production (a fresh pair each time). */
function vapidEnv() {
  const keys = webpush.generateVAPIDKeys()
  return { VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'mailto:events@example.edu' }
}
