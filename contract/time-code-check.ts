// The door's side of the ticket's time code (issue 25 item 1; the code itself: ./time-code.ts), shared by the door's
// offline check (src/lib/door-time-check.ts) and the server's (server/db/door/time-codes.ts).
import { stepOf, timeCode } from './time-code.ts'

/** Said by the door (online, offline and at sync) for a time code outside the current step and one either side, or none. */
export const EXPIRED_CODE_MESSAGE = 'This code has expired: ask the student to open the ticket in the app'

/**
 * Whether a scan passes the time check at `atMs` (the door's corrected clock, the server's, or an offline scan's
 * scanned_at): always with rotation off (printed tickets: the time part, if any, is ignored) or no secret known;
 * else only with the time code of the step of `atMs` or one either side (about 60 s each way at most).
 */
export async function timeCodeAdmits(time: string | null, secret: string | null | undefined, rotating: boolean, atMs: number): Promise<boolean> {
  if (!rotating || !secret) return true
  if (time === null || !/^\d{6}$/.test(time)) return false
  const step = stepOf(atMs)
  const near = await Promise.all([step - 1, step, step + 1].map((s) => timeCode(secret, s)))
  return near.includes(time)
}
