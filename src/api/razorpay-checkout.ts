// Razorpay's standard checkout (issue 35): its script is loaded only when a student taps Pay (from the address the
// server gives: RAZORPAY_CHECKOUT_URL), never in the first load; `open` resolves with the checkout's signed answer,
// or null when the student closes it. The server checks the signature (POST /event/p/pay/verify): this answer alone
// pays nothing.

export interface CheckoutAnswer {
  razorpay_order_id: string
  razorpay_payment_id: string
  razorpay_signature: string
}

export interface CheckoutOptions {
  key: string
  order_id: string
  amount: number
  currency: 'INR'
  name: string
  description: string
  prefill?: { name?: string; email?: string; contact?: string }
}

type RazorpayClass = new (options: Record<string, unknown>) => { open(): void; on(event: string, fn: (e: unknown) => void): void }

const loading = new Map<string, Promise<RazorpayClass>>()

function loadScript(src: string): Promise<RazorpayClass> {
  let promise = loading.get(src)
  if (!promise) {
    promise = new Promise<RazorpayClass>((resolve, reject) => {
      const script = document.createElement('script')
      script.src = src
      script.onload = () => {
        const found = (window as unknown as { Razorpay?: RazorpayClass }).Razorpay
        found ? resolve(found) : reject(new Error('The payment page did not load: try again.'))
      }
      script.onerror = () => {
        loading.delete(src)
        reject(new Error('The payment page could not be reached: check your connection and try again.'))
      }
      document.head.append(script)
    })
    loading.set(src, promise)
  }
  return promise
}

/** Opens the checkout for an order: the signed answer once paid, null when the student closes it. */
export async function openCheckout(scriptUrl: string, options: CheckoutOptions): Promise<CheckoutAnswer | null> {
  const Razorpay = await loadScript(scriptUrl)
  return new Promise((resolve) => {
    const checkout = new Razorpay({
      ...options,
      theme: { color: '#c62828' },
      handler: (answer: CheckoutAnswer) => resolve(answer),
      modal: { ondismiss: () => resolve(null) },
    })
    checkout.open()
  })
}
