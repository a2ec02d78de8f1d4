// The in-house Code 128 reader off the main thread: camera frames arrive transferred (an ImageBitmap, or an
// ImageData's buffer), are read here, and only the text goes back, so the preview never waits on a decode.
import { decodeCode128 } from '../../../lib/code128-decode.ts'

export interface FrameRequest {
  id: number
  frame: ImageBitmap | ImageData
}

export interface FrameAnswer {
  id: number
  text: string | null
  /** Time spent in this worker: reading the pixels out of the bitmap and decoding them. */
  decodeMs: number
  /** Set when the frame could not be read at all (a bug, not a picture without a code). */
  error?: string
}

let canvas: OffscreenCanvas | undefined
let context: OffscreenCanvasRenderingContext2D | null = null

/** The RGBA pixels of a frame; a bitmap is drawn once into a canvas kept for the next frames, then released. */
function pixelsOf(frame: ImageBitmap | ImageData): ImageData {
  if (frame instanceof ImageData) return frame
  try {
    const { width, height } = frame
    if (!canvas || canvas.width !== width || canvas.height !== height) {
      canvas = new OffscreenCanvas(width, height)
      // Read back every frame: keep the canvas in memory rather than on the GPU.
      context = canvas.getContext('2d', { willReadFrequently: true })
    }
    if (!context) throw new Error('this browser has no 2D OffscreenCanvas in workers')
    context.drawImage(frame, 0, 0)
    return context.getImageData(0, 0, width, height)
  } finally {
    frame.close()
  }
}

self.onmessage = ({ data }: MessageEvent<FrameRequest>) => {
  const started = performance.now()
  let answer: FrameAnswer
  try {
    answer = { id: data.id, text: decodeCode128(pixelsOf(data.frame)), decodeMs: performance.now() - started }
  } catch (error) {
    answer = { id: data.id, text: null, decodeMs: performance.now() - started, error: String(error) }
  }
  self.postMessage(answer)
}
