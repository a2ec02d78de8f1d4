// Small request helpers shared by the route files.
import type { FastifyRequest } from 'fastify'
import { badRequest } from './errors.ts'

/** The JSON body as an object: `true`, `{}`, `null` and an empty body all read as no fields. */
export function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body = request.body
  return body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
}

/** Ids are PostgreSQL `integer` columns: a larger number can name nothing and must not reach the database. */
export const MAX_ID = 2_147_483_647

/** A positive integer id from the body or the path; numeric strings are accepted, anything else is a 400. */
export function idFrom(value: unknown, field: string): number {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0 || n > MAX_ID) {
    throw badRequest(value === undefined || value === null || value === '' ? `${field} is a required field` : `${field} must be a positive whole number`)
  }
  return n
}

/** The signed-in user's id, set by the auth hook on every /p/ route. */
export function userIdOf(request: FastifyRequest): number {
  return (request as FastifyRequest & { userId: number }).userId
}
