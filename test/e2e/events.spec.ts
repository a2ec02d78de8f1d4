// Issue 3 walked as a student would, on a phone over a throttled network, through the real server (the built
// app and the API on a fresh embedded database with the demo data, dates around today): Home's sections,
// child events, event details, registering, RSVP once the organiser has opened tickets, the ticket with a
// barcode that an independent reader decodes to the ticket code, the calendar, councils, My Events and
// feedback on a completed event. The phone is set to Los Angeles; every date and time must read in
// Asia/Kolkata all the same (and once more from a phone in Kiritimati, UTC+14).
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { devices, expect, test, type Locator, type Page } from '@playwright/test'
import { startServer, type RunningServer } from './support/server.ts'
import { throttle } from './support/network.ts'
import { callApi, eventId, eventsOf, mustCall, newStudent, openAs, type Student } from './support/students.ts'
import { decodeCode128 } from './support/barcode.ts'
import { cli, moveEvents, query } from './support/operator.ts'
import { TOAST_MS } from '../../contract/constants.ts'

test.use({ timezoneId: 'America/Los_Angeles' })
test.describe.configure({ mode: 'serial' })

// Expected texts are worked out here with Intl, apart from the app's own date code (src/lib/dates.ts).
const IST = 'Asia/Kolkata'
function ist(at: string | number) {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: IST,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hour12: true,
  })
  const p = Object.fromEntries(f.formatToParts(new Date(at)).map((x) => [x.type, x.value]))
  const monthNumber = new Intl.DateTimeFormat('en-US', { timeZone: IST, month: '2-digit' }).format(new Date(at))
  return {
    key: `${p.year}-${monthNumber}-${p.day.padStart(2, '0')}`,
    weekday: p.weekday,
    day: Number(p.day),
    month: p.month,
    year: p.year,
    /** 'Thu, 26 Nov 2026', as on cards and in 'No events on …' */
    cardDate: `${p.weekday.slice(0, 3)}, ${Number(p.day)} ${p.month.slice(0, 3)} ${p.year}`,
    /** 'hh:mm A' */
    time: `${p.hour}:${p.minute} ${p.dayPeriod}`,
  }
}
/** The <dd> beside the <dt> named `term` inside `scope` (Event details and Ticket list their facts so). */
const fact = (scope: Page | Locator, term: string) =>
  scope
    .getByRole('term')
    .filter({ hasText: new RegExp(`^${term}$`) })
    .locator('xpath=following-sibling::dd[1]')
const ordinal = (n: number) => n + (n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'))

/** Holds a call back for a moment, so the transient label of a flow ('Registering', 'RSVPing') can be seen. */
async function slowDown(page: Page, path: string, ms = 1200) {
  await page.route(`**/api/v1${path}`, async (route) => {
    await new Promise((r) => setTimeout(r, ms)) // kept: the slow answer under which the transient label shows
    await route.continue()
  })
}

/** Records, by the page's own clock, when each toast came and went. Timed from outside, its three seconds raced the
 *  test's polling: `toBeVisible` may notice a toast up to a second after it came, longer on a loaded machine. */
async function watchToasts(page: Page) {
  await page.evaluate(() => {
    const lives = new Map<Element, ToastLife>()
    Object.assign(window, { toastLives: lives })
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('.toast'))
        if (!lives.has(toast)) lives.set(toast, { text: toast.textContent ?? '', shownAt: performance.now() })
      for (const [toast, life] of lives) if (!toast.isConnected && life.hiddenAt === undefined) life.hiddenAt = performance.now()
    }).observe(document.body, { childList: true, subtree: true })
  })
  return () => page.evaluate(() => [...(window as unknown as { toastLives: Map<Element, ToastLife> }).toastLives.values()])
}
interface ToastLife {
  text: string
  shownAt: number
  hiddenAt?: number
}

let server: RunningServer
let asha: Student
const ids: Record<string, number> = {}

