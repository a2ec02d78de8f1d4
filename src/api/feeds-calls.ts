// The student's calendar feed link and certificate download (issue 13), kept out of calls.ts so that they load
// with Profile and the event page's certificate button, never on the start path. Typed from the contract.
import { authorizedFetcher } from './authorized-fetch.ts'
import { client } from './calls.ts'
import type { Post } from './client.ts'

const authorizedFetch = authorizedFetcher(client)

export const feedsApi = {
  /** The secret URL of the student's calendar feed; `rotate` replaces it (the old one stops working). */
  calendarFeed: (rotate = false) => (client.request as Post)('/user/p/calendar', { rotate }).then((d) => d.url),
  /** The certificate PDF of a completed event the student was checked in at. */
  certificate: async (eventId: number) => (await authorizedFetch(`/event/p/certificate/${eventId}`)).blob(),
  /** A paid place's receipt PDF, by its number (R-001001, issue 35). */
  receipt: async (receipt: string) => (await authorizedFetch(`/payments/p/receipt/${encodeURIComponent(receipt)}`)).blob(),
}

export type FeedsApi = typeof feedsApi
