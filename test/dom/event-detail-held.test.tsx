// A given-back place held for the waitlist (issue 22 item 11): another student sees a disabled 'Held for the
// waitlist' with the panel saying until when (6:30 PM), instead of an RSVP the server would refuse; the page asks
// again when the hold ends; the student it is held for keeps the RSVP; a waitlisted student's open page asks every
// 20 s, so an offer shows without a reload.
import { h, render } from 'preact'
import { act } from 'preact/test-utils'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { EventDetail } from '../../contract/types.ts'
import { HELD } from '../../src/lib/action-button.ts'
import { WAITLIST_POLL_MS, WaitlistPanel } from '../../src/pages/event-details/waitlist.tsx'
import { buildEventDetail, EventDetailModel } from '../../src/stores/event-detail.ts'
import { room } from '../../src/models.ts'

const eventDetail = room(buildEventDetail)
import { participant } from '../fixtures/events.ts'
import { detail } from './event-fixtures.ts'

const NOW = Date.parse('2026-11-21T12:30:00Z')
const UNTIL = '2026-11-21T13:00:00.000Z' // 6:30 PM in Asia/Kolkata

let box: HTMLElement
beforeEach(() => {
  vi.useFakeTimers({ now: NOW })
  box = document.body.appendChild(document.createElement('div'))
})
afterEach(() => {
  act(() => render(null, box))
  box.remove()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const fail = () => Promise.reject(new Error('not in this test'))
const open = (over: Partial<EventDetail> = {}) =>
  detail({ id: 61, state: 'TICKET_OPEN', is_ticket_feature_enabled: true, ticket_count: 2, tickets_sold: 1, Participant: participant(), ...over })
const buttonOf = async (e: EventDetail) => {
  const model = new EventDetailModel({ getEvent: async () => e, register: fail, claimTicket: fail, rate: fail })
  await model.load('61')
  return model.button.value
}
const panel = (e: EventDetail) => act(() => render(h(WaitlistPanel, { event: e }), box))

describe('a place held for the waitlist', () => {
  it('another student: a disabled button, the panel says until when, and the page asks again when the hold ends', async () => {
    expect(await buttonOf(open({ held_until: UNTIL }))).toEqual({ label: HELD, action: 'none', disabled: true })
    const refresh = vi.spyOn(eventDetail, 'refresh').mockResolvedValue()
    panel(open({ held_until: UNTIL }))
    expect(box.querySelector('[role=status]')?.textContent).toBe('A ticket given back is held for the waitlist until 06:30 PM.')
    expect(box.querySelector('button')?.textContent).toBe('Join the waitlist')
    vi.advanceTimersByTime(30 * 60_000)
    expect(refresh).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1_500)
    expect(refresh).toHaveBeenCalledTimes(1)
    // Free again: the RSVP is back.
    expect(await buttonOf(open({ held_until: null }))).toEqual({ label: 'RSVP for this event', action: 'claim-ticket', disabled: false })
  })

  it('the student it is held for keeps the RSVP and sees their offer', async () => {
    const mine = open({ held_until: UNTIL, Participant: participant({ waitlist: { position: 1, offer_expires_at: UNTIL } }) })
    expect(await buttonOf(mine)).toEqual({ label: 'RSVP for this event', action: 'claim-ticket', disabled: false })
    panel(mine)
    expect(box.querySelector('[role=status]')?.textContent).toBe('A ticket is held for you until 06:30 PM')
  })

  it('a waitlisted student’s open page asks every 20 s, until the offer shows', () => {
    const refresh = vi.spyOn(eventDetail, 'refresh').mockResolvedValue()
    panel(open({ tickets_sold: 2, Participant: participant({ waitlist: { position: 1, offer_expires_at: null } }) }))
    expect(box.querySelector('[role=status]')?.textContent).toBe('You are number 1 on the waitlist.')
    vi.advanceTimersByTime(WAITLIST_POLL_MS)
    expect(refresh).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(WAITLIST_POLL_MS)
    expect(refresh).toHaveBeenCalledTimes(2)
    panel(open({ held_until: UNTIL, Participant: participant({ waitlist: { position: 1, offer_expires_at: UNTIL } }) }))
    vi.advanceTimersByTime(5 * WAITLIST_POLL_MS)
    expect(refresh).toHaveBeenCalledTimes(2)
  })
})

describe('giving back a paid ticket (issue 35 item 4)', () => {
  type Payment = NonNullable<ReturnType<typeof participant>['payment']>
  const holder = (payment: Payment | null) => open({ Participant: participant({ ticket_collected: true, ticket_code: '4006381333931234', payment }) })
  const confirmText = (e: EventDetail) => {
    panel(e)
    act(() => (box.querySelector('button') as HTMLButtonElement).click())
    return box.textContent ?? ''
  }
  const paid: Payment = { status: 'PAID', amount: 30_000, method: 'UPI', pay_by: UNTIL, paid_at: UNTIL, receipt: 'R-001001', reference: 'CE1' }

  it('the confirmation says the fee comes back on a paid ticket', () => {
    expect(confirmText(holder(paid))).toContain('Your ₹300 is refunded to you.')
  })

  it('and says nothing of money on a free ticket', () => {
    expect(confirmText(holder(null))).not.toContain('refunded')
  })
})
