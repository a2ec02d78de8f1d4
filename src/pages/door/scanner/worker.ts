// The in-house Code 128 reader off the main thread: camera frames arrive transferred (a VideoFrame, an
// ImageBitmap, or an ImageData's buffer), are read here, and only the text goes back, so the preview never
// waits on a decode.
import { readFrame, type Frame } from './read-frame.ts'

export interface FrameRequest {
  id: number
  frame: Frame
}

export interface FrameAnswer {
  id: number
  text: string | null
  /** Time spent in this worker: getting the pixels out of the frame and decoding them. */
  decodeMs: number
  /** Set when the frame could not be read at all (a bug, not a picture without a code). */
  error?: string
}

self.onmessage = async ({ data }: MessageEvent<FrameRequest>) => {
  const started = performance.now()
  let answer: FrameAnswer
  try {
    answer = { id: data.id, text: await readFrame(data.frame), decodeMs: performance.now() - started }
  } catch (error) {
    answer = { id: data.id, text: null, decodeMs: performance.now() - started, error: String(error) }
  }
  self.postMessage(answer)
}
