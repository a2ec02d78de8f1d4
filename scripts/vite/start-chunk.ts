// The start chunk: the app's entry, everything it imports statically, and the home screen's modules that reach no
// CSS, chosen from the import graph into one script (brotli compresses one file better than several, and `/` then
// waits on no second request). A home module that imported a stylesheet stays out, in a chunk of its own, which
// index.html preloads with its CSS. Saving measured in issue 20: see the one-line comment in vite.config.ts.
import type { IndexHtmlTransformContext, Plugin } from 'vite'

/** What the plugin reads of the bundler's module graph (rolldown's chunking context). */
export interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null
}

const isCss = (id: string) => /\.css($|\?)/.test(id)

/** The modules `from` imports statically, transitively, itself included (a dynamic import is another chunk). */
export function staticClosure(graph: ModuleGraph, from: string, into = new Set<string>()): Set<string> {
  if (into.has(from)) return into
  into.add(from)
  for (const id of graph.getModuleInfo(from)?.importedIds ?? []) staticClosure(graph, id, into)
  return into
}

/** The start chunk's modules: the entry's static closure without CSS, plus each home module that reaches no CSS. */
export function startModules(graph: ModuleGraph, entry: string, home: string): Set<string> {
  const modules = new Set([...staticClosure(graph, entry)].filter((id) => !isCss(id)))
  for (const id of staticClosure(graph, home)) if (![...staticClosure(graph, id)].some(isCss)) modules.add(id)
  return modules
}

/** `<link>`s for the home chunk and its imports and CSS, when some of it stayed out of the start chunk. */
export function homePreloads(ctx: Pick<IndexHtmlTransformContext, 'bundle' | 'chunk'>, home: string): string[] {
  const { bundle, chunk } = ctx
  const homeChunk = bundle && Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith(home))
  if (!bundle || !chunk || homeChunk?.type !== 'chunk') return []
  const present = new Set([chunk.fileName, ...chunk.imports])
  const files = [homeChunk.fileName, ...homeChunk.imports]
  const css = new Set(files.flatMap((file) => [...((bundle[file]?.type === 'chunk' && bundle[file].viteMetadata?.importedCss) || [])]))
  return [
    ...files.filter((file) => !present.has(file)).map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    // Non-blocking: the splash must not wait on it; the route applies it when its chunk runs.
    ...[...css].map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
  ]
}

/** `entry` and `home` are paths from the project's root ('src/main.tsx'). */
export function startChunk({ entry, home }: { entry: string; home: string }): Plugin {
  let root = ''
  let start: Set<string> | undefined // once per chunking pass: the group's `name` runs for every module
  return {
    name: 'start-chunk',
    apply: 'build',
    config: () => ({
      build: {
        rolldownOptions: {
          output: {
            // Only the modules named: a group pulling in their imports too would drag the stores into home.
            codeSplitting: {
              includeDependenciesRecursively: false,
              groups: [
                { name: (id, ctx) => ((start ??= startModules(ctx, `${root}/${entry}`, `${root}/${home}`)).has(id) ? 'start' : null), debugName: 'start' },
              ],
            },
          },
        },
      },
    }),
    configResolved: (config) => void (root = config.root),
    buildStart: () => void (start = undefined),
    renderStart: () => void (start = undefined),
    transformIndexHtml: {
      order: 'post',
      handler: (html, ctx) => {
        const links = homePreloads(ctx, home)
        return links.length ? html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`) : html
      },
    },
  }
}
