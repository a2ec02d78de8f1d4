// A new version replaces the old one without trapping students on stale code (issue 5): build A is served and
// installed by its service worker; the server then serves build B; the next start finds B's service worker,
// which takes over, and loads the page again onto B's code (src/sw.ts, its activate).
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { startServer, type RunningServer } from './support/server.ts'
import { controlledBySW } from './support/offline.ts'

let server: RunningServer
let root: string
const site = () => join(root, 'site')

function build(id: string) {
  const out = join(root, id)
  // VITE_BUILD_ID only marks the page (<html data-build>), so the test can tell which version's code runs.
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], {
    env: { ...process.env, VITE_BUILD_ID: id },
    stdio: 'inherit',
  })
  return out
}

/** What a deploy does: the new build's files replace the old ones where the server reads them. */
function deploy(out: string) {
  rmSync(site(), { recursive: true, force: true })
  cpSync(out, site(), { recursive: true })
}

test.beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'campus-update-'))
  deploy(build('A'))
  build('B')
  server = await startServer({ STATIC_DIR: site() })
})
test.afterAll(async () => {
  await server?.stop()
  if (root) rmSync(root, { recursive: true, force: true })
})

test('a new version takes over: after a deploy the next start runs the new code', async ({ page }) => {
  await page.goto(server.url + '/login')
  await expect(page.locator('html')).toHaveAttribute('data-build', 'A')
  await controlledBySW(page)
  const versionA = await page.evaluate(() => caches.keys())
  expect(versionA.filter((k) => k.startsWith('shell-'))).toHaveLength(1)

  deploy(join(root, 'B'))
  // The next start: the old service worker answers with A's shell at once, finds B's sw.js, installs it; B
  // takes over and the page reloads onto B.
  await page.goto(server.url + '/login')
  await expect(page.locator('html')).toHaveAttribute('data-build', 'B', { timeout: 30_000 })
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible()
  // A's shell is gone: nothing can bring its code back.
  await expect.poll(() => page.evaluate(() => caches.keys())).not.toEqual(versionA)
  const shells = (await page.evaluate(() => caches.keys())).filter((k) => k.startsWith('shell-'))
  expect(shells).toHaveLength(1)
  // And it stays B on the start after that.
  await page.reload()
  await expect(page.locator('html')).toHaveAttribute('data-build', 'B')
})
