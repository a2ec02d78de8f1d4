// Byte budget of what reaches a student's phone, brotli-compressed (quality 11, as served pre-compressed or
// close to what the server's on-the-fly compression sends). Run after `npm run build`.
//   firstLoad  index.html + every CSS and JS it loads before the first screen of `/`: stylesheets, the module
//              script, modulepreload links, the entry's static imports (followed through dist/.vite/manifest.json)
//              and the home route's lazy chunk, which main.tsx fetches at start because `/` cannot show without it
//   indexHtml  index.html alone (inline splash and critical CSS)
//   lazyChunk  each lazy route of a student: its chunk, its CSS and the shared chunks it needs beyond the first load
//   staffChunk the same for each lazy route of the console and the door (scripts/staff-assets.ts STAFF_ROUTE):
//              opened by organisers and volunteers, never by a student, and all of them held by staffTotal too
//   total      all JS and CSS a student can load, the service worker (dist/sw.js) included
//   staffTotal the organiser console and the door (scripts/staff-assets.ts): never on a student's phone
// A shared chunk counts wherever it is needed: in firstLoad when `/` loads it, otherwise in every lazy route that
// needs it (a student opening that screen first downloads it, whichever route pulled it in). Limits are in
// bytes; firstLoad is printed in decimal bytes with each of its files (issue 15 asked "≤ 18,000 B"; issue 20 put
// preact-iso and tinydate back and set 18,500 B: see its note), the others in KB
// (1 KB = 1024 bytes).
// A key missing from budget.json is printed without a limit. Exits 1 when any figure is past its limit.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants } from 'node:zlib'
import { STAFF_ROUTE, staffAssets } from './staff-assets.ts'

const KEYS = ['firstLoad', 'indexHtml', 'lazyChunk', 'staffChunk', 'total', 'staffTotal'] as const
type Key = (typeof KEYS)[number]

interface ManifestChunk {
  file: string
  src?: string
  isEntry?: boolean
  isDynamicEntry?: boolean
  imports?: string[]
  css?: string[]
}
type Manifest = Record<string, ManifestChunk>

/** The screen of `/` (src/routes.ts): lazy, but part of the first load of `/`. */
const HOME_ROUTE = 'src/pages/home/index.tsx'

export const brotliSize = (bytes: Buffer | string) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length

