// The API reference (issue 9): /api/docs, served by the real server, renders the OpenAPI document in the browser
// under its own CSP (no script refused), and the app's catch-all route does not swallow it.
import { expect, test } from '@playwright/test'
import { startServer, type RunningServer } from './support/server.ts'

let server: RunningServer
test.beforeAll(async () => {
  server = await startServer()
})
test.afterAll(async () => {
  await server?.stop()
})

test('/api/docs shows every call of the API, with no CSP refusal', async ({ page }) => {
  const refused: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text())
  })
  const res = await page.goto(server.url + '/api/docs')
  expect(res?.status()).toBe(200)
  await expect(page.getByRole('heading', { name: /CSI Events API/ })).toBeVisible({ timeout: 15_000 })
  // One operation of each tag, rendered from the document.
  for (const path of [
    '/api/v1/auth/refresh-token',
    '/api/v1/user/p/me',
    '/api/v1/event/p/claim-ticket',
    '/api/v1/event/p/create-team/',
    '/api/v1/council/p/get',
  ]) {
    await expect(page.locator('.opblock-summary-path', { hasText: new RegExp(`^${path.replace(/[/.]/g, '\\$&')}$`) }).first()).toBeAttached()
  }
  // The bearer scheme: the page offers to authorize the calls that need it.
  await expect(page.getByRole('button', { name: /Authorize/ }).first()).toBeVisible()
  expect(refused).toEqual([])
})
