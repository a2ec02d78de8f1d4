// startScanner's choices and bookkeeping in happy-dom, with the browser parts it lacks played by stand-ins: the
// camera (getUserMedia), BarcodeDetector, the worker and VideoFrame. Which reader is used and when, what the
// camera is asked for, repeats reported once, stop and failures. The real camera-to-worker-to-code path runs in
// Chromium: test/e2e/scanner.spec.ts.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { startScanner, type Scanner, type ScannerOptions } from '../../src/pages/door/scanner/index.ts'

/** Answers read in turn by whichever reader is in use; null: no code in that frame; past the end, null. */
let script: (string | null)[]
let reads: number
const nextAnswer = () => (reads < script.length ? script[reads++] : (reads++, null))

const camera = {
  constraints: undefined as MediaStreamConstraints | undefined,
  track: { readyState: 'live', stop: () => void (camera.track.readyState = 'ended') },
  refuse: null as DOMException | null,
}

class StandInDetector {
  static formats = ['code_128', 'qr_code']
  static made = 0
  static getSupportedFormats = async () => StandInDetector.formats
  constructor(readonly options: { formats: string[] }) {
    StandInDetector.made++
    expect(options.formats).toEqual(['code_128'])
  }
  async detect() {
    const text = nextAnswer()
    return text === null ? [] : [{ rawValue: text, format: 'code_128' }]
  }
}

class StandInWorker {
  static made: StandInWorker[] = []
  static failToLoad = false
  static refuseVideoFrames = false
  onmessage: ((event: { data: unknown }) => void) | null = null
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null
  terminated = false
  transfers: unknown[][] = []
  constructor(readonly url: URL) {
    StandInWorker.made.push(this)
  }
  postMessage(request: { id: number }, transfer: unknown[]) {
    // Safari 16.4 has VideoFrame but may not transfer it: postMessage throws DataCloneError at once.
    if (StandInWorker.refuseVideoFrames && transfer[0] instanceof StandInVideoFrame) throw new DOMException('VideoFrame', 'DataCloneError')
    this.transfers.push(transfer)
    setTimeout(() => {
      if (this.terminated) return // a real worker ends at once
      if (StandInWorker.failToLoad) this.onerror?.({ message: '', preventDefault() {} })
      else this.onmessage?.({ data: { id: request.id, text: nextAnswer(), decodeMs: 1 } })
    })
  }
  terminate() {
    this.terminated = true
  }
}

class StandInVideoFrame {
  static closed = 0
  constructor(readonly source: unknown) {}
  close() {
    StandInVideoFrame.closed++
  }
}

class StandInBitmap {}

let video: HTMLVideoElement
beforeEach(() => {
  script = []
  reads = 0
  camera.constraints = undefined
  camera.track.readyState = 'live'
  camera.refuse = null
  StandInDetector.formats = ['code_128', 'qr_code']
  StandInDetector.made = 0
  StandInWorker.made = []
  StandInWorker.failToLoad = false
  StandInWorker.refuseVideoFrames = false
  StandInVideoFrame.closed = 0
  const stream = { getTracks: () => [camera.track], getVideoTracks: () => [camera.track] }
  vi.stubGlobal('navigator', {
    ...navigator,
    mediaDevices: {
      getUserMedia: async (constraints: MediaStreamConstraints) => {
        camera.constraints = constraints
        if (camera.refuse) throw camera.refuse
        return stream
      },
    },
  })
  vi.stubGlobal('BarcodeDetector', StandInDetector)
  vi.stubGlobal('Worker', StandInWorker)
  vi.stubGlobal('VideoFrame', StandInVideoFrame)
  vi.stubGlobal('createImageBitmap', async () => new StandInBitmap())
  video = document.createElement('video')
  // A camera frame on show: happy-dom plays no media, and takes only its own MediaStream as a source.
  Object.defineProperty(video, 'readyState', { value: 4 })
  Object.defineProperty(video, 'videoWidth', { value: 1280 })
  Object.defineProperty(video, 'srcObject', { value: null, writable: true })
})
/** Scanners started by a test, stopped after it whatever happened (a loop left running would read the next test's script). */
const running: Scanner[] = []
afterEach(() => {
  for (const scanner of running.splice(0)) scanner.stop()
  vi.unstubAllGlobals()
})

async function scan(options: ScannerOptions = {}) {
  const codes: string[] = []
  const scanner = await startScanner(video, (code) => codes.push(code), { intervalMs: 0, ...options })
  running.push(scanner)
  return { scanner, codes }
}

