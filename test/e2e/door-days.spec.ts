// Multi-day events and re-entry at the door (issue 25 item 3), through the real server and the built app on a phone.
// A three-day event (the day before yesterday, yesterday and today, in IST) admits a ticket once a day: today online,
// then, with the network cut and the phone's clock set to each earlier day (`page.clock`, no waiting), once on each
// of those days and never twice the same day; the offline scans sync as admissions of their own days. An event with
// re-entry scans out and back in with the gate's In/Out switch, offline too, and shows who is inside now; that screen,
// switched to Out, passes axe in light and dark.
import { randomUUID } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import { devices, expect, test, type Browser, type Page } from '@playwright/test'
import { cli, moveEvents, query } from './support/operator.ts'
import { startServer, type RunningServer } from './support/server.ts'
import { callApi, mustCall, newStudent, signIn, type Student } from './support/students.ts'

const DAY = 86_400_000
const IST = 330 * 60_000
/** The IST day of an instant, and that day at a time of day IST, as a Date. */
const istDay = (ms: number) => new Date(ms + IST).toISOString().slice(0, 10)
const at = (day: string, time: string) => new Date(`${day}T${time}+05:30`)
const label = (day: string, n: number) =>
  `Day ${n} · ${Number(day.slice(8))} ${new Date(`${day}T12:00:00Z`).toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })}`

let server: RunningServer
let volunteer: Student
let browser: Browser
const now = Date.now()
const days = [istDay(now - 2 * DAY), istDay(now - DAY), istDay(now)]
const ids = { fest: 0, night: 0 }
const codes = { fest: [] as string[], night: [] as string[] }

test.beforeAll(async ({ playwright, launchOptions }) => {
  test.setTimeout(180_000)
  server = await startServer()
  volunteer = await newStudent(server.url, 'Door Volunteer')
  const holders = [await newStudent(server.url, 'Asha Rao'), await newStudent(server.url, 'Kabir Shah')]
  // The events and their tickets straight into the database (the server stopped): tickets collected three days ago,
  // so an offline scan of the day before yesterday counts for that day (a scan is never dated before its collection).
  server = await moveEvents(server, [], async (dataDir) => {
    await cli(dataDir, ['role:grant', volunteer.email, 'admin'])
    const [council] = await query(dataDir, 'SELECT id FROM councils ORDER BY id LIMIT 1')
    const event = async (slug: string, name: string, dates: string[], reentry: boolean) => {
      const [row] = await query(
        dataDir,
        // Printed tickets (rotating_codes false, issue 25 item 1): the volunteer types the code printed on each, the
        // way a hardware scanner types it; the changing code's walk is rotating-code.spec.ts.
        `INSERT INTO events (slug, name, organizer_id, state, dates, is_ticket_feature_enabled, ticket_count, tickets_sold, reentry, rotating_codes)
         VALUES ('${slug}', '${name}', ${council.id}, 'ONGOING', '${JSON.stringify(dates)}'::jsonb, true, 10, 2, ${reentry}, false) RETURNING id`,
      )
      return Number(row.id)
    }
    ids.fest = await event(
      'three-day-fest',
      'Three Day Fest',
      days.map((d) => `${d}T10:00:00+05:30`),
      false,
    )
    ids.night = await event('reentry-night', 'Re-entry Night', [`${days[2]}T10:00:00+05:30`], true)
    for (const [key, id] of Object.entries(ids) as [keyof typeof ids, number][]) {
      for (const h of holders) {
        const code = `${id}${h.id}${randomUUID().replace(/\D/g, '').slice(0, 10)}`
        codes[key].push(code)
        await query(
          dataDir,
          `INSERT INTO participants (event_id, user_id, ticket_collected, ticket_code, ticket_collected_at)
           VALUES (${id}, ${h.id}, true, '${code}', now() - interval '3 days')`,
        )
      }
    }
  })
  browser = await playwright.chromium.launch(launchOptions)
})
test.afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

/** The door of `name` at a gate, on a phone whose clock Playwright drives (running from now until set). */
async function openDoor(name: string, gate: string): Promise<Page> {
  const { defaultBrowserType: _ignored, ...phone } = devices['Pixel 7']
  const context = await browser.newContext({ ...phone })
  const page = await context.newPage()
  await page.clock.install({ time: new Date() })
  await signIn(page, server.url, volunteer)
  await page.goto(`${server.url}/door`)
  await page.getByLabel('Gate name').fill(gate)
  await page.getByRole('button', { name: new RegExp(name) }).click()
  await expect(page.getByTestId('ticket-total')).toHaveText('2', { timeout: 20_000 })
  return page
}

async function scanCode(page: Page, code: string, result: string) {
  const field = page.getByLabel(/Ticket code/)
  await field.fill(code)
  await field.press('Enter')
  await expect(page.locator('[data-result]')).toHaveAttribute('data-result', result)
}
const next = (page: Page) => page.getByRole('button', { name: 'Next ticket' }).click()

