// The action button against every row of SPEC §4 "Main action button per state", in the table's order.
import { describe, expect, test } from 'vitest'
import type { EventState } from '../../contract/constants.ts'
import type { EventDetail, EventSummary } from '../../contract/types.ts'
import { FEEDBACK_CHECKED_IN_ONLY, FEEDBACK_PARTICIPANTS_ONLY, FEEDBACK_TICKET_HOLDERS_ONLY, feedbackFor } from '../../src/lib/feedback.ts'
import { actionFor, IN_DRAW, PAYING, REGISTER_TOAST, REGISTERING, RSVP_TOAST, RSVPING, type ActionButton } from '../../src/lib/action-button.ts'
import { eventSummary, participant } from '../fixtures/events.ts'

function ev(state: EventState, extra: Partial<EventSummary> = {}): EventSummary {
  return eventSummary({
    id: 7,
    name: 'Hackathon',
    dates: ['2026-11-21T13:00:00Z'],
    state,
    is_ticket_feature_enabled: true,
    ticket_count: 100,
    tickets_sold: 10,
    ...extra,
  })
}

const registered = { Participant: { ticket_collected: false, team: null } }
const collected = { Participant: { ticket_collected: true, team: null } }
const inTeam = { Participant: { ticket_collected: false, team: { id: 3, name: 'Byte Me' } } }

const paid = (status: 'PENDING' | 'AWAITING_CONFIRMATION' | 'EXPIRED') => ({
  status,
  amount: 30_000,
  method: null,
  pay_by: '2026-11-21T12:45:00Z',
  paid_at: null,
  receipt: null,
  reference: 'CE1234567890123456',
})
const drawn = (result: 'PENDING' | 'WON' | 'WAITLISTED') => ({
  entered_at: '2026-11-21T12:30:00Z',
  result,
  nonce: null,
  position: result === 'PENDING' ? null : 3,
})
const btn = (label: string, action: ActionButton['action'], disabled = false): ActionButton => ({ label, action, disabled })
const off = (label: string) => btn(label, 'none', true)

