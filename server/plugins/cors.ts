// CORS through @fastify/cors for the one origin that may call the API from a browser: APP_URL (exact origin,
// never `*`). Same-origin requests need none of this; it matters when the app is served from another host.
// Sign-in (the Google callback, the development form) is a top-level navigation, which CORS does not touch.
import cors from '@fastify/cors'
import fp from 'fastify-plugin'
import { forbidden } from '../errors.ts'

export const corsForApp = fp(
  async (app, { appUrl }: { appUrl: string }) => {
    const allowed = new URL(appUrl).origin
    await app.register(cors, {
      delegator: (request, callback) => {
        const origin = request.headers.origin
        const preflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined
        // A preflight from another origin is refused outright, so the real request is never sent; a plain request
        // from one goes on without Access-Control-Allow-Origin, and the browser keeps the answer from that page.
        if (origin && origin !== allowed && preflight) return callback(forbidden('This origin may not call the API.'), {})
        callback(null, {
          origin: origin === allowed ? allowed : false,
          methods: 'GET, POST',
          allowedHeaders: 'authorization, content-type',
          exposedHeaders: 'retry-after', // the app may show how long to wait
          maxAge: 600,
        })
      },
    })
  },
  { name: 'cors' },
)
