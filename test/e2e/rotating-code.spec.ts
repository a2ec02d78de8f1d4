// Issue 25 item 1 walked with the fake camera: a student's ticket shows its code and a time code that changes every
// 30 s. A picture of it taken 2 minutes ago is refused at the door, online (the server's check) and offline (the
// door's own, by its clock set from its list), with the words; the live ticket at the same moment passes.
//
// The server's clock is the real one and cannot be moved, so "2 minutes ago" is the student's phone moved back: its
// page.clock starts 2 minutes in the past and the server's answer it sees says that time too (a phone exactly as it
// was then, clock correction included). Its page.clock then moves 2 minutes on, to now: the ticket moves on by
// itself (at each step's edge) and its live picture is taken. No real sleeps.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, devices, expect, type Page, test } from '@playwright/test'
import { decodeCode128 } from './support/barcode.ts'
import { type CameraDoorOptions, cameraDoor, startCamera, verdict } from './support/camera-door.ts'
import { moveEvents, query } from './support/operator.ts'
import { startServer, type RunningServer } from './support/server.ts'
import { mustCall, newStudent, signIn, type Student } from './support/students.ts'

test.describe.configure({ mode: 'serial' })

const EXPIRED = 'This code has expired: ask the student to open the ticket in the app'
const TWO_MINUTES = 2 * 60_000
const { defaultBrowserType: _ignored, ...phone } = devices['Pixel 7']

let server: RunningServer
let student: Student
let volunteer: Student
let eventId: number
let eventName: string
let code: string
let dir: string
const browsers: Browser[] = []

test.beforeAll(async () => {
  test.setTimeout(300_000) // two server starts on a shared, loaded machine
  server = await startServer()
  student = await newStudent(server.url, 'Ira Kulkarni')
  volunteer = await newStudent(server.url, 'Om Volunteer')
  server = await moveEvents(server, [], async (data) => {
    const [row] = await query(data, `SELECT id, name FROM events WHERE ma_ppt = 1 AND state <> 'DRAFT' AND parent_id IS NULL ORDER BY id LIMIT 1`)
    eventId = Number(row.id)
    eventName = String(row.name)
    await query(data, `INSERT INTO participants (event_id, user_id) VALUES (${eventId}, ${student.id}) ON CONFLICT DO NOTHING`)
    // Tickets open first come, first served; rotating_codes is left as every event has it by default (true).
    await query(
      data,
      `UPDATE events SET fair_window_seconds = 0, fair_draw_at = NULL, state = 'TICKET_OPEN', is_ticket_feature_enabled = true, ticket_count = tickets_sold + 5 WHERE id = ${eventId}`,
    )
    await query(data, `INSERT INTO event_staff (event_id, user_id) VALUES (${eventId}, ${volunteer.id})`)
  })
  code = (await mustCall(server.url, student.accessToken, '/event/p/claim-ticket', { event_id: eventId })).ticket_code
  dir = mkdtempSync(join(tmpdir(), 'rotating-code-'))
})

test.afterAll(async () => {
  for (const b of browsers) await b.close()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test.setTimeout(240_000)

/** What the door's camera sees of the barcode on the student's screen now (decoded from a screenshot of it). */
async function picture(page: Page): Promise<string> {
  const barcode = page.getByRole('img', { name: /^Ticket barcode/ })
  await expect(barcode).toBeVisible()
  await barcode.evaluate((el) => el.scrollIntoView({ block: 'center' }))
  return decodeCode128(await barcode.screenshot())
}

/** A door phone at the event's door with its list downloaded, its camera filming `text` (support/camera-door.ts). */
const door = (launchOptions: CameraDoorOptions['launchOptions'], text: string, name: string) =>
  cameraDoor({ launchOptions, url: server.url, volunteer, eventName, dir, name, text, browsers })

test('a picture of the ticket from 2 minutes ago is refused offline and online; the live ticket passes', async ({ browser, launchOptions }) => {
  // The student's phone 2 minutes ago: its clock, and the server's time on the answer it got.
  const ticket = await (await browser.newContext(phone)).newPage()
  await ticket.clock.install({ time: Date.now() - TWO_MINUTES })
  await signIn(ticket, server.url, student)
  await ticket.route(`**/api/v1/event/p/get/${eventId}`, async (route) => {
    const response = await route.fetch()
    const body = await response.json()
    body.event.server_time = new Date(Date.parse(body.event.server_time) - TWO_MINUTES).toISOString()
    await route.fulfill({ response, json: body })
  })
  await ticket.goto(`${server.url}/ticket/${eventId}`)
  await expect(ticket.getByText('The code changes every 30 seconds: a screenshot will not get you in.')).toBeVisible({ timeout: 20_000 })
  await expect(ticket.locator('#splash')).toHaveCount(0, { timeout: 15_000 })
  const stale = await picture(ticket)
  expect(stale).toMatch(new RegExp(`^${code}-\\d{6}$`))
  await ticket.unroute(`**/api/v1/event/p/get/${eventId}`)

  // Two minutes on, to now: the ticket has moved on by itself (and goes on moving at each step's edge).
  await ticket.clock.fastForward(TWO_MINUTES)
  await expect(ticket.getByRole('img', { name: /^Ticket barcode/ })).not.toHaveAccessibleName(`Ticket barcode: ${stale}`)

  // The door films the old picture: the server refuses it.
  const old = await door(launchOptions, stale, 'stale')
  await startCamera(old.page)
  await expect(verdict(old.page)).toHaveAttribute('data-result', 'EXPIRED_CODE')
  await expect(verdict(old.page)).toContainText(EXPIRED)
  await expect(verdict(old.page)).not.toContainText('Checked offline')

  await old.page.getByRole('button', { name: 'Next ticket' }).click()
  await old.page.getByRole('button', { name: 'Stop camera' }).click()

  // Offline, the door's own check refuses it too; nothing waits to be sent, nothing was checked in.
  await old.context.setOffline(true)
  await expect(old.page.getByText('offline: 0 scans waiting')).toBeVisible()
  await startCamera(old.page)
  await expect(verdict(old.page)).toContainText('Checked offline against the ticket list')
  await expect(verdict(old.page)).toHaveAttribute('data-result', 'EXPIRED_CODE')
  await expect(verdict(old.page)).toContainText(EXPIRED)
  await expect(old.page.getByText('offline: 0 scans waiting')).toBeVisible()
  await old.context.close()
  const list = await mustCall(server.url, volunteer.accessToken, '/door/p/tickets', { event_id: eventId })
  expect(list.tickets.find((t: { ticket_code: string }) => t.ticket_code === code).checked_in_at).toBeNull()

  // The live ticket at the same moment passes: its picture taken just before the camera starts.
  const now = await door(launchOptions, stale, 'live')
  const live = await picture(ticket)
  expect(live).toMatch(new RegExp(`^${code}-\\d{6}$`))
  expect(live).not.toBe(stale)
  now.film(live)
  await startCamera(now.page)
  await expect(verdict(now.page)).toHaveAttribute('data-result', 'CHECKED_IN')
  await expect(verdict(now.page)).toContainText('Ira Kulkarni')
  const after = await mustCall(server.url, volunteer.accessToken, '/door/p/tickets', { event_id: eventId })
  expect(after.tickets.find((t: { ticket_code: string }) => t.ticket_code === code).gate).toBe('Main')
  await now.context.close()
})
