import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { join } from 'node:path'
import { createHash } from 'node:crypto'
import { defineConfig, transformWithOxc, type Plugin } from 'vite'
import preact from '@preact/preset-vite'
import { Features } from 'lightningcss'
import { staffAssets } from './scripts/staff-assets.ts'

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

const BOOT = 'src/boot.ts'
/** The app's entry (index.html's module script). */
const MAIN = 'src/main.tsx'
/** The screen of `/`, the start_url of the installed app: its code is preloaded by index.html. */
const HOME = 'src/pages/home/index.tsx'

interface GraphContext {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null
}

const isCss = (id: string) => /\.css($|\?)/.test(id)

/** The modules `from` imports statically, transitively, itself included (dynamic imports are other chunks). */
function staticClosure(ctx: GraphContext, from: string, into = new Set<string>()): Set<string> {
  if (into.has(from)) return into
  into.add(from)
  for (const id of ctx.getModuleInfo(from)?.importedIds ?? []) staticClosure(ctx, id, into)
  return into
}

// Computed once per chunking pass (the `name` function runs for every module): forgotten when a build starts.
let start: Set<string> | undefined

function startChunkGraph(): Plugin {
  return {
    name: 'start-chunk-graph',
    buildStart() {
      start = undefined
    },
    renderStart() {
      start = undefined
    },
  }
}

/**
 * The start chunk's modules, from the import graph: the static closure of src/main.tsx, plus the modules of the
 * home screen's static closure that reach no CSS: today all of it, the home screen included (its sections and
 * cards are styled by the critical CSS), so the first screen of `/` is one script. A module of it that imported
 * a stylesheet would stay out, in a chunk of its own that index.html preloads with its CSS (bootScript).
 */
function startModules(ctx: GraphContext): Set<string> {
  if (start) return start
  const root = new URL('./', import.meta.url).pathname
  const main = root + MAIN
  const home = root + HOME
  const modules = new Set([...staticClosure(ctx, main)].filter((id) => !isCss(id)))
  for (const id of staticClosure(ctx, home)) {
    if (![...staticClosure(ctx, id)].some(isCss)) modules.add(id)
  }
  start = modules
  return modules
}

/**
 * src/boot.ts is an entry of its own (see build.rolldownOptions.input): a script of index.html would be bundled
 * into the app's entry chunk and so wait for all of it. Its tag goes in front of the app's script, so it runs
 * first (module scripts run in document order) while the larger app chunk is still downloading.
 */
