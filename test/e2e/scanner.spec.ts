// The door scanner module (src/pages/door/scanner/) in real Chromium with a fake rear camera playing a rendered
// ticket (test/e2e/support/fake-camera.ts): frames reach the worker and read, through the in-house decoder, as
// the ticket's code. The door screen's own scan-to-CHECKED_IN walk reuses the same camera.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { devices, expect, test, type Browser, type Page } from '@playwright/test'
import type { ScannerOptions } from '../../src/pages/door/scanner/index.ts'
import { launchWithFakeCamera, writeTicketVideo } from './support/fake-camera.ts'
import { openScannerHarness, type ScannerHarness } from './support/scanner-harness.ts'

const TICKET = '4006381333931234'

let dir: string
let harness: ScannerHarness
let browser: Browser
let page: Page
test.beforeAll(async ({ launchOptions }) => {
  dir = mkdtempSync(join(tmpdir(), 'fake-camera-'))
  harness = await openScannerHarness()
  browser = await launchWithFakeCamera(launchOptions, writeTicketVideo(join(dir, 'ticket.y4m'), TICKET))
})
test.afterAll(async () => {
  await browser?.close()
  await harness?.close()
  rmSync(dir, { recursive: true, force: true })
})
test.beforeEach(async () => {
  const { defaultBrowserType: _ignored, ...phone } = devices['Pixel 7']
  page = await (await browser.newContext(phone)).newPage()
  await page.goto(harness.url)
})
test.afterEach(async () => {
  await page.context().close()
})

/** The harness page while a scanner runs: the codes it reported, and its stop(). */
type Scanning = { codes: string[]; stopScanner: () => void }

/** Starts the scanner on the page's <video> with `options`; answers which reader it chose. */
const startScanning = (options: ScannerOptions) =>
  page.evaluate(async (options) => {
    const w = window as unknown as Scanning
    w.codes = []
    const scanner = await window.scanner.startScanner(document.querySelector('video')!, (code) => w.codes.push(code), options)
    w.stopScanner = scanner.stop
    return scanner.decoder
  }, options)
const codesReported = () => page.evaluate(() => (window as unknown as Scanning).codes)

test('camera frames of a ticket reach the worker and read as its code, with the in-house decoder', async () => {
  expect(await startScanning({ decoder: 'in-house' })).toBe('in-house')
  await expect.poll(codesReported, { timeout: 15_000 }).toEqual([TICKET])
})

test('a ticket held in view is reported once; stop() releases the camera', async () => {
  await startScanning({ decoder: 'in-house', repeatMs: 2000 })
  await expect.poll(codesReported, { timeout: 15_000 }).toEqual([TICKET])
  // The camera keeps showing the ticket, read again at every frame for three seconds: still one report.
  await page.waitForTimeout(3000) // kept: the 3 s in view the test is about
  const after = await page.evaluate(() => {
    const video = document.querySelector('video')!
    const track = (video.srcObject as MediaStream).getVideoTracks()[0]
    ;(window as unknown as Scanning).stopScanner()
    return { codes: (window as unknown as Scanning).codes, track: track.readyState, source: video.srcObject }
  })
  expect(after).toEqual({ codes: [TICKET], track: 'ended', source: null })
})

test('captured frames are transferred to the worker, not copied, and read: a VideoFrame, an ImageBitmap, an ImageData', async () => {
  const result = await page.evaluate(async () => {
    const video = document.querySelector('video')!
    video.srcObject = await navigator.mediaDevices.getUserMedia({ video: true })
    await video.play()
    const decoder = window.scanner.createFrameDecoder()
    const frame = new VideoFrame(video)
    const frameBefore = [frame.format, frame.codedWidth]
    const fromFrame = await decoder.read(frame)
    const bitmap = await createImageBitmap(video)
    const bitmapBefore = [bitmap.width, bitmap.height]
    const fromBitmap = await decoder.read(bitmap)
    const canvas = Object.assign(document.createElement('canvas'), { width: video.videoWidth, height: video.videoHeight })
    const context = canvas.getContext('2d')!
    context.drawImage(video, 0, 0)
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height)
    const pixelsBefore = pixels.data.byteLength
    const fromPixels = await decoder.read(pixels)
    decoder.close()
    return {
      frame: { text: fromFrame.text, before: frameBefore, after: [frame.format, frame.codedWidth] },
      bitmap: { text: fromBitmap.text, before: bitmapBefore, after: [bitmap.width, bitmap.height] },
      pixels: { text: fromPixels.text, before: pixelsBefore, after: pixels.data.byteLength },
    }
  })
  // Transferred, a VideoFrame is closed here (no format, 0 wide), an ImageBitmap 0×0, a buffer empty.
  expect(result).toEqual({
    frame: { text: TICKET, before: ['I420', 1920], after: [null, 0] },
    bitmap: { text: TICKET, before: [1920, 1080], after: [0, 0] },
    pixels: { text: TICKET, before: 1920 * 1080 * 4, after: 0 },
  })
})
