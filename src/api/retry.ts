// The writes that are safe to repeat (claim, register, a door's scans: a second one is refused or answered the
// same, never doubled) are sent again after a passing failure: a 503 (the server shedding load, or its database
// restarting), a 502 or 504 (the proxy found the instance gone), or no answer at all (issues 15 and 27). A bounded
// number of times, after the server's Retry-After or 1, 2, 4 s, plus jitter, while the button ('RSVPing') keeps
// waiting. Other calls and other statuses are never retried. Apart from client.ts, so it loads with the screens
// that write, not with the first one.
import type { ApiError, Client } from './client.ts'

/** How many times a passing failure of an idempotent write is retried: at most 4 requests. */
export const WRITE_RETRIES = 3

/** Longest wait a Retry-After can ask of a student watching a spinner, in seconds. */
const MAX_RETRY_AFTER = 10

/** The failures worth another try: no answer, and the server or its proxy saying "not now". */
export const PASSING = [0, 502, 503, 504]

/**
 * Milliseconds to wait before retry number `retry` (0 first): the server's Retry-After, else 1, 2, 4 s; plus up to
 * half of it at random, so that the clients a fault turned away do not all come back at the same instant.
 */
export function retryDelay(retryAfter: string | null, random: number = Math.random(), retry = 0): number {
  const seconds = Math.min(MAX_RETRY_AFTER, Math.max(0.1, Number(retryAfter) || 2 ** Math.min(retry, 2)))
  return Math.round(seconds * 1000 * (1 + random / 2))
}

/** `write`, sent again after each passing failure up to `retries` times, waiting on the client's clock in between. */
export async function retrying<T>({ sleep }: Pick<Client, 'sleep'>, write: () => Promise<T>, retries = WRITE_RETRIES): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await write()
    } catch (err) {
      if (!PASSING.includes((err as ApiError).status) || retry >= retries) throw err
      await sleep(retryDelay((err as ApiError).retryAfter ?? null, Math.random(), retry))
    }
  }
}
