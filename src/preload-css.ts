// The helper Vite calls for each lazy import of the build (`__vitePreload(load, deps)`), in place of Vite's own
// (scripts/vite/css-preload.ts). This build preloads no scripts (build.modulePreload: false), so a lazy chunk's
// `deps` are its stylesheets only: each becomes a <link rel=stylesheet>, once per page, and the chunk is imported
// when they have loaded, so a screen never shows unstyled. A stylesheet that fails rejects the import (the route
// table, src/routes.ts, then shows its "could not be loaded" screen) and is fetched afresh on the next try.
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

export const __vitePreload = <T>(load: () => Promise<T>, deps?: string[]): Promise<T> => Promise.all((deps ?? []).map(stylesheet)).then(load)
