// The door screen (issue 12) through the real server and the built app on a phone: a volunteer (an admin here)
// opens /door, picks the event and a gate; the camera path with a fake camera playing a rendered ticket checks it
// in through the in-house decoder; the offline path downloads the list, loses the network, queues three scans
// ("offline: 3 scans waiting"), gets the network back and syncs them, with the counts right.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { devices, expect, test, type Browser } from '@playwright/test'
import { cli, moveEvents } from './support/operator.ts'
import { startServer, type RunningServer } from './support/server.ts'
import { launchWithFakeCamera, writeTicketVideo } from './support/fake-camera.ts'
import { eventId, mustCall, newStudent, signIn, type Student } from './support/students.ts'

/** The server sheds load (503) when the machine is busy: the set-up calls wait and try again. */
async function call(token: string, path: string, body: unknown): Promise<any> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await mustCall(server.url, token, path, body)
    } catch (error) {
      if (attempt >= 20 || !String(error).includes('503')) throw error
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  }
}

let server: RunningServer
let volunteer: Student
let id: number
const codes: string[] = []
let dir: string
let browser: Browser

test.beforeAll(async ({ launchOptions }) => {
  test.setTimeout(240_000)
  server = await startServer()
  volunteer = await newStudent(server.url, 'Door Volunteer')
  const holders = [
    await newStudent(server.url, 'Asha Rao'),
    await newStudent(server.url, 'Kabir Shah'),
    await newStudent(server.url, 'Meera Iyer'),
    await newStudent(server.url, 'Rohan Das'),
  ]
  id = await eventId(server.url, volunteer, 'Garba Night')
  server = await moveEvents(server, [[id, 'REGISTRATION_OPEN']])
  for (const h of holders) await call(h.accessToken, '/event/p/register-for-event', { event_id: id })
  server = await moveEvents(server, [[id, 'TICKET_OPEN']], async (dataDir) => {
    await cli(dataDir, ['role:grant', volunteer.email, 'admin'])
  })
  for (const h of holders) codes.push((await call(h.accessToken, '/event/p/claim-ticket', { event_id: id })).ticket_code)
  dir = mkdtempSync(join(tmpdir(), 'door-camera-'))
  browser = await launchWithFakeCamera(launchOptions, writeTicketVideo(join(dir, 'ticket.y4m'), codes[0]))
})
test.afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

async function openDoor(gate: string) {
  const { defaultBrowserType: _ignored, ...phone } = devices['Pixel 7']
  const context = await browser.newContext({ ...phone, permissions: ['camera'] })
  const page = await context.newPage()
  await signIn(page, server.url, volunteer)
  await page.goto(`${server.url}/door`)
  await page.getByLabel('Gate name').fill(gate)
  await page.getByRole('button', { name: /Garba Night/ }).click()
  // Garba Night's demo attendees hold tickets too: the counts are read against the server's list.
  const list = await call(volunteer.accessToken, '/door/p/tickets', { event_id: id })
  await expect(page.getByTestId('ticket-total')).toHaveText(String(list.tickets.length), { timeout: 20_000 })
  return { context, page, before: list.tickets.filter((t: any) => t.checked_in_at).length as number }
}

test('camera: a ticket in front of the fake camera is read by the in-house decoder and checked in', async () => {
  const { context, page, before } = await openDoor('North')
  // Chromium's BarcodeDetector is absent on Linux: startScanner falls back to the in-house decoder in a worker.
  await page.getByRole('button', { name: 'Scan with camera' }).click()
  await expect(page.locator('[data-result]')).toHaveAttribute('data-result', 'CHECKED_IN', { timeout: 30_000 })
  await expect(page.getByRole('alert').getByText('Asha Rao')).toBeVisible()
  await page
    .getByRole('button', { name: 'Stop camera' })
    .click({ force: true })
    .catch(() => {})
  await page.getByRole('button', { name: 'Next ticket' }).click()
  await expect(page.getByTestId('gate-count')).toHaveText('1')
  await expect(page.getByTestId('total-count')).toHaveText(String(before + 1))
  const list = await call(volunteer.accessToken, '/door/p/tickets', { event_id: id })
  expect(list.tickets.find((t: any) => t.ticket_code === codes[0]).gate).toBe('North')
  await context.close()
})

test('offline: list downloaded, network cut, three scans queued, network back, synced, counts right', async () => {
  const { context, page, before } = await openDoor('South')
  await context.setOffline(true)
  const code = page.getByLabel(/Ticket code/)
  for (const c of [codes[1], codes[2], codes[0]]) {
    await code.fill(c)
    await code.press('Enter')
    await expect(page.locator('[data-result]')).toBeVisible()
    await page.getByRole('button', { name: 'Next ticket' }).click()
  }
  // codes[0] was checked in at North already: the offline list says so; the two others are queued, and a third
  // new one too.
  await code.fill(codes[3])
  await code.press('Enter')
  await expect(page.locator('[data-result]')).toHaveAttribute('data-result', 'CHECKED_IN')
  await page.getByRole('button', { name: 'Next ticket' }).click()
  await expect(page.getByText('offline: 3 scans waiting')).toBeVisible()
  await expect(page.getByTestId('gate-count')).toHaveText('3')
  await expect(page.getByTestId('total-count')).toHaveText(String(before + 3))
  await context.setOffline(false)
  await expect(page.getByText(/scans waiting|offline scans/)).toHaveCount(0, { timeout: 30_000 })
  const list = await call(volunteer.accessToken, '/door/p/tickets', { event_id: id })
  expect(list.tickets.filter((t: any) => t.checked_in_at).length).toBe(before + 3)
  expect(list.tickets.filter((t: any) => t.gate === 'South').length).toBe(3)
  await expect(page.getByTestId('total-count')).toHaveText(String(before + 3))
  await context.close()
})
