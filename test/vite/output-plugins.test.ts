// scripts/vite/service-worker.ts and precompress.ts: what they write into the build's folder.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { precompressDir } from '../../scripts/vite/precompress.ts'
import { describeBuild, serviceWorker } from '../../scripts/vite/service-worker.ts'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'vite-plugins-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

const put = (file: string, text: string) => {
  mkdirSync(join(dir, file, '..'), { recursive: true })
  writeFileSync(join(dir, file), text)
}

function build() {
  put('index.html', '<!doctype html><title>v1</title>')
  put('assets/start-1.js', 'start')
  put('assets/c-door.js', 'door')
  put('assets/s-1.css', 'css')
  put('assets/start-1.js.map', '{}')
  put('logo.svg', '<svg/>')
  put(
    '.vite/manifest.json',
    JSON.stringify({ 'src/pages/door/index.tsx': { file: 'assets/c-door.js', src: 'src/pages/door/index.tsx', isDynamicEntry: true } }),
  )
  // assets/c-empty.js is in the bundle but was never written.
  return ['index.html', 'assets/start-1.js', 'assets/c-door.js', 'assets/s-1.css', 'assets/start-1.js.map', 'assets/c-empty.js', '.vite/manifest.json']
}

test("the worker's file list: what is on disk, sorted, without index.html, maps, .vite/ and the staff's files", () => {
  const names = build()
  const described = describeBuild(dir, names)
  expect(described.files).toEqual(['/assets/s-1.css', '/assets/start-1.js', '/logo.svg'])
  expect(described.staff).toEqual(['/assets/c-door.js'])
  expect(described.version).toMatch(/^[0-9a-f]{12}$/)
  // A new index.html (or a new file) is a new version.
  put('index.html', '<!doctype html><title>v2</title>')
  expect(describeBuild(dir, names).version).not.toBe(described.version)
  expect(describeBuild(dir, names).files).toEqual(described.files)
})

test('sw.js is src/sw.ts compiled, with the build in front and no module syntax', async () => {
  const names = build()
  const source = join(dir, 'sw.ts')
  writeFileSync(source, 'declare const BUILD: { version: string }\nexport {}\nconst name: string = `shell-${BUILD.version}`\nconsole.log(name)\n')
  const plugin = serviceWorker(source)
  await (plugin.writeBundle as (o: { dir: string }, b: Record<string, unknown>) => Promise<void>)({ dir }, Object.fromEntries(names.map((n) => [n, {}])))
  const sw = readFileSync(join(dir, 'sw.js'), 'utf8')
  const [first, ...rest] = sw.split('\n')
  expect(JSON.parse(first!.replace(/^const BUILD = /, '').replace(/;$/, ''))).toEqual(describeBuild(dir, names))
  expect(rest.join('\n')).not.toMatch(/export|: string/)
  expect(rest.join('\n')).toContain('const name = `shell-${BUILD.version}`')
})

test('precompress: .br and .gz beside each text file of 1 KiB or more, equal to it once decompressed', () => {
  const big = `export const x = ${JSON.stringify('campus events '.repeat(200))}\n`
  put('assets/start-1.js', big)
  put('index.html', `<!doctype html>${'<p>splash</p>'.repeat(100)}`)
  put('assets/c-small.js', 'export const y = 1')
  put('icons/icon.png', 'x'.repeat(2000))
  put('.vite/manifest.json', JSON.stringify({ a: 'x'.repeat(2000) }))
  const done = precompressDir(dir)
    .map((f) => f.slice(dir.length + 1))
    .sort()
  expect(done).toEqual(['assets/start-1.js', 'index.html'])
  expect(brotliDecompressSync(readFileSync(join(dir, 'assets/start-1.js.br'))).toString()).toBe(big)
  expect(gunzipSync(readFileSync(join(dir, 'assets/start-1.js.gz'))).toString()).toBe(big)
  expect(readFileSync(join(dir, 'assets/start-1.js.br')).length).toBeLessThan(big.length)
  for (const skipped of ['assets/c-small.js.br', 'icons/icon.png.br', '.vite/manifest.json.br']) expect(existsSync(join(dir, skipped))).toBe(false)
})
