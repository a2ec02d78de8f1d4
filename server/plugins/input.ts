// How bodies are read. Fastify's own JSON parser (with its prototype-poisoning protection), extended only to
// accept an empty body, which API.md allows on every call that takes no fields (the literal `true` the app sends
// is JSON already). And the NUL character, which PostgreSQL cannot store in text or jsonb: a body carrying one
// (JSON "\u0000", or %00 in the development form) would fail deep in a write as a 500, so it is refused here,
// once, for every call (the fuzz test found it through the development sign-in form's name field).
import fp from 'fastify-plugin'
import { badRequest } from '../errors.ts'

function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (value === null || typeof value !== 'object' || depth > 32) return false
  for (const [k, v] of Object.entries(value)) if (k.includes('\u0000') || hasNul(v, depth + 1)) return true
  return false
}

export const input = fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser('error', 'error')
    app.removeContentTypeParser('application/json')
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if ((body as string).trim() === '') return done(null, undefined)
      parseJson(request, body as string, done)
    })
    app.addHook('preValidation', (request, _reply, done) => {
      if (hasNul(request.body)) return done(badRequest('The request contains a character that is not allowed (NUL).'))
      done()
    })
  },
  { name: 'input' },
)
