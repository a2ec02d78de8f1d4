// The Google sign-in flow against a real OpenID provider on loopback (oauth2-mock-server): authorization
// code with PKCE S256, state and nonce in a signed cookie, the ID token's checks, the user upsert, and the
// redirect to /login with the tokens in the fragment. Tampered tokens and foreign domains are refused.
import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { OAuth2Server } from 'oauth2-mock-server'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { isLoopbackHttp } from '../../server/auth/google.ts'
import { testApp, type TestApp } from './helpers.ts'

const CLIENT_ID = 'campus-events-test'
const CALLBACK = 'http://app.test/api/v1/auth/google/callback'

type Payload = Record<string, unknown>

let provider: OAuth2Server
let issuer: string

beforeAll(async () => {
  provider = new OAuth2Server()
  await provider.issuer.keys.generate('RS256')
  await provider.start(0, '127.0.0.1')
  issuer = provider.issuer.url!
})
afterAll(() => provider.stop())
afterEach(() => {
  provider.service.removeAllListeners('beforeTokenSigning')
  provider.service.removeAllListeners('beforeResponse')
  provider.service.removeAllListeners('beforeAuthorizeRedirect')
})

/** What the provider puts in the next ID token (the access token it also signs is left alone). */
function nextIdToken(edit: (payload: Payload) => void) {
  provider.service.on('beforeTokenSigning', (token: { payload: Payload }) => {
    if (token.payload.aud === CLIENT_ID) edit(token.payload)
  })
}

const person =
  (email: string, extra: Payload = {}) =>
  (p: Payload) => {
    Object.assign(p, { email, email_verified: true, name: 'Meera Iyer', picture: 'https://lh3.example.com/meera.png', ...extra })
  }

function cookiePair(setCookie: string | string[] | undefined, name: string): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []
  const line = all.find((c) => c.startsWith(name + '='))
  expect(line, `a ${name} cookie`).toBeTruthy()
  return line!.split(';')[0]
}

function fragmentOf(location: string | undefined) {
  expect(location).toBeTruthy()
  const url = new URL(location!)
  expect(url.origin + url.pathname).toBe('http://app.test/login')
  expect(url.search).toBe('') // never tokens (or anything) in the query
  return Object.fromEntries(new URLSearchParams(url.hash.slice(1)))
}

