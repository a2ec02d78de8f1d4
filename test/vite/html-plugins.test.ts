// scripts/vite/boot-script.ts and critical-css.ts: what they do to index.html.
import { expect, test } from 'vitest'
import { addBootTag, bootScript, bootSrc } from '../../scripts/vite/boot-script.ts'
import { inlineCss } from '../../scripts/vite/critical-css.ts'

const HTML = `<head>\n    <!-- critical-css: replaced at build -->\n    <script type="module" src="/src/main.tsx"></script>\n  </head>`

test("the boot script's tag goes in front of the app's module script, so it runs first", () => {
  expect(addBootTag(HTML, '/assets/boot-1.js')).toBe(
    `<head>\n    <!-- critical-css: replaced at build -->\n    <script type="module" src="/assets/boot-1.js"></script>\n    <script type="module" src="/src/main.tsx"></script>\n  </head>`,
  )
})

test("the boot script is the built entry's file, or its source in dev", () => {
  const bundle = {
    'assets/start-1.js': { type: 'chunk', fileName: 'assets/start-1.js', facadeModuleId: null },
    'assets/boot-9.js': { type: 'chunk', fileName: 'assets/boot-9.js', facadeModuleId: '/p/src/boot.ts' },
  }
  expect(bootSrc('src/boot.ts', bundle as never)).toBe('/assets/boot-9.js')
  expect(bootSrc('src/boot.ts', undefined)).toBe('/src/boot.ts')
})

test('the boot script is an entry of the build beside index.html', () => {
  const config = bootScript('src/boot.ts').config as () => unknown
  expect(config()).toEqual({ build: { rolldownOptions: { input: { index: 'index.html', boot: 'src/boot.ts' } } } })
})

test('the critical CSS replaces its marker, as written ($ patterns included)', () => {
  const css = '.a::after { content: "$&" }\n'
  expect(inlineCss(HTML, css)).toBe(`<head>\n    <style>\n${css}</style>\n    <script type="module" src="/src/main.tsx"></script>\n  </head>`)
})

test('a missing marker fails the build instead of shipping an unstyled splash', () => {
  expect(() => inlineCss('<head></head>', 'body{}')).toThrow(/critical-css/)
})
