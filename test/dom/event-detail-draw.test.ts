// The event page's store in a fair opening (issue 24 item 4), and a claim whose answer was lost (issue 27): the RSVP
// answered IN_DRAW shows 'In the draw' with "Results at 6:01 PM" and the message as the toast; at draw_at the store
// fetches the event by itself and announces the result ('Ticket claimed!', or the waitlist position); a claim refused
// 409 ALREADY_HAS_TICKET (the retry of a claim that had taken the ticket) shows the ticket, not a failure, whatever
// the words of its message (issue 38 item 3: the code decides).
import type { RefusalCode } from '../../contract/refusal-codes.ts'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TICKET_CLAIMED } from '../../contract/claim-messages.ts'
import type { EventDetail } from '../../contract/types.ts'
import { ApiError } from '../../src/api/client.ts'
import { IN_DRAW } from '../../src/lib/action-button.ts'
import { EventDetailModel } from '../../src/stores/event-detail.ts'
import { participant } from '../fixtures/events.ts'
import { detail } from './event-fixtures.ts'

const NOW = Date.parse('2026-11-21T12:30:00Z')
const NOW_ISO = new Date(NOW).toISOString()
const DRAW_AT = '2026-11-21T12:31:00.000Z' // 6:01 PM in Asia/Kolkata
const fair = { window_seconds: 60, draw_at: DRAW_AT, seed_hash: 'ab'.repeat(32), seed: null, entrants: null, keys: [] }

beforeEach(() => vi.useFakeTimers({ now: NOW }))
afterEach(() => vi.useRealTimers())

const fail = () => Promise.reject(new Error('not in this test'))

/** A refusal as the client makes it from the API's answer `{error: true, message, code}`. */
const refused = (status: number, code: RefusalCode, message: string) => new ApiError(status, message, null, { error: true, message, code })

describe('a fair opening on the event page', () => {
  it('IN_DRAW: the button waits with the time of the result, then the page moves by itself to the ticket', async () => {
    const open = detail({ id: 51, state: 'TICKET_OPEN', is_ticket_feature_enabled: true, ticket_count: 2, fair_start: fair, Participant: participant() })
    const won: EventDetail = {
      ...open,
      tickets_sold: 2,
      fair_start: { ...fair, seed: 'cd'.repeat(32), entrants: 3, keys: ['1', '2', '3'] },
      Participant: participant({
        ticket_collected: true,
        ticket_code: '1234567890123456',
        draw: { entered_at: DRAW_AT, result: 'WON', nonce: null, position: 1 },
      }),
    }
    const entered: EventDetail = { ...open, Participant: participant({ draw: { entered_at: NOW_ISO, result: 'PENDING', nonce: null, position: null } }) }
    let state: 'open' | 'entered' | 'drawn' = 'open'
    const getEvent = vi.fn(async () => ({ open, entered, drawn: won })[state])
    const claimTicket = vi.fn(async () => {
      state = 'entered'
      return { error: false as const, result: 'IN_DRAW' as const, draw_at: DRAW_AT, message: 'You are in the draw. Results at 6:01 PM.' }
    })
    const model = new EventDetailModel({ getEvent, register: fail, claimTicket, rate: fail })
    await model.load('51')
    expect(model.button.value?.label).toBe('RSVP for this event')
    expect(await model.claimTicket()).toEqual({ toast: 'You are in the draw. Results at 6:01 PM.' })
    expect(model.button.value).toEqual({ label: IN_DRAW, action: 'none', disabled: true })
    expect(model.next.value?.text).toBe('Results at 6:01 PM')
    expect(getEvent).toHaveBeenCalledTimes(2)
    state = 'drawn'
    await vi.advanceTimersByTimeAsync(60_000 + 1_500)
    expect(getEvent).toHaveBeenCalledTimes(3)
    expect(model.button.value).toEqual({ label: 'View Ticket', action: 'view-ticket', disabled: false })
    expect(model.announcement.value).toBe(TICKET_CLAIMED)
    model.clearAnnouncement()
    expect(model.announcement.value).toBeNull()
  })

  it('a waitlisted entrant is told the position', async () => {
    const open = detail({ id: 52, state: 'TICKET_OPEN', is_ticket_feature_enabled: true, ticket_count: 1, fair_start: fair, Participant: participant() })
    const pending = { ...open, Participant: participant({ draw: { entered_at: DRAW_AT, result: 'PENDING', nonce: null, position: null } }) }
    const lost: EventDetail = {
      ...open,
      tickets_sold: 1,
      Participant: participant({
        waitlist: { position: 4, offer_expires_at: null },
        draw: { entered_at: DRAW_AT, result: 'WAITLISTED', nonce: null, position: 5 },
      }),
    }
    let calls = 0
    const model = new EventDetailModel({ getEvent: async () => (++calls === 1 ? pending : lost), register: fail, claimTicket: fail, rate: fail })
    await model.load('52')
    expect(model.button.value?.label).toBe(IN_DRAW)
    await vi.advanceTimersByTimeAsync(60_000 + 1_500)
    expect(model.announcement.value).toBe('You are number 4 on the waitlist.')
    expect(model.button.value?.label).toBe('Tickets Sold Out')
  })
})

