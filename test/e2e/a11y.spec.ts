// Accessible (issue 5): every screen passes axe-core with no serious or critical violation, in light and in
// dark mode (the app follows the phone's setting, so the colour scheme is switched on the loaded screen), and
// the calendar is usable without a pointer.
import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { showIn } from './support/colour-scheme.ts'
import { startServer, type RunningServer } from './support/server.ts'
import { collectedTicket } from './support/offline.ts'
import { eventId, mustCall, newStudent, newcomer, signIn, type Student } from './support/students.ts'

let server: RunningServer
let meera: Student
const ids: Record<string, number> = {}

test.beforeAll(async () => {
  server = await startServer()
  meera = await newStudent(server.url, 'Meera Iyer')
  const collected = await collectedTicket(server, meera)
  server = collected.server
  ids.ticket = collected.id
  ids.techfest = await eventId(server.url, meera, 'Techfest 2026')
  ids.hackathon = await eventId(server.url, meera, 'Codestorm Hackathon')
  ids.ctf = await eventId(server.url, meera, 'Capture the Flag')
  ids.robo = await eventId(server.url, meera, 'Robo Race')
  await mustCall(server.url, meera.accessToken, '/event/p/create-team/', { event_id: ids.robo, team_name: 'Byte Club' })
})
test.afterAll(async () => {
  await server?.stop()
})

/** Serious and critical violations against WCAG 2.1 A and AA, in both colour schemes, on the current screen. */
async function expectNoSeriousViolations(page: Page, screen: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    // The splash covers everything for 1.5 s; then the scheme applied, no transition under way (it waited 300 ms).
    await expect(page.locator('#splash')).toHaveCount(0, { timeout: 15_000 })
    await showIn(page, colorScheme)
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
    const bad = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1] ?? ''}`).join('\n    ')}`,
      )
    expect(bad, `${screen} in ${colorScheme} mode`).toEqual([])
  }
}

const signedIn: [screen: string, path: () => string, ready: (page: Page) => Promise<void>][] = [
  ['Home', () => '/', (p) => expect(p.getByRole('heading', { name: 'Trending Events' })).toBeVisible()],
  ['Calendar', () => '/calendar', (p) => expect(p.getByRole('grid')).toBeVisible()],
  ['Councils', () => '/councils', (p) => expect(p.getByRole('link', { name: /\+91/ }).first()).toBeVisible()],
  ['Profile', () => '/profile', (p) => expect(p.getByRole('heading', { name: 'My Profile' })).toBeVisible()],
  ['My Events', () => '/profile/myevents', (p) => expect(p.getByText('Garba Night').first()).toBeVisible()],
  ['Event details', () => `/event-details/${ids.ticket}`, (p) => expect(p.getByRole('heading', { name: 'About the Event' })).toBeVisible()],
  ['Child events', () => `/child-events/${ids.techfest}`, (p) => expect(p.getByText('Codestorm Hackathon').first()).toBeVisible()],
  ['Ticket', () => `/ticket/${ids.ticket}`, (p) => expect(p.getByRole('img', { name: /^Ticket barcode/ })).toBeVisible()],
  ['Team register', () => `/team-register/${ids.hackathon}`, (p) => expect(p.getByRole('heading', { name: 'Create Team' })).toBeVisible()],
  ['Team details', () => `/team-details/${ids.robo}`, (p) => expect(p.getByText('Byte Club').first()).toBeVisible()],
]

for (const [screen, path, ready] of signedIn) {
  test(`${screen}: no serious or critical axe violation, light and dark`, async ({ page }) => {
    await signIn(page, server.url, meera)
    await page.goto(server.url + path())
    await ready(page)
    await expectNoSeriousViolations(page, screen)
  })
}

test('Rating popup and team confirm dialog: no serious or critical axe violation, light and dark', async ({ page }) => {
  await signIn(page, server.url, meera)
  await page.goto(server.url + `/event-details/${ids.ctf}`)
  await page.getByRole('button', { name: 'Give Feedback' }).click()
  await expect(page.getByRole('dialog')).toBeVisible()
  await expectNoSeriousViolations(page, 'Rating popup')
  await page.keyboard.press('Escape')

  await page.goto(server.url + `/team-details/${ids.robo}`)
  await page.getByRole('button', { name: 'Delete Team' }).click()
  await expect(page.getByRole('dialog')).toBeVisible()
  await expectNoSeriousViolations(page, 'Confirm dialog')
})

test('Login and getting-started: no serious or critical axe violation, light and dark', async ({ page }) => {
  await page.goto(server.url + '/login')
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible()
  await expectNoSeriousViolations(page, 'Login')

  await signIn(page, server.url, await newcomer(server.url))
  await page.goto(server.url + '/getting-started')
  await expect(page.getByRole('heading', { name: 'Personal Details' })).toBeVisible()
  // With the messages showing: they are part of the screen a student sees.
  await page.getByRole('button', { name: 'Continue' }).click()
  await expect(page.getByText('Mobile number is required')).toBeVisible()
  await expectNoSeriousViolations(page, 'Getting started')
})

test('the calendar works without a pointer: Tab reaches the days, arrows move, Enter shows the schedule', async ({ page }) => {
  await signIn(page, server.url, meera)
  await page.goto(server.url + '/calendar')
  const grid = page.getByRole('grid')
  await expect(grid).toBeVisible()
  await expect(page.locator('#splash')).toHaveCount(0, { timeout: 15_000 })
  // One day of the grid is in the Tab order (roving tabindex): Tab until the focus lands in the grid.
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab')
    if (await grid.evaluate((g) => g.contains(document.activeElement))) break
  }
  const focusedKey = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.key)
  const start = await focusedKey()
  expect(start, 'Tab reaches a day of the calendar').toMatch(/^\d{4}-\d{2}-\d{2}$/)
  const plus = (key: string, days: number) => new Date(Date.parse(key + 'T00:00:00Z') + days * 86_400_000).toISOString().slice(0, 10)
  // Each move re-renders the grid and then moves the focus: poll rather than read once.
  await page.keyboard.press('ArrowRight')
  await expect.poll(focusedKey).toBe(plus(start!, 1))
  await page.keyboard.press('ArrowDown')
  await expect.poll(focusedKey).toBe(plus(start!, 8))
  await page.keyboard.press('ArrowLeft')
  await expect.poll(focusedKey).toBe(plus(start!, 7))
  // Only one day at a time is tabbable.
  expect(await grid.locator('button[tabindex="0"]').count()).toBe(1)
  // The chosen day is selected and its schedule (or the empty text) shows.
  await page.keyboard.press('Enter')
  await expect(grid.locator(`button[data-key="${plus(start!, 7)}"]`).locator('xpath=..')).toHaveAttribute('aria-selected', 'true')
  await expect(grid.locator('[aria-selected="true"]')).toHaveCount(1)
})
