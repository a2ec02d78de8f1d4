// The building blocks of every call's declaration (contract/api.ts and the Part 2 files beside it): ids, object
// bodies, answers and refusals, with the messages the API answers in. No call is declared here.
import * as z from 'zod/mini'
import { REFUSAL_CODES } from './refusal-codes.ts'

/** Ids are PostgreSQL `integer` columns: a larger number can name nothing and must not reach the database. */
export const MAX_ID = 2_147_483_647

export const missing = (input: unknown) => input === undefined || input === null || input === ''

/** Schema metadata for the OpenAPI document (zod copies these keys into the generated JSON Schema). */
export const doc = <T extends z.ZodMiniType>(schema: T, meta: z.core.GlobalMeta): T => {
  z.globalRegistry.add(schema, meta)
  return schema
}

export const url = z.nullable(z.string())

/** What was refused, stable whatever the words: a client decides by it (contract/refusal-codes.ts). */
export const refusalCode = doc(z.enum(REFUSAL_CODES), {
  description: 'What was refused, stable: a client decides by the code, never by the words of `message`, which may change or name a field.',
})

export const apiError = doc(z.object({ error: z.literal(true), message: z.string(), code: refusalCode }), {
  id: 'Error',
  description: 'Every refusal: `message` is readable by a student (the app shows it in a toast); `code` says what was refused.',
})

/**
 * A positive id: a whole number, or a numeric string (ids are compared as numbers, API.md). The messages name
 * the field the way every 400 of the API does.
 */
export function positiveId(field: string) {
  const error = (iss: { input?: unknown }) => (missing(iss.input) ? `${field} is a required field` : `${field} must be a positive whole number`)
  return z.pipe(
    z.union([z.int({ error }).check(z.gte(1, { error }), z.lte(MAX_ID, { error })), z.string({ error }).check(z.regex(/^\s*\d{1,15}\s*$/, { error }))], {
      error,
    }),
    z.transform((value, ctx) => {
      const n = Number(value)
      if (n >= 1 && n <= MAX_ID) return n
      ctx.issues.push({ code: 'custom', input: value, message: error({ input: value }) })
      return z.NEVER
    }),
  )
}

export const isFields = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * A JSON object body. API.md: the app sends the literal body `true`, and `{}` or an empty body must work too,
 * so anything that is not an object reads as no fields (and a call with fields then names the first missing one).
 */
export function fields<S extends z.core.$ZodLooseShape>(shape: S) {
  return z.pipe(
    z.transform((body: unknown) => (isFields(body) ? body : {})),
    z.object(shape),
  )
}

/** The body of a call that takes no fields: `true`, `{}`, an empty body, anything. */
export const noFields = fields({})

// ---- Answers ----

export const ok = <S extends z.core.$ZodLooseShape>(shape: S) => doc(z.object({ error: z.literal(false), ...shape }), { description: 'Done.' })
export const message = z.string()

/** What each refusal means, for the document; the message always says it in a student's words. */
const REFUSAL_MEANINGS: Record<number, string> = {
  400: 'Invalid input: the message names the field, in the SPEC wording.',
  401: 'A missing, malformed, expired or revoked token: `Invalid Token`.',
  403: 'Not allowed: outside the caller’s roles, wrong state, not the leader, not a participant…',
  404: 'Unknown id (or a call that does not exist here).',
  409: 'Conflict: already registered, team full, sold out, already collected, duplicate team name, a mobile number or student ID another student holds.',
  413: 'The body is over 16 KB.',
  415: 'The body is not JSON.',
  429: 'Rate limited: `Retry-After` says how many seconds to wait.',
  503: 'Busy or restarting (with `Retry-After`), or a shared counter is briefly unavailable.',
}

type Refusal = { description: string; content: { 'application/json': { schema: typeof apiError } } }

/** Refusals a call may answer, each with the error shape. */
export const refusals = (...statuses: number[]): Record<number, Refusal> =>
  Object.fromEntries(statuses.map((s) => [s, { description: REFUSAL_MEANINGS[s], content: { 'application/json': { schema: apiError } } }]))

// Every call can be refused for its body (400, 413, 415), its rate (429) and an overloaded or restarting server (503).
export const ALWAYS = [400, 413, 415, 429, 503]

/** A 302 answer, described for the document: no body. */
export const redirect = (description: string) => doc(z.null(), { description })
export const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } })

export type Auth = 'bearer' | 'public'

export interface CallSpec {
  method: 'GET' | 'POST'
  /** Under /api/v1, as API.md writes it (the team calls end with a slash and answer without it too). */
  path: string
  auth: Auth
  summary: string
  tag: 'auth' | 'user' | 'events' | 'teams' | 'councils' | 'server' | 'organiser' | 'door' | 'around' | 'points' | 'payments'
  params?: z.core.$ZodType
  querystring?: z.core.$ZodType
  body?: z.core.$ZodType
  /** By status: a schema for JSON answers, or a description (with its content) for redirects and pages. */
  answers: Record<number, z.core.$ZodType | { description: string; content: Record<string, { schema: z.core.$ZodType }> }>
  /** Bytes of body the call takes when its fields' own limits allow more than the server's 16 KB (else 413). */
  bodyLimit?: number
}

/** Answers of a bearer call: the refusals common to every call, 401, and the call's own. */
export const bearer = (...statuses: number[]) => refusals(...ALWAYS, 401, ...statuses)

/** Whether an instant (ms since 1970) lies in the years 1 to 9999 UTC: what a database timestamp here can hold. */
export const inTimestampRange = (ms: number) => ms >= -62_135_596_800_000 && ms < 253_402_300_800_000
