// An event's payments (issue 35): the totals (paid, pending, refund pending, refunded, net, by method, and whether
// they add up), the bank statement's import with what it matched, the CSV, and every payment with Confirm and Send
// back for a UPI payment awaiting confirmation, Refund for a paid one, Paid back for a UPI or desk refund the
// treasurer has made by hand, and the paid event's cancel (every payment refunded). The server checks every call
// again (403).
import { useEffect, useState } from 'preact/hooks'
import { LoadOrRetry } from '../../components/load-or-retry/index.tsx'
import { ConfirmModal } from '../../components/modal/index.tsx'
import { showToast } from '../../components/toast/index.tsx'
import { formatMoment } from '../../lib/org-event.ts'
import { saveFile } from '../../lib/save-file.ts'
import { buildPaymentsConsole } from '../../stores/payments-console.ts'
import { room } from '../../models.ts'

const pay = room(buildPaymentsConsole)

const REASONS: Record<string, string> = {
  NO_UTR: 'no UTR',
  NOT_A_CREDIT: 'not a credit',
  BAD_AMOUNT: 'amount unreadable',
  NO_PAYMENT: 'no payment with this UTR',
  AMOUNT_DIFFERS: 'amount differs',
  ALREADY_CONFIRMED: 'already confirmed',
  NOT_CONFIRMABLE: 'paid another way',
}

/** ₹1,250.50: paise as the treasurer reads them (its own few lines: importing the student pay step's helper put
 * contract/payment-rules.ts in a chunk of its own, which every student's total counted). */
const rupees = (paise: number) => `₹${(paise / 100).toLocaleString('en-IN', { minimumFractionDigits: paise % 100 ? 2 : 0, maximumFractionDigits: 2 })}`

const toast = (words: string | null, done: string) => showToast(words ?? done, words ? 'error' : 'info')

