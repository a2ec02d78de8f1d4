// The door's calls (API.md Part 2 "At the door"), typed from the contract. Imported only by the door store, so
// nothing here reaches a student's first load. A check-in's 409, 404 and 410 carry the answer (ALREADY_CHECKED_IN,
// UNKNOWN_TICKET, EXPIRED_CODE): they resolve as answers here, not as errors; a network failure rejects with status 0.
import type { Request } from '../../contract/api.ts'
import type { ScanResult } from '../../contract/types.ts'
import { ApiError } from './client.ts'
import { client } from './calls.ts'
import { PASSING, retrying } from './retry.ts'
import type { Post } from './client.ts'

const post = client.request as Post

/**
 * How many times a sync of offline scans is sent again after a passing failure (no answer, 502/503/504: the
 * instance behind the proxy died or is restarting), after 1, 2, 4 s with jitter: safe, since each scan's scan_id
 * gets its first answer again (issue 27).
 */
export const SYNC_RETRIES = 3

/** A scan's answer; `message` the server's words for a refusal. */
export type DoorAnswer = ScanResult

async function asAnswer(call: Promise<unknown>): Promise<DoorAnswer> {
  try {
    return (await call) as DoorAnswer
  } catch (error) {
    const data = error instanceof ApiError ? (error.data as { result?: string } | undefined) : undefined
    if (error instanceof ApiError && (error.status === 404 || error.status === 409 || error.status === 410) && data && typeof data.result === 'string')
      return data as DoorAnswer
    throw error
  }
}

export const doorApi = {
  events: () => post('/door/p/events', {}).then((d) => d.events),
  tickets: (eventId: number) => post('/door/p/tickets', { event_id: eventId }),
  checkIn: (body: Request<'checkIn'>) => asAnswer(post('/door/p/check-in', body)),
  /** A scan out, on an event with re-entry (issue 25 item 3): NOT_INSIDE (409) resolves as an answer too. */
  checkOut: (body: Request<'checkOut'>) => asAnswer(post('/door/p/check-out', body)),
  undo: (eventId: number, ticketCode: string) =>
    post('/door/p/check-in/undo', {
      event_id: eventId,
      ticket_code: ticketCode,
    }),
  sync: (body: Request<'doorSync'>) => retrying(client, () => post('/door/p/sync', body), SYNC_RETRIES).then((d) => d.results),
}

export { ApiError, PASSING }