// [SPEC row, event, expected button]
const ROWS: [string, EventSummary | EventDetail, ActionButton][] = [
  ['REGISTRATION_OPEN, ma_ppt>1, registered', ev('REGISTRATION_OPEN', { ma_ppt: 4, ...inTeam }), btn('View Team', 'team-details')],
  ['REGISTRATION_OPEN, ma_ppt>1, not registered', ev('REGISTRATION_OPEN', { ma_ppt: 4 }), btn('Register', 'team-register')],
  ['REGISTRATION_OPEN, ma_ppt=2 is a team event', ev('REGISTRATION_OPEN', { ma_ppt: 2 }), btn('Register', 'team-register')],
  ['REGISTRATION_OPEN, individual, registered', ev('REGISTRATION_OPEN', registered), off('Registered')],
  ['REGISTRATION_OPEN, individual, not registered', ev('REGISTRATION_OPEN'), btn('Register', 'register')],
  ['REGISTRATION_CLOSED, registered', ev('REGISTRATION_CLOSED', registered), off('Already registered')],
  ['REGISTRATION_CLOSED, registered in a team', ev('REGISTRATION_CLOSED', { ma_ppt: 4, ...inTeam }), off('Already registered')],
  ['REGISTRATION_CLOSED, not registered', ev('REGISTRATION_CLOSED'), off('Registration Closed')],
  ['TICKET_OPEN, enabled, registered and ticket collected', ev('TICKET_OPEN', collected), btn('View Ticket', 'view-ticket')],
  // Collected wins over sold out: the student holding a ticket must still reach it when none are left.
  ['TICKET_OPEN, enabled, collected, sold out', ev('TICKET_OPEN', { ...collected, tickets_sold: 100 }), btn('View Ticket', 'view-ticket')],
  ['TICKET_OPEN, enabled, registered, tickets_sold = ticket_count', ev('TICKET_OPEN', { ...registered, tickets_sold: 100 }), off('Tickets Sold Out')],
  ['TICKET_OPEN, enabled, registered, tickets_sold > ticket_count', ev('TICKET_OPEN', { ...registered, tickets_sold: 101 }), off('Tickets Sold Out')],
  ['TICKET_OPEN, enabled, registered, no tickets at all', ev('TICKET_OPEN', { ...registered, ticket_count: 0, tickets_sold: 0 }), off('Tickets Sold Out')],
  ['TICKET_OPEN, enabled, registered otherwise', ev('TICKET_OPEN', { ...registered, tickets_sold: 99 }), btn('RSVP for this event', 'claim-ticket')],
  ['TICKET_OPEN, enabled, registered in a team', ev('TICKET_OPEN', { ma_ppt: 4, ...inTeam }), btn('RSVP for this event', 'claim-ticket')],
  ['TICKET_OPEN, enabled, not registered', ev('TICKET_OPEN'), off('Not registered for this event')],
  // A fair opening (issue 24): entered in a draw that has not run: 'In the draw'; after it, the usual rows.
  ['TICKET_OPEN, in a pending draw', { ...ev('TICKET_OPEN'), Participant: { ...participant(), draw: drawn('PENDING') } }, off(IN_DRAW)],
  // A paid event (issue 35): a place held for its payment, or paid by UPI and awaiting the council, has nothing to
  // claim (the pay step above the button is the way on); once expired or refunded, the usual rows.
  ...(['PENDING', 'AWAITING_CONFIRMATION'] as const).map((status): [string, EventSummary | EventDetail, ActionButton] => [
    `TICKET_OPEN, a place held, payment ${status}`,
    { ...ev('TICKET_OPEN'), Participant: { ...participant(), payment: paid(status) } },
    off(PAYING),
  ]),
  [
    'TICKET_OPEN, a held place expired',
    { ...ev('TICKET_OPEN'), Participant: { ...participant(), payment: paid('EXPIRED') } },
    btn('RSVP for this event', 'claim-ticket'),
  ],
  [
    'TICKET_OPEN, drawn and won',
    { ...ev('TICKET_OPEN'), Participant: { ...participant({ ticket_collected: true }), draw: drawn('WON') } },
    btn('View Ticket', 'view-ticket'),
  ],
  [
    'TICKET_OPEN, drawn and waitlisted',
    { ...ev('TICKET_OPEN', { tickets_sold: 100 }), Participant: { ...participant(), draw: drawn('WAITLISTED') } },
    off('Tickets Sold Out'),
  ],
  ['TICKET_OPEN, enabled, not registered, sold out', ev('TICKET_OPEN', { tickets_sold: 100 }), off('Not registered for this event')],
  ['TICKET_CLOSED, ticket collected', ev('TICKET_CLOSED', collected), btn('View Ticket', 'view-ticket')],
  ['TICKET_CLOSED, registered without ticket', ev('TICKET_CLOSED', registered), off('RSVP closed')],
  ['TICKET_CLOSED, not registered', ev('TICKET_CLOSED'), off('RSVP closed')],
  [
    'TICKET_CLOSED, feature disabled, ticket collected',
    ev('TICKET_CLOSED', { ...collected, is_ticket_feature_enabled: false }),
    btn('View Ticket', 'view-ticket'),
  ],
  ['TICKET_OPEN, feature disabled, ticket collected', ev('TICKET_OPEN', { ...collected, is_ticket_feature_enabled: false }), btn('View Ticket', 'view-ticket')],
  ['TICKET_OPEN, feature disabled, registered', ev('TICKET_OPEN', { ...registered, is_ticket_feature_enabled: false }), off('RSVP closed')],
  ['TICKET_OPEN, feature disabled, not registered', ev('TICKET_OPEN', { is_ticket_feature_enabled: false }), off('RSVP closed')],
  ['UPCOMING, not registered', ev('UPCOMING'), off('Registrations Opening Soon')],
  ['UPCOMING, registered', ev('UPCOMING', registered), off('Registrations Opening Soon')],
  ['UPCOMING, team event', ev('UPCOMING', { ma_ppt: 4 }), off('Registrations Opening Soon')],
  [
    'ONGOING, registration_type EXTERNAL',
    ev('ONGOING', { registration_type: 'EXTERNAL', external_registration_link: 'https://forms.example/x' }),
    btn('Register', 'external'),
  ],
  // EXTERNAL comes before the activity row even when both apply.
  [
    'ONGOING, EXTERNAL and activity',
    ev('ONGOING', {
      registration_type: 'EXTERNAL',
      external_registration_link: 'https://forms.example/x',
      start_in_event_activity: true,
      in_event_activity: 'https://act.example',
    }),
    btn('Register', 'external'),
  ],
  ['ONGOING, EXTERNAL without a link', ev('ONGOING', { registration_type: 'EXTERNAL' }), off('Register')],
  [
    'ONGOING, else start_in_event_activity',
    ev('ONGOING', { start_in_event_activity: true, in_event_activity: 'https://act.example' }),
    btn('Follow Activity', 'activity'),
  ],
  ['ONGOING, activity without a link', ev('ONGOING', { start_in_event_activity: true }), off('Follow Activity')],
  ['ONGOING, else', ev('ONGOING'), off('Event is Ongoing')],
  ['ONGOING, registered, else', ev('ONGOING', collected), off('Event is Ongoing')],
  ['ONGOING, activity link but not started', ev('ONGOING', { in_event_activity: 'https://act.example' }), off('Event is Ongoing')],
  ['COMPLETED, not registered', ev('COMPLETED'), btn('Give Feedback', 'feedback')],
  ['COMPLETED, registered', ev('COMPLETED', collected), btn('Give Feedback', 'feedback')],
  // SPEC §4 "COMPLETED | any": the button is for every student; the popup (lib/feedback.ts) says who may rate.
  ['COMPLETED, team event, not registered', ev('COMPLETED', { ma_ppt: 4 }), btn('Give Feedback', 'feedback')],
  ['COMPLETED, tickets off, registered', ev('COMPLETED', { ...registered, is_ticket_feature_enabled: false }), btn('Give Feedback', 'feedback')],
]

