// Issue 37, walked on a 390 px phone through the real server and the built app, axe (light and dark) on each new
// screen:
// 1. the short verify address /verify/<code>: one public page styled like the product, signed out at 390 px and
//    1280 px and signed in on a phone whose service worker controls the app (it handed that phone index.html and
//    "Page not found"), with JSON for Accept: application/json at the same address.
// 5. the door has a way back: a volunteer who opened /door (as an installed app does, with no back button) gets back
//    to the door's event list and to the app.
// 3. the ticket says when and where: date, time and venue; a three-day event's days with the one used; the seconds to
//    the changing code's next change, counting down. On the way, Home's Trending card of that event says View Ticket.
import { randomUUID } from 'node:crypto'
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'
import { controlledBySW } from './support/offline.ts'
import { cli, moveEvents, query } from './support/operator.ts'
import { startServer, type RunningServer } from './support/server.ts'
import { eventId, mustCall, newStudent, openAs, signIn, type Student } from './support/students.ts'

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 }
const DESK = { viewport: { width: 1280, height: 800 } }
/** A certificate's code, of the codes' alphabet (server/feeds/secrets.ts), printed in two halves. */
const CERTIFICATE = 'K7M2P9Q4R8'
const PRINTED = 'K7M2P-9Q4R8'

const DAY = 86_400_000
/** The IST day of an instant. */
const istDay = (ms: number) => new Date(ms + 330 * 60_000).toISOString().slice(0, 10)
const FEST_DAYS = [istDay(Date.now() - DAY), istDay(Date.now()), istDay(Date.now() + DAY)]

let server: RunningServer
let student: Student
let volunteer: Student
let id: number
let festId: number

test.beforeAll(async () => {
  test.setTimeout(240_000)
  server = await startServer()
  student = await newStudent(server.url, 'Zoë D’Souza', `zoe-${randomUUID().slice(0, 8)}@example.test`)
  volunteer = await newStudent(server.url, 'Om Volunteer', `om-${randomUUID().slice(0, 8)}@example.test`)
  id = await eventId(server.url, student, 'Garba Night')
  server = await moveEvents(server, [[id, 'REGISTRATION_OPEN']])
  await mustCall(server.url, student.accessToken, '/event/p/register-for-event', { event_id: id })
  // A certificate issued for the registration (the door and the event's end are walked in certificates' own tests),
  // and a ticket with a changing code for a three-day event (yesterday, today and tomorrow in IST), used yesterday.
  server = await moveEvents(server, [], async (dataDir) => {
    await cli(dataDir, ['role:grant', volunteer.email, 'admin'])
    const [council] = await query(dataDir, 'SELECT id FROM councils ORDER BY id LIMIT 1')
    const [fest] = await query(
      dataDir,
      `INSERT INTO events (slug, name, organizer_id, state, dates, venue, is_ticket_feature_enabled, ticket_count, tickets_sold)
       VALUES ('walk-fest', 'Walk Fest', ${council.id}, 'ONGOING', '${JSON.stringify(FEST_DAYS.map((d) => `${d}T10:00:00+05:30`))}'::jsonb,
               'Main Auditorium, Block A', true, 10, 1) RETURNING id`,
    )
    festId = Number(fest.id)
    const [ticket] = await query(
      dataDir,
      `INSERT INTO participants (event_id, user_id, ticket_collected, ticket_code, ticket_secret, ticket_collected_at, checked_in_at)
       VALUES (${festId}, ${student.id}, true, '${festId}${student.id}0042', '${'ab12'.repeat(10)}', now() - interval '2 days',
               '${FEST_DAYS[0]}T10:05:00+05:30') RETURNING id`,
    )
    await query(
      dataDir,
      `INSERT INTO admissions (participant_id, event_id, day, checked_in_at, moved_at)
       VALUES (${ticket.id}, ${festId}, '${FEST_DAYS[0]}', '${FEST_DAYS[0]}T10:05:00+05:30', '${FEST_DAYS[0]}T10:05:00+05:30')`,
    )
    await query(
      dataDir,
      `INSERT INTO certificates (participant_id, code) SELECT id, '${CERTIFICATE}' FROM participants WHERE event_id = ${id} AND user_id = ${student.id}`,
    )
  })
})
test.afterAll(async () => {
  await server?.stop()
})