test.beforeAll(async () => {
  server = await startServer()
  asha = await newStudent(server.url, 'Asha Rao')
  for (const name of ['Techfest 2026', 'Intro to Git and GitHub', 'Ideathon 2026', 'Garba Night', 'Stand-up Comedy Night']) {
    ids[name] = await eventId(server.url, asha, name)
  }
  // Ideathon (a team event) is the one Asha will rate once it is over: she registers while it is open, by
  // creating a team, which makes her its leader and a participant.
  await mustCall(server.url, asha.accessToken, '/event/p/create-team/', { event_id: ids['Ideathon 2026'], team_name: 'Byte Club' })
})
test.afterAll(async () => {
  await server?.stop()
  // Each run's embedded database is ~40 MB of temporary files.
  if (server) rmSync(server.dataDir, { recursive: true, force: true })
})

test('home sections, trending labels and links, child events, event details', async ({ page }) => {
  expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('America/Los_Angeles')
  await throttle(page, '4G', { cpu: false })
  await openAs(page, server.url, asha)

  const all = await eventsOf(server.url, asha)
  const stateOf = new Map(all.map((e) => [e.name as string, e.state as string]))
  const names = (state: string, keep: (e: any) => boolean) =>
    all
      .filter((e) => e.state === state && keep(e))
      .map((e) => e.name)
      .sort()
  const childless = (e: any) => e.children.length === 0

  // Sections in order; Your Tickets is left out while Asha holds no ticket of a closed or ongoing event.
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(['Trending Events', 'Upcoming Events', 'Registration Open', 'Tickets Released'])
  await expect(page.getByRole('heading', { name: 'Your Tickets' })).toHaveCount(0)

  const cardNames = async (section: string) =>
    page
      .getByRole('region', { name: section })
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => a.querySelector('h3')!.textContent!))

  // Trending: top-level events of TICKET_OPEN, ONGOING, REGISTRATION_OPEN, UPCOMING in that order, each labelled.
  const labels: Record<string, string> = { TICKET_OPEN: 'RSVP Now', ONGOING: 'Ongoing', REGISTRATION_OPEN: 'Registrations Open', UPCOMING: 'Coming Soon' }
  const order = Object.keys(labels)
  const trending = await cardNames('Trending Events')
  const expected = order.flatMap((state) => names(state, (e) => e.parent_id === null))
  expect([...trending].sort()).toEqual([...expected].sort())
  expect(trending.map((n) => order.indexOf(stateOf.get(n)!))).toEqual(trending.map((n) => order.indexOf(stateOf.get(n)!)).sort((a, b) => a - b))
  const trendingRegion = page.getByRole('region', { name: 'Trending Events' })
  for (const name of trending) {
    await expect(trendingRegion.getByRole('link').filter({ has: page.getByRole('heading', { name, exact: true }) })).toContainText(labels[stateOf.get(name)!])
  }
  // A parent leads to its child events, a childless event to its details.
  const card = (region: string, name: string) =>
    page
      .getByRole('region', { name: region })
      .getByRole('link')
      .filter({ has: page.getByRole('heading', { name, exact: true }) })
  await expect(card('Trending Events', 'Techfest 2026')).toHaveAttribute('href', `/child-events/${ids['Techfest 2026']}`)
  await expect(card('Trending Events', 'Garba Night')).toHaveAttribute('href', `/event-details/${ids['Garba Night']}`)

  // The other three list childless events of their state only.
  expect((await cardNames('Upcoming Events')).sort()).toEqual(names('UPCOMING', childless))
  expect((await cardNames('Registration Open')).sort()).toEqual(names('REGISTRATION_OPEN', childless))
  expect(await cardNames('Registration Open')).not.toContain('Techfest 2026')
  expect((await cardNames('Tickets Released')).sort()).toEqual(names('TICKET_OPEN', childless))

  // A card: name, organiser, first date in IST, venue, tags; Ideathon carries 'Registered' (Asha's team).
  const workshop = all.find((e) => e.name === 'Intro to Git and GitHub')
  const workshopCard = card('Registration Open', 'Intro to Git and GitHub')
  await expect(workshopCard).toContainText(workshop.organizer.name)
  await expect(workshopCard).toContainText(ist(workshop.dates[0]).cardDate)
  await expect(workshopCard).toContainText(workshop.venue)
  await expect(workshopCard.getByRole('list', { name: 'Tags' }).getByRole('listitem')).toHaveText(workshop.tags)
  await expect(card('Registration Open', 'Ideathon 2026').getByRole('list', { name: 'Tags' })).toContainText('Registered')

  // Child events of the parent, reached from its trending card.
  await card('Trending Events', 'Techfest 2026').click()
  await expect(page).toHaveURL(`${server.url}/child-events/${ids['Techfest 2026']}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Techfest 2026' })).toBeVisible()
  const techfest = all.find((e) => e.name === 'Techfest 2026')
  const children = all.filter((e) => techfest.children.some((c: { id: number }) => c.id === e.id)).map((e) => e.name)
  expect(children.length).toBeGreaterThan(1)
  await expect(page.getByRole('region', { name: 'Events' }).getByRole('heading', { level: 3 })).toHaveText(children)

  // An unknown parent sends the student Home.
  await page.goto(`${server.url}/child-events/987654`)
  await expect(page).toHaveURL(`${server.url}/`, { timeout: 15_000 })
  await expect(page.getByRole('heading', { name: 'Trending Events' })).toBeVisible()

  // Event details from a card: name, date and time in IST, fee, About the Event.
  await card('Registration Open', 'Intro to Git and GitHub').click()
  await expect(page).toHaveURL(`${server.url}/event-details/${ids['Intro to Git and GitHub']}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Intro to Git and GitHub' })).toBeVisible()
  const when = ist(workshop.dates[0])
  await expect(fact(page, 'Date and time')).toHaveText(`${when.cardDate}, ${when.time}`)
  const detail = (await mustCall(server.url, asha.accessToken, `/event/p/get/${workshop.id}`)).event
  await expect(page.getByRole('heading', { name: 'About the Event' })).toBeVisible()
  await expect(page.getByText(detail.long_description)).toBeVisible()
  await expect(fact(page, 'Fee')).toHaveText('Free')
  await expect(page.getByRole('button', { name: 'Register', exact: true })).toBeEnabled()

  // A paid event shows the rupee amount.
  await page.goto(`${server.url}/event-details/${ids['Stand-up Comedy Night']}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Stand-up Comedy Night' })).toBeVisible()
  await expect(fact(page, 'Fee')).toHaveText('₹99')
})

test('register while registration is open, RSVP once tickets open, and the ticket barcode scans to the ticket code', async ({ page }) => {
  test.setTimeout(150_000)
  await throttle(page, '4G', { cpu: false })
  await openAs(page, server.url, asha)
  const workshopId = ids['Intro to Git and GitHub']

  // Register: 'Registering' while the call is under way, then 'Registered' and the 3-second toast.
  await page.goto(`${server.url}/event-details/${workshopId}`)
  const toasts = await watchToasts(page)
  await slowDown(page, '/event/p/register-for-event')
  await page.getByRole('button', { name: 'Register', exact: true }).click()
  await expect(page.getByRole('button', { name: 'Registering' })).toBeDisabled()
  const toast = page.getByText('Registration Successful!!', { exact: true })
  await expect(toast).toBeVisible()
  await expect(page.getByRole('button', { name: 'Registered', exact: true })).toBeDisabled()
  await toast.waitFor({ state: 'hidden', timeout: 6_000 })
  const [life, ...more] = await toasts()
  expect(more).toEqual([])
  expect(life).toEqual({ text: 'Registration Successful!!', shownAt: expect.any(Number), hiddenAt: expect.any(Number) })
  // Whole milliseconds: a timer's delay is an integer, the clock's readings are not.
  expect(life.hiddenAt! - life.shownAt).toBeGreaterThanOrEqual(TOAST_MS - 1)
  await page.unroute('**/api/v1/event/p/register-for-event')
  // The server holds the registration, and Home tags the card.
  expect((await mustCall(server.url, asha.accessToken, `/event/p/get/${workshopId}`)).event.Participant).toMatchObject({
    ticket_collected: false,
    ticket_code: null,
  })
  await page.getByRole('navigation').getByRole('link', { name: 'Home' }).click()
  await expect(
    page
      .getByRole('region', { name: 'Registration Open' })
      .getByRole('link')
      .filter({ has: page.getByRole('heading', { name: 'Intro to Git and GitHub' }) })
      .getByRole('list', { name: 'Tags' }),
  ).toContainText('Registered')

  // The organiser turns the ticket feature on (import, idempotent by slug) and opens tickets (event:state),
  // and closes Ideathon (COMPLETED) for the feedback walk. Registering for a TICKET_OPEN event is refused by the
  // API, which is why the order is register first, then move.
  const live = (await mustCall(server.url, asha.accessToken, `/event/p/get/${workshopId}`)).event
  const demo = JSON.parse(readFileSync('server/db/demo.json', 'utf8'))
  const entry = demo.events.find((e: { slug: string }) => e.slug === 'git-github-workshop')
  const file = join(server.dataDir, 'tickets-on.json')
  writeFileSync(file, JSON.stringify({ councils: [], events: [{ ...entry, dates: live.dates, is_ticket_feature_enabled: true, ticket_count: 40 }] }))
  server = await moveEvents(server, [], async (dataDir) => {
    await cli(dataDir, ['import', file])
    await cli(dataDir, ['event:state', String(workshopId), 'TICKET_OPEN'])
    await cli(dataDir, ['event:state', String(ids['Ideathon 2026']), 'COMPLETED'])
  })
  expect(await callApi(server.url, asha.accessToken, '/event/p/register-for-event', { event_id: ids['Garba Night'] })).toMatchObject({ status: 403 })

  // RSVP: 'RSVPing', then 'View Ticket' and a toast.
  await page.goto(`${server.url}/event-details/${workshopId}`)
  await slowDown(page, '/event/p/claim-ticket')
  await page.getByRole('button', { name: 'RSVP for this event' }).click()
  await expect(page.getByRole('button', { name: 'RSVPing' })).toBeDisabled()
  await expect(page.getByRole('link', { name: 'View Ticket' })).toBeVisible({ timeout: 15_000 })
  await expect(page.getByText('Ticket claimed!', { exact: true })).toBeVisible()
  await page.unroute('**/api/v1/event/p/claim-ticket')

  const participant = (await mustCall(server.url, asha.accessToken, `/event/p/get/${workshopId}`)).event.Participant
  expect(participant.ticket_collected).toBe(true)
  expect(participant.ticket_code).toMatch(/^\S{6,}$/)

  // The ticket: event, holder, college and a barcode that decodes to exactly the participant's ticket code and a time code.
  await page.getByRole('link', { name: 'View Ticket' }).click()
  await expect(page).toHaveURL(`${server.url}/ticket/${workshopId}`)
  const ticket = page.getByRole('article')
  await expect(ticket.getByRole('heading', { level: 1, name: 'Intro to Git and GitHub' })).toBeVisible()
  await expect(fact(ticket, 'Name')).toHaveText('Asha Rao')
  await expect(fact(ticket, 'College')).toHaveText('KJSCE')
  await expect(fact(ticket, 'Organiser')).toHaveText(live.organizer.name)
  const barcode = ticket.getByRole('img', { name: /^Ticket barcode/ })
  await expect(barcode).toBeVisible()
  // The code, then the time code that changes every 30 s (issue 25: the event's tickets rotate, the default).
  expect(decodeCode128(await barcode.screenshot())).toMatch(new RegExp(`^${participant.ticket_code}-\\d{6}$`))
  // The reader is no pushover: a picture of the ticket's heading reads as no barcode at all.
  const heading = await ticket.getByRole('heading', { level: 1 }).screenshot()
  expect(() => decodeCode128(heading)).toThrow()
})

test('calendar: months, Today, a day with events, a day without, keyboard', async ({ page }) => {
  await throttle(page, '4G', { cpu: false })
  await openAs(page, server.url, asha)
  const all = await eventsOf(server.url, asha)
  const today = ist(Date.now())

  await page.getByRole('navigation').getByRole('link', { name: 'Calendar' }).click()
  const title = page.getByRole('region', { name: 'Calendar' }).getByRole('heading', { level: 2 })
  await expect(title).toHaveText(`${today.month} ${today.year}`)
  const grid = page.getByRole('grid')
  await expect(grid.getByRole('gridcell')).toHaveCount(42)
  const dayButton = (at: ReturnType<typeof ist>) => grid.getByRole('button', { name: new RegExp(`^${at.weekday} ${at.day} ${at.month} ${at.year},`) })

  // Next and previous month, then Today brings back this month with today selected.
  const monthName = (offset: number) => {
    const d = new Date(Date.UTC(Number(today.year), Number(today.key.slice(5, 7)) - 1 + offset, 1))
    return `${d.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' })} ${d.getUTCFullYear()}`
  }
  await page.getByRole('button', { name: 'Next month' }).click()
  await expect(title).toHaveText(monthName(1))
  await page.getByRole('button', { name: 'Previous month' }).click()
  await page.getByRole('button', { name: 'Previous month' }).click()
  await expect(title).toHaveText(monthName(-1))
  await page.getByRole('button', { name: 'Today', exact: true }).click()
  await expect(title).toHaveText(`${today.month} ${today.year}`)
  await expect(dayButton(today)).toHaveAttribute('aria-current', 'date')

  // A day with events: Garba Night's. The schedule shows the ordinal day, the start in IST and a link.
  const garba = all.find((e) => e.name === 'Garba Night')
  const garbaDay = ist(garba.dates[0])
  const sameDay = all.filter((e) => e.dates.some((d: string) => ist(d).key === garbaDay.key))
  await dayButton(garbaDay).click()
  await expect(dayButton(garbaDay)).toHaveAttribute('title', sameDay.length === 1 ? '1 event' : `${sameDay.length} events`)
  await expect(page.getByRole('heading', { name: `${garbaDay.weekday}, ${garbaDay.day} ${garbaDay.month} ${garbaDay.year}` })).toBeVisible()
  const item = page.getByRole('link').filter({ hasText: 'Garba Night' })
  await expect(item).toContainText(ordinal(garbaDay.day))
  await expect(item).toContainText(garbaDay.time)
  expect(garbaDay.time).toMatch(/^\d\d:\d\d [AP]M$/)
  await expect(item).toHaveAttribute('href', `/event-details/${garba.id}`)

  // A day of this month without events.
  await page.getByRole('button', { name: 'Today', exact: true }).click()
  const busy = new Set(all.flatMap((e) => e.dates.map((d: string) => ist(d).key)))
  const monthPrefix = today.key.slice(0, 8)
  let free: ReturnType<typeof ist> | undefined
  for (let d = 1; d <= 28 && !free; d++) {
    const key = monthPrefix + String(d).padStart(2, '0')
    if (!busy.has(key)) free = ist(`${key}T12:00:00+05:30`)
  }
  expect(free, 'the demo month has a free day').toBeTruthy()
  await dayButton(free!).click()
  await expect(page.getByText(`No events on ${free!.cardDate}`, { exact: true })).toBeVisible()

  // Keyboard: arrows move the selection and the focus by a day, PageDown by a month.
  await dayButton(today).click()
  await expect(dayButton(today)).toBeFocused()
  await page.keyboard.press('ArrowRight')
  const tomorrow = ist(Date.parse(`${today.key}T12:00:00+05:30`) + 86_400_000)
  await expect(dayButton(tomorrow)).toBeFocused()
  await expect(page.getByRole('gridcell', { selected: true })).toHaveCount(1)
  await expect(page.getByRole('gridcell', { selected: true }).getByRole('button')).toHaveAccessibleName(new RegExp(`^${tomorrow.weekday} ${tomorrow.day} `))
  await page.keyboard.press('ArrowLeft')
  await expect(dayButton(today)).toBeFocused()
  await page.keyboard.press('PageDown')
  await expect(title).toHaveText(monthName(1))
  await expect(grid.getByRole('button').and(page.locator(':focus'))).toHaveCount(1)
})

