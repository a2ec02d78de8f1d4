// A fake rear camera for Chromium: a .y4m video of a ticket's barcode as a door phone sees it, fed to
// getUserMedia with --use-fake-device-for-media-stream --use-file-for-fake-video-capture=<file>.y4m (Chromium
// loops the file). Usage, in a spec:
//   test.beforeAll(async ({ launchOptions }) => {
//     browser = await launchWithFakeCamera(launchOptions, writeTicketVideo(join(dir, 'ticket.y4m'), ticketCode))
//   })
import { writeFileSync } from 'node:fs'
import { chromium, type LaunchOptions } from '@playwright/test'
import { renderScene, seededRandom, type Scene } from '../../fixtures/barcode-scene.ts'

/**
 * Writes grey frames as a YUV4MPEG2 file: a one-line header, then per frame "FRAME\n" and the Y, U and V planes
 * of 4:2:0 (chroma at a quarter resolution, 128: no colour). Luma goes to the video range 16–235 that
 * Chromium's capture path expects, so black and white come back as black and white.
 */
export function writeY4m(file: string, frames: readonly Uint8ClampedArray[], { width, height, fps = 30 }: { width: number; height: number; fps?: number }) {
  if (width % 2 || height % 2) throw new RangeError(`y4m 4:2:0 needs an even width and height, got ${width}×${height}`)
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`)
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128)
  const parts: Buffer[] = [header]
  for (const grey of frames) {
    if (grey.length !== width * height) throw new RangeError(`frame of ${grey.length} pixels, expected ${width * height}`)
    const luma = Buffer.alloc(width * height)
    for (let i = 0; i < luma.length; i++) luma[i] = 16 + Math.round((grey[i] * 219) / 255)
    parts.push(Buffer.from('FRAME\n'), luma, chroma)
  }
  writeFileSync(file, Buffer.concat(parts))
}

/**
 * How a ticket looks to a door phone's rear camera at 1920×1080 (what startScanner asks for) when its phone is
 * held about 25 cm away (15 cm: about 4 pixels a module; 30 cm: 2): the symbol a sixth of the frame wide, off
 * centre, tilted, on the screen of a phone, in a cluttered room, a little out of focus, with sensor noise.
 */
export const DOOR_VIEW: Omit<Scene, 'text' | 'seed'> = {
  width: 1920,
  height: 1080,
  modulePx: 2.3,
  angle: -8,
  centre: [1050, 600],
  screen: 215,
  paper: 235,
  ink: 35,
  background: 70,
  screenMargin: [6, 45],
  clutter: 400,
  blur: 1,
  noise: 4,
}

/**
 * Renders `frames` views of the ticket `code` (each with its own sensor noise and a hand's small shake:
 * a few pixels and a degree) and writes them to `file` as y4m; answers `file`.
 */
export function writeTicketVideo(
  file: string,
  code: string,
  { frames = 4, view = DOOR_VIEW }: { frames?: number; view?: Omit<Scene, 'text' | 'seed'> } = {},
): string {
  const shake = seededRandom(frames)
  const [x, y] = view.centre ?? [view.width / 2, view.height / 2]
  const pictures = Array.from({ length: frames }, (_, k) =>
    renderScene({
      ...view,
      text: code,
      seed: k + 1,
      centre: [x + (shake() - 0.5) * 6, y + (shake() - 0.5) * 6],
      angle: (view.angle ?? 0) + (shake() - 0.5) * 2,
    }),
  )
  writeY4m(file, pictures, { width: view.width, height: view.height })
  return file
}

/** Chromium flags for a camera fed from `file` (and no permission prompt for it). */
export const fakeCameraArgs = (file: string) => [
  '--use-fake-device-for-media-stream',
  `--use-file-for-fake-video-capture=${file}`,
  '--use-fake-ui-for-media-stream',
]

/** Chromium as playwright.config.ts launches it, its camera the video `file`. */
export const launchWithFakeCamera = (launchOptions: LaunchOptions, file: string) =>
  chromium.launch({ ...launchOptions, args: [...(launchOptions.args ?? []), ...fakeCameraArgs(file)] })
