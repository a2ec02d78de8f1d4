// Paid events (issue 35): the payments repository, Razorpay's client when the server is configured for it, and the
// tick that keeps held places honest on every instance: holds past pay_by expire (their places to the waitlist), the
// gateway is asked about every Razorpay hold still pending at pay_by and about orders of the last day that expired (a
// webhook can be lost: a captured payment is settled, an authorised one captured first), and refunds are made at the
// gateway. Each step takes its rows with a lease or FOR UPDATE SKIP LOCKED, so several instances do each thing once.
import fp from 'fastify-plugin'
import type { Config } from '../config.ts'
import { type PaymentRefundsRepository, paymentRefundsRepository } from '../db/payments/refunds.ts'
import { type PaymentsRepository, paymentsRepository } from '../db/payments/payments.ts'
import { GatewayError, type RazorpayApi, type RazorpaySettings, razorpayApi } from '../payments/razorpay.ts'

export interface PaymentJobs {
  /** One tick now (tests call it; the timer calls it every `intervalMs`). */
  tick(): Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    paymentsRepository: PaymentsRepository
    /** The organiser's refunds and cancel (issue 35 items 5-6), and the cancel job the tick runs. */
    paymentRefunds: PaymentRefundsRepository
    /** Razorpay's settings and client, or null when the server has no keys (Razorpay is then not offered). */
    razorpay: { settings: RazorpaySettings; api: RazorpayApi } | null
    paymentJobs: PaymentJobs
  }
}

export const payments = fp(
  async (app, { config, intervalMs = 2000, timeoutMs }: { config: Config; intervalMs?: number | false; timeoutMs?: number }) => {
    const repo = paymentsRepository(app.db, { holdMinutes: config.waitlistHoldMinutes })
    const razorpay = config.razorpay ? { settings: config.razorpay, api: razorpayApi(config.razorpay, { timeoutMs }) } : null
    app.decorate('paymentsRepository', repo)
    const refunds = paymentRefundsRepository(app.db, { holdMinutes: config.waitlistHoldMinutes })
    app.decorate('paymentRefunds', refunds)
    app.decorate('razorpay', razorpay)

    /** Asks the gateway about one order: its captured payments are settled (an authorised one captured first). */
    async function reconcile(api: RazorpayApi, row: { id: number; razorpay_order_id: string | null; amount: number }) {
      try {
        for (const p of await api.orderPayments(row.razorpay_order_id!)) {
          let payment = p
          if (p.status === 'authorized') payment = await api.capture(p.id, p.amount)
          if (payment.status !== 'captured' || payment.currency !== 'INR' || payment.amount !== row.amount) continue
          const settled = await repo.settle(row.id, { method: 'RAZORPAY', amount: payment.amount, ref: payment.id, razorpayPaymentId: payment.id })
          if (!settled.ok) app.log.warn({ payment: row.id, refusal: settled.refusal }, 'a captured payment could not be settled')
        }
      } catch (err) {
        // Unanswered: the hold expires all the same (a capture arriving later is settled as a late payment) and the
        // order is asked about again for a day.
        if (!(err instanceof GatewayError)) throw err
        app.log.warn({ err, payment: row.id }, 'Razorpay did not answer the reconciliation')
      }
      await repo.reconciled(row.id)
    }

    /** Makes one refund at the gateway, once: its own refund (by receipt) is looked for before a new one is made. */
    async function refund(api: RazorpayApi, row: { id: number; reference: string; amount: number; razorpay_payment_id: string | null }) {
      const receipt = `R${row.reference}`.slice(0, 40)
      try {
        const made = (await api.refunds(row.razorpay_payment_id!)).find((r) => r.receipt === receipt)
        const refund = made ?? (await api.refund(row.razorpay_payment_id!, { amount: row.amount, receipt, notes: { payment_id: String(row.id) } }))
        await repo.refundMade(row.id, refund)
      } catch (err) {
        if (!(err instanceof GatewayError)) throw err
        // Unanswered: tried again when the lease ends (a minute). Refused: an hour later, and it stays listed as a
        // refund due in the console, where the treasurer sees it.
        app.log.warn({ err, payment: row.id }, 'Razorpay did not make the refund: it is tried again')
        if (err.kind === 'refused') await repo.postpone(row.id, 60)
      }
    }

    let running: Promise<void> | null = null
    let closing = false
    async function once() {
      try {
        // A cancelled event's paid places to refunding first, so this tick's refund job makes their refunds.
        await refunds.cancelStep()
        if (razorpay) {
          for (const row of await repo.ordersToReconcile()) await reconcile(razorpay.api, row)
          for (const row of await repo.refundsToMake()) await refund(razorpay.api, row)
        }
        const { offered } = await repo.expireDue()
        if (offered.length > 0) app.aroundJobs?.tick().catch(() => {})
      } catch (err) {
        if (!closing) app.log.error({ err }, 'payments tick failed')
      }
    }
    const tick = () => {
      // One tick at a time per instance: a slow one is joined, not doubled.
      running ??= once().finally(() => {
        running = null
      })
      return running
    }
    app.decorate('paymentJobs', { tick })
    if (intervalMs !== false && intervalMs > 0) {
      const timer = setInterval(() => void tick(), intervalMs)
      timer.unref()
      app.addHook('onClose', async () => {
        closing = true
        clearInterval(timer)
        await running
      })
    }
  },
  { name: 'payments', dependencies: ['database'] },
)
