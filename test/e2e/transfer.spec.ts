// Issue 25 item 2 walked on phones: Arjun cannot come and gives his ticket to Bela from the ticket screen (a wrong
// address is answered under the field, then a confirmation); he lands on the event page with the server's message
// and no ticket; Bela's ticket screen shows her new barcode; at the door (the fake camera filming each phone's
// barcode) a picture of Arjun's ticket taken before he gave it away is refused as TRANSFERRED and Bela's checks in.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Browser, expect, test } from '@playwright/test'
import { decodeCode128 } from './support/barcode.ts'
import { cameraDoor, startCamera, verdict } from './support/camera-door.ts'
import { moveEvents, query } from './support/operator.ts'
import { startServer, type RunningServer } from './support/server.ts'
import { mustCall, newStudent, signIn, type Student } from './support/students.ts'

test.describe.configure({ mode: 'serial' })

let server: RunningServer
let arjun: Student
let bela: Student
let volunteer: Student
let eventId: number
let eventName: string
let dir: string
const browsers: Browser[] = []

test.beforeAll(async () => {
  test.setTimeout(300_000) // two server starts on a shared, loaded machine
  server = await startServer()
  arjun = await newStudent(server.url, 'Arjun Mehta')
  bela = await newStudent(server.url, 'Bela Iyer')
  volunteer = await newStudent(server.url, 'Dev Volunteer')
  // The organiser's part, with the server stopped (the embedded database is single-process): an individual event
  // with tickets open first come, first served (no draw window) and one place left, both students registered, the
  // volunteer at its door. Arjun's claim sells it out, so his page after giving it away could offer the waitlist.
  server = await moveEvents(server, [], async (dir) => {
    const [row] = await query(dir, `SELECT id, name FROM events WHERE ma_ppt = 1 AND state <> 'DRAFT' AND parent_id IS NULL ORDER BY id LIMIT 1`)
    eventId = Number(row.id)
    eventName = String(row.name)
    await query(dir, `INSERT INTO participants (event_id, user_id) VALUES (${eventId}, ${arjun.id}), (${eventId}, ${bela.id}) ON CONFLICT DO NOTHING`)
    await query(
      dir,
      `UPDATE events SET fair_window_seconds = 0, fair_draw_at = NULL, state = 'TICKET_OPEN', is_ticket_feature_enabled = true, ticket_count = tickets_sold + 1 WHERE id = ${eventId}`,
    )
    await query(dir, `INSERT INTO event_staff (event_id, user_id) VALUES (${eventId}, ${volunteer.id})`)
  })
  await mustCall(server.url, arjun.accessToken, '/event/p/claim-ticket', { event_id: eventId })
  dir = mkdtempSync(join(tmpdir(), 'transfer-'))
})

