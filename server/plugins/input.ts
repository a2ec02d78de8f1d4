// PostgreSQL cannot store the NUL character in text or jsonb: a body carrying one (JSON "\u0000", or %00 in
// the development form) would fail deep in a write as a 500. Refused here, once, for every call (the fuzz
// test found it through the development sign-in form's name field).
import type { FastifyInstance } from 'fastify'
import { badRequest } from '../errors.ts'
import { global } from './global.ts'

function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (value === null || typeof value !== 'object' || depth > 32) return false
  for (const [k, v] of Object.entries(value)) if (k.includes('\u0000') || hasNul(v, depth + 1)) return true
  return false
}

export const rejectNul = global(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    if (hasNul(request.body)) throw badRequest('The request contains a character that is not allowed (NUL).')
  })
})
