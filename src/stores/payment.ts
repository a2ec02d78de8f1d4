// The pay step of a held place (issue 35, API.md Part 4), built by the event page's pay panel when it opens (its
// chunk only). Razorpay: the order is asked for when the student taps Pay, the checkout opened, its signed answer
// sent to the server, which alone marks the place paid; UPI straight to the council: the link with the exact amount
// and our reference, then the UTR the student's UPI app shows. After each, the event as the server holds it.
import { action, createModel, type ReadonlySignal, signal } from '@preact/signals'
import type { Answer } from '../../contract/api.ts'
import { type PaymentApi, paymentApi } from '../api/payment-calls.ts'
import { type CheckoutAnswer, type CheckoutOptions, openCheckout } from '../api/razorpay-checkout.ts'
import type { EventDetailStore } from './event-detail.ts'

type UpiAnswer = Extract<Answer<'pay'>, { method: 'UPI' }>

export interface PaymentDeps {
  calls: PaymentApi
  checkout: (scriptUrl: string, options: CheckoutOptions) => Promise<CheckoutAnswer | null>
  detail: Pick<EventDetailStore, 'refresh'>
}

export const PaymentModel = createModel(({ calls, checkout, detail }: PaymentDeps) => {
  const pending = signal<'RAZORPAY' | 'UPI' | 'UTR' | null>(null)
  const upi = signal<UpiAnswer | null>(null)
  const error = signal<string | null>(null)
  const notice = signal<string | null>(null)

  async function step(which: 'RAZORPAY' | 'UPI' | 'UTR', work: () => Promise<void>) {
    if (pending.value) return
    pending.value = which
    error.value = null
    try {
      await work()
    } catch (err) {
      console.error('payment step failed', err)
      error.value = (err as Error).message
      // A refusal may say the hold moved on (paid elsewhere, expired): the page shows the event as it now is.
      await detail.refresh().catch(() => {})
    } finally {
      pending.value = null
    }
  }

  return {
    pending: pending as ReadonlySignal<'RAZORPAY' | 'UPI' | 'UTR' | null>,
    /** The UPI link and reference once asked for. */
    upi: upi as ReadonlySignal<UpiAnswer | null>,
    error: error as ReadonlySignal<string | null>,
    /** The server's words after a payment or a UTR. */
    notice: notice as ReadonlySignal<string | null>,
    payRazorpay: action((eventId: number) =>
      step('RAZORPAY', async () => {
        const order = await calls.pay(eventId, 'RAZORPAY')
        if (order.method !== 'RAZORPAY') return
        const answer = await checkout(order.checkout_url, {
          key: order.key_id,
          order_id: order.order_id,
          amount: order.amount,
          currency: order.currency,
          name: order.name,
          description: order.description,
        })
        if (!answer) return
        notice.value = (await calls.verify(eventId, answer)).message
        await detail.refresh()
      }),
    ),
    payUpi: action((eventId: number) =>
      step('UPI', async () => {
        const answer = await calls.pay(eventId, 'UPI')
        if (answer.method === 'UPI') upi.value = answer
      }),
    ),
    submitUtr: action((eventId: number, utr: string) =>
      step('UTR', async () => {
        notice.value = (await calls.utr(eventId, utr)).message
        await detail.refresh()
      }),
    ),
  }
})

export type PaymentStore = InstanceType<typeof PaymentModel>

/** The pay step's model over the app's calls and Razorpay's checkout, for the event page's store. */
export const buildPayment = (detail: PaymentDeps['detail']) => new PaymentModel({ calls: paymentApi, checkout: openCheckout, detail })
