// A given-back place held for the waitlist (issue 22 item 11), in the event page's store: another student sees a
// disabled 'Held for the waitlist until 6:30 PM' instead of an RSVP that would only be refused, and the page fetches
// the event again when the hold ends; the student it is held for keeps the RSVP; a waitlisted student's open page
// fetches the event by itself, so an offer shows without a reload.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { EventDetail } from '../../contract/types.ts'
import { EventDetailModel } from '../../src/stores/event-detail.ts'
import { participant } from '../fixtures/events.ts'
import { detail } from './event-fixtures.ts'

const NOW = Date.parse('2026-11-21T12:30:00Z')
const UNTIL = '2026-11-21T13:00:00.000Z' // 6:30 PM in Asia/Kolkata

beforeEach(() => vi.useFakeTimers({ now: NOW }))
afterEach(() => vi.useRealTimers())

const fail = () => Promise.reject(new Error('not in this test'))
const open = (over: Partial<EventDetail> = {}) =>
  detail({ id: 61, state: 'TICKET_OPEN', is_ticket_feature_enabled: true, ticket_count: 2, tickets_sold: 1, Participant: participant(), ...over })

describe('a place held for the waitlist', () => {
  it('another student sees it held until the offer ends, then the page fetches the event again', async () => {
    let answer = open({ held_until: UNTIL })
    const getEvent = vi.fn(async () => answer)
    const model = new EventDetailModel({ getEvent, register: fail, claimTicket: fail, rate: fail })
    await model.load('61')
    expect(model.button.value).toEqual({ label: 'Held for the waitlist until 6:30 PM', action: 'none', disabled: true })
    // The hold ends and nobody else is in line: the place is free again.
    answer = open({ held_until: null })
    await vi.advanceTimersByTimeAsync(30 * 60_000 + 1_500)
    expect(getEvent).toHaveBeenCalledTimes(2)
    expect(model.button.value).toEqual({ label: 'RSVP for this event', action: 'claim-ticket', disabled: false })
  })

  it('the student it is held for keeps the RSVP', async () => {
    const mine = open({ held_until: UNTIL, Participant: participant({ waitlist: { position: 1, offer_expires_at: UNTIL } }) })
    const model = new EventDetailModel({ getEvent: async () => mine, register: fail, claimTicket: fail, rate: fail })
    await model.load('61')
    expect(model.button.value).toEqual({ label: 'RSVP for this event', action: 'claim-ticket', disabled: false })
  })

  it('a waitlisted student’s open page fetches the event by itself: the offer shows without a reload', async () => {
    let answer = open({ tickets_sold: 2, Participant: participant({ waitlist: { position: 1, offer_expires_at: null } }) })
    const getEvent = vi.fn(async () => answer)
    const model = new EventDetailModel({ getEvent, register: fail, claimTicket: fail, rate: fail })
    await model.load('61')
    expect(model.button.value?.label).toBe('Tickets Sold Out')
    answer = open({ tickets_sold: 1, held_until: UNTIL, Participant: participant({ waitlist: { position: 1, offer_expires_at: UNTIL } }) })
    await vi.advanceTimersByTimeAsync(20_000)
    expect(getEvent).toHaveBeenCalledTimes(2)
    expect(model.event.value?.Participant).toMatchObject({ waitlist: { offer_expires_at: UNTIL } })
    expect(model.button.value).toEqual({ label: 'RSVP for this event', action: 'claim-ticket', disabled: false })
    // With the offer shown, the page stops asking.
    await vi.advanceTimersByTimeAsync(60_000)
    expect(getEvent).toHaveBeenCalledTimes(2)
  })
})