test.afterAll(async () => {
  for (const b of browsers) await b.close()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

test.setTimeout(180_000)

test('a ticket given to a friend: the old code stops at the door, the friend’s new one passes', async ({ browser, launchOptions }) => {
  const oldCode = (await mustCall(server.url, arjun.accessToken, `/event/p/get/${eventId}`, {})).event.Participant.ticket_code as string
  expect(oldCode).toMatch(/^\d{16}$/)

  const arjunPage = await (await browser.newContext()).newPage()
  await signIn(arjunPage, server.url, arjun)
  await arjunPage.goto(`${server.url}/ticket/${eventId}`)
  const arjunBarcode = arjunPage.getByRole('img', { name: /^Ticket barcode/ })
  await expect(arjunBarcode).toBeVisible()
  // A picture of his ticket, as a screenshot sent around would be (the splash gone, the symbol in the middle).
  await expect(arjunPage.locator('#splash')).toHaveCount(0, { timeout: 15_000 })
  await arjunBarcode.evaluate((el) => el.scrollIntoView({ block: 'center' }))
  const arjunPicture = decodeCode128(await arjunBarcode.screenshot())
  expect(arjunPicture).toMatch(new RegExp(`^${oldCode}-\\d{6}$`))
  await arjunPage.getByRole('button', { name: 'Give to a friend' }).click()
  const field = arjunPage.getByLabel('Friend’s e-mail')
  await field.fill('nobody.here@example.edu')
  await arjunPage.getByRole('button', { name: 'Give ticket' }).click()
  // The dialog names the friend it gives to (issue 37 item 7).
  await arjunPage.getByRole('dialog', { name: 'Give your ticket to nobody.here@example.edu?' }).getByRole('button', { name: 'Confirm' }).click()
  // One answer for whoever cannot receive it (issue 36 item 5): an e-mail's account is not told apart.
  await expect(arjunPage.getByRole('alert').filter({ hasText: 'Your friend cannot receive this ticket.' })).toBeVisible()
  await expect(field).toHaveAttribute('aria-invalid', 'true')

  await field.fill(bela.email)
  await arjunPage.getByRole('button', { name: 'Give ticket' }).click()
  const dialog = arjunPage.getByRole('dialog', { name: `Give your ticket to ${bela.email}?` })
  await expect(dialog).toContainText(bela.email)
  await dialog.getByRole('button', { name: 'Confirm' }).click()
  await expect(arjunPage).toHaveURL(new RegExp(`/event-details/${eventId}$`))
  await expect(arjunPage.getByText('Your ticket is now Bela Iyer’s')).toBeVisible()
  await expect(arjunPage.getByRole('link', { name: 'View Ticket' })).toHaveCount(0)
  // The giver is told where the ticket went, not offered the waitlist for the place just given (issue 37 item 7).
  await expect(arjunPage.getByRole('status').filter({ hasText: `You gave your ticket to ${bela.email}.` })).toBeVisible()
  await expect(arjunPage.getByRole('button', { name: 'Join the waitlist' })).toHaveCount(0)

  // Bela's phone: the ticket with a new code.
  const newCode = (await mustCall(server.url, bela.accessToken, `/event/p/get/${eventId}`, {})).event.Participant.ticket_code as string
  expect(newCode).toMatch(/^\d{16}$/)
  expect(newCode).not.toBe(oldCode)
  const belaPage = await (await browser.newContext()).newPage()
  await signIn(belaPage, server.url, bela)
  await belaPage.goto(`${server.url}/ticket/${eventId}`)
  const barcode = belaPage.getByRole('img', { name: /^Ticket barcode/ })
  await expect(barcode).toBeVisible()
  // The picture is of the screen: the splash covers it for 1.5 s after the page opens, and the fixed navigation bar
  // would cover a symbol at the bottom of the phone ('Give to a friend' below it makes the page longer).
  await expect(belaPage.locator('#splash')).toHaveCount(0, { timeout: 15_000 })
  await barcode.evaluate((el) => el.scrollIntoView({ block: 'center' }))
  // The door: its camera films the picture of Arjun's ticket, taken before he gave it away: refused, given to a
  // friend. A second door phone films Bela's screen at the last moment (her code, then the time code her new
  // secret makes): checked in.
  const door = (name: string, text: string) => cameraDoor({ launchOptions, url: server.url, volunteer, eventName, dir, name, text, browsers })
  const old = await door('arjun', arjunPicture)
  await startCamera(old.page)
  await expect(verdict(old.page)).toHaveAttribute('data-result', 'TRANSFERRED')
  await old.context.close()

  const now = await door('bela', arjunPicture)
  const read = decodeCode128(await barcode.screenshot())
  expect(read).toMatch(new RegExp(`^${newCode}-\\d{6}$`))
  now.film(read)
  await startCamera(now.page)
  await expect(verdict(now.page)).toHaveAttribute('data-result', 'CHECKED_IN')
  await expect(verdict(now.page)).toContainText('Bela Iyer')
  await now.context.close()
  const list = await mustCall(server.url, volunteer.accessToken, '/door/p/tickets', { event_id: eventId })
  expect(list.tickets.find((t: { ticket_code: string }) => t.ticket_code === newCode).gate).toBe('Main')
  expect(list.tickets.some((t: { ticket_code: string }) => t.ticket_code === oldCode)).toBe(false)
})