test('councils with +91 tel: and mailto: links; My Events lists the registrations', async ({ page }) => {
  await throttle(page, '4G', { cpu: false })
  await openAs(page, server.url, asha)
  const { councils } = await mustCall(server.url, asha.accessToken, '/council/p/get')
  expect(councils.length).toBeGreaterThan(0)

  await page.getByRole('navigation').getByRole('link', { name: 'Councils' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Councils' })).toBeVisible()
  for (const council of councils) {
    const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: council.name, exact: true }) })
    await expect(row.getByRole('link', { name: `Call ${council.name} on +91 ${council.phone_number}` })).toHaveAttribute(
      'href',
      `tel:+91${council.phone_number}`,
    )
    await expect(row.getByRole('link', { name: council.email })).toHaveAttribute('href', `mailto:${council.email}`)
  }
  await expect(page.getByText(`+91 ${councils[0].phone_number}`)).toBeVisible()

  await page.getByRole('navigation').getByRole('link', { name: 'Profile' }).click()
  // Tapped once Profile has settled: its activity points come in after the page and push the links down.
  await expect(page.getByRole('heading', { name: /^Activity points: \d+ of \d+$/ })).toBeVisible({ timeout: 15_000 })
  await page.getByRole('link', { name: 'My Events' }).click()
  await expect(page).toHaveURL(`${server.url}/profile/myevents`)
  await expect(page.getByRole('heading', { level: 1, name: 'My Events' })).toBeVisible()
  const listed = page.getByRole('region', { name: 'Registered events' }).getByRole('heading', { level: 3 })
  await expect(listed).toHaveCount(2)
  expect((await listed.allTextContents()).sort()).toEqual(['Ideathon 2026', 'Intro to Git and GitHub'])
  // The collected ticket leads to the ticket.
  await expect(page.getByRole('link').filter({ hasText: 'Intro to Git and GitHub' })).toHaveAttribute('href', `/ticket/${ids['Intro to Git and GitHub']}`)
})

