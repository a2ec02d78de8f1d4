// Errors are values with a status and a message a student can read (shown in a toast).
export class HttpError extends Error {
  constructor(
    readonly status: number,
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

export const badRequest = (message: string) => new HttpError(400, message)
export const unauthorized = () => new HttpError(401, 'Invalid Token')
export const forbidden = (message: string) => new HttpError(403, message)
export const notFound = (message: string) => new HttpError(404, message)
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many attempts. Please wait a little and try again.') =>
  new HttpError(429, message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) })
