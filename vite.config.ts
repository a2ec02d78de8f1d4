import { readFileSync } from 'node:fs'
import { defineConfig, type Plugin } from 'vite'
import preact from '@preact/preset-vite'

/**
 * Inlines src/styles/critical.css into index.html, so the splash and the app shell paint without waiting on a
 * stylesheet request (a render-blocking <link> would cost a round trip on a slow campus network).
 */
function inlineCriticalCss(): Plugin {
  const file = new URL('./src/styles/critical.css', import.meta.url)
  return {
    name: 'inline-critical-css',
    configureServer(server) {
      server.watcher.add(file.pathname)
    },
    transformIndexHtml: {
      order: 'pre',
      handler(html) {
        // The build minifies inline <style> like any other CSS; dev serves it as written.
        const css = readFileSync(file, 'utf8')
        return html.replace(/<!-- critical-css[^>]*-->/, `<style>\n${css}</style>`)
      },
    },
  }
}

export default defineConfig({
  plugins: [preact(), inlineCriticalCss()],
  build: {
    target: 'es2020',
    cssCodeSplit: true,
    modulePreload: { polyfill: false },
    // dist/.vite/manifest.json: scripts/budget.ts follows the entry's static imports through it.
    manifest: true,
  },
  server: { proxy: { '/api': 'http://localhost:3000' } },
})
