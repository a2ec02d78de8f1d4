// The console's payments screen (issue 35 item 7) through the real app, client, store and lazy screen, against a fake
// server: the totals by method and whether they add up, every payment, Confirm and Send back on a UPI payment
// awaiting confirmation (the list loaded again after), and the event page's link to it on a paid event only.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { OrgEvent, OrgPayment, PaymentTotals } from '../../contract/types.ts'
import { App } from '../../src/app.tsx'
import { buildOrg } from '../../src/stores/org.ts'
import { buildPaymentsConsole } from '../../src/stores/payments-console.ts'
import { room } from '../../src/models.ts'

const org = room(buildOrg)
const paymentsConsole = room(buildPaymentsConsole)
import { eventDetail } from '../fixtures/events.ts'
import { cleanup, click, fakeServer, find, getByText, go, mount, student, waitFor, type Handler } from './session-fakes.ts'

afterEach(() => {
  cleanup()
  org.reset()
  paymentsConsole.reset()
  vi.restoreAllMocks()
})

const organiser = student({ roles: { admin: false, councils: [1], door_events: [] } })
const methods = (paid: number, count: number, pending = 0) => ({ paid, pending, refund_pending: 0, refunded: 0, paid_count: count })
const totals = (over: Partial<PaymentTotals> = {}): PaymentTotals => ({
  fee: 30_000,
  paid: 30_000,
  paid_places: 1,
  pending: 30_000,
  refund_pending: 0,
  refunded: 0,
  captured: 30_000,
  net: 30_000,
  fee_times_paid_places: 30_000,
  adds_up: true,
  by_method: { RAZORPAY: methods(0, 0), UPI: methods(30_000, 1, 30_000), DESK: methods(0, 0) },
  ...over,
})
const payment = (over: Partial<OrgPayment>): OrgPayment => ({
  id: 1,
  student: { id: 11, name: 'Asha Rao', email: 'asha@example.edu', roll_number: 'R1' },
  kind: 'TICKET',
  status: 'PAID',
  method: 'UPI',
  desk_mode: null,
  amount: 30_000,
  reference: 'ABC',
  utr: '412345678901',
  razorpay_order_id: null,
  razorpay_payment_id: null,
  receipt: 'R-001001',
  double_of: null,
  created_at: '2026-11-27T10:00:00Z',
  pay_by: '2026-11-27T10:15:00Z',
  utr_at: null,
  paid_at: '2026-11-27T10:05:00Z',
  refunded_at: null,
  ...over,
})

function open(path: string, extra: Record<string, Handler> = {}, fee = 300) {
  localStorage.setItem('accessToken', 'A')
  localStorage.setItem('refreshToken', 'R')
  const { Participant: _, ...detail } = eventDetail({ id: 5, name: 'Paid workshop', fee, organizer: { id: 1, name: 'CSI Council', photo_url: null } })
  const event = {
    ...detail,
    state: 'TICKET_OPEN',
    counts: { registered: 2, teams: 0, tickets_sold: 1, checked_in: 0, waitlist: 0, ratings: { count: 0, average: null, by_star: [0, 0, 0, 0, 0] } },
  } as unknown as OrgEvent
  const server = fakeServer({
    '/user/p/me': () => [200, { error: false, user: organiser }],
    '/event/p/get': () => [200, { error: false, events: {} }],
    '/org/p/events': () => [200, { error: false, events: [event] }],
    '/org/p/event/staff': () => [200, { error: false, staff: [] }],
    ...extra,
  })
  go(path)
  return { root: mount(<App />), server }
}

