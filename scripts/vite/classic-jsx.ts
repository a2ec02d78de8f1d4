// JSX compiled to Preact's h() (the classic runtime) instead of preact/jsx-runtime's jsx(): h() is in Preact's core
// anyway, so the start chunk carries no runtime module, and `h(tag, props, ...children)` is shorter than
// `jsx(tag, {...props, children: [...]})` at every element. vitest.config.ts uses it too: tests run the build's JSX.
import type { Plugin } from 'vite'

/** The names the compiled JSX calls, imported into every .tsx file (never into src/boot.ts, which imports nothing). */
export const JSX_IMPORT = "import { h as jsxH, Fragment as JsxFragment } from 'preact';"

export function classicJsx(): Plugin {
  return {
    name: 'classic-jsx',
    enforce: 'pre',
    // development: false: no __self/__source props in dev and tests (preact-iso's Router stringifies a route's props).
    config: () => ({ oxc: { jsx: { runtime: 'classic', pragma: 'jsxH', pragmaFrag: 'JsxFragment', development: false } } }),
    // Prepended on the line of the file's first line, so the source map's lines stay as they are.
    transform: { filter: { id: /\.tsx$/ }, handler: (code) => ({ code: JSX_IMPORT + code, map: null }) },
  }
}
