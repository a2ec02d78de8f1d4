// Vite's helper for lazy imports (`__vitePreload`) replaced by src/preload-css.ts, which only loads a chunk's
// stylesheets: with build.modulePreload off (set here) those are a lazy chunk's only dependencies. Vite's own also
// preloads scripts and handles CSP nonces, relative bases and a `vite:preloadError` event, which this app does not use.
//
// And each lazy chunk names its own stylesheets (issue 37 item 2, room for the inbox's bell): Vite lists every lazy
// screen's stylesheets in the chunk that imports it, so the start chunk carried all of them (13 names and their
// indices, 203 B brotli of the first load). Here the importers lose those lists, and a chunk with stylesheets of its
// own starts with `await __css([...])` (the loader src/preload-css.ts puts on the page): a module waits for its
// top-level await before its importer runs, so a screen still never shows unstyled, and a stylesheet that fails still
// fails the import (the route table's "could not be loaded", whose Try again reloads the page). The chunk's name
// already changes with its stylesheets (Vite's CSS plugin adds their names to the chunk's hash).
import type { Plugin } from 'vite'

/** The id under which Vite's build loads its helper (vite/src/node/plugins/importAnalysisBuild.ts). */
export const HELPER_ID = '\0vite/preload-helper.js'

/** The global src/preload-css.ts defines: loads stylesheets (paths from the site root), each once. */
export const LOADER = '__css'

interface Chunk {
  type: 'chunk'
  code: string
  isEntry: boolean
  viteMetadata?: { importedCss: Set<string> }
}

/** A chunk's code with the stylesheets of what it imports taken out, and its own awaited first (not for an entry). */
export function ownStylesheets(chunk: Chunk): string {
  const code = chunk.code.replace(/^const __vite__mapDeps=.*\n/m, '').replace(/,__vite__mapDeps\(\[[\d,]*\]\)/g, '')
  const own = chunk.viteMetadata?.importedCss
  return !chunk.isEntry && own?.size ? `await ${LOADER}(${JSON.stringify([...own])});\n${code}` : code
}

/** `runtime`: the absolute path of the module exporting `__vitePreload`. */
export function cssPreload(runtime: string): Plugin {
  let loaded = false
  return {
    name: 'css-preload',
    apply: 'build',
    config: () => ({ build: { modulePreload: false } }),
    buildStart: () => void (loaded = false),
    load: {
      filter: { id: new RegExp(`^${HELPER_ID.replace(/[.\\/]/g, '\\$&')}$`) },
      handler() {
        loaded = true
        return `export { __vitePreload } from ${JSON.stringify(runtime)}`
      },
    },
    // After Vite's import analysis has written its lists (its generateBundle); before the files are written.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) if (file.type === 'chunk') file.code = ownStylesheets(file as Chunk)
      },
    },
    buildEnd(error) {
      // Vite renamed its helper: this build ships Vite's own, and the first load grows by it.
      if (!error && !loaded) this.warn(`${HELPER_ID} was never loaded: Vite's own preload helper is in this build`)
    },
  }
}
