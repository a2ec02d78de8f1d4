// My Events: the participations of POST /event/p/get/me as cards (ticket → /ticket/{id}), and the empty state.
import { afterEach, describe, expect, it } from 'vitest'
import { App } from '../../src/app.tsx'
import { eventsServer, summary, type World } from './event-fixtures.ts'
import { cleanup, getByText, go, mount, waitFor } from './session-fakes.ts'

afterEach(cleanup)

function open(world: World) {
  localStorage.setItem('accessToken', 'A')
  localStorage.setItem('refreshToken', 'R')
  eventsServer(world)
  go('/profile/myevents')
  return mount(<App />)
}

describe('my events', () => {
  it('shows each participation as a card; a collected ticket leads to the ticket, others to the event', async () => {
    const withTicket = summary({ id: 91, name: 'Gala', state: 'TICKET_CLOSED' })
    const registered = summary({ id: 92, name: 'Hackathon', state: 'REGISTRATION_CLOSED' })
    const root = open({
      events: [],
      my: [
        { id: 1, ticket_collected: true, team: null, event: withTicket, checked_in_at: null },
        { id: 2, ticket_collected: false, team: { id: 4, name: 'Team X' }, event: registered, checked_in_at: null },
      ],
    })
    await waitFor(() => getByText(root, 'Gala', 'h3'))
    const cards = [...root.querySelectorAll<HTMLAnchorElement>('main li > a')]
    expect(cards.map((a) => a.getAttribute('href'))).toEqual(['/ticket/91', '/event-details/92'])
    // Every entry is a participation, so each card carries the Registered tag.
    expect(cards.map((a) => a.querySelector('ul')!.textContent)).toEqual(['Registered', 'Registered'])
  })

  it('offers the certificate of a completed event the student was checked in at, and only there (issue 13)', async () => {
    const attended = summary({ id: 93, name: 'RoboWars', state: 'COMPLETED' })
    const missed = summary({ id: 94, name: 'Quiz', state: 'COMPLETED' })
    const root = open({
      events: [],
      my: [
        { id: 3, ticket_collected: true, team: null, event: attended, checked_in_at: '2026-11-20T10:05:00+05:30' },
        { id: 4, ticket_collected: true, team: null, event: missed, checked_in_at: null },
      ],
    })
    await waitFor(() => getByText(root, 'RoboWars', 'h3'))
    const buttons = [...root.querySelectorAll('main button')]
    expect(buttons.map((b) => b.textContent)).toEqual(['Download certificate'])
    expect(buttons[0].closest('li')!.textContent).toContain('RoboWars')
  })

  it('offers the receipt of a paid place, and only there (issue 35)', async () => {
    const paid = summary({ id: 96, name: 'Paid workshop', state: 'TICKET_OPEN' })
    const free = summary({ id: 97, name: 'Free talk', state: 'TICKET_OPEN' })
    const root = open({
      events: [],
      my: [
        { id: 6, ticket_collected: true, team: null, event: paid, checked_in_at: null, receipt: 'R-001001' },
        { id: 7, ticket_collected: true, team: null, event: free, checked_in_at: null, receipt: null },
      ],
    })
    await waitFor(() => getByText(root, 'Paid workshop', 'h3'))
    const buttons = [...root.querySelectorAll('main button')]
    expect(buttons.map((b) => b.textContent)).toEqual(['Receipt'])
    expect(buttons[0].closest('li')!.textContent).toContain('Paid workshop')
  })

  it('shows an empty state with a way to Home', async () => {
    const root = open({ events: [], my: [] })
    await waitFor(() => getByText(root, /You have not registered for any events yet/, 'p'))
    expect(getByText(root, 'Find events on Home', 'a').getAttribute('href')).toBe('/')
  })

  it('a failed load says why under the My Events heading, and Try again loads it', async () => {
    let calls = 0
    const gala = summary({ id: 95, name: 'Gala night', state: 'TICKET_CLOSED' })
    const root = open({
      events: [],
      extra: {
        '/event/p/get/me': () =>
          ++calls === 1
            ? [500, { error: true, message: 'The server is restarting' }]
            : [200, { error: false, events: [{ id: 5, ticket_collected: true, team: null, event: gala, checked_in_at: null }] }],
      },
    })
    const alert = await waitFor(() => getByText(root, 'Could not load your events: The server is restarting', 'p'))
    expect(alert.closest('[role="alert"]')!.querySelector('h1')!.textContent).toBe('My Events')
    getByText(root, 'Try again', 'button').click()
    await waitFor(() => getByText(root, 'Gala night', 'h3'))
    expect(calls).toBe(2)
  })
})
