// Reads a Code 128 barcode out of a screenshot with ZXing, a reader written apart from our encoder
// (src/lib/code128.ts): if the symbol the browser painted is wrong in any bar, ZXing gives no text or
// another text, so the walk proves the ticket scans rather than that our encoder agrees with itself.
import { BarcodeFormat, BinaryBitmap, DecodeHintType, HybridBinarizer, MultiFormatReader, RGBLuminanceSource } from '@zxing/library'
import { PNG } from 'pngjs'

/** Greyscale of a PNG's RGBA pixels, transparent pixels taken as lying on white paper. */
export function luminances(png: { width: number; height: number; data: Buffer | Uint8Array }): Uint8ClampedArray {
  const out = new Uint8ClampedArray(png.width * png.height)
  for (let i = 0, p = 0; i < out.length; i++, p += 4) {
    const a = png.data[p + 3] / 255
    // ITU-R BT.601 weights, the usual luma for scanners.
    const y = 0.299 * png.data[p] + 0.587 * png.data[p + 1] + 0.114 * png.data[p + 2]
    out[i] = Math.round(y * a + 255 * (1 - a))
  }
  return out
}

/** The text of the Code 128 symbol in a PNG (e.g. from `locator.screenshot()`); throws if none can be read. */
export function decodeCode128(pngBytes: Buffer): string {
  const png = PNG.sync.read(pngBytes)
  const source = new RGBLuminanceSource(luminances(png), png.width, png.height)
  const bitmap = new BinaryBitmap(new HybridBinarizer(source))
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [BarcodeFormat.CODE_128]],
    [DecodeHintType.TRY_HARDER, true],
  ])
  const reader = new MultiFormatReader()
  reader.setHints(hints)
  const result = reader.decode(bitmap) // NotFoundException when there is no readable symbol
  if (result.getBarcodeFormat() !== BarcodeFormat.CODE_128) {
    throw new Error(`expected a Code 128 symbol, read ${BarcodeFormat[result.getBarcodeFormat()]}`)
  }
  return result.getText()
}
