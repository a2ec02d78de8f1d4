// Serves the door scanner module (src/pages/door/scanner/) on a page of its own for tests and benchmarks: built
// with Vite as production builds it (the worker emitted as its own file), served by Vite's preview server on
// localhost (a secure context: getUserMedia works). The page exposes `window.scanner = {startScanner,
// createFrameDecoder, readFrame}`; drive it with page.evaluate.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build, preview } from 'vite'
import { freePort } from './server.ts'

export interface ScannerHarness {
  url: string
  close(): Promise<void>
}

export async function openScannerHarness(): Promise<ScannerHarness> {
  const root = new URL('./scanner-page/', import.meta.url).pathname
  const outDir = mkdtempSync(join(tmpdir(), 'scanner-page-'))
  await build({ root, configFile: false, logLevel: 'warn', build: { outDir, emptyOutDir: true, target: 'es2022' } })
  const port = await freePort()
  const server = await preview({ root, configFile: false, logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port, strictPort: true } })
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      await server.close()
      rmSync(outDir, { recursive: true, force: true })
    },
  }
}
