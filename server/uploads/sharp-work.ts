// What sharp does with an upload, run in the encoder's process (./encoder-process.ts), never in the server's.
import { CARD_WIDTH, DETAILS_WIDTH, type Encoded, MAX_PIXELS } from './images.ts'

// sharp (libvips, about 28 MB resident) is loaded at the first upload, not at start (issue 15 item 6).
const loadSharp = async () => {
  const { default: sharp } = await import('sharp')
  // One libvips thread per image: an upload takes one core at most.
  sharp.concurrency(1)
  return sharp
}

/** The image's pixels (width x height) from its header alone, or null when the header cannot be read. */
export async function readPixels(buffer: Buffer): Promise<number | null> {
  const sharp = await loadSharp()
  try {
    const { width, height } = await sharp(buffer, { limitInputPixels: false }).metadata()
    return width && height ? width * height : null
  } catch {
    return null
  }
}

/** Both widths as WebP; throws when the bytes are not a readable image. */
export async function encodeImage(buffer: Buffer): Promise<Encoded> {
  const sharp = await loadSharp()
  // Decoded once, at the details' width (the pixels, turned upright), and both widths made from those pixels: a
  // fifth less CPU than decoding the upload twice.
  const pixels = await sharp(buffer, { limitInputPixels: MAX_PIXELS, failOn: 'error' })
    .rotate()
    .resize({ width: DETAILS_WIDTH, withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true })
  const source = () => sharp(pixels.data, { raw: { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels } })
  const details = await source().webp({ quality: 80 }).toBuffer({ resolveWithObject: true })
  const card = await source().resize({ width: CARD_WIDTH, withoutEnlargement: true }).webp({ quality: 72 }).toBuffer({ resolveWithObject: true })
  return {
    details: details.data,
    card: card.data,
    width: details.info.width,
    height: details.info.height,
    cardWidth: card.info.width,
    cardHeight: card.info.height,
  }
}
