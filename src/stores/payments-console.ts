// The console's payments screen (issue 35): one event's payments and totals, a UPI payment confirmed or sent back,
// the CSV, and a bank statement's import with what it matched. The screen reads the signals and calls the actions;
// only this file talks to src/api/payments-org-calls.ts.
import { action, createModel, signal, type ReadonlySignal } from '@preact/signals'
import type { Answer } from '../../contract/api.ts'
import { paymentsOrgApi, type PaymentsOrgApi } from '../api/payments-org-calls.ts'

export type PaymentsView = Omit<Answer<'orgPayments'>, 'error'> & { eventId: number }
export type StatementResult = Omit<Answer<'orgPaymentsStatement'>, 'error'>

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err))

export const PaymentsConsoleModel = createModel((api: PaymentsOrgApi) => {
  const view = signal<PaymentsView | null>(null)
  const error = signal<string | null>(null)
  const busy = signal<number | 'statement' | 'cancel' | null>(null)
  const imported = signal<StatementResult | null>(null)
  let current = 0

  const load = action(async (eventId: number) => {
    if (current !== eventId) {
      view.value = null
      imported.value = null
    }
    current = eventId
    error.value = null
    try {
      const got = await api.list(eventId)
      if (current === eventId) view.value = { eventId, payments: got.payments, totals: got.totals }
    } catch (err) {
      if (current === eventId) error.value = messageOf(err)
    }
  })

  /** Runs one write, then reloads the list and totals; answers the error's words, or null. */
  async function write(key: number | 'statement' | 'cancel', run: () => Promise<unknown>): Promise<string | null> {
    if (busy.value !== null) return null
    busy.value = key
    try {
      await run()
      await load(current)
      return null
    } catch (err) {
      return messageOf(err)
    } finally {
      busy.value = null
    }
  }

  return {
    view: view as ReadonlySignal<PaymentsView | null>,
    error: error as ReadonlySignal<string | null>,
    /** The payment being confirmed, sent back or refunded, 'statement' while a statement is imported, 'cancel'. */
    busy: busy as ReadonlySignal<number | 'statement' | 'cancel' | null>,
    /** The last statement's answer: what it confirmed and what matched nothing. */
    imported: imported as ReadonlySignal<StatementResult | null>,
    load,
    confirm: action((paymentId: number) => write(paymentId, () => api.confirm(current, paymentId))),
    reject: action((paymentId: number) => write(paymentId, () => api.reject(current, paymentId))),
    /** A PAID payment refunded: Razorpay's by the server's job, a UPI or desk one then listed to pay back by hand. */
    refund: action((paymentId: number) => write(paymentId, () => api.refund(paymentId))),
    /** A UPI or desk refund the treasurer has paid back by hand. */
    refunded: action((paymentId: number) => write(paymentId, () => api.refunded(paymentId))),
    /** The paid event cancelled: every hold expired, every payment refunded (by the server, resumably). */
    cancel: action(() => write('cancel', () => api.cancel(current))),
    importStatement: action((file: Blob) =>
      write('statement', async () => {
        const result = await api.statement(current, file)
        imported.value = { confirmed: result.confirmed, unmatched: result.unmatched }
      }),
    ),
    csv: (eventId: number) => api.csv(eventId),
    receipt: (receipt: string) => api.receipt(receipt),
    reset: action(() => {
      view.value = null
      imported.value = null
      error.value = null
      current = 0
    }),
  }
})

export type PaymentsConsole = InstanceType<typeof PaymentsConsoleModel>

/** The console's payments screen (`room(buildPaymentsConsole)`). */
export const buildPaymentsConsole = (): PaymentsConsole => new PaymentsConsoleModel(paymentsOrgApi)
