// Sign-in through a real OpenID provider on loopback (oauth2-mock-server) standing in for Google: the real
// server runs with GOOGLE_ISSUER pointing at it, and Chromium follows every redirect as a phone would.
import { expect, test } from '@playwright/test'
import { OAuth2Server } from 'oauth2-mock-server'
import { startServer, type RunningServer } from './support/server.ts'

const CLIENT_ID = 'campus-events-e2e'
let provider: OAuth2Server
let server: RunningServer

type Payload = Record<string, unknown>
function nextIdToken(edit: (payload: Payload) => void) {
  provider.service.removeAllListeners('beforeTokenSigning')
  provider.service.on('beforeTokenSigning', (token: { payload: Payload }) => {
    if (token.payload.aud === CLIENT_ID) edit(token.payload)
  })
}

test.beforeAll(async () => {
  provider = new OAuth2Server()
  await provider.issuer.keys.generate('RS256')
  await provider.start(0, '127.0.0.1')
  server = await startServer({
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_CLIENT_SECRET: 'e2e-secret',
    GOOGLE_ISSUER: provider.issuer.url!,
    ALLOWED_EMAIL_DOMAINS: 'kjsce.example.edu',
  })
})
test.afterAll(async () => {
  await server?.stop()
  await provider?.stop()
})

test('a student signs in with the provider and lands on getting-started', async ({ page }) => {
  nextIdToken((p) => Object.assign(p, { email: 'neha@kjsce.example.edu', email_verified: true, name: 'Neha Shah', picture: '' }))
  await page.goto(server.url + '/login')
  await page.getByRole('button', { name: 'Continue with Google' }).click()
  await expect(page).toHaveURL(server.url + '/getting-started', { timeout: 20_000 })
  expect(await page.evaluate(() => Boolean(localStorage.getItem('accessToken') && localStorage.getItem('refreshToken')))).toBe(true)
  // The user was created from the ID token's claims.
  const me = await page.evaluate(async () => {
    const res = await fetch('/api/v1/user/p/me', {
      method: 'POST',
      headers: { authorization: `Bearer ${localStorage.getItem('accessToken')}`, 'content-type': 'application/json' },
      body: 'true',
    })
    return res.json()
  })
  expect(me.user).toMatchObject({ name: 'Neha Shah', email: 'neha@kjsce.example.edu', phone_number: null })
})

const refusals: [string, (p: Payload) => void][] = [
  ['an ID token for another audience', (p) => Object.assign(p, { aud: 'someone-else', email: 'a@kjsce.example.edu', email_verified: true })],
  ['an unverified e-mail', (p) => Object.assign(p, { email: 'b@kjsce.example.edu', email_verified: false })],
  ['an e-mail outside the allowed domains', (p) => Object.assign(p, { email: 'c@gmail.com', email_verified: true })],
  ['a nonce other than the one sent', (p) => Object.assign(p, { nonce: 'not-the-one-we-sent', email: 'd@kjsce.example.edu', email_verified: true })],
]

for (const [what, tamper] of refusals) {
  test(`${what} is refused: the login screen says why and no token is stored`, async ({ page }) => {
    nextIdToken(tamper)
    await page.goto(server.url + '/login')
    await page.getByRole('button', { name: 'Continue with Google' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'Sign-in failed' })).toBeVisible({ timeout: 20_000 })
    await expect(page).toHaveURL(/\/login/)
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull()
  })
}
