// The door screen's camera reader: the rear camera into a <video>, frames sampled as fast as they are read
// (one in flight at a time), read by the browser's BarcodeDetector where it knows Code 128 and otherwise by the
// in-house reader in a worker. Imported only by the door route: nothing here reaches a student's phone.
import type { Frame } from './read-frame.ts'
import type { FrameAnswer, FrameRequest } from './worker.ts'

export interface FrameReading {
  text: string | null
  /** Time the worker spent on the frame (pixels out of the frame, then the decode). */
  decodeMs: number
}

/** The in-house reader in its worker. */
export interface FrameDecoder {
  /**
   * Reads a frame: the picture a <video> shows now, or one already captured. Captured frames are transferred to
   * the worker, not copied: a VideoFrame or ImageBitmap is detached afterwards, an ImageData's buffer empty.
   */
  read(source: HTMLVideoElement | Frame): Promise<FrameReading>
  /** Ends the worker; frames still being read reject. */
  close(): void
}

export function createFrameDecoder(): FrameDecoder {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' })
  const pending = new Map<number, { resolve: (reading: FrameReading) => void; reject: (error: Error) => void }>()
  let next = 0
  let broken: Error | null = null
  let grab = grabVideoFrame
  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error)
    pending.clear()
  }
  worker.onmessage = ({ data }: MessageEvent<FrameAnswer>) => {
    const waiting = pending.get(data.id)
    pending.delete(data.id)
    if (data.error) waiting?.reject(new Error(`Code 128 worker: ${data.error}`))
    else waiting?.resolve({ text: data.text, decodeMs: data.decodeMs })
  }
  worker.onerror = (event) => {
    event.preventDefault()
    broken = new Error(`Code 128 worker failed to run: ${event.message || 'its script did not load'}`)
    failAll(broken)
  }
  const send = (frame: Frame) =>
    new Promise<FrameReading>((resolve, reject) => {
      const id = next++
      pending.set(id, { resolve, reject })
      const request: FrameRequest = { id, frame }
      try {
        worker.postMessage(request, [frame instanceof ImageData ? frame.data.buffer : frame])
      } catch (error) {
        pending.delete(id)
        reject(error)
      }
    })
  return {
    async read(source) {
      if (broken) throw broken
      if (!(source instanceof HTMLVideoElement)) return send(source)
      const frame = await grab(source)
      try {
        return await send(frame)
      } catch (error) {
        // A VideoFrame this browser cannot transfer (postMessage throws at once): bitmaps from now on.
        if (grab !== grabVideoFrame || !(error instanceof DOMException)) throw error
        ;(frame as VideoFrame).close()
        grab = grabBitmap
        return send(await grab(source))
      }
    },
    close() {
      worker.terminate()
      failAll(new Error('Code 128 worker closed'))
    },
  }
}

/**
 * The video's current picture as cheaply as the browser allows: a VideoFrame (the camera's own buffer, no copy;
 * the worker reads its luma plane as it is), else an ImageBitmap, else (Safari before 16.4) pixels read here.
 */
async function grabVideoFrame(video: HTMLVideoElement): Promise<Frame> {
  return typeof VideoFrame === 'function' ? new VideoFrame(video) : grabBitmap(video)
}

let captureCanvas: HTMLCanvasElement | undefined

/** An ImageBitmap where workers can draw one (a 2D OffscreenCanvas); otherwise the pixels, read here. */
async function grabBitmap(video: HTMLVideoElement): Promise<ImageBitmap | ImageData> {
  if (typeof OffscreenCanvas !== 'undefined') return createImageBitmap(video)
  const { videoWidth: width, videoHeight: height } = video
  captureCanvas ??= document.createElement('canvas')
  if (captureCanvas.width !== width || captureCanvas.height !== height) Object.assign(captureCanvas, { width, height })
  const context = captureCanvas.getContext('2d', { willReadFrequently: true })!
  context.drawImage(video, 0, 0)
  return context.getImageData(0, 0, width, height)
}

export interface ScannerOptions {
  /** 'in-house' reads with our decoder even where BarcodeDetector exists (tests prove this path with it). */
  decoder?: 'auto' | 'in-house'
  /** The same code seen again within this many ms of its last sighting is not reported again (default 2000). */
  repeatMs?: number
  /** Least time between two frames, in ms (default 100: at most ten a second, fewer when reading is slower). */
  intervalMs?: number
  /** Reading stopped for good (the worker would not run); the preview stays until stop(). */
  onError?: (error: Error) => void
}

export interface Scanner {
  /** Which reader is in use. */
  readonly decoder: 'native' | 'in-house'
  /** Stops reading and releases the camera. */
  stop(): void
}

interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>
}
interface BarcodeDetectorClass {
  new (options: { formats: string[] }): BarcodeDetectorLike
  getSupportedFormats(): Promise<string[]>
}

/**
 * Starts the rear camera in `video` and calls `onCode` with each ticket code read. Rejects as getUserMedia does
 * when there is no camera or permission is refused (NotAllowedError, NotFoundError): the door screen then offers
 * the typed code.
 */
export async function startScanner(video: HTMLVideoElement, onCode: (code: string) => void, options: ScannerOptions = {}): Promise<Scanner> {
  const { repeatMs = 2000, intervalMs = 100 } = options
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: false,
    // 1920×1080 holds a ticket's symbol 15–30 cm away at 4–2 pixels a module; 1280×720 gives 1.3 at 30 cm, which
    // reads only when the picture is sharp. Every phone camera streams 1080p; the reader's time grows with it.
    video: { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } },
  })
  let stopped = false
  let closeReader = () => {}
  const stop = () => {
    stopped = true
    for (const track of stream.getTracks()) track.stop()
    video.srcObject = null
    closeReader()
  }
  try {
    video.muted = true
    video.playsInline = true // iOS would otherwise open its own full-screen player
    video.srcObject = stream
    await video.play()
  } catch (error) {
    stop()
    throw error
  }

  const Detector = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector
  const native = options.decoder !== 'in-house' && !!Detector && (await Detector.getSupportedFormats().catch(() => [] as string[])).includes('code_128')
  let read: () => Promise<string | null>
  try {
    if (native) {
      const detector = new Detector!({ formats: ['code_128'] })
      read = async () => (await detector.detect(video))[0]?.rawValue ?? null
    } else {
      const decoder = createFrameDecoder()
      closeReader = () => decoder.close()
      read = async () => (await decoder.read(video)).text
    }
  } catch (error) {
    stop() // never leave the camera on for a scanner the caller cannot stop
    throw error
  }

  let last = ''
  let lastSeen = -Infinity
  void (async () => {
    while (!stopped) {
      const began = performance.now()
      // HAVE_CURRENT_DATA (2): the video has a frame to read.
      if (video.readyState >= 2 && video.videoWidth > 0) {
        let text: string | null
        try {
          text = await read()
        } catch (error) {
          if (!stopped) options.onError?.(error instanceof Error ? error : new Error(String(error)))
          return
        }
        const now = performance.now()
        if (text && !stopped) {
          const repeated = text === last && now - lastSeen < repeatMs
          last = text
          lastSeen = now
          if (!repeated) onCode(text)
        }
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, intervalMs - (performance.now() - began))))
    }
  })()

  return { decoder: native ? 'native' : 'in-house', stop }
}
