// Compiles src/sw.ts to dist/sw.js with this build's file list and version in front (`const BUILD = {...}`): a new
// build is a new service worker byte for byte, which is how the browser learns a new version is out. The worker is
// what opens the app with no network (the 'offline' profile of bench:load) and a warm start from the phone.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { transformWithOxc, type Plugin } from 'vite'
import { staffAssets } from '../staff-assets.ts'

/** Files of public/ the worker keeps too (the install prompt's icons, the manifest). */
const PUBLIC_FILES = ['manifest.webmanifest', 'logo.svg', 'icons/icon-192.png', 'icons/icon-512.png', 'icons/maskable-512.png']

export interface Build {
  version: string
  files: string[]
  staff: string[]
}

/**
 * What the worker is told of the build in `dir`, from the bundle's file names: every file on disk (an entry left
 * empty is in the bundle but never written, and one missing file fails the install) but index.html, source maps
 * and the staff's files (scripts/staff-assets.ts), which are listed apart; the version hashes the list and index.html.
 */
export function describeBuild(dir: string, names: string[]): Build {
  const manifest = join(dir, '.vite/manifest.json')
  const staff = existsSync(manifest) ? staffAssets(JSON.parse(readFileSync(manifest, 'utf8')), names) : new Set<string>()
  const files = names
    .filter((name) => !name.startsWith('.vite/') && name !== 'index.html' && !name.endsWith('.map') && !staff.has(name))
    .concat(PUBLIC_FILES)
    .filter((name) => existsSync(join(dir, name)))
    .map((name) => `/${name}`)
    .sort()
  const version = createHash('sha256')
    .update(files.join('\n'))
    .update(readFileSync(join(dir, 'index.html')))
    .digest('hex')
    .slice(0, 12)
  return { version, files, staff: [...staff].map((name) => `/${name}`).sort() }
}

/** `source`: the absolute path of the worker's TypeScript. */
export function serviceWorker(source: string): Plugin {
  return {
    name: 'service-worker',
    apply: 'build',
    // After writing: the list is what is on disk.
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist'
      const { code } = await transformWithOxc(readFileSync(source, 'utf8'), 'sw.ts', { lang: 'ts' })
      // `export {}` makes sw.ts a module for the type checker; a classic worker script cannot have it.
      const body = code.replace(/^export \{\s*\};?\s*$/m, '')
      writeFileSync(join(dir, 'sw.js'), `const BUILD = ${JSON.stringify(describeBuild(dir, Object.keys(bundle)))};\n${body}`)
    },
  }
}
