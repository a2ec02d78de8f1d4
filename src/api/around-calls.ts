// The calls of around the event (issue 13: give back, waitlist, push), kept out of calls.ts so that they load
// with the screens that use them, never on the start path. Typed from the contract like calls.ts.
import type { Answer, PathOf, Request } from '../../contract/api.ts'
import { API_HOST, client } from './calls.ts'

const post = client.request

export const aroundApi = {
  releaseTicket: (eventId: number) =>
    post<Answer<'releaseTicket'>>('/event/p/release-ticket' satisfies PathOf<'releaseTicket'>, { event_id: eventId } satisfies Request<'releaseTicket'>),
  /** Issue 25: the caller's ticket to a friend (by the e-mail they signed in with). */
  transferTicket: (eventId: number, email: string) =>
    post<Answer<'transferTicket'>>(
      '/event/p/transfer-ticket' satisfies PathOf<'transferTicket'>,
      { event_id: eventId, email } satisfies Request<'transferTicket'>,
    ),
  waitlist: (eventId: number, join: boolean) =>
    post<Answer<'waitlist'>>('/event/p/waitlist' satisfies PathOf<'waitlist'>, { event_id: eventId, join } satisfies Request<'waitlist'>),
  /** Public: the VAPID key to subscribe with. */
  pushKey: () =>
    fetch(`${API_HOST}/api/v1${'/push/key' satisfies PathOf<'pushKey'>}`)
      .then((r) => r.json() as Promise<Answer<'pushKey'>>)
      .then((d) => d.publicKey),
  pushSubscribe: (subscription: Request<'pushSubscribe'>['subscription']) =>
    post<Answer<'pushSubscribe'>>('/push/p/subscribe' satisfies PathOf<'pushSubscribe'>, { subscription } satisfies Request<'pushSubscribe'>),
  pushUnsubscribe: (endpoint: string) =>
    post<Answer<'pushUnsubscribe'>>('/push/p/unsubscribe' satisfies PathOf<'pushUnsubscribe'>, { endpoint } satisfies Request<'pushUnsubscribe'>),
}

export type AroundApi = typeof aroundApi