describe('a claim whose answer was lost (issue 27)', () => {
  it.each([
    ['as the server words it today', 'You already have a ticket for this event.'],
    // Issue 38 item 3: the store reads the code, not the message; new words change nothing.
    ['in other words', 'Ticket already collected: see My Events.'],
  ])('409 ALREADY_HAS_TICKET on the retry (%s): the ticket is shown with the claimed toast, not a failure', async (_, message) => {
    const open = detail({ id: 53, state: 'TICKET_OPEN', is_ticket_feature_enabled: true, ticket_count: 5, Participant: participant() })
    const held = { ...open, tickets_sold: 1, Participant: participant({ ticket_collected: true, ticket_code: '4006381333931234' }) }
    let claimed = false
    const getEvent = vi.fn(async () => (claimed ? held : open))
    const claimTicket = vi.fn(async () => {
      claimed = true // the first try took the ticket; its answer never came, the retry is refused
      throw refused(409, 'ALREADY_HAS_TICKET', message)
    })
    const model = new EventDetailModel({ getEvent, register: fail, claimTicket, rate: fail })
    await model.load('53')
    expect(await model.claimTicket()).toEqual({ toast: TICKET_CLAIMED })
    expect(model.button.value).toEqual({ label: 'View Ticket', action: 'view-ticket', disabled: false })
    expect(model.event.value?.Participant).toMatchObject({ ticket_collected: true, ticket_code: '4006381333931234' })
  })

  it('the old words with another code (sold out) are a failure: the words alone decide nothing', async () => {
    const open = detail({ id: 55, state: 'TICKET_OPEN', is_ticket_feature_enabled: true, ticket_count: 5, Participant: participant() })
    const getEvent = vi.fn(async () => open)
    const claimTicket = () => Promise.reject(refused(409, 'SOLD_OUT', 'You already have a ticket for this event.'))
    const model = new EventDetailModel({ getEvent, register: fail, claimTicket, rate: fail })
    await model.load('55')
    expect(await model.claimTicket()).toBeNull()
    expect(model.event.value?.Participant).toMatchObject({ ticket_collected: false })
  })

  it('another 409 (sold out) still fails: no toast, the page fetched again', async () => {
    const open = detail({ id: 54, state: 'TICKET_OPEN', is_ticket_feature_enabled: true, ticket_count: 5, Participant: participant() })
    const getEvent = vi.fn(async () => open)
    const model = new EventDetailModel({
      getEvent,
      register: fail,
      claimTicket: () => Promise.reject(refused(409, 'SOLD_OUT', 'Tickets are sold out.')),
      rate: fail,
    })
    await model.load('54')
    expect(await model.claimTicket()).toBeNull()
    await vi.advanceTimersByTimeAsync(0)
    expect(getEvent).toHaveBeenCalledTimes(2)
  })
})