export default function Payments({ id }: { id: number }) {
  const [file, setFile] = useState<File | null>(null)
  /** The money action waiting for the organiser's yes: a payment to refund, or the whole event cancelled. */
  const [asking, setAsking] = useState<{ refund: number; name: string; amount: number } | 'cancel' | null>(null)
  useEffect(() => {
    pay.load(id)
  }, [id])
  const view = pay.view.value
  if (!view || view.eventId !== id) {
    return <LoadOrRetry loading="Loading the payments" what="the payments" error={pay.error.value} retry={() => pay.load(id)} />
  }
  const t = view.totals
  const busy = pay.busy.value
  const result = pay.imported.value
  const save = async (file: () => Promise<Blob>, name: string) => {
    try {
      saveFile(await file(), name)
    } catch (err) {
      showToast((err as Error).message, 'error')
    }
  }
  const csv = () => save(() => pay.csv(id), `payments-${id}.csv`)
  const upload = async (e: Event) => {
    e.preventDefault()
    if (file) toast(await pay.importStatement(file), 'Statement imported.')
  }
  return (
    <>
      <div class="m-head">
        <h1>Payments</h1>
        <p class="m-actions">
          <button type="button" class="m-small" onClick={csv}>
            Export CSV
          </button>
          <a href={`/manage/event/${id}`}>Back to the event</a>
        </p>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable by keyboard */}
      <div class="m-scroll" role="region" aria-label="Totals" tabIndex={0}>
        <table class="m-table">
          <thead>
            <tr>
              <th scope="col">Method</th>
              <th scope="col">Paid</th>
              <th scope="col">Pending</th>
              <th scope="col">Refund due</th>
              <th scope="col">Refunded</th>
            </tr>
          </thead>
          <tbody>
            {(['RAZORPAY', 'UPI', 'DESK'] as const).map((m) => (
              <tr key={m}>
                <th scope="row">{m}</th>
                <td>
                  {rupees(t.by_method[m].paid)} ({t.by_method[m].paid_count})
                </td>
                <td>{rupees(t.by_method[m].pending)}</td>
                <td>{rupees(t.by_method[m].refund_pending)}</td>
                <td>{rupees(t.by_method[m].refunded)}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">All</th>
              <td>
                {rupees(t.paid)} ({t.paid_places})
              </td>
              <td>{rupees(t.pending)}</td>
              <td>{rupees(t.refund_pending)}</td>
              <td>{rupees(t.refunded)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p class={t.adds_up ? 'm-live' : 'm-error'}>
        Received {rupees(t.captured)}, net {rupees(t.net)}; fee × paid places {rupees(t.fee_times_paid_places)}.{' '}
        {t.adds_up ? 'The money adds up.' : 'The money does not add up: tell the developers.'}
      </p>

      <form class="m-card" onSubmit={upload}>
        <h2>Import a bank statement</h2>
        <div class="m-field">
          <label for="pay-statement">The statement’s CSV (UTR and amount columns)</label>
          <input id="pay-statement" type="file" accept=".csv,text/csv" onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)} />
        </div>
        <button type="submit" class="m-small" disabled={!file || busy !== null}>
          {busy === 'statement' ? 'Importing…' : 'Import'}
        </button>
        {result && (
          <div role="status">
            <p>
              {result.confirmed.length} confirmed, {result.unmatched.length} not matched
            </p>
            <ul>
              {result.unmatched.map((u) => (
                <li key={u.line}>
                  Line {u.line}
                  {u.utr ? ` (${u.utr})` : ''}: {REASONS[u.reason]}
                </li>
              ))}
            </ul>
          </div>
        )}
      </form>

      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable by keyboard */}
      <div class="m-scroll" role="region" aria-label="Payments table" tabIndex={0}>
        <table class="m-table">
          <thead>
            <tr>
              <th scope="col">Student</th>
              <th scope="col">Status</th>
              <th scope="col">Amount</th>
              <th scope="col">Method</th>
              <th scope="col">UTR or payment id</th>
              <th scope="col">Receipt</th>
              <th scope="col">Paid at</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {view.payments.map((p) => (
              <tr key={p.id}>
                <th scope="row">
                  {p.student?.name ?? '–'}
                  <span class="m-muted">{p.student?.email}</span>
                </th>
                <td>{p.status.replace(/_/g, ' ')}</td>
                <td>{rupees(p.amount)}</td>
                <td>{[p.method, p.desk_mode].filter(Boolean).join(' ') || '–'}</td>
                <td>{p.utr ?? p.razorpay_payment_id ?? '–'}</td>
                <td>
                  {p.receipt ? (
                    <button
                      type="button"
                      class="m-small"
                      aria-label={`Receipt ${p.receipt} (PDF)`}
                      onClick={() => save(() => pay.receipt(p.receipt!), `receipt-${p.receipt}.pdf`)}
                    >
                      {p.receipt}
                    </button>
                  ) : (
                    '–'
                  )}
                </td>
                <td>{p.paid_at ? formatMoment(p.paid_at) : '–'}</td>
                <td>
                  {p.status === 'PAID' && (
                    <button
                      type="button"
                      class="m-small"
                      disabled={busy !== null}
                      onClick={() => setAsking({ refund: p.id, name: p.student?.name ?? 'this student', amount: p.amount })}
                    >
                      Refund
                    </button>
                  )}
                  {p.status === 'REFUND_PENDING' && p.method !== 'RAZORPAY' && (
                    <button
                      type="button"
                      class="m-small"
                      disabled={busy !== null}
                      onClick={async () => toast(await pay.refunded(p.id), 'Marked as paid back.')}
                    >
                      Paid back
                    </button>
                  )}
                  {p.status === 'AWAITING_CONFIRMATION' && (
                    <>
                      <button type="button" class="m-small" disabled={busy !== null} onClick={async () => toast(await pay.confirm(p.id), 'Payment confirmed.')}>
                        Confirm
                      </button>{' '}
                      <button
                        type="button"
                        class="m-small"
                        disabled={busy !== null}
                        onClick={async () => toast(await pay.reject(p.id), 'Sent back to the student.')}
                      >
                        Send back
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <div class="m-card">
        <h2>Cancel the event</h2>
        <p class="m-muted">
          Every held place is released and every payment is refunded: Razorpay's by the server, UPI and desk ones listed here to pay back by hand.
        </p>
        <button type="button" class="m-small" disabled={busy !== null} onClick={() => setAsking('cancel')}>
          {busy === 'cancel' ? 'Cancelling…' : 'Cancel the event and refund everyone'}
        </button>
      </div>
      {asking !== null && (
        <ConfirmModal
          title={asking === 'cancel' ? 'Cancel the event and refund every payment?' : `Refund ${rupees(asking.amount)} to ${asking.name}?`}
          busy={busy !== null}
          onCancel={() => setAsking(null)}
          onConfirm={async () => {
            const words = asking === 'cancel' ? await pay.cancel() : await pay.refund(asking.refund)
            setAsking(null)
            toast(words, asking === 'cancel' ? 'The event is cancelled: its payments are being refunded.' : 'Refund requested: the place is released.')
          }}
        >
          <p>{asking === 'cancel' ? 'Students can no longer claim or pay. This cannot be undone.' : 'Their place is released to the next student.'}</p>
        </ConfirmModal>
      )}
    </>
  )
}