test('a three-day event admits a ticket once a day: today online, the two days before offline, never twice a day', async () => {
  const page = await openDoor('Three Day Fest', 'North')
  const [asha] = codes.fest
  // Today (day 3), online.
  await scanCode(page, asha, 'CHECKED_IN')
  await next(page)
  await expect(page.getByTestId('day-count')).toHaveText(`${label(days[2], 3)}: 1 of 2 in`)
  await scanCode(page, asha, 'ALREADY_CHECKED_IN')
  await expect(page.locator('[data-result]')).toContainText('Checked in today at')
  await next(page)

  // The network cut, the phone's clock on each earlier day in turn: once a day, checked against the list kept here.
  await page.context().setOffline(true)
  for (const [i, day] of [
    [1, days[0]],
    [2, days[1]],
  ] as const) {
    await page.clock.setFixedTime(at(day, '12:00:00'))
    await scanCode(page, asha, 'CHECKED_IN')
    await expect(page.getByText('Checked offline against the ticket list')).toBeVisible()
    await next(page)
    await expect(page.getByTestId('day-count')).toHaveText(`${label(day, i)}: 1 of 2 in`)
    await page.clock.setFixedTime(at(day, '18:30:00'))
    await scanCode(page, asha, 'ALREADY_CHECKED_IN')
    await next(page)
  }
  await expect(page.getByText('offline: 2 scans waiting')).toBeVisible()

  // Back to today and online: the two offline scans are admissions of their own days on the server.
  await page.clock.setFixedTime(new Date())
  await page.context().setOffline(false)
  await expect(page.getByText(/scans waiting|offline scans/)).toHaveCount(0, { timeout: 30_000 })
  await expect(page.locator('[role="alert"]').filter({ hasText: 'checked in earlier elsewhere' })).toHaveCount(0)
  const list = await mustCall(server.url, volunteer.accessToken, '/door/p/tickets', { event_id: ids.fest })
  const mine = list.tickets.find((t: { ticket_code: string }) => t.ticket_code === asha)
  expect(mine.admissions.map((a: { day: string; gate: string }) => [a.day, a.gate])).toEqual(days.map((d) => [d, 'North']))
  expect(list.days.map((d: { checked_in: number }) => d.checked_in)).toEqual([1, 1, 1])
  // And once more today, now online: still once.
  expect(
    (await callApi(server.url, volunteer.accessToken, '/door/p/check-in', { event_id: ids.fest, ticket_code: asha, scan_id: randomUUID(), gate: 'South' }))
      .status,
  ).toBe(409)
  await page.context().close()
})

test('re-entry: the gate scans out and back in, offline too, and shows who is inside now; a double read never checks anyone out', async () => {
  const page = await openDoor('Re-entry Night', 'Main')
  const [asha, kabir] = codes.night
  const inside = page.getByTestId('inside-count')
  await expect(inside).toHaveText('Inside now: 0')
  await scanCode(page, asha, 'CHECKED_IN')
  await next(page)
  await scanCode(page, kabir, 'CHECKED_IN')
  await next(page)
  await expect(inside).toHaveText('Inside now: 2')
  // A double read at the entrance: still in, nobody out.
  await scanCode(page, asha, 'ALREADY_CHECKED_IN')
  await next(page)
  await expect(inside).toHaveText('Inside now: 2')

  await page.getByRole('radio', { name: 'Out' }).check()
  await expect(page.getByText('Scanning people OUT')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Check out' })).toBeVisible()
  await scanCode(page, asha, 'CHECKED_OUT')
  await expect(page.locator('[data-result]')).toContainText('CHECKED OUT')
  await next(page)
  await expect(inside).toHaveText('Inside now: 1')
  await scanCode(page, asha, 'NOT_INSIDE')
  await expect(page.locator('[data-result]')).toContainText('NOT INSIDE')
  await next(page)

  await page.getByRole('radio', { name: 'In' }).check()
  await scanCode(page, asha, 'CHECKED_IN')
  await expect(page.locator('[data-result]')).toContainText('Back in (re-entry)')
  await next(page)
  await expect(inside).toHaveText('Inside now: 2')

  // Offline: Kabir out and back in, checked against the list kept here; synced in that order.
  await page.context().setOffline(true)
  await page.getByRole('radio', { name: 'Out' }).check()
  await scanCode(page, kabir, 'CHECKED_OUT')
  await next(page)
  await expect(inside).toHaveText('Inside now: 1')
  await page.getByRole('radio', { name: 'In' }).check()
  await scanCode(page, kabir, 'CHECKED_IN')
  await next(page)
  await expect(inside).toHaveText('Inside now: 2')
  await expect(page.getByText('offline: 2 scans waiting')).toBeVisible()
  await page.context().setOffline(false)
  await expect(page.getByText(/scans waiting|offline scans/)).toHaveCount(0, { timeout: 30_000 })
  const list = await mustCall(server.url, volunteer.accessToken, '/door/p/tickets', { event_id: ids.night })
  expect(list.reentry).toBe(true)
  expect(list.days.map((d: { checked_in: number; inside: number }) => [d.checked_in, d.inside])).toEqual([[2, 2]])
  await expect(inside).toHaveText('Inside now: 2')
  await page.context().close()
})

for (const colorScheme of ['light', 'dark'] as const)
  test(`the door of an event with re-entry, switched to Out, passes axe (WCAG 2.1 AA, ${colorScheme})`, async () => {
    const { defaultBrowserType: _ignored, ...phone } = devices['Pixel 7']
    const context = await browser.newContext({ ...phone, colorScheme })
    const page = await context.newPage()
    await signIn(page, server.url, volunteer)
    await page.goto(`${server.url}/door`)
    await page.getByRole('button', { name: /Re-entry Night/ }).click()
    await expect(page.getByTestId('inside-count')).toBeVisible({ timeout: 20_000 })
    await page.getByRole('radio', { name: 'Out' }).check()
    await expect(page.getByText('Scanning people OUT')).toBeVisible()
    await expect(page.locator('#splash')).toHaveCount(0, { timeout: 15_000 })
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    await context.close()
  })
