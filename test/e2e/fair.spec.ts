// Issue 24 walked on a phone: tickets open with a draw window; Bela taps 'RSVP for this event', sees 'RSVPing' and
// then a disabled 'In the draw' with "Results at <time>"; at the draw the page moves by itself to 'View Ticket' with
// the 'Ticket claimed!' toast, and the page linked from the event recomputes her key from the published seed and
// finds it first in the list. The organiser opens tickets from the console's API (a manual move starts the window).
import { expect, test } from '@playwright/test'
import { startServer, type RunningServer } from './support/server.ts'
import { cli, moveEvents, query } from './support/operator.ts'
import { mustCall, newStudent, signIn, type Student } from './support/students.ts'

test.describe.configure({ mode: 'serial' })

let server: RunningServer
let organiser: Student
let bela: Student
let eventId: number

// Long enough for a loaded machine to open the page and tap (measured: 'In the draw' 2.1-2.6 s after the opening, two
// walks at once at load 10), short enough to wait for: it was 20 s, of which the walk spent some 17 s waiting for
// nothing but the clock (issue 38 item 8).
const WINDOW_SECONDS = 10

test.beforeAll(async () => {
  test.setTimeout(300_000)
  server = await startServer()
  organiser = await newStudent(server.url, 'Nisha Organiser')
  bela = await newStudent(server.url, 'Bela Iyer')
  server = await moveEvents(server, [], async (dir) => {
    const [row] = await query(dir, `SELECT id, organizer_id FROM events WHERE ma_ppt = 1 AND state <> 'DRAFT' AND parent_id IS NULL ORDER BY id LIMIT 1`)
    eventId = Number(row.id)
    await cli(dir, ['role:grant', organiser.email, 'organizer', String(row.organizer_id)])
    await query(dir, `INSERT INTO participants (event_id, user_id) VALUES (${eventId}, ${bela.id}) ON CONFLICT DO NOTHING`)
    await query(
      dir,
      `UPDATE events SET state = 'REGISTRATION_CLOSED', is_ticket_feature_enabled = true, ticket_count = tickets_sold + 5, fair_window_seconds = 0 WHERE id = ${eventId}`,
    )
  })
  // The console's save sets the window (and fixes the seed); the move to TICKET_OPEN starts it.
  await mustCall(server.url, organiser.accessToken, '/org/p/event/save', { id: eventId, fair_start: { window_seconds: WINDOW_SECONDS } })
})

test.afterAll(async () => {
  await server?.stop()
})

test.setTimeout(180_000)

test('a student enters the draw, the draw runs at its time, and the page shows the ticket by itself', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage()
  await signIn(page, server.url, bela)
  await page.goto(`${server.url}/event-details/${eventId}`)
  await expect(page.getByRole('button', { name: 'Already registered' })).toBeDisabled()

  const opened = await mustCall(server.url, organiser.accessToken, '/org/p/event/state', { event_id: eventId, state: 'TICKET_OPEN' })
  const drawAt = Date.parse(opened.event.fair_start.draw_at)
  expect(drawAt).toBeGreaterThan(Date.now())
  await page.reload()
  await page.getByRole('button', { name: 'RSVP for this event' }).click()
  await expect(page.getByRole('button', { name: 'In the draw' })).toBeDisabled()
  await expect(page.getByRole('status').filter({ hasText: /^Results at \d{1,2}:\d{2} [AP]M$/ })).toBeVisible()
  await expect(page.getByText(/^You are in the draw\. Results at \d{1,2}:\d{2} [AP]M\.$/)).toBeVisible()

  // No reload: the page fetches the event itself at draw_at.
  await expect(page.getByRole('link', { name: 'View Ticket' })).toBeVisible({ timeout: WINDOW_SECONDS * 1000 + 30_000 })
  await expect(page.getByText('Ticket claimed!')).toBeVisible()
  expect(Date.now()).toBeGreaterThanOrEqual(drawAt)

  // Issue 37 item 6 and issue 36 item 4: plain words first; the phone checks the draw for the student with their own
  // id and nonce (no one else's key can be recomputed), the technical detail folded away.
  await page.getByRole('link', { name: 'How the draw works' }).click()
  await expect(page.getByRole('heading', { name: /^The draw for / })).toBeVisible()
  await expect(page.getByText('the order is drawn by lot, not by who was fastest', { exact: false })).toBeVisible()
  const check = page.getByRole('status').filter({ hasText: 'Position' })
  await expect(check).toContainText('The draw gave you a place.')
  await expect(check).toContainText('The seed matches the hash published before the opening.')
  await expect(check).toContainText('Position 1 of 1')
  await expect(page.getByLabel('User id')).toHaveCount(0)
  const detail = page.locator('details')
  await expect(detail.getByText(/^\d+:[0-9a-f]{32}$/)).toBeHidden()
  await detail.getByText('The technical detail').click()
  await expect(detail.getByText(/^\d+:[0-9a-f]{32}$/)).toBeVisible()
})