describe('Google sign-in against a local OpenID provider', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ env: { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CLIENT_SECRET: 'test-secret', GOOGLE_ISSUER: issuer } })
  })
  afterAll(() => t.close())

  /** GET /auth/google: the 302 to the provider and the pending-sign-in cookie. */
  async function start(app = t) {
    const res = await app.app.inject({ method: 'GET', url: '/api/v1/auth/google' })
    expect(res.statusCode).toBe(302)
    return { authorizeUrl: new URL(res.headers.location as string), cookie: cookiePair(res.headers['set-cookie'], 'oidc_pending'), res }
  }

  /** The provider's answer to the browser: a redirect back to our callback with code and state. */
  async function authorize(authorizeUrl: URL) {
    const res = await fetch(authorizeUrl, { redirect: 'manual' })
    expect(res.status).toBe(302)
    const back = new URL(res.headers.get('location')!)
    expect(back.origin + back.pathname).toBe(CALLBACK)
    return back
  }

  const callback = (back: URL, cookie?: string, app = t) =>
    app.app.inject({ method: 'GET', url: back.pathname + back.search, headers: cookie ? { cookie } : {} })

  /** The whole flow; answers the callback's response. */
  async function signIn(app = t) {
    const { authorizeUrl, cookie } = await start(app)
    return callback(await authorize(authorizeUrl), cookie, app)
  }

  const usersWithEmail = (email: string) => t.database.db.select().from(schema.users).where(eq(schema.users.email, email))

  it('allows plain http only for a provider on loopback', () => {
    expect(isLoopbackHttp('http://127.0.0.1:8080')).toBe(true)
    expect(isLoopbackHttp('http://localhost:8080/')).toBe(true)
    expect(isLoopbackHttp('http://accounts.example.com')).toBe(false)
    expect(isLoopbackHttp('https://accounts.google.com')).toBe(false)
    expect(isLoopbackHttp('http://127.0.0.1.evil.com')).toBe(false)
  })

  it('redirects to the provider with PKCE S256, state and nonce, kept in a signed HttpOnly SameSite=Lax cookie', async () => {
    const { authorizeUrl, cookie, res } = await start()
    expect(authorizeUrl.origin).toBe(new URL(issuer).origin)
    const q = authorizeUrl.searchParams
    expect(q.get('response_type')).toBe('code')
    expect(q.get('client_id')).toBe(CLIENT_ID)
    expect(q.get('redirect_uri')).toBe(CALLBACK)
    expect(q.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'profile']))
    expect(q.get('code_challenge_method')).toBe('S256')
    expect(q.get('state')).toMatch(/^[\w-]{20,}$/)
    expect(q.get('nonce')).toMatch(/^[\w-]{20,}$/)

    const line = ([] as string[]).concat(res.headers['set-cookie'] as string | string[]).find((c) => c.startsWith('oidc_pending='))!
    expect(line).toMatch(/; Max-Age=600/)
    expect(line).toMatch(/; Path=\/api\/v1\/auth/)
    expect(line).toMatch(/; HttpOnly/)
    expect(line).toMatch(/; SameSite=Lax/)
    expect(line).not.toMatch(/; Secure/) // APP_URL is http here

    // The cookie carries the verifier whose S256 hash is the challenge the provider saw.
    const value = decodeURIComponent(cookie.slice('oidc_pending='.length))
    const pending = JSON.parse(value.slice(0, value.lastIndexOf('.')))
    expect(pending.state).toBe(q.get('state'))
    expect(pending.nonce).toBe(q.get('nonce'))
    expect(createHash('sha256').update(pending.verifier).digest('base64url')).toBe(q.get('code_challenge'))
  })

  it('creates the user on first sign-in and hands over tokens in the fragment only', async () => {
    nextIdToken(person('meera@example.edu', { sub: 'google-sub-1' }))
    const res = await signIn()
    expect(res.statusCode).toBe(302)
    expect(res.headers['cache-control']).toBe('no-store')
    const f = fragmentOf(res.headers.location as string)
    expect(Object.keys(f).sort()).toEqual(['accessToken', 'refreshToken'])
    // The pending-sign-in cookie is cleared.
    expect(cookiePair(res.headers['set-cookie'], 'oidc_pending')).toBe('oidc_pending=')

    const me = await t.app.inject({ method: 'POST', url: '/api/v1/user/p/me', headers: { authorization: `Bearer ${f.accessToken}` } })
    expect(me.statusCode).toBe(200)
    expect(me.json().user).toMatchObject({
      name: 'Meera Iyer',
      email: 'meera@example.edu',
      photo_url: 'https://lh3.example.com/meera.png',
      phone_number: null,
      roll_number: null,
    })
    const [row] = await usersWithEmail('meera@example.edu')
    expect(row.issuer).toBe(issuer)
    expect(row.subject).toBe('google-sub-1')

    const refreshed = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh-token', payload: { refreshToken: f.refreshToken } })
    expect(refreshed.statusCode).toBe(200)
  })

  it("hands the app's one-time sign-in value back beside the tokens, kept in the signed cookie meanwhile (login CSRF, issue 10)", async () => {
    nextIdToken(person('state.meera@example.edu', { sub: 'google-sub-state' }))
    const state = 'zYx_-9876543210abcdefghijklmnopqrstuvwxyzAB'
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/auth/google?state=${state}` })
    expect(res.statusCode).toBe(302)
    const authorizeUrl = new URL(res.headers.location as string)
    expect(authorizeUrl.searchParams.get('state')).not.toBe(state) // the provider's state stays the server's own
    const cookie = cookiePair(res.headers['set-cookie'], 'oidc_pending')
    const back = await callback(await authorize(authorizeUrl), cookie)
    expect(back.statusCode).toBe(302)
    const f = fragmentOf(back.headers.location as string)
    expect(Object.keys(f).sort()).toEqual(['accessToken', 'refreshToken', 'state'])
    expect(f.state).toBe(state)
  })

  it('signs the same subject in as the same user, updating name and photo but never the onboarding fields', async () => {
    nextIdToken(person('arjun@example.edu', { sub: 'google-sub-2', name: 'Arjun' }))
    expect((await signIn()).statusCode).toBe(302)
    const [first] = await usersWithEmail('arjun@example.edu')
    await t.database.db.update(schema.users).set({ phoneNumber: '9000000001', rollNumber: 'R-77', year: 2027 }).where(eq(schema.users.id, first.id))

    nextIdToken(person('arjun@example.edu', { sub: 'google-sub-2', name: 'Arjun Mehta', picture: 'https://lh3.example.com/arjun2.png' }))
    expect((await signIn()).statusCode).toBe(302)
    const rows = await usersWithEmail('arjun@example.edu')
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      id: first.id,
      name: 'Arjun Mehta',
      photoUrl: 'https://lh3.example.com/arjun2.png',
      phoneNumber: '9000000001',
      rollNumber: 'R-77',
      year: 2027,
    })
  })

  it('keys users by issuer and subject: another subject with the same e-mail is another user', async () => {
    nextIdToken(person('same@example.edu', { sub: 'google-sub-3a' }))
    await signIn()
    nextIdToken(person('same@example.edu', { sub: 'google-sub-3b' }))
    await signIn()
    expect(await usersWithEmail('same@example.edu')).toHaveLength(2)
  })

  // Each refusal lands on /login#error=<message>, with no tokens and nobody created.
  const refusals: [string, (p: Payload) => void, string][] = [
    ['an unverified e-mail', person('unverified@example.edu', { email_verified: false }), 'Your Google e-mail address is not verified.'],
    ['email_verified as the string "true"', person('stringy@example.edu', { email_verified: 'true' }), 'Your Google e-mail address is not verified.'],
    ['no e-mail', (p) => Object.assign(p, { email_verified: true }), 'Your Google account did not share an e-mail address.'],
    ['a wrong audience', person('aud@example.edu', { aud: 'someone-else' }), 'Google sign-in could not be verified. Please try again.'],
    ['a wrong nonce', person('nonce@example.edu', { nonce: 'not-the-nonce' }), 'Google sign-in could not be verified. Please try again.'],
    [
      'no nonce',
      (p) => {
        person('nonce2@example.edu')(p)
        delete p.nonce
      },
      'Google sign-in could not be verified. Please try again.',
    ],
    ['a wrong issuer', person('iss@example.edu', { iss: 'https://accounts.evil.example' }), 'Google sign-in could not be verified. Please try again.'],
    [
      'an expired ID token',
      person('exp@example.edu', { exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 }),
      'Google sign-in could not be verified. Please try again.',
    ],
  ]
  it.each(refusals)('refuses %s', async (_name, edit, message) => {
    nextIdToken(edit)
    const before = (await t.database.db.select().from(schema.users)).length
    const res = await signIn()
    expect(res.statusCode).toBe(302)
    expect(res.headers['cache-control']).toBe('no-store')
    expect(fragmentOf(res.headers.location as string)).toEqual({ error: message })
    expect((await t.database.db.select().from(schema.users)).length).toBe(before)
  })

  it('refuses an ID token whose signature was tampered with', async () => {
    nextIdToken(person('tampered@example.edu'))
    provider.service.once('beforeResponse', (response: { body: Record<string, string> }) => {
      const [h, p, s] = response.body.id_token.split('.')
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString())
      claims.email = 'admin@example.edu' // a changed claim under the original signature
      response.body.id_token = [h, Buffer.from(JSON.stringify(claims)).toString('base64url'), s].join('.')
    })
    const res = await signIn()
    expect(fragmentOf(res.headers.location as string)).toEqual({ error: 'Google sign-in could not be verified. Please try again.' })
    expect(await usersWithEmail('admin@example.edu')).toHaveLength(0)
    expect(await usersWithEmail('tampered@example.edu')).toHaveLength(0)
  })

  it('refuses a callback whose state is not the one in the cookie', async () => {
    nextIdToken(person('state@example.edu'))
    const { authorizeUrl, cookie } = await start()
    const back = await authorize(authorizeUrl)
    back.searchParams.set('state', 'forged-state-value-forged')
    const res = await callback(back, cookie)
    expect(fragmentOf(res.headers.location as string)).toEqual({ error: 'Google sign-in could not be verified. Please try again.' })
    expect(await usersWithEmail('state@example.edu')).toHaveLength(0)
  })

  it('refuses a callback without the cookie, or with a cookie from another sign-in or forged', async () => {
    nextIdToken(person('cookie@example.edu'))
    const first = await start()
    const other = await start() // another browser's sign-in: a valid cookie with other state and nonce
    const back = await authorize(first.authorizeUrl)
    const expired = { error: 'Your sign-in expired or was started in another browser. Please try again.' }

    expect(fragmentOf((await callback(back)).headers.location as string)).toEqual(expired)

    const value = decodeURIComponent(first.cookie.slice('oidc_pending='.length))
    const sig = value.slice(value.lastIndexOf('.'))
    const forged = JSON.stringify({ ...JSON.parse(value.slice(0, value.lastIndexOf('.'))), at: Date.now() + 1 })
    expect(fragmentOf((await callback(back, `oidc_pending=${encodeURIComponent(forged + sig)}`)).headers.location as string)).toEqual(expired)

    const wrong = await callback(back, other.cookie)
    expect(fragmentOf(wrong.headers.location as string)).toEqual({ error: 'Google sign-in could not be verified. Please try again.' })
    expect(await usersWithEmail('cookie@example.edu')).toHaveLength(0)
  })

  it('does not sign in twice with one replayed callback', async () => {
    nextIdToken(person('replay@example.edu'))
    const { authorizeUrl, cookie } = await start()
    const back = await authorize(authorizeUrl)
    const first = await callback(back, cookie)
    expect(fragmentOf(first.headers.location as string).accessToken).toBeTruthy()
    nextIdToken(person('replay@example.edu'))
    const again = await callback(back, cookie)
    expect(again.statusCode).toBe(302)
    expect(fragmentOf(again.headers.location as string).accessToken).toBeUndefined()
  })

  it('tells a student who declined consent that sign-in was cancelled', async () => {
    const { cookie } = await start()
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/auth/google/callback?error=access_denied&state=x', headers: { cookie } })
    expect(fragmentOf(res.headers.location as string)).toEqual({ error: 'Google sign-in was cancelled.' })
  })

  it('never answers a 500 for a garbled callback', async () => {
    const { cookie } = await start()
    for (const query of ['', '?code=', '?code=x&state=', '?code[]=1&state[]=2', '?code=%ZZ', `?code=${'a'.repeat(4000)}&state=y`]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/auth/google/callback${query}`, headers: { cookie } })
      expect(res.statusCode, query).toBeLessThan(500)
      if (res.statusCode === 302) expect(fragmentOf(res.headers.location as string).accessToken).toBeUndefined()
    }
  })

  it('retries discovery after the provider was unreachable, instead of caching the failure', async () => {
    const late = new OAuth2Server()
    await late.issuer.keys.generate('RS256')
    await late.start(0, '127.0.0.1')
    const lateIssuer = late.issuer.url!
    const port = Number(new URL(lateIssuer).port)
    await late.stop() // down when the first student arrives
    const app = await testApp({ env: { GOOGLE_CLIENT_ID: CLIENT_ID, GOOGLE_CLIENT_SECRET: 'test-secret', GOOGLE_ISSUER: lateIssuer } })
    try {
      const down = await app.app.inject({ method: 'GET', url: '/api/v1/auth/google' })
      expect(fragmentOf(down.headers.location as string)).toEqual({ error: 'Google sign-in is unavailable right now. Please try again in a minute.' })
      await late.start(port, '127.0.0.1')
      const up = await app.app.inject({ method: 'GET', url: '/api/v1/auth/google' })
      expect(up.statusCode).toBe(302)
      expect(new URL(up.headers.location as string).origin).toBe(new URL(lateIssuer).origin)
    } finally {
      await app.close()
      await late.stop().catch(() => {})
    }
  })

  describe('with ALLOWED_EMAIL_DOMAINS', () => {
    let strict: TestApp
    beforeAll(async () => {
      strict = await testApp({
        env: {
          GOOGLE_CLIENT_ID: CLIENT_ID,
          GOOGLE_CLIENT_SECRET: 'test-secret',
          GOOGLE_ISSUER: issuer,
          ALLOWED_EMAIL_DOMAINS: 'somaiya.edu',
          APP_URL: 'https://app.test',
        },
      })
    })
    afterAll(() => strict.close())
    const strictLogin = (location: string) => {
      const url = new URL(location)
      expect(url.origin + url.pathname).toBe('https://app.test/login')
      expect(url.search).toBe('')
      return Object.fromEntries(new URLSearchParams(url.hash.slice(1)))
    }
    const strictSignIn = async () => {
      const res = await strict.app.inject({ method: 'GET', url: '/api/v1/auth/google' })
      const authorizeUrl = new URL(res.headers.location as string)
      const back = new URL((await fetch(authorizeUrl, { redirect: 'manual' })).headers.get('location')!)
      return strict.app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie: cookiePair(res.headers['set-cookie'], 'oidc_pending') } })
    }

    it('hints the domain to Google and marks the cookie Secure under an https APP_URL', async () => {
      const res = await strict.app.inject({ method: 'GET', url: '/api/v1/auth/google' })
      const url = new URL(res.headers.location as string)
      expect(url.origin).toBe(new URL(issuer).origin)
      expect(url.searchParams.get('hd')).toBe('somaiya.edu')
      expect(url.searchParams.get('redirect_uri')).toBe('https://app.test/api/v1/auth/google/callback')
      expect(([] as string[]).concat(res.headers['set-cookie'] as string).find((c) => c.startsWith('oidc_pending='))).toMatch(/; Secure/)
    })

    it('refuses an account outside the allowed domains, whatever the hint said', async () => {
      nextIdToken(person('outsider@gmail.com'))
      const res = await strictSignIn()
      expect(strictLogin(res.headers.location as string)).toEqual({ error: 'Please sign in with your college account (@somaiya.edu).' })
      expect(await strict.database.db.select().from(schema.users)).toEqual([])
    })

    it('goes by the Workspace hd claim when there is one', async () => {
      nextIdToken(person('spoof@somaiya.edu', { hd: 'other-school.edu' }))
      const refused = await strictSignIn()
      expect(strictLogin(refused.headers.location as string).error).toBe('Please sign in with your college account (@somaiya.edu).')

      nextIdToken(person('student@somaiya.edu', { hd: 'somaiya.edu' }))
      const ok = await strictSignIn()
      expect(strictLogin(ok.headers.location as string).accessToken).toBeTruthy()
    })

    it('accepts an account of the allowed domain without hd (by its verified e-mail)', async () => {
      nextIdToken(person('Another@Somaiya.EDU'))
      const ok = await strictSignIn()
      expect(strictLogin(ok.headers.location as string).accessToken).toBeTruthy()
      const rows = await strict.database.db.select().from(schema.users).where(eq(schema.users.email, 'another@somaiya.edu'))
      expect(rows).toHaveLength(1)
    })
  })
})