async function expectNoSeriousViolations(page: Page, screen: string) {
  await expect(page.locator('#splash')).toHaveCount(0, { timeout: 15_000 })
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)
    expect(bad, `${screen} (${colorScheme})`).toEqual([])
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

/** The page's verdict and rows, as a person sees them; nothing wider than the window. */
async function expectCertificatePage(page: Page, width: number) {
  await expect(page.getByRole('heading', { name: 'Certificate verified', level: 1 })).toBeVisible()
  await expect(page.getByText('✓ Genuine')).toBeVisible()
  await expect(page.getByText('Zoë D’Souza')).toBeVisible()
  await expect(page.getByText('Garba Night')).toBeVisible()
  await expect(page.getByText(PRINTED)).toBeVisible()
  await expect(page.getByRole('link', { name: 'Open CSI Events' })).toHaveAttribute('href', `${server.url}/`)
  await expect(page.getByText('Page not found')).toHaveCount(0)
  await expect(page.getByRole('button', { name: /Continue with Google/ })).toHaveCount(0)
  // Styled like the product: its brand colour on the bar, its background, not the browser's bare page.
  const bar = await page.locator('header').evaluate((el) => getComputedStyle(el).backgroundColor)
  expect(bar).toBe('rgb(200, 16, 46)')
  expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).not.toMatch(/Times/)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
}

test('item 1: /verify/<code> is one public page, signed out at 390 px and 1280 px, signed in, and JSON when asked', async ({ browser }) => {
  test.setTimeout(180_000)
  const errors: string[] = []

  // Signed out, a fresh phone: the page, not the sign-in screen.
  const fresh = await browser.newContext(PHONE)
  const phone = await fresh.newPage()
  phone.on('pageerror', (e) => errors.push(e.message))
  await phone.goto(`${server.url}/verify/${PRINTED}`)
  await expectCertificatePage(phone, 390)
  await expect(phone).toHaveURL(`${server.url}/verify/${PRINTED}`)
  await expectNoSeriousViolations(phone, 'Verify page, phone, signed out')
  // A code typed loosely (lower case, no dash) is the same certificate.
  await phone.goto(`${server.url}/verify/${CERTIFICATE.toLowerCase()}`)
  await expect(phone.getByRole('heading', { name: 'Certificate verified' })).toBeVisible()
  // An unknown code: the same page saying so, with the way to the app.
  await phone.goto(`${server.url}/verify/ZZZZZ-ZZZZZ`)
  await expect(phone.getByRole('heading', { name: 'Unknown verification code', level: 1 })).toBeVisible()
  await expect(phone.getByText(/No certificate or transcript entry has this verification code/)).toBeVisible()
  await expectNoSeriousViolations(phone, 'Verify page, unknown code')
  // The link back opens the app.
  await phone.getByRole('link', { name: 'Open CSI Events' }).click()
  await expect(phone).toHaveURL(new RegExp(`^${server.url}/`))
  await fresh.close()

  // Signed out, a desk's window (wider than tall: the app itself would show its 'Mobile Required' notice).
  const desk = await browser.newContext(DESK)
  const wide = await desk.newPage()
  wide.on('pageerror', (e) => errors.push(e.message))
  await wide.goto(`${server.url}/verify/${PRINTED}`)
  await expectCertificatePage(wide, 1280)
  await expect(wide.getByText(/Mobile Required|rotate/i)).toHaveCount(0)
  await expectNoSeriousViolations(wide, 'Verify page, 1280 px')
  await desk.close()

  // Signed in on a phone whose service worker controls the app (it answered every navigation with index.html).
  const mine = await browser.newContext(PHONE)
  const signedIn = await mine.newPage()
  signedIn.on('pageerror', (e) => errors.push(e.message))
  await openAs(signedIn, server.url, student)
  await controlledBySW(signedIn)
  await signedIn.goto(`${server.url}/verify/${PRINTED}`)
  await expectCertificatePage(signedIn, 390)
  await expectNoSeriousViolations(signedIn, 'Verify page, phone, signed in')

  // JSON at the same address for Accept: application/json.
  const json = await signedIn.request.get(`${server.url}/verify/${PRINTED}`, { headers: { accept: 'application/json' } })
  expect(json.status()).toBe(200)
  expect(await json.json()).toEqual({
    error: false,
    certificate: { code: PRINTED, name: 'Zoë D’Souza', event: 'Garba Night', council: expect.any(String), date: expect.any(String) },
  })
  await mine.close()
  expect(errors).toEqual([])
})

