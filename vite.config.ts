// The build of the app (Vite 8, rolldown). Each plugin of scripts/vite/ is one step of the build, with a unit test in
// test/vite/; the steps that are there for speed say what they save, measured by building without each (issue 20:
// the first load of `/` in brotli bytes from `npm run budget`, or the '3G' cold start's first card from bench:load).
import { fileURLToPath } from 'node:url'
import preact from '@preact/preset-vite'
import { Features } from 'lightningcss'
import { defineConfig } from 'vite'
import { bootScript } from './scripts/vite/boot-script.ts'
import { classicJsx } from './scripts/vite/classic-jsx.ts'
import { criticalCss } from './scripts/vite/critical-css.ts'
import { cssPreload } from './scripts/vite/css-preload.ts'
import { fileNames } from './scripts/vite/file-names.ts'
import { precompress } from './scripts/vite/precompress.ts'
import { serviceWorker } from './scripts/vite/service-worker.ts'
import { startChunk } from './scripts/vite/start-chunk.ts'

const path = (file: string) => fileURLToPath(new URL(file, import.meta.url))

export default defineConfig({
  plugins: [
    preact(),
    // JSX to Preact's h(): 167 B less on the first load (540 B on all a student can load).
    classicJsx(),
    // Lazy chunks wait for their stylesheets only (no script preloads): 490 B less than Vite's helper.
    cssPreload(path('src/preload-css.ts')),
    // One start chunk chosen from the import graph: 1,686 B less than Vite's split (3 files instead of 12).
    startChunk({ entry: 'src/main.tsx', home: 'src/pages/home/index.tsx' }),
    // The critical CSS inline in index.html: ~220 ms sooner to the first card on '3G' than a <link>.
    criticalCss(path('src/styles/critical.css')),
    // The first API calls sent before the app's code arrives: ~250 ms sooner to the first card on '3G'.
    bootScript('src/boot.ts'),
    // The service worker (a feature: the app opens offline, and from the phone on a warm start).
    serviceWorker(path('src/sw.ts')),
    // Brotli 11 once at build: 2,461 B less on the first load than the server's on-the-fly quality 4.
    precompress(),
  ],
  build: {
    // ES2022: class fields and the rest run natively on every phone browser of the last four years; es2020
    // added defineProperty helpers to the first load.
    target: 'es2022',
    // dist/.vite/manifest.json: scripts/budget.ts follows the entry's static imports through it.
    manifest: true,
    rolldownOptions: { output: fileNames },
  },
  // The API origin, without a trailing slash, as a constant of the build: the first load carries the address, not
  // the code that tidies it (src/boot.ts, src/api/calls.ts).
  define: { 'import.meta.env.VITE_API_HOST': JSON.stringify((process.env.VITE_API_HOST ?? '').replace(/\/+$/, '')) },
  // No CSS of the app uses light-dark(): without this, the minifier adds --lightningcss-light/-dark variables for
  // it to every `color-scheme`, on the first load too (index.html's critical CSS).
  css: { lightningcss: { exclude: Features.LightDark } },
  server: { proxy: { '/api': 'http://localhost:3000' } },
})