test('the organiser on a phone sets the draw window in the editor and sees the entrants, then the result, on the event screen', async ({ browser }) => {
  const page = await (await browser.newContext()).newPage()
  await signIn(page, server.url, organiser)

  // The event drawn above: its result and seed; its window is locked now that tickets have opened.
  await page.goto(`${server.url}/manage/event/${eventId}`)
  const drawn = page.getByRole('region', { name: 'Draw' })
  await expect(drawn).toContainText('Drawn: 1 entered, 1 got tickets, 0 on the waitlist.')
  await expect(drawn).toContainText(/Seed: [0-9a-f]{64}/)
  await page.getByRole('link', { name: 'Edit' }).click()
  const locked = page.getByLabel('Draw window (seconds)')
  await expect(locked).toBeDisabled()
  await expect(locked).toHaveValue(String(WINDOW_SECONDS))
  await expect(page.getByText('Locked: tickets have opened.')).toBeVisible()

  // A new ticketed event: the field appears with tickets on, 60 by default; the organiser makes it 45.
  await page.goto(`${server.url}/manage/event/new`)
  await page.getByLabel('Name', { exact: true }).fill('Open Mic Night')
  await expect(page.getByLabel('Draw window (seconds)')).toHaveCount(0)
  await page.getByLabel('Tickets (RSVP) for this event').check()
  await page.getByLabel('Number of tickets').fill('30')
  const window = page.getByLabel('Draw window (seconds)')
  await expect(window).toHaveValue('60')
  await expect(page.getByText('0 = first come, first served; 60 is the default.')).toBeVisible()
  await window.fill('45')
  await page.getByRole('button', { name: 'Create draft' }).click()
  await expect(page).toHaveURL(/\/manage\/event\/\d+$/)
  const id = Number(/\/manage\/event\/(\d+)$/.exec(page.url())![1])
  const before = page.getByRole('region', { name: 'Draw' })
  await expect(before).toContainText('For 45 s after tickets open, RSVPs enter a draw.')
  await expect(before).toContainText(/Seed's SHA-256 \(published\): [0-9a-f]{64}/)

  // Registration, then tickets open: the window starts; Bela's RSVP enters the draw, and the screen counts her.
  await mustCall(server.url, organiser.accessToken, '/org/p/event/state', { event_id: id, state: 'REGISTRATION_OPEN' })
  await mustCall(server.url, bela.accessToken, '/event/p/register-for-event', { event_id: id })
  await mustCall(server.url, organiser.accessToken, '/org/p/event/state', { event_id: id, state: 'TICKET_OPEN' })
  await page.reload()
  await expect(page.getByRole('region', { name: 'Draw' })).toContainText(/^Draw0 entered so far\. The draw is at .+\d{1,2}:\d{2} [AP]M\./)
  expect((await mustCall(server.url, bela.accessToken, '/event/p/claim-ticket', { event_id: id })).result).toBe('IN_DRAW')
  // No reload: the screen fetches again every 5 s while the window is open.
  await expect(page.getByRole('region', { name: 'Draw' })).toContainText(/^Draw1 entered so far\. The draw is at .+\d{1,2}:\d{2} [AP]M\./, {
    timeout: 20_000,
  })
})
