// CORS through @fastify/cors for the one origin that may call the API from a browser: APP_URL (exact origin,
// never `*`). Same-origin requests need none of this; it matters when the app is served from another host.
// Sign-in (the Google callback, the development form) is a top-level navigation, which CORS does not touch.
// The options are static, given once (issue 15: a delegator had @fastify/cors rebuild and normalise them on every
// request); only the origin is decided per request, by a comparison.
import cors from '@fastify/cors'
import fp from 'fastify-plugin'
import { forbidden } from '../errors.ts'

export const corsForApp = fp(
  async (app, { appUrl }: { appUrl: string }) => {
    const allowed = new URL(appUrl).origin
    // A preflight from another origin is refused outright, so the real request is never sent; a plain request
    // from one goes on without Access-Control-Allow-Origin, and the browser keeps the answer from that page.
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
        const origin = request.headers.origin
        if (origin && origin !== allowed) return done(forbidden('ORIGIN_NOT_ALLOWED', 'This origin may not call the API.'))
      }
      done()
    })
    await app.register(cors, {
      // A function (not the string): the header is echoed to APP_URL only, and Vary: Origin is on every answer.
      origin: (origin, callback) => callback(null, origin === allowed ? allowed : false),
      methods: 'GET, POST',
      allowedHeaders: 'authorization, content-type',
      exposedHeaders: 'retry-after', // the app may show how long to wait
      maxAge: 600,
    })
  },
  { name: 'cors' },
)
