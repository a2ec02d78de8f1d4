// The Give Feedback popup's decision (src/lib/feedback.ts), row by row: the server's rule for POST /event/p/rate
// today, participants of a COMPLETED event, with the student's earlier rating.
import { describe, expect, it } from 'vitest'
import type { DetailParticipant, EventDetail } from '../../contract/types.ts'
import { participant } from '../fixtures/events.ts'
import {
  FEEDBACK_CHECKED_IN_ONLY,
  FEEDBACK_NOT_YET,
  FEEDBACK_PARTICIPANTS_ONLY,
  FEEDBACK_TICKET_HOLDERS_ONLY,
  feedbackFor,
  type Feedback,
} from '../../src/lib/feedback.ts'

const registered = (over: Partial<DetailParticipant> = {}): DetailParticipant => participant(over)

describe('feedbackFor', () => {
  it.each<[string, Pick<EventDetail, 'state' | 'Participant'>, Feedback]>([
    ['a participant of a completed event, not rated yet', { state: 'COMPLETED', Participant: registered() }, { canRate: true, rating: null }],
    ['a participant who rated 4', { state: 'COMPLETED', Participant: registered({ rating: 4 }) }, { canRate: true, rating: 4 }],
    [
      'a ticket holder who rated 1',
      { state: 'COMPLETED', Participant: registered({ ticket_collected: true, ticket_code: 'T', rating: 1 }) },
      { canRate: true, rating: 1 },
    ],
    [
      'a copy kept offline from before `rating` was sent',
      { state: 'COMPLETED', Participant: { id: 1, ticket_collected: false, ticket_code: null, team: null } as DetailParticipant },
      { canRate: true, rating: null },
    ],
    ['a student who was not registered', { state: 'COMPLETED', Participant: false }, { canRate: false, reason: FEEDBACK_PARTICIPANTS_ONLY }],
    ['an event not completed yet', { state: 'ONGOING', Participant: registered() }, { canRate: false, reason: FEEDBACK_NOT_YET }],
  ])('%s', (_what, event, expected) => {
    expect(feedbackFor(event)).toEqual(expected)
  })
})

describe('the rating rule of the door (API.md Part 2, "Ratings, tightened")', () => {
  const base = { state: 'COMPLETED' as const, is_ticket_feature_enabled: true }
  const holder = (over: Partial<DetailParticipant>): DetailParticipant => ({
    id: 1,
    ticket_collected: true,
    ticket_code: '4006381333931234',
    team: null,
    checked_in_at: null,
    rating: null,
    waitlist: null,
    answers: {},
    draw: null,
    ...over,
  })
  it('offers stars to ticket holders of a ticketed event nobody was checked in at', () => {
    expect(feedbackFor({ ...base, door_checked_in: false, Participant: holder({}) }).canRate).toBe(true)
  })
  it('refuses a registered student without a ticket where tickets were on', () => {
    expect(feedbackFor({ ...base, Participant: holder({ ticket_collected: false, ticket_code: null }) })).toEqual({
      canRate: false,
      reason: FEEDBACK_TICKET_HOLDERS_ONLY,
    })
  })
  it('once the door checked anyone in, only those checked in', () => {
    expect(feedbackFor({ ...base, door_checked_in: true, Participant: holder({}) })).toEqual({ canRate: false, reason: FEEDBACK_CHECKED_IN_ONLY })
    expect(feedbackFor({ ...base, door_checked_in: true, Participant: holder({ checked_in_at: '2026-11-25T12:33:00.000Z' }) }).canRate).toBe(true)
  })
})
