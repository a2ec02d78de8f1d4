// Errors are values with a status, a stable code (contract/refusal-codes.ts) and a message a student can read (shown
// in a toast). The code is what a client decides by; the words may change.
import type { RefusalCode } from '../contract/refusal-codes.ts'

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: RefusalCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    // A refusal is an answer, not a bug: no stack trace to capture (most of a ticket rush's answers are refusals,
    // and capturing one costs more than the rest of building the answer).
    const limit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    super(message)
    Error.stackTraceLimit = limit
  }
}

/** The API's error shape, `{error: true, message, code}`: the body of every refusal, whoever answers it. */
export const errorBody = (code: RefusalCode, message: string) => ({ error: true as const, message, code })

/** 400: the message names the field, as every validation failure does. */
export const badRequest = (message: string) => new HttpError(400, 'INVALID_INPUT', message)
export const unauthorized = () => new HttpError(401, 'INVALID_TOKEN', 'Invalid Token')
export const forbidden = (code: RefusalCode, message: string) => new HttpError(403, code, message)
export const notFound = (code: RefusalCode, message: string) => new HttpError(404, code, message)
export const tooManyRequests = (
  retryAfterSeconds: number,
  message = 'Too many attempts. Please wait a little and try again.',
  code: RefusalCode = 'RATE_LIMITED',
) => new HttpError(429, code, message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) })
