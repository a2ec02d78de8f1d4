// scripts/vite/css-preload.ts and the helper it puts in Vite's place (src/preload-css.ts): a lazy chunk is imported
// once its stylesheets have loaded; each stylesheet is added once; one that fails rejects and is tried again later.
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

test('imports the chunk once its stylesheets have loaded, adding each stylesheet once', async () => {
  const preload = await helper()
  const load = vi.fn(async () => 'screen')
  const first = preload(load, ['assets/s-a.css', 'assets/s-b.css'])
  const second = preload(async () => 'other', ['assets/s-a.css'])
  await settled()
  expect(links.map((l) => [l.rel, l.href, l.crossOrigin])).toEqual([
    ['stylesheet', '/assets/s-a.css', ''],
    ['stylesheet', '/assets/s-b.css', ''],
  ])
  expect(load).not.toHaveBeenCalled()
  links[0]!.onload!()
  await settled()
  expect(load).not.toHaveBeenCalled() // s-b.css still on its way
  await expect(second).resolves.toBe('other')
  links[1]!.onload!()
  await expect(first).resolves.toBe('screen')
  expect(load).toHaveBeenCalledTimes(1)
})

test('a chunk without stylesheets is imported at once', async () => {
  const preload = await helper()
  await expect(preload(async () => 1, [])).resolves.toBe(1)
  await expect(preload(async () => 2)).resolves.toBe(2)
  expect(links).toEqual([])
})

test('a stylesheet that fails rejects the import, leaves the page, and is fetched afresh next time', async () => {
  const preload = await helper()
  const load = vi.fn(async () => 'screen')
  const failed = preload(load, ['assets/s-a.css'])
  links[0]!.onerror!()
  await expect(failed).rejects.toThrow('Could not load /assets/s-a.css')
  expect(load).not.toHaveBeenCalled()
  expect(links[0]!.removed).toBe(true)
  const again = preload(load, ['assets/s-a.css'])
  expect(links).toHaveLength(2)
  links[1]!.onload!()
  await expect(again).resolves.toBe('screen')
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

test('the loader the chunks await loads each stylesheet once, and rejects when one fails', async () => {
  await helper() // defines it
  const loader = (globalThis as unknown as Record<string, (files: string[]) => Promise<unknown>>)[LOADER]
  const both = loader(['assets/s-a.css', 'assets/s-b.css'])
  const again = loader(['assets/s-a.css'])
  expect(links.map((l) => l.href)).toEqual(['/assets/s-a.css', '/assets/s-b.css'])
  links[0]!.onload!()
  await expect(again).resolves.toBeDefined()
  links[1]!.onerror!()
  await expect(both).rejects.toThrow('Could not load /assets/s-b.css')
})
