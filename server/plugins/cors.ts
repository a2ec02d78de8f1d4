// CORS for the one origin that may call the API from a browser: APP_URL (exact origin, never `*`).
// Same-origin requests need none of this; it matters when the SPA is served from another host than the API.
// Sign-in (the Google callback, the development form) is a top-level navigation, which CORS does not touch.
import type { FastifyInstance } from 'fastify'
import { global } from './global.ts'

const ALLOWED_METHODS = 'GET, POST'
const ALLOWED_HEADERS = 'authorization, content-type'

export const cors = global(async (app: FastifyInstance, { appUrl }: { appUrl: string }) => {
  const allowed = new URL(appUrl).origin

  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin
    if (!origin) return
    reply.header('vary', 'Origin')
    const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined
    if (origin !== allowed) {
      // No Access-Control-Allow-Origin: the browser keeps the answer from the foreign page. A preflight is
      // refused outright, so the real request is never sent.
      if (preflight) return reply.status(403).send({ error: true, message: 'This origin may not call the API.' })
      return
    }
    reply.header('access-control-allow-origin', allowed)
    reply.header('access-control-expose-headers', 'retry-after') // the app may show how long to wait
    if (preflight) {
      return reply
        .status(204)
        .header('access-control-allow-methods', ALLOWED_METHODS)
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', '600')
        .send()
    }
  })
})