test('feedback on a completed event: five stars, Submit, the rating stored', async ({ page }) => {
  await throttle(page, '4G', { cpu: false })
  await openAs(page, server.url, asha)
  const ideathon = ids['Ideathon 2026']
  await page.goto(`${server.url}/event-details/${ideathon}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Ideathon 2026' })).toBeVisible()

  // The popup closes on a backdrop click without sending anything.
  await page.getByRole('button', { name: 'Give Feedback' }).click()
  const dialog = page.getByRole('dialog', { name: 'How was the event?' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Submit' })).toBeDisabled()
  await page.mouse.click(8, 8)
  await expect(dialog).toBeHidden()

  await page.getByRole('button', { name: 'Give Feedback' }).click()
  await expect(dialog.getByRole('radio')).toHaveCount(5)
  await dialog.getByRole('radio', { name: '5 stars' }).check({ force: true })
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/v1/event/p/rate'))
  await dialog.getByRole('button', { name: 'Submit' }).click()
  const answer = await sent
  expect(answer.status()).toBe(200)
  expect(answer.request().postDataJSON()).toEqual({ event_id: ideathon, rating: 5 })
  await expect(dialog).toBeHidden()
  await expect(page.getByText('Thank you for your feedback!')).toBeVisible()

  // Stored: read the participant's row once the server has let go of the database.
  await server.stop()
  const rows = await query(server.dataDir, `select rating from participants where event_id = ${ideathon} and user_id = ${asha.id}`)
  expect(rows).toEqual([{ rating: 5 }])
  server = await startServer({ DATA_DIR: server.dataDir, PORT: new URL(server.url).port, APP_URL: server.url })
})

test('times read in Asia/Kolkata from a phone in another zone too', async ({ browser }) => {
  const context = await browser.newContext({ ...devices['Pixel 7'], timezoneId: 'Pacific/Kiritimati' })
  const page = await context.newPage()
  expect(await page.evaluate(() => new Date().getTimezoneOffset())).toBe(-840)
  await openAs(page, server.url, asha)
  const garba = (await mustCall(server.url, asha.accessToken, `/event/p/get/${ids['Garba Night']}`)).event
  const at = ist(garba.dates[0])
  await page.goto(`${server.url}/event-details/${garba.id}`)
  await expect(fact(page, 'Date and time')).toHaveText(`${at.cardDate}, ${at.time}`)
  await context.close()
})
