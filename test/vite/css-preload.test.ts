// scripts/vite/css-preload.ts and src/preload-css.ts: each lazy chunk awaits its own stylesheets (the loader adds each
// once; one that fails rejects and is tried again later), and Vite's helper, with no stylesheets to wait for, imports.
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { cssPreload, HELPER_ID, LOADER, ownStylesheets } from '../../scripts/vite/css-preload.ts'

interface FakeLink {
  rel: string
  crossOrigin: string | null
  href: string
  onload: (() => void) | null
  onerror: (() => void) | null
  removed: boolean
  remove(): void
}
let links: FakeLink[]

beforeEach(() => {
  links = []
  vi.stubGlobal('document', {
    createElement: () => {
      const link: FakeLink = { rel: '', crossOrigin: null, href: '', onload: null, onerror: null, removed: false, remove: () => void (link.removed = true) }
      return link
    },
    head: { append: (link: FakeLink) => links.push(link) },
  })
  vi.resetModules() // each test gets the helper with nothing loaded yet
})
afterEach(() => vi.unstubAllGlobals())

const helper = async () => (await import('../../src/preload-css.ts')).__vitePreload
const settled = () => new Promise((r) => setTimeout(r, 0)) // kept: one turn of the event loop, no time

test("Vite's helper only imports: the build names no stylesheets in its calls", async () => {
  const preload = await helper()
  await expect(preload(async () => 'screen')).resolves.toBe('screen')
  expect(links).toEqual([])
})

test('the loader a chunk awaits adds each stylesheet once, resolves when they have loaded, and a failed one is fetched afresh next time', async () => {
  await helper() // defines it
  const loader = (globalThis as unknown as Record<string, (files: string[]) => Promise<unknown>>)[LOADER]
  const first = loader(['assets/s-a.css', 'assets/s-b.css'])
  const second = loader(['assets/s-a.css'])
  expect(links.map((l) => [l.rel, l.href, l.crossOrigin])).toEqual([
    ['stylesheet', '/assets/s-a.css', ''],
    ['stylesheet', '/assets/s-b.css', ''],
  ])
  let done = false
  first.then(
    () => (done = true),
    () => {}, // its rejection is awaited below
  )
  links[0]!.onload!()
  await expect(second).resolves.toBeDefined()
  await settled()
  expect(done).toBe(false) // s-b.css still on its way
  links[1]!.onerror!()
  await expect(first).rejects.toThrow('Could not load /assets/s-b.css')
  expect(links[1]!.removed).toBe(true)
  const again = loader(['assets/s-b.css'])
  expect(links).toHaveLength(3)
  links[2]!.onload!()
  await expect(again).resolves.toBeDefined()
})

test("the plugin loads that helper in place of Vite's, with script preloads off", () => {
  const plugin = cssPreload('/p/src/preload-css.ts')
  const load = plugin.load as { filter: { id: RegExp }; handler: () => string }
  expect(load.filter.id.test(HELPER_ID)).toBe(true)
  expect(load.filter.id.test('/p/src/vite/preload-helper.js')).toBe(false)
  expect(load.handler()).toBe('export { __vitePreload } from "/p/src/preload-css.ts"')
  expect((plugin.config as () => unknown)()).toEqual({ build: { modulePreload: false } })
})

test('the plugin warns when Vite never asked for its helper (renamed: its own would be in the build)', () => {
  const plugin = cssPreload('/p/src/preload-css.ts')
  const warn = vi.fn()
  ;(plugin.buildStart as () => void)()
  ;(plugin.buildEnd as (this: unknown, e?: Error) => void).call({ warn })
  expect(warn).toHaveBeenCalledWith(expect.stringContaining('never loaded'))
  warn.mockClear()
  ;(plugin.buildStart as () => void)()
  ;(plugin.load as { handler: () => string }).handler()
  ;(plugin.buildEnd as (this: unknown, e?: Error) => void).call({ warn })
  expect(warn).not.toHaveBeenCalled()
})

test('each lazy chunk awaits its own stylesheets; its importer no longer lists them (nor the start chunk)', () => {
  const importer = [
    'const __vite__mapDeps=(i,m=__vite__mapDeps,d=(m.f||(m.f=["assets/s-1.css","assets/s-2.css"])))=>i.map(i=>d[i]);',
    'import{a as R}from"./start.js";const x=R(()=>import(`./c-1.js`),__vite__mapDeps([0])),y=R(()=>import(`./c-2.js`),__vite__mapDeps([0,1]));',
  ].join('\n')
  const start = ownStylesheets({ type: 'chunk', isEntry: true, code: importer, viteMetadata: { importedCss: new Set(['assets/s-home.css']) } })
  expect(start).toBe('import{a as R}from"./start.js";const x=R(()=>import(`./c-1.js`)),y=R(()=>import(`./c-2.js`));')
  const lazy = ownStylesheets({
    type: 'chunk',
    isEntry: false,
    code: 'export default 1',
    viteMetadata: { importedCss: new Set(['assets/s-1.css', 'assets/s-2.css']) },
  })
  expect(lazy).toBe(`await ${LOADER}(["assets/s-1.css","assets/s-2.css"]);\nexport default 1`)
  expect(ownStylesheets({ type: 'chunk', isEntry: false, code: 'export default 2', viteMetadata: { importedCss: new Set() } })).toBe('export default 2')
})
