// Activity points (issue 26), walked through the real server and the built app on a phone: an organiser gives an
// event its points with the editor's call (and an editor save keeps them), the door checks a student in, the student's Profile shows
// "Activity points: 10 of 100" with the event (and again offline after a reload), the transcript PDF's code is
// confirmed by the public /verify page, and the admin's CSV holds the student's row.
import { readFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { devices, expect, test } from '@playwright/test'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { cli, moveEvents } from './support/operator.ts'
import { controlledBySW } from './support/offline.ts'
import { startServer, type RunningServer } from './support/server.ts'
import { eventId, mustCall, newStudent, openAs, signIn, type Student } from './support/students.ts'

const standardFontDataUrl = fileURLToPath(new URL('../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url))

let server: RunningServer
let organiser: Student
let student: Student
let id: number
let code: string

test.use({ ...(({ defaultBrowserType: _d, ...phone }) => phone)(devices['Pixel 7']) })

test.beforeAll(async () => {
  test.setTimeout(240_000)
  server = await startServer()
  organiser = await newStudent(server.url, 'Organiser Admin')
  student = await newStudent(server.url, 'Ananya Sharma')
  id = await eventId(server.url, student, 'Garba Night')
  server = await moveEvents(server, [[id, 'REGISTRATION_OPEN']])
  await mustCall(server.url, student.accessToken, '/event/p/register-for-event', { event_id: id })
  server = await moveEvents(server, [[id, 'TICKET_OPEN']], async (dataDir) => {
    await cli(dataDir, ['role:grant', organiser.email, 'admin'])
  })
  code = (await mustCall(server.url, student.accessToken, '/event/p/claim-ticket', { event_id: id })).ticket_code
})
test.afterAll(async () => {
  await server?.stop()
})

test('points set with the editor’s call (kept by an editor save), a check-in at the door, the profile (online and offline), the transcript verified, the CSV', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000)
  // 1. The organiser gives the event 10 points (Cultural) with the editor's call (the console's editor has no
  // fields for them yet: see the note), and saving the event in the editor keeps them. (The demo's pictures are
  // paths under /demo/, which the editor refuses to save again: an editor matter left to issue 22; cleared here.)
  await mustCall(server.url, organiser.accessToken, '/org/p/event/save', {
    id,
    event_page_image_url: null,
    banner_url: null,
    activity_points: { category: 'cultural', points: 10 },
  })
  await signIn(page, server.url, organiser)
  await page.goto(`${server.url}/manage/event/${id}/edit`)
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('Saved')).toBeVisible()
  const events = (await mustCall(server.url, organiser.accessToken, '/org/p/events', {})).events
  expect(events.find((e: { id: number }) => e.id === id).activity_points).toMatchObject({ category: 'Cultural', points: 10 })

  // 2. The door checks the student in.
  await mustCall(server.url, organiser.accessToken, '/door/p/check-in', { event_id: id, ticket_code: code, scan_id: randomUUID(), gate: 'Main' })

  // 3. The student's Profile shows the points, by category and event.
  const context = await browser.newContext({ ...(({ defaultBrowserType: _d, ...phone }) => phone)(devices['Pixel 7']), acceptDownloads: true })
  const phone = await context.newPage()
  await openAs(phone, server.url, student)
  await controlledBySW(phone)
  await phone.goto(`${server.url}/profile`)
  await expect(phone.getByRole('heading', { name: 'Activity points: 10 of 100' })).toBeVisible({ timeout: 20_000 })
  await expect(phone.getByRole('link', { name: 'Garba Night' })).toBeVisible()
  await expect(phone.getByText(/Attended · Cultural/)).toBeVisible()

  // 4. Offline after a reload: the kept record, and when it was computed.
  await context.setOffline(true)
  await phone.reload()
  await expect(phone.getByRole('heading', { name: 'Activity points: 10 of 100' })).toBeVisible({ timeout: 20_000 })
  await expect(phone.getByText(/Last updated/)).toBeVisible()
  await context.setOffline(false)

  // 5. The transcript PDF, and its code at the public /verify page.
  await phone.reload()
  const download = phone.waitForEvent('download')
  await phone.getByRole('button', { name: 'Download transcript (PDF)' }).click()
  const file = await (await download).path()
  const doc = await getDocument({ data: new Uint8Array(readFileSync(file!)), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl }).promise
  let text = ''
  for (let i = 1; i <= doc.numPages; i++)
    text += (await (await doc.getPage(i)).getTextContent()).items.map((item) => ('str' in item ? item.str : '')).join('\n')
  await doc.destroy()
  expect(text).toContain('Activity points: 10 of 100')
  const printed = /\b([0-9A-Z]{5}-[0-9A-Z]{5})\b/.exec(text)![1]
  await phone.goto(`${server.url}/api/v1/verify/${printed}`)
  await expect(phone.getByRole('heading', { name: 'Activity points verified' })).toBeVisible()
  await expect(phone.getByText('Garba Night')).toBeVisible()
  await context.close()

  // 6. The admin's CSV of the student's graduation year holds the row.
  const csv = await fetch(`${server.url}/api/v1/org/p/points/export.csv?year=2027&branch=Computer_Engineering`, {
    headers: { authorization: `Bearer ${organiser.accessToken}` },
  })
  expect(csv.status).toBe(200)
  const row = (await csv.text()).split('\r\n').find((line) => line.includes(student.email))
  expect(row).toBeDefined()
  expect(row).toContain('Ananya Sharma')
  expect(row!.split(',').slice(-4, -1)).toEqual(['10', '100', 'yes'])
})
