// Paid events' calls (issue 35, API.md Part 4): the pay step, Razorpay's checkout answer and a UPI payment's UTR,
// loaded with the event page's pay panel only (never on the start path). Typed from the contract like calls.ts.
import type { Answer, PathOf, Request } from '../../contract/api.ts'
import { client } from './calls.ts'

const post = client.request

export const paymentApi = {
  pay: (eventId: number, method: Request<'pay'>['method']) =>
    post<Answer<'pay'>>('/event/p/pay' satisfies PathOf<'pay'>, { event_id: eventId, method } satisfies Request<'pay'>),
  verify: (eventId: number, checkout: { razorpay_order_id: string; razorpay_payment_id: string; razorpay_signature: string }) =>
    post<Answer<'payVerify'>>('/event/p/pay/verify' satisfies PathOf<'payVerify'>, { event_id: eventId, ...checkout } satisfies Request<'payVerify'>),
  utr: (eventId: number, utr: string) =>
    post<Answer<'payUtr'>>('/event/p/pay/utr' satisfies PathOf<'payUtr'>, { event_id: eventId, utr } satisfies Request<'payUtr'>),
}

export type PaymentApi = typeof paymentApi
