// A counting reverse proxy in front of the real server: the browser talks to it, it passes every request on
// unchanged and notes what went over the network (path, status, body bytes as sent, compressed or not). Unlike the
// page's own network events, it also sees what the service worker fetches for itself (its install), and never
// counts what the browser answered from its HTTP cache: what it logs is what crossed the wire.
// Used by test/e2e/offline.spec.ts (each file of the first visit fetched once) and `npm run bench:load`.
import { createServer, request as forward } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Fetched {
  path: string
  status: number
  /** Body bytes as they went to the browser (content-encoding included). */
  bytes: number
}

export interface CountingProxy {
  /** The origin to open in the browser (localhost, like the server's: a secure context for the service worker). */
  url: string
  /** Every request that reached the server through the proxy, in order. */
  log: Fetched[]
  close(): Promise<void>
}

export async function countingProxy(target: string): Promise<CountingProxy> {
  const to = new URL(target)
  const log: Fetched[] = []
  const server = createServer((req, res) => {
    const upstream = forward({ hostname: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const entry: Fetched = { path: req.url ?? '', status: answer.statusCode ?? 0, bytes: 0 }
      log.push(entry)
      res.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.on('data', (chunk: Buffer) => {
        entry.bytes += chunk.length
      })
      answer.pipe(res)
    })
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502)
      res.end()
    })
    req.pipe(upstream)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://localhost:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Hashed build files: everything under /assets/ has a content hash in its name (vite.config.ts), as the server and the service worker assume. */
export const isHashedAsset = (path: string) => path.startsWith('/assets/')

/** The paths fetched more than once, with how many times. */
export function duplicates(log: readonly Fetched[], which: (path: string) => boolean = () => true): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const { path } of log) if (which(path)) counts[path] = (counts[path] ?? 0) + 1
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 1))
}
