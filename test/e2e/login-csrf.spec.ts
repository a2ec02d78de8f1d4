// Login CSRF (issue 10 item 1) against the real server and the built app: a link carrying someone else's tokens
// (/login#accessToken=…&refreshToken=…, or the ? form) does nothing, whether or not the student is signed in;
// a sign-in the tab started through the development form still completes.
import { expect, test, type Page } from '@playwright/test'
import { startServer, type RunningServer } from './support/server.ts'
import { devSignIn, newStudent, openAs } from './support/students.ts'

let server: RunningServer
test.beforeAll(async () => {
  server = await startServer()
})
test.afterAll(async () => {
  await server?.stop()
})

const tokensIn = (page: Page) => page.evaluate(() => [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')])

for (const form of ['#', '?'] as const) {
  test(`an attacker's link (${form} form) signs nobody in and is dropped from the address`, async ({ page }) => {
    const attacker = await devSignIn(server.url, 'Mallory', `mallory.${form === '#' ? 'hash' : 'query'}@example.edu`)
    const link = `${server.url}/login${form}${new URLSearchParams({ accessToken: attacker.accessToken, refreshToken: attacker.refreshToken })}`
    await page.goto(link)
    await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible({ timeout: 20_000 })
    expect(new URL(page.url()).pathname).toBe('/login')
    expect(page.url()).not.toContain('Token')
    expect(await tokensIn(page)).toEqual([null, null])
  })
}

test("an attacker's link leaves a signed-in student's session as it was", async ({ page }) => {
  const asha = await newStudent(server.url, 'Asha Victim')
  await openAs(page, server.url, asha)
  const attacker = await devSignIn(server.url, 'Mallory', 'mallory.swap@example.edu')
  await page.goto(`${server.url}/login#${new URLSearchParams({ accessToken: attacker.accessToken, refreshToken: attacker.refreshToken })}`)
  await page.waitForURL(`${server.url}/`, { timeout: 20_000 })
  expect(page.url()).not.toContain('Token')
  await expect(page.getByText('Asha Victim').first()).toBeVisible({ timeout: 20_000 })
  expect(await tokensIn(page)).toEqual([asha.accessToken, asha.refreshToken])
})

test('a sign-in this tab started through the development form completes, its state carried back', async ({ page }) => {
  await page.goto(server.url + '/login')
  await page.getByRole('button', { name: 'Continue with Google' }).click()
  await expect(page.getByRole('heading', { name: /Development sign-in/ })).toBeVisible({ timeout: 20_000 })
  expect(new URL(page.url()).searchParams.get('state')).toMatch(/^[\w-]{43}$/)
  await page.getByLabel('Name').fill('Kiran Own')
  await page.getByLabel('E-mail').fill('kiran.own@example.edu')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(/\/getting-started$/, { timeout: 20_000 })
  const [access, refresh] = await tokensIn(page)
  expect(access).toBeTruthy()
  expect(refresh).toBeTruthy()
  expect(await page.evaluate(() => sessionStorage.getItem('signInState'))).toBeNull()
})
