// The door scanner module on a page of its own, built by Vite as the app is (the worker a chunk of its own), for
// tests and the decoder benchmark to drive through `window.scanner`.
import { createFrameDecoder, startScanner } from '../../../../src/pages/door/scanner/index.ts'

const scanner = { startScanner, createFrameDecoder }
declare global {
  interface Window {
    scanner: typeof scanner
  }
}
window.scanner = scanner
