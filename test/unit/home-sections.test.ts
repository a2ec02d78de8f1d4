// Home sections per SPEC §2 Home: which events, in which order, with which label and link, and which
// sections stay hidden.
import { describe, expect, test } from 'vitest'
import type { EventState } from '../../contract/constants.ts'
import type { EventSummary, EventsByState } from '../../contract/types.ts'
import { homeSections } from '../../src/lib/home-sections.ts'
import { eventSummary, grouped, newEventId } from '../fixtures/events.ts'

function ev(state: EventState, extra: Partial<EventSummary> = {}): EventSummary {
  const id = newEventId()
  return eventSummary({
    id,
    name: `E${id}`,
    venue: '',
    state,
    is_ticket_feature_enabled: true,
    ticket_count: 10,
    ...extra,
  })
}
const ticket = { Participant: { ticket_collected: true, team: null } }
const noTicket = { Participant: { ticket_collected: false, team: null } }

const titles = (byState: EventsByState) => homeSections(byState).map((s) => s.title)
const section = (byState: EventsByState, title: string) => homeSections(byState).find((s) => s.title === title)
const ids = (byState: EventsByState, title: string) => section(byState, title)?.items.map((i) => i.event.id)

test('no events: no sections at all', () => {
  expect(homeSections({})).toEqual([])
  expect(homeSections({ UPCOMING: [] })).toEqual([])
})

test('all five sections in screen order when each has an event', () => {
  const data = grouped([ev('UPCOMING'), ev('REGISTRATION_OPEN'), ev('TICKET_OPEN'), ev('TICKET_CLOSED', ticket)])
  expect(titles(data)).toEqual(['Your Tickets', 'Trending Events', 'Upcoming Events', 'Registration Open', 'Tickets Released'])
  expect(homeSections(data).map((s) => s.key)).toEqual(['yourTickets', 'trending', 'upcoming', 'registrationOpen', 'ticketsReleased'])
})

describe('Your Tickets', () => {
  test.each([
    ['TICKET_CLOSED with ticket', ev('TICKET_CLOSED', ticket), true],
    ['ONGOING with ticket', ev('ONGOING', ticket), true],
    ['TICKET_CLOSED registered without ticket', ev('TICKET_CLOSED', noTicket), false],
    ['ONGOING not registered', ev('ONGOING'), false],
    ['TICKET_OPEN with ticket (not yet closed)', ev('TICKET_OPEN', ticket), false],
    ['COMPLETED with ticket', ev('COMPLETED', ticket), false],
    ['a child event with ticket counts too', ev('ONGOING', { ...ticket, parent_id: 1 }), true],
  ] as const)('%s → %s', (_, e, shown) => {
    expect(ids(grouped([e]), 'Your Tickets') ?? []).toEqual(shown ? [e.id] : [])
  })

  test('links to the ticket', () => {
    const e = ev('TICKET_CLOSED', ticket)
    expect(section(grouped([e]), 'Your Tickets')!.items[0]).toEqual({ event: e, href: `/ticket/${e.id}` })
  })
})

describe('Trending', () => {
  test('top-level events of TICKET_OPEN, ONGOING, REGISTRATION_OPEN, UPCOMING in that order, with labels', () => {
    // Given in the reverse order to show that the state order, not the input order, decides.
    const up = ev('UPCOMING')
    const reg = ev('REGISTRATION_OPEN')
    const on = ev('ONGOING')
    const tix = ev('TICKET_OPEN')
    const tix2 = ev('TICKET_OPEN')
    const data = grouped([up, reg, on, tix, tix2])
    expect(section(data, 'Trending Events')!.items.map((i) => [i.event.id, i.label])).toEqual([
      [tix.id, 'RSVP Now'],
      [tix2.id, 'RSVP Now'],
      [on.id, 'Ongoing'],
      [reg.id, 'Registrations Open'],
      [up.id, 'Coming Soon'],
    ])
  })

  test('a ticket holder’s card says View Ticket, not RSVP Now (issue 37 item 7)', () => {
    const mine = ev('TICKET_OPEN', ticket)
    const registered = ev('TICKET_OPEN', noTicket)
    const on = ev('ONGOING', ticket)
    expect(section(grouped([mine, registered, on]), 'Trending Events')!.items.map((i) => [i.event.id, i.label, i.href])).toEqual([
      [mine.id, 'View Ticket', `/event-details/${mine.id}`],
      [registered.id, 'RSVP Now', `/event-details/${registered.id}`],
      [on.id, 'View Ticket', `/event-details/${on.id}`],
    ])
  })

  test.each(['REGISTRATION_CLOSED', 'TICKET_CLOSED', 'COMPLETED'] as const)('%s is never trending', (state) => {
    expect(section(grouped([ev(state)]), 'Trending Events')).toBeUndefined()
  })

  test('child events are left out; a parent links to its children, a plain event to its details', () => {
    const parent = ev('REGISTRATION_OPEN', { children: [{ id: 900 }, { id: 901 }] })
    const child = ev('REGISTRATION_OPEN', { parent_id: parent.id })
    const plain = ev('UPCOMING')
    const items = section(grouped([parent, child, plain]), 'Trending Events')!.items
    expect(items.map((i) => [i.event.id, i.href])).toEqual([
      [parent.id, `/child-events/${parent.id}`],
      [plain.id, `/event-details/${plain.id}`],
    ])
  })
})

describe('Upcoming, Registration Open and Tickets Released', () => {
  test.each([
    ['Upcoming Events', 'UPCOMING'],
    ['Registration Open', 'REGISTRATION_OPEN'],
    ['Tickets Released', 'TICKET_OPEN'],
  ] as const)('%s lists childless %s events, child events included, parents left out', (title, state) => {
    const parent = ev(state, { children: [{ id: 1 }] })
    const child = ev(state, { parent_id: parent.id })
    const single = ev(state)
    const data = grouped([parent, child, single, ev('COMPLETED'), ev('REGISTRATION_CLOSED')])
    expect(ids(data, title)).toEqual([child.id, single.id])
    expect(section(data, title)!.items.every((i) => i.href === `/event-details/${i.event.id}` && i.label === undefined)).toBe(true)
  })

  test('a section whose only events are parents is hidden', () => {
    const data = grouped([ev('UPCOMING', { children: [{ id: 1 }] })])
    expect(titles(data)).toEqual(['Trending Events'])
  })
})

test('states that feed no section (REGISTRATION_CLOSED, COMPLETED) show nothing', () => {
  expect(homeSections(grouped([ev('REGISTRATION_CLOSED', ticket), ev('COMPLETED', ticket)]))).toEqual([])
})
