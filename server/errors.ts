// Errors are values with a status and a message a student can read (shown in a toast).
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message)
  }
}

export const badRequest = (message: string) => new HttpError(400, message)
export const unauthorized = () => new HttpError(401, 'Invalid Token')
export const forbidden = (message: string) => new HttpError(403, message)
export const notFound = (message: string) => new HttpError(404, message)
export const conflict = (message: string) => new HttpError(409, message)
export const tooManyRequests = (retryAfterSeconds: number, message = 'Too many attempts. Please wait a little and try again.') =>
  new HttpError(429, message, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) })

/** PostgreSQL's unique_violation, from postgres.js or PGlite (possibly wrapped by Drizzle). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (let e: any = err; e; e = e.cause) {
    if (e.code === '23505') return !constraint || e.constraint_name === constraint || e.constraint === constraint
  }
  return false
}

/** PostgreSQL's check_violation, from either driver. */
export function isCheckViolation(err: unknown, constraint?: string): boolean {
  for (let e: any = err; e; e = e.cause) {
    if (e.code === '23514') return !constraint || e.constraint_name === constraint || e.constraint === constraint
  }
  return false
}
