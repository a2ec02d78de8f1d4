// Issue 15 item 5, the app's side: a 503 (the server shedding load) of a write that is safe to repeat (claim,
// register: a second one is refused, never doubled) is sent again after the server's Retry-After plus jitter, a
// bounded number of times, while the button ('RSVPing') keeps waiting. Other calls and other statuses are never
// retried. Apart from client.ts, so it loads with the screens that write, not with the first one.
import type { ApiError, Client } from './client.ts'

/** How many times a 503 of an idempotent write is retried: at most 4 requests. */
export const WRITE_RETRIES = 3

/** Longest wait a Retry-After can ask of a student watching a spinner, in seconds. */
const MAX_RETRY_AFTER = 10

/** Milliseconds to wait before retrying a 503: its Retry-After (1 s if absent), plus up to half of it at random. */
export function retryDelay(retryAfter: string | null, random: number = Math.random()): number {
  const seconds = Math.min(MAX_RETRY_AFTER, Math.max(0.1, Number(retryAfter) || 1))
  return Math.round(seconds * 1000 * (1 + random / 2))
}

/** `write`, sent again after each 503 up to WRITE_RETRIES times, waiting on the client's clock in between. */
export async function retrying<T>({ sleep }: Pick<Client, 'sleep'>, write: () => Promise<T>): Promise<T> {
  for (let retry = 0; ; retry++) {
    try {
      return await write()
    } catch (err) {
      if ((err as ApiError).status !== 503 || retry >= WRITE_RETRIES) throw err
      await sleep(retryDelay((err as ApiError).retryAfter ?? null))
    }
  }
}
