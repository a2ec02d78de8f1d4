// A door lane for the fake camera (issue 25 item 4): people stepping up one after another, each holding up a
// ticket, with the empty room between them, as one looping .y4m (test/e2e/support/fake-camera.ts). Used by the
// express walk (test/e2e/door-express.spec.ts) and by bench:door's express throughput (bench/door/express.ts).
import { createHmac } from 'node:crypto'
import { DOOR_VIEW, writeY4m } from './fake-camera.ts'
import { renderScene, seededRandom, type Scene } from '../../fixtures/barcode-scene.ts'

/** A ticket as the walks and the bench know it; with its time-code secret where the event's tickets rotate (issue 25). */
export interface LaneTicket {
  ticket_code: string
  secret?: string | null
}

/**
 * What a ticket's barcode carries when shown at `now` (ms since the epoch): every picture of a ticket in the lane
 * is drawn from this ONE function, so when the barcode changes shape (a time code beside the ticket code,
 * issue 25 item 1) only this changes.
 */
export function barcodeFor(ticket: LaneTicket, now: number): string {
  if (!ticket.secret) return ticket.ticket_code
  // contract/time-code.ts's code (HOTP over HMAC-SHA-256 of the 30 s step, 6 digits), here with node:crypto so that
  // it is synchronous; the door refuses anything else, so a drift between the two fails the walks and the bench.
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)))
  const mac = createHmac('sha256', Buffer.from(ticket.secret, 'hex')).update(counter).digest()
  const bin = mac.readUInt32BE(mac[mac.length - 1] & 15) & 0x7fffffff
  return `${ticket.ticket_code}-${String(bin % 1_000_000).padStart(6, '0')}`
}

/** The ticket code a barcode's text (as barcodeFor draws it, or as the door shows it) stands for: its inverse. */
export function ticketCodeOf(text: string): string {
  return text.replace(/^(.+)-\d{6}$/, '$1')
}

/** One stretch of the lane: someone holding up a barcode (its text), or nobody (null), for `ms`. */
export interface LaneStep {
  barcode: string | null
  ms: number
}

/** The room with nobody's phone in it. */
const empty = (view: Omit<Scene, 'text' | 'seed'>): Omit<Scene, 'text' | 'seed'> => ({ ...view, widths: [], quietZone: 0, barHeight: 0, screenMargin: [0, 0] })

/** The marker's squares: MARKER_BITS of them, MARKER_PX wide, along the top left corner, away from the symbol. */
export const MARKER_BITS = 8
export const MARKER_PX = 48
const MARKER_AT: [number, number] = [16, 16]

/**
 * Paints `value` (1…255; 0: nobody) as black (1) and white (0) squares in the top left corner, so a page can tell
 * from the picture on its <video> which step of the lane it shows (readMarker), and when it first did.
 */
function paintMarker(grey: Uint8ClampedArray, width: number, value: number) {
  const [x0, y0] = MARKER_AT
  for (let bit = 0; bit < MARKER_BITS; bit++) {
    const level = (value >> bit) & 1 ? 0 : 255
    for (let y = y0; y < y0 + MARKER_PX; y++) grey.fill(level, y * width + x0 + bit * MARKER_PX, y * width + x0 + (bit + 1) * MARKER_PX)
  }
}

/**
 * Writes the lane as y4m at `fps` frames a second (a step of `ms` lasts round(ms·fps/1000) frames, at least one),
 * each frame of a ticket with its own noise and a hand's small shake. With `marker`, each frame also carries its
 * step's number (1-based; 0 for nobody) in the corner. Answers `file`.
 */
export function writeLaneVideo(
  file: string,
  steps: readonly LaneStep[],
  { view = DOOR_VIEW, fps = 4, marker = false }: { view?: Omit<Scene, 'text' | 'seed'>; fps?: number; marker?: boolean } = {},
): string {
  const shake = seededRandom(steps.length)
  const [x, y] = view.centre ?? [view.width / 2, view.height / 2]
  const frames: Uint8ClampedArray[] = []
  let room: Uint8ClampedArray | undefined
  steps.forEach((step, i) => {
    const n = Math.max(1, Math.round((step.ms * fps) / 1000))
    for (let k = 0; k < n; k++) {
      let picture: Uint8ClampedArray
      if (step.barcode === null) {
        room ??= renderScene({ ...empty(view), seed: 1 })
        picture = room.slice()
      } else
        picture = renderScene({
          ...view,
          text: step.barcode,
          seed: i * 31 + k + 1,
          centre: [x + (shake() - 0.5) * 6, y + (shake() - 0.5) * 6],
          angle: (view.angle ?? 0) + (shake() - 0.5) * 2,
        })
      if (marker) paintMarker(picture, view.width, step.barcode === null ? 0 : i + 1)
      frames.push(picture)
    }
  })
  writeY4m(file, frames, { width: view.width, height: view.height, fps })
  return file
}

/**
 * In the page: the marker of the picture `video` shows now (0: nobody), read from the corner alone at a quarter
 * size (cheap on a throttled page). A function's source, for page.evaluate to eval: it carries its constants.
 */
export const readMarkerSource = `(() => {
  const [x0, y0, bits, px] = [${MARKER_AT[0]}, ${MARKER_AT[1]}, ${MARKER_BITS}, ${MARKER_PX}]
  const [w, h, scale] = [x0 + bits * px + 16, y0 + px + 16, 1 / 4]
  const canvas = Object.assign(document.createElement('canvas'), { width: w * scale, height: h * scale })
  const context = canvas.getContext('2d', { willReadFrequently: true })
  return (video) => {
    context.drawImage(video, 0, 0, w, h, 0, 0, w * scale, h * scale)
    const row = context.getImageData(0, Math.floor((y0 + px / 2) * scale), canvas.width, 1).data
    let value = 0
    for (let bit = 0; bit < bits; bit++) if (row[Math.floor((x0 + (bit + 0.5) * px) * scale) * 4] < 128) value |= 1 << bit
    return value
  }
})()`
