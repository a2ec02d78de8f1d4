// The door scanner module on a page of its own, built by Vite as the app is (the worker a chunk of its own), for
// tests and the decoder benchmark to drive through `window.scanner`. readFrame is the worker's work, for timing
// it on the page's (throttled) main thread.
import { createFrameDecoder, startScanner } from '../../../../src/pages/door/scanner/index.ts'
import { readFrame } from '../../../../src/pages/door/scanner/read-frame.ts'

const scanner = { startScanner, createFrameDecoder, readFrame }
declare global {
  interface Window {
    scanner: typeof scanner
  }
}
window.scanner = scanner