describe('which reader', () => {
  test('BarcodeDetector where the browser reads code_128 with it, on the rear camera at 1920×1080', async () => {
    script = ['4006381333931234']
    const { scanner, codes } = await scan()
    expect(scanner.decoder).toBe('native')
    expect(camera.constraints).toEqual({
      audio: false,
      video: { facingMode: { ideal: 'environment' }, width: { ideal: 1920 }, height: { ideal: 1080 } },
    })
    await vi.waitFor(() => expect(codes).toEqual(['4006381333931234']))
    expect(StandInWorker.made).toEqual([])
    scanner.stop()
  })

  test('the in-house worker where BarcodeDetector lacks code_128; each frame transferred to it', async () => {
    StandInDetector.formats = ['qr_code']
    script = [null, '4006381333931234']
    const { scanner, codes } = await scan()
    expect(scanner.decoder).toBe('in-house')
    await vi.waitFor(() => expect(codes).toEqual(['4006381333931234']))
    const [worker] = StandInWorker.made
    expect(worker.url.pathname).toMatch(/scanner\/worker\.ts$/)
    expect(worker.transfers.slice(0, 2)).toEqual([[expect.any(StandInVideoFrame)], [expect.any(StandInVideoFrame)]])
    scanner.stop()
  })

  test('where a VideoFrame cannot be transferred, ImageBitmaps from then on (the refused frame closed)', async () => {
    StandInWorker.refuseVideoFrames = true
    script = [null, null, '4006381333931234']
    const { codes } = await scan({ decoder: 'in-house' })
    await vi.waitFor(() => expect(codes).toEqual(['4006381333931234']))
    expect(StandInWorker.made[0].transfers.slice(0, 3)).toEqual([[expect.any(StandInBitmap)], [expect.any(StandInBitmap)], [expect.any(StandInBitmap)]])
    expect(StandInVideoFrame.closed).toBe(1)
  })

  test('the in-house worker where there is no BarcodeDetector at all', async () => {
    vi.stubGlobal('BarcodeDetector', undefined)
    const { scanner } = await scan()
    expect(scanner.decoder).toBe('in-house')
    scanner.stop()
  })

  test("decoder: 'in-house' uses the worker even where BarcodeDetector reads code_128", async () => {
    script = ['4006381333931234']
    const { scanner, codes } = await scan({ decoder: 'in-house' })
    expect(scanner.decoder).toBe('in-house')
    await vi.waitFor(() => expect(codes).toEqual(['4006381333931234']))
    expect(StandInDetector.made).toBe(0)
    scanner.stop()
  })
})

describe('repeats', () => {
  test('a code read again and again, frames without a code between, is reported once; another code between, again', async () => {
    script = ['A', 'A', null, 'A', null, null, 'A', 'B', 'B', 'A', 'A']
    const { scanner, codes } = await scan({ repeatMs: 60_000 })
    await vi.waitFor(() => expect(reads).toBeGreaterThan(script.length))
    expect(codes).toEqual(['A', 'B', 'A'])
    scanner.stop()
  })

  test('the same code after repeatMs without sighting it is reported again', async () => {
    script = ['A', ...new Array(30).fill(null), 'A']
    const { scanner, codes } = await scan({ repeatMs: 20, intervalMs: 2 })
    await vi.waitFor(() => expect(reads).toBeGreaterThan(script.length))
    expect(codes).toEqual(['A', 'A'])
    scanner.stop()
  })

  test('with repeatMs 0 every read is reported', async () => {
    script = ['A', 'A', null, 'A']
    const { scanner, codes } = await scan({ repeatMs: 0 })
    await vi.waitFor(() => expect(reads).toBeGreaterThan(script.length))
    expect(codes).toEqual(['A', 'A', 'A'])
    scanner.stop()
  })
})

describe('stop and failures', () => {
  test('stop() ends the camera track, clears the video, ends the worker and reads no more', async () => {
    const { scanner } = await scan({ decoder: 'in-house' })
    await vi.waitFor(() => expect(reads).toBeGreaterThan(2))
    scanner.stop()
    const after = reads
    await new Promise((resolve) => setTimeout(resolve, 20)) // kept: a window in which no further read may come (absence)
    expect(camera.track.readyState).toBe('ended')
    expect(video.srcObject).toBeNull()
    expect(StandInWorker.made[0].terminated).toBe(true)
    expect(reads).toBeLessThanOrEqual(after + 1) // at most the frame already in the worker
  })

  test('a worker that does not run: reading stops, onError once, the camera stays until stop()', async () => {
    StandInWorker.failToLoad = true
    const onError = vi.fn()
    const { scanner } = await scan({ decoder: 'in-house', onError })
    await vi.waitFor(() => expect(onError).toHaveBeenCalledTimes(1))
    expect(onError.mock.calls[0][0].message).toMatch(/Code 128 worker failed to run/)
    await new Promise((resolve) => setTimeout(resolve, 20)) // kept: a window in which no second onError may come (absence)
    expect(onError).toHaveBeenCalledTimes(1)
    expect(StandInWorker.made[0].transfers).toHaveLength(1)
    expect(camera.track.readyState).toBe('live')
    scanner.stop()
    expect(camera.track.readyState).toBe('ended')
  })

  test('a refused camera rejects as getUserMedia did, and nothing starts', async () => {
    camera.refuse = new DOMException('Permission denied', 'NotAllowedError')
    await expect(scan()).rejects.toMatchObject({ name: 'NotAllowedError' })
    expect(StandInWorker.made).toEqual([])
    expect(StandInDetector.made).toBe(0)
  })
})