function bootScript(): Plugin {
  return {
    name: 'boot-script',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunk = ctx.bundle && Object.values(ctx.bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith(BOOT))
        const src = chunk ? `/${chunk.fileName}` : `/${BOOT}` // dev: served as a module from the source
        const tag = `<script type="module" src="${src}"></script>`
        html = html.replace(/<script type="module"/, `${tag}\n    $&`)
        // The home screen's chunk and what it imports, fetched beside the app's entry instead of after it ran.
        const home = ctx.bundle && Object.values(ctx.bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith(HOME))
        if (!home || home.type !== 'chunk' || !ctx.chunk) return html
        const present = new Set([ctx.chunk.fileName, ...ctx.chunk.imports])
        const links = [home.fileName, ...home.imports]
          .filter((file) => !present.has(file))
          .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
        // Non-blocking: the splash must not wait on it; the route applies it when its chunk runs.
        const css = new Set<string>()
        for (const file of [home.fileName, ...home.imports]) {
          const chunk = ctx.bundle![file]
          if (chunk?.type === 'chunk') chunk.viteMetadata?.importedCss.forEach((f) => css.add(f))
        }
        for (const file of css) links.push(`<link rel="preload" as="style" crossorigin href="/${file}">`)
        return html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`)
      },
    },
  }
}

/**
 * Vite's helper for lazy imports (`__vitePreload`), cut down to what this build asks of it. With
 * `modulePreload: false` a lazy route's only dependencies are its stylesheets, so the helper is: add each one
 * once as a <link rel=stylesheet> and wait for it, then import the chunk; a stylesheet that fails rejects, which
 * the route table (src/routes.ts) turns into its "could not be loaded" screen. Vite's own (~0.8 KB brotli of the
 * start chunk) also handles JS preloads, CSP nonces, relative bases and a `vite:preloadError` event, none of which
 * this app uses.
 */
function lightPreloadHelper(): Plugin {
  let base = '/'
  return {
    name: 'light-preload-helper',
    apply: 'build',
    configResolved(config) {
      base = config.base
    },
    load: {
      filter: { id: /^\0vite\/preload-helper\.js$/ },
      handler() {
        return `const seen = {};
export const __vitePreload = (load, deps) =>
  Promise.all((deps || []).map((dep) => (seen[dep] ??= new Promise((resolve, reject) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.crossOrigin = '';
    link.href = ${JSON.stringify(base)} + dep;
    link.onload = resolve;
    link.onerror = () => {
      delete seen[dep];
      reject(new Error('Unable to load ' + link.href));
    };
    document.head.appendChild(link);
  })))).then(load);
`
      },
    },
  }
}

/**
 * JSX compiled to Preact's h() (the classic runtime) instead of preact/jsx-runtime's jsx(): h() is in Preact's core
 * anyway, so the start chunk drops the runtime module, and `h(tag, props, ...children)` is shorter than
 * `jsx(tag, {...props, children: [...]})` at every element (issue 15: ~0.13 KB of the first load). The import is
 * added to .tsx files only (src/boot.ts must import nothing). vitest.config.ts uses it too, so tests run the same code.
 */
export function classicJsx(): Plugin {
  return {
    name: 'classic-jsx',
    enforce: 'pre',
    // development: false: no __self/__source props (dev builds and tests), which the router's matching would stringify.
    config: () => ({ oxc: { jsx: { runtime: 'classic', pragma: 'jsxH', pragmaFrag: 'JsxFragment', development: false } } }),
    transform: {
      filter: { id: /\.tsx$/ },
      handler: (code) => ({ code: `import { h as jsxH, Fragment as JsxFragment } from 'preact';${code}`, map: null }),
    },
  }
}

/** index.html without its indentation: the first load counts every byte (issue 15), and none of it shows. */
function compactHtml(): Plugin {
  return {
    name: 'compact-html',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: (html) => html.replace(/\n\s+/g, '\n') },
  }
}

/**
 * Compiles src/sw.ts to /sw.js with this build's file list and version in front: a new build is a new service
 * worker byte for byte, which is how the browser knows a new version is out.
 */
function serviceWorker(): Plugin {
  return {
    name: 'service-worker',
    apply: 'build',
    // After writing: the list is what is on disk (an entry left empty, like index.html's own chunk once its
    // modules went to `start`, is in the bundle but never written, and one missing file fails the install).
    async writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist'
      const manifestPath = join(dir, '.vite/manifest.json')
      const names = Object.keys(bundle)
      const staff = existsSync(manifestPath) ? staffAssets(JSON.parse(readFileSync(manifestPath, 'utf8')), names) : new Set<string>()
      const files = names
        .filter((name) => !name.startsWith('.vite/') && name !== 'index.html' && !name.endsWith('.map') && !staff.has(name))
        .concat(['manifest.webmanifest', 'logo.svg', 'icons/icon-192.png', 'icons/icon-512.png', 'icons/maskable-512.png'])
        .filter((name) => existsSync(join(dir, name)))
        .map((name) => `/${name}`)
        .sort()
      const version = createHash('sha256')
        .update(files.join('\n'))
        .update(readFileSync(join(dir, 'index.html')))
        .digest('hex')
        .slice(0, 12)
      const source = readFileSync(new URL('./src/sw.ts', import.meta.url), 'utf8')
      const { code } = await transformWithOxc(source, 'sw.ts', { lang: 'ts' })
      const body = code.replace(/^export \{\s*\};?\s*$/m, '')
      const staffFiles = [...staff].map((name) => `/${name}`).sort()
      writeFileSync(join(dir, 'sw.js'), `const BUILD = ${JSON.stringify({ version, files, staff: staffFiles })};\n${body}`)
    },
  }
}

/**
 * Writes a .br (quality 11) and a .gz beside every text file of the build, once, at build time: the server
 * sends them as they are (@fastify/static `preCompressed`) instead of compressing on every request at the
 * lower quality on-the-fly compression can afford.
 */
function precompress(): Plugin {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]))
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle: {
      order: 'post',
      handler(options) {
        for (const file of walk(options.dir ?? 'dist')) {
          if (!/\.(js|css|html|svg|webmanifest|json)$/.test(file) || file.includes('/.vite/')) continue
          const bytes = readFileSync(file)
          if (bytes.length < 1024) continue // below @fastify/compress's threshold too: not worth a header
          writeFileSync(file + '.br', brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
          writeFileSync(file + '.gz', gzipSync(bytes, { level: 9 }))
        }
      },
    },
  }
}

export default defineConfig({
  plugins: [preact(), classicJsx(), lightPreloadHelper(), startChunkGraph(), inlineCriticalCss(), bootScript(), compactHtml(), serviceWorker(), precompress()],
  build: {
    // ES2022: class fields and the rest run natively on every phone browser of the last four years; es2020
    // added defineProperty helpers to the first load.
    target: 'es2022',
    cssCodeSplit: true,
    // No JS preload lists in the lazy imports: Vite's helper for them cost ~0.2 KB of the 20 KB first load, and
    // after the first visit the service worker holds every chunk, so a route's imports are a cache hit, not a
    // round trip. CSS of lazy routes is still loaded with them. index.html preloads the home screen itself.
    modulePreload: false,
    // dist/.vite/manifest.json: scripts/budget.ts follows the entry's static imports through it.
    manifest: true,
    rolldownOptions: {
      input: { index: 'index.html', boot: BOOT },
      output: {
        // Six characters of content hash (36 bits) instead of eight: plenty to tell a file's versions apart, and the
        // start chunk names every lazy chunk and stylesheet by its hash (~0.05 KB of the first load, issue 15).
        // Lazy chunks and stylesheets go by their hash alone ('c-' and 's-'): the start chunk names every one of them,
        // and their module names cost ~0.15 KB of the 18,000 B first load (issue 15). `npm run budget` still lists
        // each by its source (dist/.vite/manifest.json); the start chunk and the entries keep their names.
        entryFileNames: 'assets/[name]-[hash:6].js',
        chunkFileNames: (chunk) => (chunk.name === 'start' ? 'assets/start-[hash:6].js' : 'assets/c-[hash:6].js'),
        assetFileNames: (asset) => (asset.names.some((n) => n.endsWith('.css')) ? 'assets/s-[hash:6][extname]' : 'assets/[name]-[hash:6][extname]'),
        codeSplitting: {
          // Only the modules named below: a group that pulled in their imports too would drag the stores into home.
          includeDependenciesRecursively: false,
          groups: [
            // The app's entry and everything it imports statically (libraries, the app shell, the stores and
            // calls the first screen needs), plus the pure helpers the home screen imports (no CSS anywhere below
            // them): one file that compresses better than several. Chosen from the import graph, so a module joins
            // or leaves the start by being imported, not by its name. No CSS in it, so nothing render-blocking joins
            // index.html.
            { name: (id, ctx) => (startModules(ctx).has(id) ? 'start' : null) },
          ],
        },
      },
    },
  },
  // No CSS of the app uses light-dark(): without this, the minifier adds --lightningcss-light/-dark variables for
  // it to every `color-scheme`, on the first load too (index.html's critical CSS).
  css: { lightningcss: { exclude: Features.LightDark } },
  server: { proxy: { '/api': 'http://localhost:3000' } },
})
