// Vite's helper for lazy imports (`__vitePreload`) replaced by src/preload-css.ts, which only loads a chunk's
// stylesheets: with build.modulePreload off (set here) those are a lazy chunk's only dependencies. Vite's own also
// preloads scripts and handles CSP nonces, relative bases and a `vite:preloadError` event, which this app does not use.
import type { Plugin } from 'vite'

/** The id under which Vite's build loads its helper (vite/src/node/plugins/importAnalysisBuild.ts). */
export const HELPER_ID = '\0vite/preload-helper.js'

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
    buildEnd(error) {
      // Vite renamed its helper: this build ships Vite's own, and the first load grows by it.
      if (!error && !loaded) this.warn(`${HELPER_ID} was never loaded: Vite's own preload helper is in this build`)
    },
  }
}
