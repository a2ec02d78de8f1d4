// Event images (API.md Part 2 /org/p/upload): JPEG, PNG or WebP recognised by their first bytes (never by the name or
// the type the client claims), at most 5 MB, decoded and re-encoded as WebP in two widths: the card's (400 px wide,
// a few KB on 3G) and the details page's (1000 px). Only the pixels survive: sharp writes no metadata unless asked
// (no EXIF, no GPS, no ICC comments), and the orientation is applied to the pixels first.
import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

export const CARD_WIDTH = 400
export const DETAILS_WIDTH = 1000
/**
 * Larger images (in pixels) are refused before they are decoded (issue 21 item 9: a 6 KB PNG of 7000 x 7000 cost
 * 0.9 s of CPU; the decode's cost follows the pixels, not the bytes). 25 megapixels takes a 24 MP camera's photo
 * (6000 x 4000) and a phone's 12 MP one, in about a quarter of a second here; a larger one is for the organiser to
 * shrink.
 */
export const MAX_PIXELS = 25_000_000

export type ImageKind = 'jpeg' | 'png' | 'webp'

/** The image's kind from its first bytes, or null. */
export function sniff(buffer: Buffer): ImageKind | null {
  if (buffer.length >= 3 && buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff) return 'jpeg'
  if (buffer.length >= 8 && buffer.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png'
  if (buffer.length >= 12 && buffer.toString('latin1', 0, 4) === 'RIFF' && buffer.toString('latin1', 8, 12) === 'WEBP') return 'webp'
  return null
}

// Reading the header and re-encoding happen in the encoder's own, niced process (./encoder.ts).
export { type Encoded, encode, pixelsOf } from './encoder.ts'
import type { Encoded } from './encoder.ts'

/** The stored files' names: `<name>.webp` (details) and `<name>-card.webp` (card). */
export const UPLOAD_NAME = /^[0-9a-f]{32}(-card)?\.webp$/

/** A new image's name: 32 hex characters, never reused. */
export const newUploadName = () => randomBytes(16).toString('hex')

/** The bytes both widths take on disk (what an organiser's quota counts). */
export const storedBytes = (encoded: Encoded) => encoded.details.length + encoded.card.length

/** Both files of an image, by its name (a missing file is no error). */
export const filesOf = (name: string) => [`${name}.webp`, `${name}-card.webp`]

export async function removeImage(dir: string, name: string): Promise<void> {
  await Promise.all(filesOf(name).map((file) => rm(join(dir, file), { force: true })))
}

/** Writes both widths (each to a temporary name first, so a half-written file is never served); the details' file name. */
export async function store(dir: string, encoded: Encoded, name: string = newUploadName()): Promise<string> {
  await mkdir(dir, { recursive: true })
  for (const [file, data] of [
    [`${name}-card.webp`, encoded.card],
    [`${name}.webp`, encoded.details],
  ] as const) {
    const tmp = join(dir, `.${file}.tmp`)
    await writeFile(tmp, data)
    await rename(tmp, join(dir, file))
  }
  return `${name}.webp`
}
