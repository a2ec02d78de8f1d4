// Paid events' calls (issue 35, API.md Part 4): the pay step, Razorpay's checkout answer and a UPI payment's UTR,
// loaded with the event page's pay panel only (never on the start path). Typed from the contract like calls.ts.
import type { Request } from '../../contract/api.ts'
import { client } from './calls.ts'
import type { Post } from './client.ts'

const post = client.request as Post

export const paymentApi = {
  pay: (eventId: number, method: Request<'pay'>['method']) => post('/event/p/pay', { event_id: eventId, method }),
  verify: (eventId: number, checkout: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string }) =>
    post('/event/p/pay/verify', { event_id: eventId, ...checkout }),
  utr: (eventId: number, utr: string) => post('/event/p/pay/utr', { event_id: eventId, utr }),
}

export type PaymentApi = typeof paymentApi
