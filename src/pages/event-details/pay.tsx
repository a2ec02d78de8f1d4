// The pay step of a held place on the event page (issue 35, API.md Part 4), a chunk of its own loaded only when the
// student has a payment: "Pay ₹300 by 6:15 PM" with the time left, Razorpay's checkout (UPI, cards, net banking),
// UPI straight to the council (the link with the exact amount and our reference, then the UTR), or the desk by the
// door (the reference to show). After it, what the payment is: awaiting the council's confirmation, paid, released,
// refunding or refunded. The held place lives on the server, so it survives a reload, offline included (the event's
// last known copy), and a late answer (the page shows the event as the server holds it).
import { useEffect, useState } from 'preact/hooks'
import { rupees, UTR } from '../../../contract/payment-rules.ts'
import type { EventDetail } from '../../../contract/types.ts'
import { formatIST } from '../../lib/dates.ts'
import { serverNow } from '../../lib/server-clock.ts'
import { buildEventDetail } from '../../stores/event-detail.ts'
import { room } from '../../models.ts'
import { buildPayment } from '../../stores/payment.ts'
import s from './pay.module.css'

const eventDetail = room(buildEventDetail)

const clock = (at: string) => formatIST(at, '{h}:{mm} {A}')

/** 14:05: minutes and seconds left, never below zero. */
const left = (ms: number) => {
  const t = Math.max(0, Math.ceil(ms / 1000))
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`
}

export function PayPanel({ event }: { event: EventDetail }) {
  const [model] = useState(() => buildPayment(eventDetail))
  const [now, setNow] = useState(serverNow())
  const [utr, setUtr] = useState('')
  const p = event.Participant ? event.Participant.payment : null
  const held = p?.status === 'PENDING'
  const due = p ? Date.parse(p.pay_by) : 0

  // The time left, each second; at the deadline (and a moment for the server's expiry) the event as it now is.
  useEffect(() => {
    if (!held) return
    const tick = setInterval(() => setNow(serverNow()), 1000)
    const end = setTimeout(() => void eventDetail.refresh(), Math.max(0, due - serverNow()) + 3_000)
    return () => {
      clearInterval(tick)
      clearTimeout(end)
    }
  }, [held, due])

  if (!p) return null
  const amount = rupees(p.amount)
  const methods = event.payment?.methods ?? []
  const pending = model.pending.value
  const upi = model.upi.value
  const notice = model.notice.value && <p role="status">{model.notice.value}</p>
  const error = model.error.value && <p role="alert">{model.error.value}</p>

  if (!held)
    return (
      <section class={s.pay} aria-label="Payment">
        <p role="status">
          {p.status === 'PAID'
            ? `Paid ${amount}${p.receipt ? ` · receipt ${p.receipt}` : ''}`
            : p.status === 'AWAITING_CONFIRMATION'
              ? `You paid ${amount} by UPI: the council confirms it by its UTR, then your ticket appears here.`
              : p.status === 'EXPIRED'
                ? `Your held place was released at ${clock(p.pay_by)}: it was not paid in time.`
                : p.status === 'REFUND_PENDING'
                  ? `${amount} is being refunded to you.`
                  : `${amount} was refunded to you.`}
        </p>
        {notice}
        {error}
      </section>
    )

  return (
    <section class={s.pay} aria-labelledby="pay-title">
      <h2 id="pay-title" class={s.title}>
        Pay {amount} by {clock(p.pay_by)}
      </h2>
      <p class={s.left}>{left(due - now)} left, then the place goes to the next student.</p>
      {methods.includes('RAZORPAY') && (
        <button type="button" class="button" disabled={!!pending} onClick={() => model.payRazorpay(event.id)}>
          {pending === 'RAZORPAY' ? 'Opening the payment…' : `Pay ${amount}: UPI, card or net banking`}
        </button>
      )}
      {methods.includes('UPI') &&
        (upi ? (
          <div class={s.upi}>
            <a class="button" href={upi.upi_url}>
              Pay {amount} to {upi.payee} in your UPI app
            </a>
            <p>
              Reference <code>{upi.reference}</code> (in the note). Then enter the 12-digit UTR your UPI app shows:
            </p>
            <form
              onSubmit={(e) => {
                e.preventDefault()
                if (UTR.test(utr)) model.submitUtr(event.id, utr)
              }}
            >
              <label for="utr">UTR</label>
              <input
                id="utr"
                class={s.input}
                inputMode="numeric"
                autoComplete="off"
                maxLength={12}
                pattern="\d{12}"
                required
                value={utr}
                onInput={(e) => setUtr(e.currentTarget.value.replace(/\D/g, ''))}
              />
              <button type="submit" class="button" disabled={!!pending || !UTR.test(utr)}>
                {pending === 'UTR' ? 'Sending…' : 'I have paid'}
              </button>
            </form>
          </div>
        ) : (
          <button type="button" class="button button-secondary" disabled={!!pending} onClick={() => model.payUpi(event.id)}>
            Pay by UPI to the council
          </button>
        ))}
      {methods.includes('DESK') && (
        <p>
          Or pay at the desk by the door: show the reference <code>{p.reference}</code>.
        </p>
      )}
      {notice}
      {error}
    </section>
  )
}
