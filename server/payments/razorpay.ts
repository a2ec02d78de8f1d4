// Razorpay's HTTP API, the calls a paid event needs (issue 35, API.md Part 4): create an order, read an order's
// payments, capture an authorised payment, read and make refunds. Written here over fetch rather than through the
// `razorpay` package's client, whose host is fixed (https://api.razorpay.com: RAZORPAY_API_URL could not point it at a
// stand-in) and whose requests have no timeout; signatures are checked with the package (server/payments/signatures.ts).
// Every call answers within `timeoutMs`, and fails with a GatewayError: `unavailable` (no answer, a timeout, a 5xx),
// which a job retries later, or `refused` (a 4xx: Razorpay's `error.code` and `error.description`).

/** Razorpay's order entity, the fields used here. */
export interface RazorpayOrder {
  id: string
  entity: 'order'
  amount: number
  amount_paid: number
  amount_due: number
  currency: string
  receipt: string | null
  status: 'created' | 'attempted' | 'paid'
  notes: Record<string, string> | unknown[]
  created_at: number
}

/** Razorpay's payment entity, the fields used here. */
export interface RazorpayPayment {
  id: string
  entity: 'payment'
  amount: number
  currency: string
  status: 'created' | 'authorized' | 'captured' | 'refunded' | 'failed'
  order_id: string | null
  method: string
  captured: boolean
  amount_refunded: number
  notes: Record<string, string> | unknown[]
  created_at: number
}

/** Razorpay's refund entity, the fields used here. */
export interface RazorpayRefund {
  id: string
  entity: 'refund'
  amount: number
  currency: string
  payment_id: string
  receipt: string | null
  status: 'pending' | 'processed' | 'failed'
  notes: Record<string, string> | unknown[]
  created_at: number
}

interface Collection<T> {
  entity: 'collection'
  count: number
  items: T[]
}

export class GatewayError extends Error {
  constructor(
    readonly kind: 'unavailable' | 'refused',
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message)
    this.name = 'GatewayError'
  }
}

export interface RazorpaySettings {
  keyId: string
  keySecret: string
  webhookSecret: string
  /** RAZORPAY_API_URL: https://api.razorpay.com, or a stand-in's address in tests and staging. */
  apiUrl: string
  /** RAZORPAY_CHECKOUT_URL: the standard checkout's script, which the app loads when a student taps Pay. */
  checkoutUrl: string
}

export const RAZORPAY_API_URL = 'https://api.razorpay.com'
export const RAZORPAY_CHECKOUT_URL = 'https://checkout.razorpay.com/v1/checkout.js'

/** A Razorpay client over fetch; `timeoutMs` bounds every call (a request never hangs a job or a student's tap). */
export function razorpayApi(settings: Pick<RazorpaySettings, 'keyId' | 'keySecret' | 'apiUrl'>, options: { timeoutMs?: number; fetch?: typeof fetch } = {}) {
  const timeoutMs = options.timeoutMs ?? 10_000
  const send = options.fetch ?? fetch
  const base = settings.apiUrl.replace(/\/+$/, '')
  const authorization = `Basic ${Buffer.from(`${settings.keyId}:${settings.keySecret}`).toString('base64')}`

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    let response: Response
    try {
      response = await send(`${base}/v1${path}`, {
        method,
        headers: { authorization, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (err) {
      throw new GatewayError('unavailable', `Razorpay did not answer ${method} ${path}: ${(err as Error).message}`)
    }
    const text = await response.text().catch(() => '')
    let data: unknown
    try {
      data = text ? JSON.parse(text) : null
    } catch {
      data = null
    }
    if (response.status >= 500 || response.status === 429 || (response.ok && (data === null || typeof data !== 'object')))
      throw new GatewayError('unavailable', `Razorpay answered ${response.status} to ${method} ${path}`, response.status)
    if (!response.ok) {
      const error = (data as { error?: { code?: string; description?: string } } | null)?.error
      throw new GatewayError('refused', error?.description ?? `Razorpay refused ${method} ${path}`, response.status, error?.code)
    }
    return data as T
  }

  const id = (value: string) => encodeURIComponent(value)

  return {
    /** Orders API: an order of `amount` paise in INR, with our receipt id and notes. */
    createOrder: (input: { amount: number; receipt: string; notes: Record<string, string> }) =>
      call<RazorpayOrder>('POST', '/orders', { amount: input.amount, currency: 'INR', receipt: input.receipt, notes: input.notes }),
    /** The payments made on an order (a webhook can be lost: the reconciliation asks). */
    orderPayments: async (orderId: string) => (await call<Collection<RazorpayPayment>>('GET', `/orders/${id(orderId)}/payments`)).items,
    payment: (paymentId: string) => call<RazorpayPayment>('GET', `/payments/${id(paymentId)}`),
    /** Captures an authorised payment (accounts without automatic capture). */
    capture: (paymentId: string, amount: number) => call<RazorpayPayment>('POST', `/payments/${id(paymentId)}/capture`, { amount, currency: 'INR' }),
    /** The refunds of a payment: a refund job looks for its own (by receipt) before making one, so it makes one once. */
    refunds: async (paymentId: string) => (await call<Collection<RazorpayRefund>>('GET', `/payments/${id(paymentId)}/refunds`)).items,
    refund: (paymentId: string, input: { amount: number; receipt: string; notes: Record<string, string> }) =>
      call<RazorpayRefund>('POST', `/payments/${id(paymentId)}/refund`, { amount: input.amount, receipt: input.receipt, notes: input.notes, speed: 'normal' }),
  }
}

export type RazorpayApi = ReturnType<typeof razorpayApi>
