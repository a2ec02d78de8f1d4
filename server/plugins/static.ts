// The built app (STATIC_DIR, default dist/) on the same origin as the API: hashed assets cached for a year,
// index.html for every client-side route, and nothing but the build's own files.
import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyReply } from 'fastify'
import fp from 'fastify-plugin'
import { errorBody } from '../errors.ts'

export const staticApp = fp(
  async (app, { staticDir }: { staticDir?: string }) => {
    const root = staticDir ? resolve(staticDir) : undefined
    if (!root || !existsSync(resolve(root, 'index.html'))) return
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The build writes .br/.gz beside each text file (vite.config.ts): sent as they are, compressed once.
      preCompressed: true,
      setHeaders(res, path) {
        // Hashed file names never change: cache them for a year. Everything else is revalidated.
        res.header('cache-control', /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache')
      },
    })
    const sendIndex = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html')
    const hidden = { schema: { hide: true } }
    app.get('/', hidden, (_request, reply) => sendIndex(reply))
    // The API (/api/v1/…) and its reference (/api/docs) are routes of their own, which the router prefers to this one.
    app.get('/*', hidden, async (request, reply) => {
      const path = (request.params as { '*': string })['*']
      const notFound = () => reply.status(404).send(errorBody('NOT_FOUND', 'Not found.'))
      // Any method on an unknown API path (GET included, which would otherwise reach this route) is the API's 404.
      if (path === 'api' || path.startsWith('api/')) return reply.status(404).send(errorBody('NOT_FOUND', 'No such API call.'))
      // A name no file can have (a NUL byte, a part longer than a file name may be) is not a client-side route.
      if (path.includes('\0') || path.split('/').some((part) => part.length > 255)) return notFound()
      const file = resolve(root, path)
      // Files of the build only: not a folder, nothing under a hidden folder (.vite/ holds build metadata).
      const inside = path && file.startsWith(root + '/') && !/(^|\/)\./.test(path)
      let stat: ReturnType<typeof statSync> | undefined
      try {
        stat = inside ? statSync(file, { throwIfNoEntry: false }) : undefined
      } catch {
        // ENOTDIR (/index.html/x), ENAMETOOLONG and the like: no such file, and not a route of the app either.
        return notFound()
      }
      if (stat?.isFile()) return reply.sendFile(path)
      if (/\.[a-z0-9]+$/i.test(path)) return notFound()
      return sendIndex(reply) // client-side routes
    })
  },
  { name: 'static-app' },
)
