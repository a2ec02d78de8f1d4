// The writes of the event-details screen (register, RSVP, rate), loaded with it (src/stores/event-detail.ts), not
// with the first screen. Writes resolve with the whole answer ({message, participant...}) so a screen can show the
// server's words. Typed from the contract like calls.ts.
import type { Client, Post } from './client.ts'
import { client } from './calls.ts'
import { retrying } from './retry.ts'

export function createDetailCalls(client: Client) {
  const post = client.request as Post
  return {
    // Safe to repeat (a second one is refused, never doubled): a 503 of the server shedding a burst is retried.
    register: (eventId: number) => retrying(client, () => post('/event/p/register-for-event', { event_id: eventId })),
    // The draw nonce (API.md Part 3): made here, once for the claim and its retries, and used by the server only if the
    // claim enters a draw; a UUID's 32 lowercase hex digits (122 random bits), from the phone's CSPRNG.
    claimTicket: (eventId: number, draw_nonce = crypto.randomUUID().replace(/-/g, '')) =>
      retrying(client, () => post('/event/p/claim-ticket', { event_id: eventId, draw_nonce })),
    rate: (eventId: number, rating: number) => post('/event/p/rate', { event_id: eventId, rating }),
  }
}

export const detailApi = createDetailCalls(client)
