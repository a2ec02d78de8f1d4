// scripts/vite/classic-jsx.ts: .tsx files compile to Preact's h() (the build and the DOM tests alike).
import { transformWithOxc } from 'vite'
import { expect, test } from 'vitest'
import { classicJsx, JSX_IMPORT } from '../../scripts/vite/classic-jsx.ts'

const plugin = classicJsx()
const config = (plugin.config as () => { oxc: { jsx: Record<string, unknown> } })()
const transform = plugin.transform as { filter: { id: RegExp }; handler: (code: string) => { code: string } }

test('.tsx files get the import of h and Fragment; other files nothing', () => {
  expect(transform.filter.id.test('/p/src/app.tsx')).toBe(true)
  expect(transform.filter.id.test('/p/src/boot.ts')).toBe(false)
  expect(transform.handler('const a = <b/>').code).toBe(`${JSX_IMPORT}const a = <b/>`)
  expect(JSX_IMPORT).not.toContain('\n') // the file's lines stay where they were
})

test('JSX compiles to h(tag, props, ...children), with no jsx-runtime import and no __source/__self props', async () => {
  const source = transform.handler('export const A = () => <><p class="x">hi {1}</p></>').code
  const { code } = await transformWithOxc(source, 'a.tsx', { lang: 'tsx', jsx: config.oxc.jsx as never })
  expect(code).toContain('jsxH(JsxFragment, null, /* @__PURE__ */ jsxH("p", { class: "x" }, "hi ", 1))')
  expect(code).not.toMatch(/jsx-runtime|__source|__self/)
})