describe('console payments', () => {
  it('shows the totals by method, the money adding up, and each payment; Confirm sends the payment and loads the list again', async () => {
    let confirmed = false
    const { root, server } = open('/manage/event/5/payments', {
      '/org/p/event/payments': () => [
        200,
        {
          error: false,
          totals: confirmed ? totals({ paid: 60_000, paid_places: 2, pending: 0 }) : totals(),
          payments: [
            payment({
              id: 2,
              status: confirmed ? 'PAID' : 'AWAITING_CONFIRMATION',
              utr: '412345678902',
              receipt: confirmed ? 'R-001002' : null,
              paid_at: null,
            }),
            payment({}),
          ],
        },
      ],
      '/org/p/event/payment/confirm': () => {
        confirmed = true
        return [200, { error: false, result: 'paid', payment: payment({ id: 2 }) }]
      },
    })
    await waitFor(() => getByText(root, 'Payments', 'h1'))
    expect(getByText(root, 'UPI', 'th').closest('tr')!.textContent).toBe('UPI₹300 (1)₹300₹0₹0')
    expect(getByText(root, /The money adds up/, 'p').textContent).toContain('net ₹300')
    const row = getByText(root, '412345678902', 'td').closest('tr')!
    expect(row.textContent).toContain('AWAITING CONFIRMATION')
    await click(getByText(row, 'Confirm', 'button'))
    await waitFor(() => expect(server.calls('/org/p/event/payments')).toHaveLength(2))
    expect(server.calls('/org/p/event/payment/confirm')[0].body).toEqual({ event_id: 5, payment_id: 2 })
    await waitFor(() => expect(root.textContent).toContain('R-001002'))
    expect(root.querySelectorAll('main button').length).toBeGreaterThan(0)
    expect([...root.querySelectorAll('button')].some((b) => b.textContent === 'Confirm')).toBe(false)
  })

  it('Send back posts the reject; a refusal is shown', async () => {
    const { root, server } = open('/manage/event/5/payments', {
      '/org/p/event/payments': () => [200, { error: false, totals: totals(), payments: [payment({ id: 3, status: 'AWAITING_CONFIRMATION' })] }],
      '/org/p/event/payment/reject': () => [
        409,
        { error: true, code: 'PAYMENT_NOT_CONFIRMABLE', message: 'This payment has no UTR waiting for confirmation.' },
      ],
    })
    await waitFor(() => getByText(root, 'Send back', 'button'))
    await click(getByText(root, 'Send back', 'button'))
    await waitFor(() => expect(document.body.textContent).toContain('This payment has no UTR waiting for confirmation.'))
    expect(server.calls('/org/p/event/payment/reject')[0].body).toEqual({ event_id: 5, payment_id: 3 })
  })

  it('the event page links its payments on a paid event only', async () => {
    const paid = open('/manage/event/5')
    await waitFor(() => getByText(paid.root, 'Paid workshop', 'h1'))
    expect(getByText(paid.root, 'Payments', 'a').getAttribute('href')).toBe('/manage/event/5/payments')
    cleanup()
    org.reset()
    const free = open('/manage/event/5', {}, 0)
    await waitFor(() => getByText(free.root, 'Paid workshop', 'h1'))
    expect([...free.root.querySelectorAll('a')].some((a) => a.textContent === 'Payments')).toBe(false)
  })

  it('Refund asks first, then refunds the paid payment; Paid back marks a UPI refund made by hand; Cancel asks, then cancels the event', async () => {
    let refunded = false
    const { root, server } = open('/manage/event/5/payments', {
      '/org/p/event/payments': () => [
        200,
        {
          error: false,
          totals: totals(),
          payments: [payment({ id: 7, status: refunded ? 'REFUND_PENDING' : 'PAID' }), payment({ id: 8, status: 'REFUND_PENDING', student: null })],
        },
      ],
      '/org/p/payment/refund': () => {
        refunded = true
        return [200, { error: false, message: 'Refund requested.', payment: {} }]
      },
      '/org/p/payment/refunded': () => [200, { error: false, message: 'Marked as refunded.', payment: {} }],
      '/org/p/event/cancel': () => [
        200,
        { error: false, message: 'Cancelled.', cancelled_at: '2026-11-28T10:00:00Z', holds_expired: 0, refunds_to_request: 1 },
      ],
    })
    await waitFor(() => getByText(root, 'Refund', 'button'))
    await click(getByText(root, 'Refund', 'button'))
    const dialog = await waitFor(() => find(document.body, '[role="dialog"]'))
    expect(dialog.textContent).toContain('Refund ₹300 to Asha Rao?')
    expect(server.calls('/org/p/payment/refund')).toHaveLength(0)
    await click(getByText(dialog, 'Confirm', 'button'))
    await waitFor(() => expect(server.calls('/org/p/payment/refund')[0]?.body).toEqual({ payment_id: 7 }))
    await waitFor(() => expect(root.querySelectorAll('button').length).toBeGreaterThan(0))
    await waitFor(() => expect([...root.querySelectorAll('button')].filter((b) => b.textContent === 'Paid back')).toHaveLength(2))
    await click([...root.querySelectorAll<HTMLButtonElement>('button')].filter((b) => b.textContent === 'Paid back')[1])
    await waitFor(() => expect(server.calls('/org/p/payment/refunded')[0]?.body).toEqual({ payment_id: 8 }))

    await waitFor(() => getByText(root, 'Cancel the event and refund everyone', 'button'))
    await click(getByText(root, 'Cancel the event and refund everyone', 'button'))
    const asked = await waitFor(() => find(document.body, '[role="dialog"]'))
    expect(asked.textContent).toContain('Cancel the event and refund every payment?')
    expect(server.calls('/org/p/event/cancel')).toHaveLength(0)
    await click(getByText(asked, 'Confirm', 'button'))
    await waitFor(() => expect(server.calls('/org/p/event/cancel')[0]?.body).toEqual({ event_id: 5 }))
    await waitFor(() => expect(document.body.textContent).toContain('The event is cancelled: its payments are being refunded.'))
  })
})
