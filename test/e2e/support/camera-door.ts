// A door phone whose rear camera is the fake camera (issue 25's walks: rotating-code.spec, transfer.spec): the
// volunteer signed in at /door, the gate named, the event's list downloaded. Its camera films the text written to
// its video file before the camera starts (Chromium opens the file then), so a live picture is filmed at the last
// moment with `film`. Controlled by the service worker, so the camera's decoder (a worker script) is kept for a
// start offline.
import { join } from 'node:path'
import { type Browser, devices, expect, type Page } from '@playwright/test'
import { launchWithFakeCamera, writeTicketVideo } from './fake-camera.ts'
import { controlledBySW } from './offline.ts'
import { signIn, type Student } from './students.ts'

const { defaultBrowserType: _ignored, ...phone } = devices['Pixel 7']

export interface CameraDoorOptions {
  launchOptions: Parameters<typeof launchWithFakeCamera>[0]
  url: string
  volunteer: Student
  eventName: string
  /** Where its video file goes, and the file's name there. */
  dir: string
  name: string
  /** The barcode text filmed until `film` says otherwise. */
  text: string
  /** Browsers to close after the tests. */
  browsers: Browser[]
}

export async function cameraDoor({ launchOptions, url, volunteer, eventName, dir, name, text, browsers }: CameraDoorOptions) {
  const file = writeTicketVideo(join(dir, `${name}.y4m`), text)
  const browser = await launchWithFakeCamera(launchOptions, file)
  browsers.push(browser)
  const context = await browser.newContext({ ...phone, permissions: ['camera'] })
  const page = await context.newPage()
  await signIn(page, url, volunteer)
  await page.goto(`${url}/door`)
  await controlledBySW(page)
  await page.reload()
  await page.getByLabel('Gate name').fill('Main')
  await page.getByRole('button', { name: new RegExp(`^${eventName}`) }).click()
  await expect(page.getByText(/^List from /)).toBeVisible({ timeout: 20_000 })
  return { context, page, film: (what: string) => writeTicketVideo(file, what) }
}

/** The door's verdict on the last read. */
export const verdict = (page: Page) => page.locator('[data-result]')

/** Starts the camera; it reports a symbol in view once (scanner/index.ts: a repeat is not reported while in view). */
export async function startCamera(page: Page) {
  await page.getByRole('button', { name: 'Scan with camera' }).click()
  await expect(verdict(page)).toBeVisible({ timeout: 30_000 })
}
