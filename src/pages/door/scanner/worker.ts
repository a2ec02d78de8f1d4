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

async function answer({ id, frame }: FrameRequest): Promise<FrameAnswer> {
  const started = performance.now()
  try {
    return { id, text: await readFrame(frame), decodeMs: performance.now() - started }
  } catch (error) {
    return { id, text: null, decodeMs: performance.now() - started, error: String(error) }
  }
}

// One frame at a time, in the order they came: reading a VideoFrame waits for its copy, and the next frame
// must not copy into the same buffer meanwhile.
let queue = Promise.resolve()
self.onmessage = ({ data }: MessageEvent<FrameRequest>) => {
  queue = queue.then(async () => self.postMessage(await answer(data)))
}
