// The Razorpay client (server/payments/razorpay.ts) and the signature checks (server/payments/signatures.ts) against
// the stand-in (test/support/razorpay-standin.ts), which speaks Razorpay's wire: the pieces a paid event is built on.
import { createHmac } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GatewayError, razorpayApi } from '../../server/payments/razorpay.ts'
import { checkoutSignatureValid, webhookSignatureValid } from '../../server/payments/signatures.ts'
import { type RazorpayStandin, startRazorpayStandin } from '../support/razorpay-standin.ts'

let standin: RazorpayStandin
let api: ReturnType<typeof razorpayApi>
beforeAll(async () => {
  standin = await startRazorpayStandin()
  api = razorpayApi({ keyId: standin.keyId, keySecret: standin.keySecret, apiUrl: standin.url }, { timeoutMs: 1_000 })
})
afterAll(() => standin.close())

describe('the Razorpay client', () => {
  it('creates an order in paise with our receipt and notes, and reads its captured payment', async () => {
    const order = await api.createOrder({ amount: 30_000, receipt: 'CE7K2M9Q4T', notes: { event_id: '7', payment_id: '3' } })
    expect(order).toMatchObject({ entity: 'order', amount: 30_000, currency: 'INR', receipt: 'CE7K2M9Q4T', status: 'created' })
    expect(order.id).toMatch(/^order_[A-Za-z0-9]{14}$/)
    expect(await api.orderPayments(order.id)).toEqual([])
    const { payment } = await standin.pay(order.id)
    const [read] = await api.orderPayments(order.id)
    expect(read).toMatchObject({ id: payment.id, status: 'captured', amount: 30_000, order_id: order.id })
  })

  it('captures an authorised payment, and refunds it once, found again by its receipt', async () => {
    const order = await api.createOrder({ amount: 5_000, receipt: 'CEAAAA0001', notes: {} })
    const { payment } = await standin.pay(order.id, { capture: false })
    expect((await api.payment(payment.id)).status).toBe('authorized')
    expect((await api.capture(payment.id, 5_000)).status).toBe('captured')
    expect(await api.refunds(payment.id)).toEqual([])
    const refund = await api.refund(payment.id, { amount: 5_000, receipt: 'RCEAAAA0001', notes: { reason: 'given back' } })
    expect(refund).toMatchObject({ entity: 'refund', amount: 5_000, payment_id: payment.id, receipt: 'RCEAAAA0001', status: 'processed' })
    expect((await api.refunds(payment.id)).map((r) => r.receipt)).toEqual(['RCEAAAA0001'])
    // A second refund of a fully refunded payment is Razorpay's 400: refused, not unavailable.
    await expect(api.refund(payment.id, { amount: 5_000, receipt: 'RCEAAAA0001', notes: {} })).rejects.toMatchObject({ kind: 'refused', status: 400 })
  })

  it('answers a 500 and a call that never returns as unavailable, within its timeout', async () => {
    standin.faults.api = '500'
    await expect(api.createOrder({ amount: 100, receipt: 'x', notes: {} })).rejects.toMatchObject({ kind: 'unavailable', status: 500 })
    // The stand-in never answers: the client's own timeout (1 s here) ends the call, well inside the test's.
    standin.faults.api = 'timeout'
    const err = await api.orderPayments('order_XXXXXXXXXXXXXX').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(GatewayError)
    expect(err).toMatchObject({ kind: 'unavailable' })
    standin.faults.api = 'ok'
  })

  it('is refused with wrong keys', async () => {
    const wrong = razorpayApi({ keyId: standin.keyId, keySecret: 'not-the-secret', apiUrl: standin.url })
    await expect(wrong.createOrder({ amount: 100, receipt: 'x', notes: {} })).rejects.toMatchObject({ kind: 'refused', status: 401 })
  })
})

describe('the signatures, checked with the razorpay package', () => {
  it('accepts the checkout’s signature for its order and payment, and nothing else', async () => {
    const order = await api.createOrder({ amount: 100, receipt: 'CEBBBB0002', notes: {} })
    const { response } = await standin.pay(order.id)
    const valid = { orderId: response.razorpay_order_id, paymentId: response.razorpay_payment_id, signature: response.razorpay_signature }
    expect(checkoutSignatureValid(valid, standin.keySecret)).toBe(true)
    expect(checkoutSignatureValid(valid, 'another-secret')).toBe(false)
    expect(checkoutSignatureValid({ ...valid, paymentId: 'pay_AAAAAAAAAAAAAA' }, standin.keySecret)).toBe(false)
    expect(checkoutSignatureValid({ ...valid, signature: '' }, standin.keySecret)).toBe(false)
  })

  it('accepts a webhook signed over its raw body, and refuses one re-serialised or unsigned', () => {
    const body = '{"entity":"event", "event":"payment.captured"}'
    const signature = createHmac('sha256', standin.webhookSecret).update(body).digest('hex')
    expect(webhookSignatureValid(body, signature, standin.webhookSecret)).toBe(true)
    expect(webhookSignatureValid(Buffer.from(body), signature, standin.webhookSecret)).toBe(true)
    expect(webhookSignatureValid(JSON.stringify(JSON.parse(body)), signature, standin.webhookSecret)).toBe(false)
    expect(webhookSignatureValid(body, undefined, standin.webhookSecret)).toBe(false)
    expect(webhookSignatureValid(body, signature, '')).toBe(false)
  })
})
