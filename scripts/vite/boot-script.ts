// src/boot.ts as an entry of its own, its <script> in front of the app's: it sends the first API calls while the
// app's larger start chunk is still downloading (a script of index.html would otherwise be bundled into the app's
// entry and wait for all of it). Module scripts run in document order, so it runs first.
import type { IndexHtmlTransformContext, Plugin } from 'vite'

/** index.html with `<script type="module" src>` for the boot entry in front of the first module script. */
export function addBootTag(html: string, src: string): string {
  return html.replace(/<script type="module"/, `<script type="module" src="${src}"></script>\n    $&`)
}

/** The boot entry's file in the build's bundle, or its source path in dev (served as a module from the source). */
export function bootSrc(entry: string, bundle: IndexHtmlTransformContext['bundle']): string {
  const chunk = bundle && Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith(entry))
  return `/${chunk ? chunk.fileName : entry}`
}

export function bootScript(entry: string): Plugin {
  return {
    name: 'boot-script',
    config: () => ({ build: { rolldownOptions: { input: { index: 'index.html', boot: entry } } } }),
    transformIndexHtml: { order: 'post', handler: (html, ctx) => addBootTag(html, bootSrc(entry, ctx.bundle)) },
  }
}