/** The asset paths (relative to dist, no leading slash) that index.html loads itself; `scriptsOnly`: just its scripts. */
export function htmlAssets(html: string, scriptsOnly = false): string[] {
  const found = new Set<string>()
  const attr = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}\\s*=\\s*["']([^"']+)["']`, 'i'))?.[1]
  for (const [tag] of html.matchAll(/<(script|link)\b[^>]*>/gi)) {
    const isScript = /^<script/i.test(tag)
    const rel = attr(tag, 'rel')?.toLowerCase()
    // `preload` too: index.html preloads the home screen's CSS (vite.config.ts), and it is downloaded at start.
    if (scriptsOnly && !isScript) continue
    const url = isScript ? attr(tag, 'src') : rel === 'stylesheet' || rel === 'modulepreload' || rel === 'preload' ? attr(tag, 'href') : undefined
    if (url && !/^(https?:)?\/\//.test(url)) found.add(url.replace(/^\//, ''))
  }
  return [...found]
}

/** A chunk's own file, its CSS and its static imports, transitively. */
export function closure(manifest: Manifest, key: string, into = new Set<string>(), seen = new Set<string>()) {
  if (seen.has(key)) return into
  seen.add(key)
  const chunk = manifest[key]
  if (!chunk) return into
  into.add(chunk.file)
  for (const css of chunk.css ?? []) into.add(css)
  for (const imported of chunk.imports ?? []) closure(manifest, imported, into, seen)
  return into
}

export interface Figure {
  key: Key
  name: string
  bytes: number
  /** The files it adds up (firstLoad), with their bytes. */
  files?: { file: string; bytes: number }[]
}

export function measure(dist: string): Figure[] {
  const read = (file: string) => readFileSync(join(dist, file))
  const size = (files: Iterable<string>) => [...files].reduce((sum, file) => sum + brotliSize(read(file)), 0)
  const html = read('index.html').toString('utf8')
  const manifest: Manifest = JSON.parse(read('.vite/manifest.json').toString('utf8'))

  const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]))
  const withImports = (files: string[]) => {
    const set = new Set(files)
    for (const file of files) {
      const key = byFile.get(file)
      if (key) closure(manifest, key, set)
    }
    return set
  }
  const first = withImports(htmlAssets(html))
  // What every screen runs, whatever the route: index.html's scripts and their imports. A lazy route counts
  // everything else it needs, even a chunk index.html also preloads for the home screen.
  const shell = withImports(htmlAssets(html, true))
  closure(manifest, HOME_ROUTE, first)
  const firstFiles = [{ file: 'index.html', bytes: brotliSize(html) }, ...[...first].map((file) => ({ file, bytes: brotliSize(read(file)) }))]
  const figures: Figure[] = [
    { key: 'indexHtml', name: 'index.html', bytes: brotliSize(html) },
    {
      key: 'firstLoad',
      name: firstFiles.map((f) => f.file).join(' + '),
      bytes: firstFiles.reduce((sum, f) => sum + f.bytes, 0),
      files: firstFiles,
    },
  ]
  for (const [key, chunk] of Object.entries(manifest)) {
    if (!chunk.isDynamicEntry) continue
    const needed = [...closure(manifest, key)].filter((file) => !shell.has(file))
    const name = chunk.src ?? key
    figures.push({ key: STAFF_ROUTE.test(name) ? 'staffChunk' : 'lazyChunk', name, bytes: size(needed) })
  }
  const assets = readdirSync(join(dist, 'assets'))
    .filter((f) => /\.(js|css)$/.test(f))
    .map((f) => `assets/${f}`)
  if (existsSync(join(dist, 'sw.js'))) assets.push('sw.js')
  // The organiser console and the door (issues 11, 12) are counted apart: a student's phone never loads them.
  const staff = staffAssets(manifest, assets)
  const student = assets.filter((file) => !staff.has(file))
  figures.push({ key: 'total', name: `all JS and CSS a student can load (${student.length} files, sw.js included)`, bytes: size(student) })
  figures.push({ key: 'staffTotal', name: `the console and the door only (${staff.size} files)`, bytes: size(staff) })
  return figures
}

function main() {
  const dist = 'dist'
  if (!existsSync(join(dist, '.vite/manifest.json'))) {
    console.error('dist/.vite/manifest.json is missing: run `npm run build` first (vite.config.ts sets build.manifest).')
    process.exit(1)
  }
  const limits: Partial<Record<Key, number>> = JSON.parse(readFileSync('budget.json', 'utf8'))
  const unknown = Object.keys(limits).filter((key) => !(KEYS as readonly string[]).includes(key))
  if (unknown.length) {
    console.error(`budget.json: unknown key(s) ${unknown.join(', ')}; known: ${KEYS.join(', ')}`)
    process.exit(1)
  }
  const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`
  const b = (n: number) => `${n.toLocaleString('en-US')} B`
  let failed = 0
  console.log('Brotli (q11) sizes against budget.json')
  for (const { key, name, bytes, files } of measure(dist)) {
    const limit = limits[key]
    const over = limit !== undefined && bytes > limit
    if (over) failed++
    if (key === 'firstLoad') {
      // Decimal bytes, as issue 15 states the limit; then each file of it.
      const verdict = limit === undefined ? 'no limit' : `${over ? 'OVER' : 'ok'} (limit ${b(limit)}, decimal bytes)`
      console.log(`  ${key.padEnd(9)} ${b(bytes).padStart(9)}  ${verdict.padEnd(24)} ${name}`)
      for (const f of files ?? []) console.log(`  ${''.padEnd(9)} ${b(f.bytes).padStart(9)}    ${f.file}`)
      continue
    }
    const verdict = limit === undefined ? 'no limit' : `${over ? 'OVER' : 'ok'} (limit ${kb(limit)})`
    console.log(`  ${key.padEnd(9)} ${kb(bytes).padStart(9)}  ${verdict.padEnd(24)} ${name}`)
  }
  if (failed) {
    console.error(`${failed} figure(s) past their budget.`)
    process.exit(1)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main()
