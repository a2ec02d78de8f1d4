// Ticket transfer (issue 25 item 2; API.md Part 3: "declared in contract/ by the work that adds them"), declared the
// way contract/api.ts declares Part 1 (docs/architecture.md).
//
// Beyond API.md, which names the feature only:
// - POST /event/p/transfer-ticket {event_id, email}: the caller's ticket (its place, not its code) goes to the
//   student signed in with `email`, who must have signed in once (404), be registered for the event (409), be in
//   the caller's team for a team event (409) and hold no ticket (409). The caller's code stops working at once; the
//   friend gets a new code, a push notification and the ticket in My Events. A place changes hands at most
//   TRANSFERS_PER_TICKET times (409). A caller not registered is refused 403 as in Part 1. Only while the door may check tickets (TICKET_OPEN, TICKET_CLOSED, ONGOING)
//   and before the organiser's `transfer_closes_minutes` before the first date (403); never once checked in (409).
// - The door answers TRANSFERRED (404) for a code that stopped working by a transfer, live and at sync.
import * as z from 'zod/mini'
import { bearer, type CallSpec, fields, ok, positiveId } from './define.ts'
import { email } from './org.ts'

/** How many times one ticket's place may change hands. */
export const TRANSFERS_PER_TICKET = 2

export const TRANSFER_CALLS = {
  transferTicket: {
    method: 'POST',
    path: '/event/p/transfer-ticket',
    auth: 'bearer',
    tag: 'around',
    summary:
      'Gives the caller’s ticket to a friend registered for the event (in the caller’s team for a team event) who holds none: the old code stops working, the friend gets a new one. At most twice per ticket; audited. A friend who cannot receive it (no account with the e-mail, not registered, not in the team, a ticket already) gets one answer, FRIEND_CANNOT_RECEIVE (409), naming the conditions, so an e-mail’s account is not told apart; such tries are limited to 10 an hour per student (429, TOO_MANY_TRANSFER_MISSES, with Retry-After).',
    body: fields({ event_id: positiveId('event_id'), email }),
    answers: {
      200: ok({ message: z.string(), to: z.string(), transfers_left: z.int() }),
      ...bearer(403, 404, 409),
    },
  },
} as const satisfies Record<string, CallSpec>
