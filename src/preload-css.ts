// The helper Vite calls for each lazy import of the build (`__vitePreload(load, deps)`), in place of Vite's own
// (scripts/vite/css-preload.ts), and the loader a lazy chunk awaits for its own stylesheets (`__css`, the same
// plugin writes the call). This build preloads no scripts (build.modulePreload: false), so `deps` would be
// stylesheets only, and the build names none there any more: each chunk asks for its own. Each stylesheet becomes a
// <link rel=stylesheet>, once per page, and the chunk runs when they have loaded, so a screen never shows unstyled.
// A stylesheet that fails rejects (the route table, src/routes.ts, then shows its "could not be loaded" screen) and
// is fetched afresh on the next try.
const stylesheets: Record<string, Promise<unknown>> = {}

const stylesheet = (file: string) =>
  (stylesheets[file] ??= new Promise((resolve, reject) => {
    const link = document.createElement('link')
    link.rel = 'stylesheet'
    link.crossOrigin = '' // as index.html's preload of the home screen's CSS, so the browser reuses it
    link.href = import.meta.env.BASE_URL + file
    link.onload = resolve
    link.onerror = () => {
      delete stylesheets[file]
      link.remove()
      reject(new Error(`Could not load ${link.href}`))
    }
    document.head.append(link)
  }))

/** Vite's helper: the build names no stylesheets in its calls (each chunk awaits its own), so it only imports. */
export const __vitePreload = <T>(load: () => Promise<T>): Promise<T> => load()

declare global {
  // eslint-disable-next-line no-var
  var __css: (files: string[]) => Promise<unknown>
}
globalThis.__css = (files) => Promise.all(files.map(stylesheet))
