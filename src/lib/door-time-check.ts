// The door's offline check of a rotating ticket's time code (issue 25 item 1; the code: contract/time-code.ts), by
// this phone's clock corrected by the server's (./server-clock.ts: the list's `as_of`): the step now and one either
// side. The server checks the same at sync against the scan's scanned_at, made by the same corrected clock. Loaded
// by the door store when a list arrives (so the service worker keeps it for offline use), not with the door's chunk;
// a staff file (scripts/staff-assets.ts: src/lib/door-*).
import type { ScanRead } from '../../contract/scan-text.ts'
import { EXPIRED_CODE_MESSAGE, timeCodeAdmits } from '../../contract/time-code-check.ts'
import { serverNow } from './server-clock.ts'

export { noteServerTime } from './server-clock.ts'

/**
 * The refusal the door shows (EXPIRED_CODE), or when the scan passes the time to queue it at (the corrected clock's).
 * The list carries a ticket's secret only where the event's tickets rotate: without one, any text passes.
 */
export async function offlineCheck({ code, time }: ScanRead, secret: string | null | undefined) {
  const now = serverNow()
  // No Web Crypto (a door page served over plain http): let the list decide; the sync checks the time code.
  const passes = await timeCodeAdmits(time, secret, true, now).catch(() => true)
  return passes ? new Date(now).toISOString() : { error: true as const, message: EXPIRED_CODE_MESSAGE, result: 'EXPIRED_CODE' as const, offline: true, code }
}
