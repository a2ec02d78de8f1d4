// A stand-in for Razorpay in the tests (issue 35), as oauth2-mock-server stands in for Google: an HTTP server on
// loopback speaking Razorpay's wire (the Orders, Payments and Refunds APIs under /v1 with basic auth, the standard
// checkout's script, and webhooks signed with the webhook secret, with their X-Razorpay-Event-Id), so the server under
// test runs unchanged against it (RAZORPAY_API_URL, RAZORPAY_CHECKOUT_URL). It keeps its state in memory and can be
// told to misbehave: webhooks duplicated, reordered, delayed (held until released), lost; the API answering 500 or
// never answering.
import { createHmac, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface StandinOrder {
  id: string
  entity: 'order'
  amount: number
  amount_paid: number
  amount_due: number
  currency: string
  receipt: string | null
  offer_id: null
  status: 'created' | 'attempted' | 'paid'
  attempts: number
  notes: Record<string, string>
  created_at: number
}

export interface StandinPayment {
  id: string
  entity: 'payment'
  amount: number
  currency: string
  status: 'authorized' | 'captured' | 'refunded' | 'failed'
  order_id: string
  invoice_id: null
  international: false
  method: string
  amount_refunded: number
  refund_status: null | 'partial' | 'full'
  captured: boolean
  description: string | null
  vpa: string | null
  email: string
  contact: string
  notes: Record<string, string>
  fee: number
  tax: number
  error_code: null
  error_description: null
  created_at: number
}

export interface StandinRefund {
  id: string
  entity: 'refund'
  amount: number
  currency: string
  payment_id: string
  notes: Record<string, string>
  receipt: string | null
  acquirer_data: { arn: string | null }
  created_at: number
  batch_id: null
  status: 'pending' | 'processed'
  speed_processed: 'normal'
  speed_requested: 'normal'
}

export interface Webhook {
  eventId: string
  event: string
  body: string
  signature: string
}

export interface Faults {
  /** Each webhook sent twice (the second with the same event id). */
  duplicateWebhooks: boolean
  /** The webhooks of one payment sent in reverse order. */
  reorderWebhooks: boolean
  /** Webhooks kept back until `releaseWebhooks()`: a delivery after the hold passed. */
  holdWebhooks: boolean
  /** Webhooks never sent (the reconciliation must find the payment). */
  loseWebhooks: boolean
  /** The API answers 500, or never answers (the client's timeout must end the call). */
  api: 'ok' | '500' | 'timeout'
  /** Refunds stay `pending` until `processRefunds()` (then refund.processed is sent). */
  refundsPending: boolean
}

export interface RazorpayStandin {
  /** http://127.0.0.1:<port>: RAZORPAY_API_URL. */
  url: string
  /** The checkout script's address: RAZORPAY_CHECKOUT_URL. */
  checkoutUrl: string
  keyId: string
  keySecret: string
  webhookSecret: string
  /** Where webhooks go (the server's /api/v1/payments/razorpay/webhook); none are sent until it is set. */
  webhookUrl: string | null
  faults: Faults
  orders: Map<string, StandinOrder>
  payments: Map<string, StandinPayment>
  refunds: Map<string, StandinRefund>
  /** Every webhook made, in the order made (sent or not), and the server's answers to those sent. */
  webhooks: Webhook[]
  deliveries: { eventId: string; event: string; status: number }[]
  /** API calls received, as "METHOD /path". */
  calls: string[]
  /** A student pays an order at the checkout: the payment (captured unless `capture: false`), its webhooks, and the checkout handler's fields. */
  pay(
    orderId: string,
    options?: { capture?: boolean; amount?: number; currency?: string; method?: string },
  ): Promise<{ payment: StandinPayment; response: { razorpay_payment_id: string; razorpay_order_id: string; razorpay_signature: string } }>
  /** Sends the webhooks held back by `faults.holdWebhooks` (in the order made, or reversed with reorderWebhooks). */
  releaseWebhooks(): Promise<void>
  /** Processes pending refunds and sends refund.processed for each. */
  processRefunds(): Promise<void>
  /** Signs and sends any webhook body (a test's own: forged, replayed, for another order...). */
  sendWebhook(event: string, payload: Record<string, unknown>, options?: { eventId?: string; signature?: string }): Promise<number>
  /** The signature the checkout gives for an order and payment (hex HMAC-SHA256 of `order|payment`, the key secret). */
  checkoutSignature(orderId: string, paymentId: string): string
  close(): Promise<void>
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
/** Razorpay's ids: a prefix and 14 characters. */
const newId = (prefix: string) => `${prefix}_${[...randomBytes(14)].map((b) => ALPHABET[b % ALPHABET.length]).join('')}`
const seconds = () => Math.floor(Date.now() / 1000)
const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex')

function badRequest(res: ServerResponse, description: string, status = 400, field?: string) {
  send(res, status, {
    error: {
      code: 'BAD_REQUEST_ERROR',
      description,
      source: 'business',
      step: 'payment_initiation',
      reason: 'input_validation_failed',
      metadata: {},
      ...(field ? { field } : {}),
    },
  })
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'application/javascript' : 'application/json', ...headers })
  res.end(text)
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** The checkout script: `new Razorpay(options).open()` shows a sheet with Pay and Cancel, as Razorpay's does, and calls `handler` with the signed answer. */
function checkoutScript(origin: string) {
  return `(() => {
  function Razorpay(options) { this.options = options; this.listeners = {} }
  Razorpay.prototype.on = function (name, fn) { this.listeners[name] = fn }
  Razorpay.prototype.open = function () {
    var o = this.options, self = this
    var sheet = document.createElement('div')
    sheet.setAttribute('role', 'dialog'); sheet.setAttribute('aria-label', 'Razorpay Checkout (stand-in)')
    sheet.style.cssText = 'position:fixed;inset:0;z-index:99999;background:rgba(0,0,0,.6);display:flex;align-items:flex-end'
    var box = document.createElement('div')
    box.style.cssText = 'background:#fff;color:#111;width:100%;padding:16px;font:16px sans-serif'
    var title = document.createElement('p'); title.textContent = (o.name || '') + ': ' + (o.description || '')
    var pay = document.createElement('button'); pay.textContent = 'Pay ₹' + (o.amount / 100).toFixed(2) + ' (stand-in)'
    var cancel = document.createElement('button'); cancel.textContent = 'Cancel payment'
    box.append(title, pay, cancel); sheet.append(box); document.body.append(sheet)
    cancel.onclick = function () { sheet.remove(); if (o.modal && o.modal.ondismiss) o.modal.ondismiss() }
    pay.onclick = function () {
      pay.disabled = true
      fetch(${JSON.stringify(origin)} + '/standin/checkout/pay', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: o.key, order_id: o.order_id }) })
        .then(function (r) { return r.json().then(function (d) { return { ok: r.ok, d: d } }) })
        .then(function (x) {
          sheet.remove()
          if (x.ok) o.handler(x.d)
          else if (self.listeners['payment.failed']) self.listeners['payment.failed']({ error: x.d.error })
        })
    }
  }
  window.Razorpay = Razorpay
})()
`
}

export async function startRazorpayStandin(options: { keyId?: string; keySecret?: string; webhookSecret?: string } = {}): Promise<RazorpayStandin> {
  const keyId = options.keyId ?? `rzp_test_${randomBytes(7).toString('hex')}`
  const keySecret = options.keySecret ?? randomBytes(18).toString('hex')
  const webhookSecret = options.webhookSecret ?? randomBytes(18).toString('hex')
  const orders = new Map<string, StandinOrder>()
  const payments = new Map<string, StandinPayment>()
  const refunds = new Map<string, StandinRefund>()
  const webhooks: Webhook[] = []
  const held: Webhook[] = []
  const deliveries: RazorpayStandin['deliveries'] = []
  const calls: string[] = []
  const faults: Faults = { duplicateWebhooks: false, reorderWebhooks: false, holdWebhooks: false, loseWebhooks: false, api: 'ok', refundsPending: false }
  const hanging = new Set<ServerResponse>()

  const standin = {} as RazorpayStandin

  function makeWebhook(event: string, payload: Record<string, unknown>, eventId = `evt_${randomBytes(7).toString('hex')}`, signature?: string): Webhook {
    const body = JSON.stringify({ entity: 'event', account_id: 'acc_standin', event, contains: Object.keys(payload), payload, created_at: seconds() })
    return { eventId, event, body, signature: signature ?? hmac(webhookSecret, body) }
  }

  async function deliver(hook: Webhook): Promise<number> {
    if (!standin.webhookUrl) return 0
    let status = 0
    try {
      const res = await fetch(standin.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-razorpay-signature': hook.signature, 'x-razorpay-event-id': hook.eventId },
        body: hook.body,
        signal: AbortSignal.timeout(15_000),
      })
      status = res.status
      await res.arrayBuffer()
    } catch {
      status = 0
    }
    deliveries.push({ eventId: hook.eventId, event: hook.event, status })
    return status
  }

  /** Sends one payment's webhooks as the faults say. */
  async function emit(hooks: Webhook[]) {
    webhooks.push(...hooks)
    if (faults.loseWebhooks) return
    const ordered = faults.reorderWebhooks ? [...hooks].reverse() : hooks
    if (faults.holdWebhooks) {
      held.push(...ordered)
      return
    }
    for (const hook of ordered) {
      await deliver(hook)
      if (faults.duplicateWebhooks) await deliver(hook)
    }
  }

  const paymentPayload = (p: StandinPayment) => ({ payment: { entity: { ...p } } })
  const orderPayload = (o: StandinOrder) => ({ order: { entity: { ...o } } })

  function authorised(req: IncomingMessage) {
    const header = req.headers.authorization ?? ''
    return header === `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`
  }

  function makeRefund(payment: StandinPayment, amount: number, receipt: string | null, notes: Record<string, string>): StandinRefund {
    const refund: StandinRefund = {
      id: newId('rfnd'),
      entity: 'refund',
      amount,
      currency: payment.currency,
      payment_id: payment.id,
      notes,
      receipt,
      acquirer_data: { arn: null },
      created_at: seconds(),
      batch_id: null,
      status: faults.refundsPending ? 'pending' : 'processed',
      speed_processed: 'normal',
      speed_requested: 'normal',
    }
    refunds.set(refund.id, refund)
    payment.amount_refunded += amount
    payment.refund_status = payment.amount_refunded >= payment.amount ? 'full' : 'partial'
    if (payment.amount_refunded >= payment.amount) payment.status = 'refunded'
    return refund
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string) {
    calls.push(`${req.method} ${path}`)
    if (faults.api === 'timeout') {
      hanging.add(res)
      return
    }
    if (faults.api === '500')
      return send(res, 500, { error: { code: 'SERVER_ERROR', description: 'The server encountered an error. The incident has been reported to admins.' } })
    if (!authorised(req)) return badRequest(res, 'Authentication failed', 401)
    const raw = req.method === 'POST' ? await readBody(req) : ''
    let body: Record<string, unknown> = {}
    if (raw) {
      try {
        body = JSON.parse(raw)
      } catch {
        return badRequest(res, 'The request body is not valid JSON')
      }
    }
    let m: RegExpExecArray | null
    if (req.method === 'POST' && path === '/v1/orders') {
      const { amount, currency, receipt, notes } = body as { amount?: unknown; currency?: unknown; receipt?: unknown; notes?: unknown }
      if (!Number.isInteger(amount) || (amount as number) < 100) return badRequest(res, 'The amount must be atleast INR 1.00', 400, 'amount')
      if (currency !== 'INR') return badRequest(res, 'The currency provided is invalid', 400, 'currency')
      if (receipt !== undefined && (typeof receipt !== 'string' || receipt.length > 40))
        return badRequest(res, 'receipt: the length must be no more than 40.', 400, 'receipt')
      const order: StandinOrder = {
        id: newId('order'),
        entity: 'order',
        amount: amount as number,
        amount_paid: 0,
        amount_due: amount as number,
        currency: 'INR',
        receipt: (receipt as string | undefined) ?? null,
        offer_id: null,
        status: 'created',
        attempts: 0,
        notes: (notes as Record<string, string> | undefined) ?? {},
        created_at: seconds(),
      }
      orders.set(order.id, order)
      return send(res, 200, order)
    }
    if (req.method === 'GET' && (m = /^\/v1\/orders\/([^/]+)$/.exec(path))) {
      const order = orders.get(decodeURIComponent(m[1]))
      return order ? send(res, 200, order) : badRequest(res, 'The id provided does not exist')
    }
    if (req.method === 'GET' && (m = /^\/v1\/orders\/([^/]+)\/payments$/.exec(path))) {
      const id = decodeURIComponent(m[1])
      if (!orders.has(id)) return badRequest(res, 'The id provided does not exist')
      const items = [...payments.values()].filter((p) => p.order_id === id)
      return send(res, 200, { entity: 'collection', count: items.length, items })
    }
    if (req.method === 'GET' && (m = /^\/v1\/payments\/([^/]+)$/.exec(path))) {
      const payment = payments.get(decodeURIComponent(m[1]))
      return payment ? send(res, 200, payment) : badRequest(res, 'The id provided does not exist')
    }
    if (req.method === 'POST' && (m = /^\/v1\/payments\/([^/]+)\/capture$/.exec(path))) {
      const payment = payments.get(decodeURIComponent(m[1]))
      if (!payment) return badRequest(res, 'The id provided does not exist')
      if (payment.status !== 'authorized') return badRequest(res, 'This payment has already been captured')
      if (body.amount !== payment.amount || body.currency !== payment.currency)
        return badRequest(res, 'Capture amount must be equal to the amount authorized', 400, 'amount')
      payment.status = 'captured'
      payment.captured = true
      const order = orders.get(payment.order_id)!
      order.status = 'paid'
      order.amount_paid = payment.amount
      order.amount_due = 0
      send(res, 200, payment)
      await emit([makeWebhook('payment.captured', paymentPayload(payment)), makeWebhook('order.paid', { ...paymentPayload(payment), ...orderPayload(order) })])
      return
    }
    if (req.method === 'GET' && (m = /^\/v1\/payments\/([^/]+)\/refunds$/.exec(path))) {
      const id = decodeURIComponent(m[1])
      if (!payments.has(id)) return badRequest(res, 'The id provided does not exist')
      const items = [...refunds.values()].filter((r) => r.payment_id === id)
      return send(res, 200, { entity: 'collection', count: items.length, items })
    }
    if (req.method === 'POST' && (m = /^\/v1\/payments\/([^/]+)\/refund$/.exec(path))) {
      const payment = payments.get(decodeURIComponent(m[1]))
      if (!payment) return badRequest(res, 'The id provided does not exist')
      if (payment.status !== 'captured') return badRequest(res, 'The payment has not been captured or is fully refunded')
      const amount = body.amount === undefined ? payment.amount - payment.amount_refunded : body.amount
      if (!Number.isInteger(amount) || (amount as number) <= 0 || (amount as number) > payment.amount - payment.amount_refunded)
        return badRequest(res, 'The refund amount provided is greater than amount captured', 400, 'amount')
      const refund = makeRefund(
        payment,
        amount as number,
        (body.receipt as string | undefined) ?? null,
        (body.notes as Record<string, string> | undefined) ?? {},
      )
      send(res, 200, refund)
      const hooks = [makeWebhook('refund.created', { refund: { entity: { ...refund } }, ...paymentPayload(payment) })]
      if (refund.status === 'processed') hooks.push(makeWebhook('refund.processed', { refund: { entity: { ...refund } }, ...paymentPayload(payment) }))
      await emit(hooks)
      return
    }
    return badRequest(res, 'The requested URL was not found on the server.', 404)
  }

  async function pay(orderId: string, options: { capture?: boolean; amount?: number; currency?: string; method?: string } = {}) {
    const order = orders.get(orderId)
    if (!order) throw new Error(`stand-in: no order ${orderId}`)
    const capture = options.capture ?? true
    const payment: StandinPayment = {
      id: newId('pay'),
      entity: 'payment',
      amount: options.amount ?? order.amount,
      currency: options.currency ?? order.currency,
      status: capture ? 'captured' : 'authorized',
      order_id: order.id,
      invoice_id: null,
      international: false,
      method: options.method ?? 'upi',
      amount_refunded: 0,
      refund_status: null,
      captured: capture,
      description: null,
      vpa: 'student@okstandin',
      email: 'student@example.com',
      contact: '+919000000000',
      notes: { ...order.notes },
      fee: Math.round((options.amount ?? order.amount) * 0.02),
      tax: 0,
      error_code: null,
      error_description: null,
      created_at: seconds(),
    }
    payments.set(payment.id, payment)
    order.attempts++
    if (capture) {
      order.status = 'paid'
      order.amount_paid = payment.amount
      order.amount_due = Math.max(0, order.amount - payment.amount)
    } else order.status = 'attempted'
    const hooks = [makeWebhook('payment.authorized', paymentPayload({ ...payment, status: 'authorized', captured: false }))]
    if (capture)
      hooks.push(makeWebhook('payment.captured', paymentPayload(payment)), makeWebhook('order.paid', { ...paymentPayload(payment), ...orderPayload(order) }))
    const response = { razorpay_payment_id: payment.id, razorpay_order_id: order.id, razorpay_signature: hmac(keySecret, `${order.id}|${payment.id}`) }
    await emit(hooks)
    return { payment, response }
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin')
    const path = url.pathname
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': 'content-type' }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'access-control-allow-methods': 'GET, POST' })
      res.end()
      return
    }
    if (req.method === 'GET' && path === '/v1/checkout.js') return send(res, 200, checkoutScript(standin.url), { ...cors, 'cache-control': 'no-store' })
    if (req.method === 'POST' && path === '/standin/checkout/pay') {
      void readBody(req).then(async (raw) => {
        let input: { key?: string; order_id?: string } = {}
        try {
          input = JSON.parse(raw)
        } catch {}
        if (input.key !== keyId || !input.order_id || !orders.has(input.order_id))
          return send(res, 400, { error: { code: 'BAD_REQUEST_ERROR', description: 'Unknown key or order' } }, cors)
        const { response } = await pay(input.order_id)
        send(res, 200, response, cors)
      })
      return
    }
    if (path.startsWith('/v1/')) {
      api(req, res, path).catch((err) => send(res, 500, { error: { code: 'SERVER_ERROR', description: String(err) } }))
      return
    }
    send(res, 404, { error: { code: 'BAD_REQUEST_ERROR', description: 'The requested URL was not found on the server.' } })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  Object.assign(standin, {
    url: `http://127.0.0.1:${port}`,
    checkoutUrl: `http://127.0.0.1:${port}/v1/checkout.js`,
    keyId,
    keySecret,
    webhookSecret,
    webhookUrl: null,
    faults,
    orders,
    payments,
    refunds,
    webhooks,
    deliveries,
    calls,
    pay,
    async releaseWebhooks() {
      const out = held.splice(0)
      for (const hook of out) {
        await deliver(hook)
        if (faults.duplicateWebhooks) await deliver(hook)
      }
    },
    async processRefunds() {
      for (const refund of refunds.values()) {
        if (refund.status !== 'pending') continue
        refund.status = 'processed'
        const payment = payments.get(refund.payment_id)!
        await emit([makeWebhook('refund.processed', { refund: { entity: { ...refund } }, payment: { entity: { ...payment } } })])
      }
    },
    sendWebhook: (event: string, payload: Record<string, unknown>, opts: { eventId?: string; signature?: string } = {}) =>
      deliver(makeWebhook(event, payload, opts.eventId, opts.signature)),
    checkoutSignature: (orderId: string, paymentId: string) => hmac(keySecret, `${orderId}|${paymentId}`),
    async close() {
      for (const res of hanging) res.destroy()
      hanging.clear()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  } satisfies Partial<RazorpayStandin>)
  return standin
}
