// The door's offline check of a rotating ticket's time code (issue 25 item 1; the code: contract/time-code.ts), by
// this phone's clock corrected by the server's (./server-clock.ts: the list's `as_of`): the step now and one either
// side. The server checks the same at sync against the scan's scanned_at, made by the same corrected clock. Loaded
// by the door store when a list arrives (so the service worker keeps it for offline use), not with the door's chunk;
// a staff file (scripts/staff-assets.ts: src/lib/door-*).
import { EXPIRED_CODE_MESSAGE, splitScan, timeCodeAdmits } from '../../contract/time-code-check.ts'
import { serverNow } from './server-clock.ts'

export { noteServerTime, serverNow } from './server-clock.ts'

/** Null when the scanned text passes; else the refusal the door shows (EXPIRED_CODE). */
export async function expiredOffline(text: string, secret: string | null | undefined, rotating: boolean) {
  const { code, time } = splitScan(text)
  // No Web Crypto (a door page served over plain http): let the list decide; the sync checks the time code.
  const passes = await timeCodeAdmits(time, secret, rotating, serverNow()).catch(() => true)
  return passes ? null : { error: true as const, message: EXPIRED_CODE_MESSAGE, result: 'EXPIRED_CODE' as const, offline: true, code }
}
