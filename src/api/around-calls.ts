// The calls of around the event (issue 13: give back, waitlist, push), kept out of calls.ts so that they load
// with the screens that use them, never on the start path. Typed from the contract like calls.ts.
import type { Answer, PathOf, Request } from '../../contract/api.ts'
import { API_HOST, client } from './calls.ts'
import type { Post } from './client.ts'

const post = client.request as Post

export const aroundApi = {
  releaseTicket: (eventId: number) => post('/event/p/release-ticket', { event_id: eventId }),
  /** Issue 25: the caller's ticket to a friend (by the e-mail they signed in with). */
  transferTicket: (eventId: number, email: string) => post('/event/p/transfer-ticket', { event_id: eventId, email }),
  waitlist: (eventId: number, join: boolean) => post('/event/p/waitlist', { event_id: eventId, join }),
  /** Public: the VAPID key to subscribe with. */
  pushKey: () =>
    fetch(`${API_HOST}/api/v1${'/push/key' satisfies PathOf<'pushKey'>}`)
      .then((r) => r.json() as Promise<Answer<'pushKey'>>)
      .then((d) => d.publicKey),
  pushSubscribe: (subscription: Request<'pushSubscribe'>['subscription']) => post('/push/p/subscribe', { subscription }),
  pushUnsubscribe: (endpoint: string) => post('/push/p/unsubscribe', { endpoint }),
}

export type AroundApi = typeof aroundApi
