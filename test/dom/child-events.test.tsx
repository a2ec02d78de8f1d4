// Child events: the parent's name and children as cards; a parent unknown to the list and to get/{id} → Home.
import { afterEach, describe, expect, it } from 'vitest'
import { App } from '../../src/app.tsx'
import { buildEventDetail } from '../../src/stores/event-detail.ts'
import { room } from '../../src/models.ts'

const eventDetail = room(buildEventDetail)
import { detail, eventsServer, type World } from './event-fixtures.ts'
import { cleanup, getByText, go, mount, waitFor } from './session-fakes.ts'

afterEach(() => {
  cleanup()
  eventDetail.reset()
})

function open(world: World, id: number | string) {
  localStorage.setItem('accessToken', 'A')
  localStorage.setItem('refreshToken', 'R')
  const server = eventsServer(world)
  go(`/child-events/${id}`)
  return { root: mount(<App />), server }
}

describe('child events', () => {
  it("shows the parent's name and each child as a card linking to its details", async () => {
    const parent = detail({ id: 50, name: 'Techfest', state: 'TICKET_OPEN', children: [{ id: 51 }, { id: 52 }] })
    const kids = [detail({ id: 51, name: 'Robo Race', parent_id: 50 }), detail({ id: 52, name: 'Quiz', state: 'UPCOMING', parent_id: 50 })]
    const { root, server } = open({ events: [parent, ...kids, detail({ id: 53, name: 'Unrelated' })] }, 50)
    await waitFor(() => getByText(root, 'Techfest', 'h1'))
    const cards = [...root.querySelectorAll<HTMLAnchorElement>('main li > a')]
    expect(cards.map((a) => a.querySelector('h3')!.textContent)).toEqual(['Robo Race', 'Quiz'])
    expect(cards.map((a) => a.getAttribute('href'))).toEqual(['/event-details/51', '/event-details/52'])
    expect(server.calls('/event/p/get/50')).toHaveLength(0) // the list already had it
  })

  it("labels each child's card with its state (issue 14)", async () => {
    const parent = detail({ id: 55, name: 'Startup Week', children: [{ id: 56 }, { id: 57 }, { id: 58 }] })
    const kids = [
      detail({ id: 56, name: 'Pitch Battle', state: 'REGISTRATION_OPEN', parent_id: 55 }),
      detail({ id: 57, name: 'Fair', state: 'TICKET_CLOSED', parent_id: 55 }),
      detail({ id: 58, name: 'Panel', state: 'COMPLETED', parent_id: 55 }),
    ]
    const { root } = open({ events: [parent, ...kids] }, 55)
    await waitFor(() => getByText(root, 'Startup Week', 'h1'))
    const cards = [...root.querySelectorAll<HTMLAnchorElement>('main li > a')]
    expect(
      cards.map((a) => [a.querySelector('h3')!.textContent, a.querySelector('h3')!.closest('a')!.firstElementChild!.lastElementChild!.textContent]),
    ).toEqual([
      ['Pitch Battle', 'Registrations Open'],
      ['Fair', 'RSVP Closed'],
      ['Panel', 'Completed'],
    ])
  })

  it('a parent missing from the list is fetched by id', async () => {
    const parent = detail({ id: 60, name: 'Hidden fest', children: [{ id: 61 }] })
    const { root, server } = open({ events: [detail({ id: 61, name: 'Open child', parent_id: 60 })], hidden: [parent] }, 60)
    await waitFor(() => getByText(root, 'Hidden fest', 'h1'))
    expect(getByText(root, 'Open child', 'h3')).toBeTruthy()
    expect(server.calls('/event/p/get/60')).toHaveLength(1)
  })

  it('an unknown parent (not listed, 404 by id) redirects to Home', async () => {
    const { root, server } = open({ events: [detail({ id: 70, name: 'Somewhere else', state: 'UPCOMING' })] }, 999)
    await waitFor(() => expect(location.pathname).toBe('/'))
    await waitFor(() => getByText(root, 'Trending Events', 'h2'))
    expect(server.calls('/event/p/get/999')).toHaveLength(1)
  })
})