test('item 3: the ticket says when and where, the days it admits and which are used, and counts down to the next code', async ({ browser }) => {
  test.setTimeout(120_000)
  const context = await browser.newContext(PHONE)
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await openAs(page, server.url, student)
  // Home (issue 37 item 7): the Trending card of an event whose ticket the student holds says View Ticket.
  const trending = page.getByRole('region', { name: 'Trending Events' })
  const card = trending.getByRole('link').filter({ hasText: 'Walk Fest' })
  await expect(card).toContainText('View Ticket', { timeout: 20_000 })
  await expect(trending.getByRole('link').filter({ hasText: 'Garba Night' })).not.toContainText('View Ticket')
  await page.goto(`${server.url}/ticket/${festId}`)
  await expect(page.getByRole('heading', { name: 'Walk Fest', level: 1 })).toBeVisible({ timeout: 20_000 })
  const fact = (name: string) =>
    page
      .locator('dl div')
      .filter({ has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) })
      .locator('dd')
  // When: the first day's date and time, in IST.
  const first = new Date(`${FEST_DAYS[0]}T12:00:00Z`)
  await expect(fact('When')).toHaveText(
    new RegExp(`${first.getUTCDate()} ${first.toLocaleString('en-GB', { month: 'short', timeZone: 'UTC' })} ${first.getUTCFullYear()}, 10:00 AM`),
  )
  // Where: the venue, its name in bold up to the comma.
  await expect(fact('Where')).toHaveText('Main Auditorium, Block A')
  await expect(fact('Where').locator('strong')).toHaveText('Main Auditorium,')
  // The three days, the first used.
  await expect(page.getByRole('heading', { name: 'Admits on 3 days' })).toBeVisible()
  const days = page.getByRole('list').filter({ hasText: 'Used' }).getByRole('listitem')
  await expect(days).toHaveCount(3)
  await expect(days.nth(0)).toContainText('Used')
  await expect(days.nth(0)).not.toContainText('Not used yet')
  await expect(days.nth(1)).toContainText('Not used yet')
  await expect(days.nth(2)).toContainText('Not used yet')
  // The countdown: a number of seconds that goes down, and starts again at 30 when the code changes.
  const countdown = page.getByText(/^New code in \d+ s$/)
  await expect(countdown).toBeVisible()
  const seconds = async () => Number(/(\d+)/.exec((await countdown.textContent()) ?? '')![1])
  const before = await seconds()
  expect(before).toBeGreaterThanOrEqual(1)
  expect(before).toBeLessThanOrEqual(30)
  await expect.poll(seconds, { timeout: 5_000 }).not.toBe(before)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await expectNoSeriousViolations(page, 'Ticket with when, where and days')
  await context.close()
  expect(errors).toEqual([])
})

test('item 5: the door has a way back to its event list and to the app, with no browser back button', async ({ browser }) => {
  test.setTimeout(120_000)
  const context = await browser.newContext(PHONE)
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await signIn(page, server.url, volunteer)
  // Opened at /door itself, as an installed app's shortcut would: no history to go back to.
  await page.goto(`${server.url}/door`)
  const bar = page.getByRole('navigation', { name: 'Door' })
  await expect(bar.getByRole('link', { name: 'Back to the app' })).toBeVisible({ timeout: 20_000 })
  await expect(page.getByRole('heading', { name: 'Door check-in' })).toBeVisible()
  await expectNoSeriousViolations(page, 'Door, the event list with its bar')
  // Into an event, and back to the door's event list.
  await page.getByRole('button', { name: /Walk Fest/ }).click()
  await expect(page.getByTestId('ticket-total')).toBeVisible({ timeout: 20_000 })
  await expect(bar.getByRole('link', { name: 'Back to the app' })).toBeVisible()
  await expectNoSeriousViolations(page, 'Door, scanning with its bar')
  await page.getByRole('button', { name: 'Change event' }).click()
  await expect(page.getByRole('heading', { name: 'Door check-in' })).toBeVisible()
  // And back to the app: Home, inside the app (its header and tabs), the door's landscape allowance gone.
  await bar.getByRole('link', { name: 'Back to the app' }).click()
  await expect(page).toHaveURL(`${server.url}/`)
  await expect(page.getByText('Namaste')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByRole('link', { name: 'Home' })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.classList.contains('wide'))).toBe(false)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await context.close()
  expect(errors).toEqual([])
})