test.each(ROWS)('%s', (_, event, expected) => {
  expect(actionFor(event)).toEqual(expected)
})

test('every state of the table is covered', () => {
  const states = new Set(ROWS.map(([, e]) => e.state))
  expect([...states].sort()).toEqual(['COMPLETED', 'ONGOING', 'REGISTRATION_CLOSED', 'REGISTRATION_OPEN', 'TICKET_CLOSED', 'TICKET_OPEN', 'UPCOMING'])
})

describe('an EventDetail decides the same way', () => {
  const detail = (state: EventState, participant: EventDetail['Participant']): EventDetail => ({
    ...ev(state),
    long_description: 'About',
    questions: [],
    Participant: participant,
  })
  test.each([
    ['TICKET_OPEN', participant({ id: 1, ticket_collected: true, ticket_code: 'AB12CD34EF56', team: null }), btn('View Ticket', 'view-ticket')],
    ['TICKET_OPEN', participant({ id: 1, ticket_collected: false, ticket_code: null, team: null }), btn('RSVP for this event', 'claim-ticket')],
    ['REGISTRATION_OPEN', participant({ id: 1, ticket_collected: false, ticket_code: null, team: null }), off('Registered')],
  ] as const)('%s with %o', (state, participant, expected) => {
    expect(actionFor(detail(state, participant))).toEqual(expected)
  })

  // SPEC §4 "COMPLETED | any: 'Give Feedback'" (issue 20 item 6): a student the rating rule leaves out still gets
  // the button, never a disabled 'Event Completed' with no reason; the popup (lib/feedback.ts) says who may rate.
  const ticket = { ticket_collected: true, ticket_code: 'AB12CD34EF56' }
  test.each([
    ['ticketed, registered without a ticket', {}, participant(), FEEDBACK_TICKET_HOLDERS_ONLY],
    ['door checked students in, ticket holder not checked in', { door_checked_in: true }, participant(ticket), FEEDBACK_CHECKED_IN_ONLY],
    ['ticketed, never registered', {}, false as const, FEEDBACK_PARTICIPANTS_ONLY],
    ['door checked students in, checked in', { door_checked_in: true }, participant({ ...ticket, checked_in_at: '2026-11-21T13:05:00Z' }), null],
    ['ticket collected, no door check-in', {}, participant(ticket), null],
  ] as const)('COMPLETED, %s: Give Feedback', (_, extra, p, reason) => {
    const event = { ...detail('COMPLETED', p), ...extra }
    expect(actionFor(event)).toEqual(btn('Give Feedback', 'feedback'))
    const feedback = feedbackFor(event)
    expect(feedback.canRate ? null : feedback.reason).toBe(reason)
  })
})

test('the flow labels and toasts are the spec words', () => {
  expect([REGISTERING, RSVPING, REGISTER_TOAST]).toEqual(['Registering', 'RSVPing', 'Registration Successful!!'])
  expect(RSVP_TOAST).toBe('Ticket collected!')
})
