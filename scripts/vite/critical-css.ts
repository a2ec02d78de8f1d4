// Inlines src/styles/critical.css into index.html at the `<!-- critical-css -->` marker, so the splash and the app
// shell paint without waiting on a stylesheet request: a <link> would block the first paint and the scripts (boot.ts's
// early calls too) for a round trip, 562 ms on the '3G' profile. The build minifies the inline <style> like any other
// CSS; dev serves it as written.
import { readFileSync } from 'node:fs'
import type { Plugin } from 'vite'

const MARKER = /<!-- critical-css[^>]*-->/

/** index.html with the marker replaced by `<style>css</style>`; throws when the marker is missing. */
export function inlineCss(html: string, css: string): string {
  if (!MARKER.test(html)) throw new Error('index.html has no <!-- critical-css --> marker for src/styles/critical.css')
  return html.replace(MARKER, () => `<style>\n${css}</style>`)
}

export function criticalCss(file: string): Plugin {
  return {
    name: 'critical-css',
    configureServer(server) {
      server.watcher.add(file)
    },
    transformIndexHtml: { order: 'pre', handler: (html) => inlineCss(html, readFileSync(file, 'utf8')) },
  }
}
