// `npm run budget:names`: how much the first load moves with the lazy chunks' and stylesheets' hashed names alone.
// The start chunk names every lazy chunk and stylesheet by its hash; a change to any screen gives new names, and random
// names compress differently under brotli. This takes the built start chunk, puts random names of each alphabet and
// length in place of its names (NAMES_DRAWS draws, default 40) and prints the brotli size's spread, so the choice in
// scripts/vite/file-names.ts can be checked. Run after `npm run build`. Reports; never fails.
import { readdirSync, readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { brotliSize } from './budget.ts'

const DRAWS = Number(process.env.NAMES_DRAWS ?? 40)
const dir = new URL('../dist/assets/', import.meta.url)
const start = readdirSync(dir).find((f) => /^start-.*\.js$/.test(f))
if (!start) throw new Error('no dist/assets/start-*.js: run npm run build first')
const source = readFileSync(new URL(start, dir), 'utf8')
const names = [...new Set([...source.matchAll(/\b([cs])-([\w-]{6,8})\.(js|css)\b/g)].map((m) => m[0]))]

const ALPHABETS = {
  base64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-',
  base36: '0123456789abcdefghijklmnopqrstuvwxyz',
  hex: '0123456789abcdef',
}
const random = (alphabet: string, n: number) => Array.from({ length: n }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('')

console.log(`first-load names: ${start}, ${names.length} hashed names in it, ${DRAWS} draws each; load ${loadavg()[0].toFixed(2)}`)
console.log('alphabet  chunk/css chars   min    mean     p90     max  (brotli q11 of the start chunk, B)')
for (const [alphabet, chunkChars, cssChars] of [
  ['base64', 7, 6],
  ['base36', 7, 7],
  ['hex', 8, 8],
] as const) {
  const sizes: number[] = []
  for (let i = 0; i < DRAWS; i++) {
    let text = source
    for (const name of names) {
      const js = name.endsWith('.js')
      text = text.split(name).join(`${name[0]}-${random(ALPHABETS[alphabet], js ? chunkChars : cssChars)}.${js ? 'js' : 'css'}`)
    }
    sizes.push(brotliSize(text))
  }
  sizes.sort((a, b) => a - b)
  const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length
  const at = (q: number) => sizes[Math.min(sizes.length - 1, Math.floor(sizes.length * q))]
  console.log(
    `${alphabet.padEnd(9)} ${`${chunkChars}/${cssChars}`.padEnd(16)} ${String(sizes[0]).padStart(6)} ${mean.toFixed(0).padStart(7)} ${String(at(0.9)).padStart(7)} ${String(sizes[sizes.length - 1]).padStart(7)}`,
  )
}
