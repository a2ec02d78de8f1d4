// Writes a .br (quality 11) and a .gz (level 9) beside every text file of the build, once: the server sends them as
// they are (@fastify/static `preCompressed`) instead of compressing each request at the lower quality on-the-fly
// compression can afford. Files under 1 KiB are left alone (@fastify/compress's threshold too).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

const TEXT = /\.(js|css|html|svg|webmanifest|json)$/
const MIN_BYTES = 1024

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]))

/** Compresses the text files of `dir` (its .vite/ folder aside); returns the files compressed. */
export function precompressDir(dir: string): string[] {
  const done: string[] = []
  for (const file of walk(dir)) {
    if (!TEXT.test(file) || file.includes('/.vite/')) continue
    const bytes = readFileSync(file)
    if (bytes.length < MIN_BYTES) continue
    writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
    writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }))
    done.push(file)
  }
  return done
}

export function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    // Last: after the service worker is written.
    writeBundle: { order: 'post', handler: (options) => void precompressDir(options.dir ?? 'dist') },
  }
}
