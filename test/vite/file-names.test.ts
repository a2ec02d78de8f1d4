// scripts/vite/file-names.ts: the build's names hold any number of chunks (six hex characters of chunk hash stop at 16),
// and every file under /assets/ is hashed (the server and the service worker treat all of /assets/ as immutable).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build, type Rolldown } from 'vite'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { fileNames } from '../../scripts/vite/file-names.ts'

const SCREENS = 100
let root: string

beforeAll(() => {
  // An app of SCREENS lazy screens, each with its own stylesheet.
  root = mkdtempSync(join(tmpdir(), 'file-names-'))
  mkdirSync(join(root, 'src'))
  for (let i = 0; i < SCREENS; i++) {
    writeFileSync(join(root, `src/s${i}.css`), `.s${i} { color: #${String(i).padStart(6, '0')} }\n`)
    writeFileSync(join(root, `src/s${i}.js`), `import './s${i}.css'\nexport default () => 'screen ${i} ' + Math.random()\n`)
  }
  writeFileSync(join(root, 'src/main.js'), `window.screens = [${Array.from({ length: SCREENS }, (_, i) => `() => import('./s${i}.js')`).join(',')}]\n`)
  writeFileSync(join(root, 'index.html'), '<!doctype html><script type="module" src="/src/main.js"></script>\n')
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

const bundle = async (output: Rolldown.OutputOptions) => {
  const result = await build({ root, configFile: false, logLevel: 'silent', build: { write: false, rolldownOptions: { output } } })
  return (Array.isArray(result) ? result[0] : result) as Rolldown.RolldownOutput
}

test(`${SCREENS} lazy chunks build, every file under assets/ with its hash`, async () => {
  const { output } = await bundle(fileNames)
  const files = output.map((o) => o.fileName).filter((f) => f.startsWith('assets/'))
  expect(files.filter((f) => f.endsWith('.js'))).toHaveLength(SCREENS + 1)
  expect(files.filter((f) => f.endsWith('.css'))).toHaveLength(SCREENS)
  for (const file of files) expect(file).toMatch(/^assets\/(c-[0-9a-f]{8}\.js|index-[0-9a-f]{8}\.js|s-[0-9a-f]{8}\.css)$/)
}, 30_000)

test('six hex characters of chunk hash would not hold them (seven would; the build uses eight)', async () => {
  await expect(bundle({ ...fileNames, chunkFileNames: 'assets/c-[hash:6].js' })).rejects.toThrow(/minimum hash size of 7/)
}, 30_000)
