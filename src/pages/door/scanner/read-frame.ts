// What the worker does with a frame, apart from the messaging, so that a benchmark can time the same work on a
// CPU-throttled main thread (DevTools cannot throttle workers).
import { decodeCode128, type PixelFrame } from '../../../lib/code128-decode.ts'

export type Frame = VideoFrame | ImageBitmap | ImageData

/** Formats whose first plane is 8-bit luma: copied out, it is the grey picture the reader wants as it is. */
const LUMA_FIRST = new Set(['I420', 'I420A', 'I422', 'I422A', 'I444', 'I444A', 'NV12'])

// Browsers without WebCodecs (Safari before 16.4) have no VideoFrame at all.
const isVideoFrame = (frame: Frame): frame is VideoFrame => typeof VideoFrame !== 'undefined' && frame instanceof VideoFrame

let canvas: OffscreenCanvas | undefined
let context: OffscreenCanvasRenderingContext2D | null = null
let planes = new Uint8Array(0)

/** A frame's pixels: a camera frame's luma plane as it is, otherwise RGBA drawn through a canvas kept for the next. */
async function pixelsOf(frame: Frame): Promise<PixelFrame> {
  if (frame instanceof ImageData) return frame
  try {
    if (isVideoFrame(frame) && frame.format && LUMA_FIRST.has(frame.format)) {
      const size = frame.allocationSize()
      if (planes.length < size) planes = new Uint8Array(size)
      await frame.copyTo(planes)
      const { width, height } = frame.visibleRect!
      return { data: planes.subarray(0, width * height), width, height }
    }
    const [width, height] = isVideoFrame(frame) ? [frame.displayWidth, frame.displayHeight] : [frame.width, frame.height]
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

/** The ticket code in a camera frame, or null; the frame is closed. */
export const readFrame = async (frame: Frame): Promise<string | null> => decodeCode128(await pixelsOf(frame))
