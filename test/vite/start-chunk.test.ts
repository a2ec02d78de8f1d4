// scripts/vite/start-chunk.ts: which modules the start chunk holds, chosen from the import graph, and the links
// index.html gets for a home chunk that stayed out of it.
import { describe, expect, test } from 'vitest'
import type { Plugin } from 'vite'
import { homePreloads, type ModuleGraph, startChunk, startModules, staticClosure } from '../../scripts/vite/start-chunk.ts'

/** A module graph from `{ id: [static imports] }`. */
const graph = (imports: Record<string, string[]>): ModuleGraph & { reads: number } => {
  const g = {
    reads: 0,
    getModuleInfo(id: string) {
      g.reads++
      return imports[id] ? { importedIds: imports[id] } : null
    },
  }
  return g
}

const APP = graph({
  '/p/src/main.tsx': ['/p/src/app.tsx', 'preact'],
  '/p/src/app.tsx': ['/p/src/layout.tsx', '/p/src/app.tsx'], // a cycle
  '/p/src/layout.tsx': ['/p/src/layout.css'],
  '/p/src/pages/home/index.tsx': ['/p/src/card.tsx', '/p/src/banner.tsx', 'preact'],
  '/p/src/card.tsx': ['/p/src/dates.ts'],
  '/p/src/banner.tsx': ['/p/src/banner.module.css?used'],
  '/p/src/dates.ts': ['tinydate'],
  preact: [],
  tinydate: [],
})

test('the static closure follows imports transitively, once each, cycles included', () => {
  expect([...staticClosure(APP, '/p/src/main.tsx')].sort()).toEqual(['/p/src/app.tsx', '/p/src/layout.css', '/p/src/layout.tsx', '/p/src/main.tsx', 'preact'])
})

test("the start chunk: the entry's closure without CSS, and the home modules that reach no CSS", () => {
  const start = startModules(APP, '/p/src/main.tsx', '/p/src/pages/home/index.tsx')
  expect([...start].sort()).toEqual(['/p/src/app.tsx', '/p/src/card.tsx', '/p/src/dates.ts', '/p/src/layout.tsx', '/p/src/main.tsx', 'preact', 'tinydate'])
  // The home screen imports a module with a stylesheet: it and the home module stay out (their CSS loads with them).
  expect(start.has('/p/src/pages/home/index.tsx')).toBe(false)
  expect(start.has('/p/src/banner.tsx')).toBe(false)
})

describe('the plugin', () => {
  const plugin = startChunk({ entry: 'src/main.tsx', home: 'src/pages/home/index.tsx' })
  const hook = <T>(h: unknown): T => (typeof h === 'function' ? h : (h as { handler: T }).handler) as T
  const config = hook<
    () => {
      build: { rolldownOptions: { output: { codeSplitting: { groups: { name: (id: string, ctx: ModuleGraph) => string | null; debugName: string }[] } } } }
    }
  >(plugin.config)()
  const group = config.build.rolldownOptions.output.codeSplitting.groups[0]!
  hook<(c: { root: string }) => void>(plugin.configResolved)({ root: '/p' })

  test("names the start chunk's modules 'start', the others nothing, reading the graph once per pass", () => {
    const g = graph({ '/p/src/main.tsx': ['/p/src/a.ts'], '/p/src/a.ts': [], '/p/src/pages/home/index.tsx': ['/p/src/b.ts'], '/p/src/b.ts': [] })
    hook<() => void>(plugin.buildStart)()
    expect(group.name('/p/src/a.ts', g)).toBe('start')
    expect(group.name('/p/src/pages/home/index.tsx', g)).toBe('start')
    const reads = g.reads
    expect(group.name('/p/src/lazy.tsx', g)).toBeNull()
    expect(g.reads).toBe(reads)
    // A new build reads the graph afresh.
    hook<() => void>(plugin.buildStart)()
    expect(group.name('/p/src/c.ts', graph({ '/p/src/main.tsx': ['/p/src/c.ts'], '/p/src/c.ts': [] }))).toBe('start')
    expect(group.debugName).toBe('start')
  })

  test('is for the build only', () => {
    expect((plugin as Plugin).apply).toBe('build')
  })
})

describe('home preloads', () => {
  const chunk = (fileName: string, facadeModuleId: string | null, imports: string[] = [], css: string[] = []) => ({
    type: 'chunk' as const,
    fileName,
    facadeModuleId,
    imports,
    viteMetadata: { importedCss: new Set(css), importedAssets: new Set<string>() },
  })
  test('none when the home screen is in the start chunk', () => {
    const start = chunk('assets/start-1.js', null)
    const bundle = { [start.fileName]: start }
    expect(
      homePreloads({ bundle: bundle as never, chunk: chunk('assets/index-1.js', '/p/index.html', ['assets/start-1.js']) as never }, 'src/pages/home/index.tsx'),
    ).toEqual([])
  })
  test('the home chunk, its imports not already loaded, and its CSS, when it stayed out', () => {
    const home = chunk('assets/c-home.js', '/p/src/pages/home/index.tsx', ['assets/start-1.js', 'assets/c-shared.js'], ['assets/s-home.css'])
    const shared = chunk('assets/c-shared.js', null, [], ['assets/s-shared.css'])
    const bundle = { [home.fileName]: home, [shared.fileName]: shared }
    const links = homePreloads(
      { bundle: bundle as never, chunk: chunk('assets/index-1.js', '/p/index.html', ['assets/start-1.js']) as never },
      'src/pages/home/index.tsx',
    )
    expect(links).toEqual([
      '<link rel="modulepreload" crossorigin href="/assets/c-home.js">',
      '<link rel="modulepreload" crossorigin href="/assets/c-shared.js">',
      '<link rel="preload" as="style" crossorigin href="/assets/s-home.css">',
      '<link rel="preload" as="style" crossorigin href="/assets/s-shared.css">',
    ])
  })
  test('none in dev (no bundle)', () => {
    expect(homePreloads({ bundle: undefined, chunk: undefined }, 'src/pages/home/index.tsx')).toEqual([])
  })
})
