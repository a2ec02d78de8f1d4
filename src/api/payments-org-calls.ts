// The console's payments calls (issue 35, contract/payments-org.ts), a file of their own imported only by the
// payments screen's model, so none of it reaches a student's load nor the console's other screens. The CSV (a file)
// and the statement (a file as the body) go through `authorizedFetch`: the same bearer and one refresh on 401.
import type { Answer } from '../../contract/api.ts'
import type { Client, Post } from './client.ts'
import { authorizedFetcher } from './authorized-fetch.ts'
import { API_HOST, client as appClient } from './calls.ts'

export function createPaymentsOrgCalls(client: Pick<Client, 'request' | 'authorized'>, base = API_HOST) {
  const post = client.request as Post
  const authorizedFetch = authorizedFetcher(client, base)
  return {
    list: (eventId: number) => post('/org/p/event/payments', { event_id: eventId }),
    confirm: (eventId: number, paymentId: number) => post('/org/p/event/payment/confirm', { event_id: eventId, payment_id: paymentId }),
    reject: (eventId: number, paymentId: number) => post('/org/p/event/payment/reject', { event_id: eventId, payment_id: paymentId }),
    /** contract/payment-admin.ts: a PAID payment refunded (its place released), a hand refund marked done, the event cancelled. */
    refund: (paymentId: number) => post('/org/p/payment/refund', { payment_id: paymentId }),
    refunded: (paymentId: number) => post('/org/p/payment/refunded', { payment_id: paymentId }),
    cancel: (eventId: number) => post('/org/p/event/cancel', { event_id: eventId }),
    csv: async (eventId: number) => (await authorizedFetch(`/org/p/event/${eventId}/payments.csv`)).blob(),
    /** A paid payment's receipt (PDF), as its student gets it. */
    receipt: async (receipt: string) => (await authorizedFetch(`/payments/p/receipt/${encodeURIComponent(receipt)}`)).blob(),
    /** The bank statement's CSV, sent as it is. */
    statement: async (eventId: number, file: Blob) => {
      const res = await authorizedFetch(`/org/p/event/${eventId}/statement`, { method: 'POST', body: file, headers: { 'content-type': 'text/csv' } })
      return (await res.json()) as Answer<'orgPaymentsStatement'>
    },
  }
}

export type PaymentsOrgApi = ReturnType<typeof createPaymentsOrgCalls>

export const paymentsOrgApi = createPaymentsOrgCalls(appClient)
