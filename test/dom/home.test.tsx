// Home and the event card through the real app against a fake server: sections in order, empty ones hidden,
// trending labels and links, Your Tickets to the ticket, tags, the empty state and the error with a retry.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { App } from '../../src/app.tsx'
import { eventsServer, detail, type World } from './event-fixtures.ts'
import { participant } from '../fixtures/events.ts'
import { cleanup, click, fakeServer, getByText, go, mount, student, waitFor } from './session-fakes.ts'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

async function openHome(world: World) {
  localStorage.setItem('accessToken', 'A')
  localStorage.setItem('refreshToken', 'R')
  eventsServer(world)
  go('/')
  const root = mount(<App />)
  await waitFor(
    () =>
      root.querySelector('main h1') ??
      (() => {
        throw new Error('not yet')
      })(),
  )
  return root
}

const sectionTitles = (root: HTMLElement) => [...root.querySelectorAll('main h2')].map((h) => h.textContent)
const cardsOf = (root: HTMLElement, title: string) => [...getByText(root, title, 'h2').closest('section')!.querySelectorAll<HTMLAnchorElement>('li > a')]

describe('home', () => {
  it('shows the sections in SPEC order, hides empty ones, and links each card where it belongs', async () => {
    const child = detail({ id: 11, name: 'Child talk', state: 'TICKET_OPEN', parent_id: 10 })
    const parent = detail({ id: 10, name: 'Fest', state: 'TICKET_OPEN', children: [{ id: 11 }] })
    const reg = detail({ id: 12, name: 'Workshop', state: 'REGISTRATION_OPEN' })
    const ticket = detail({
      id: 13,
      name: 'Concert',
      state: 'TICKET_CLOSED',
      Participant: participant({ id: 1, ticket_collected: true, ticket_code: 'T', team: null }),
    })
    const root = await openHome({ events: [child, parent, reg, ticket] })
    await waitFor(() => expect(sectionTitles(root)).toEqual(['Your Tickets', 'Trending Events', 'Registration Open', 'Tickets Released']))

    expect(cardsOf(root, 'Your Tickets').map((a) => a.getAttribute('href'))).toEqual(['/ticket/13'])
    const trending = cardsOf(root, 'Trending Events')
    expect(trending.map((a) => a.getAttribute('href'))).toEqual(['/child-events/10', '/event-details/12'])
    expect(trending.map((a) => a.querySelector('h3')!.textContent)).toEqual(['Fest', 'Workshop'])
    expect(getByText(trending[0], 'RSVP Now')).toBeTruthy()
    expect(getByText(trending[1], 'Registrations Open')).toBeTruthy()
    // Tickets Released lists childless TICKET_OPEN events: the child, not its parent.
    expect(cardsOf(root, 'Tickets Released').map((a) => a.getAttribute('href'))).toEqual(['/event-details/11'])
  })

  it('a card shows image, name, organiser name and photo, the first date in IST, venue and tags with Tech and Registered marked', async () => {
    const e = detail({
      id: 21,
      name: 'Code Sprint',
      state: 'UPCOMING',
      dates: ['2026-11-21T20:00:00Z', '2026-11-25T05:00:00Z'], // 01:30 on the 22nd in IST
      venue: 'Seminar Hall',
      tags: ['Tech', 'Coding'],
      Participant: participant({ id: 1, ticket_collected: false, ticket_code: null, team: null }),
    })
    const root = await openHome({ events: [e] })
    const card = await waitFor(() => cardsOf(root, 'Upcoming Events')[0])
    const [image, photo] = card.querySelectorAll('img')
    expect(image.getAttribute('src')).toBe(e.banner_url)
    expect(image.getAttribute('alt')).toBe('Code Sprint')
    expect(image.getAttribute('width')).toBe('320')
    expect(image.getAttribute('height')).toBe('160')
    expect(photo.getAttribute('src')).toBe('https://img.example/csi.png')
    expect(getByText(card, 'CSI Council')).toBeTruthy()
    expect(getByText(card, 'Sun, 22 Nov 2026')).toBeTruthy()
    expect(getByText(card, 'Seminar Hall')).toBeTruthy()
    const tags = [...card.querySelectorAll('li')]
    expect(tags.map((t) => t.textContent)).toEqual(['Tech', 'Coding', 'Registered'])
    // Tech and Registered carry their own colour classes, distinct from each other and from a plain tag.
    expect(tags[0].className).not.toBe('')
    expect(tags[2].className).not.toBe('')
    expect(tags[0].className).not.toBe(tags[2].className)
    expect(tags[1].className).toBe('')
  })

  it('no Registered tag when the student is not a participant; only the first cards load eagerly', async () => {
    const list = [1, 2, 3, 4].map((n) => detail({ id: 30 + n, state: 'UPCOMING', tags: ['Music'] }))
    const root = await openHome({ events: list })
    const cards = await waitFor(() => cardsOf(root, 'Trending Events'))
    expect(cards[0].querySelectorAll('li')).toHaveLength(1)
    expect(root.textContent).not.toContain('Registered')
    const loading = [...root.querySelectorAll('main li > a > div:first-child img')].map((i) => i.getAttribute('loading'))
    expect(loading.slice(0, 2)).toEqual(['eager', 'eager'])
    expect(loading.slice(2).every((l) => l === 'lazy')).toBe(true)
  })

  it('shows an empty state when there are no events at all', async () => {
    const root = await openHome({ events: [] })
    await waitFor(() => getByText(root, /No events yet/, 'p'))
    expect(sectionTitles(root)).toEqual([])
  })

  it('shows the events error with Try again, which fetches again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    localStorage.setItem('accessToken', 'A')
    localStorage.setItem('refreshToken', 'R')
    let fail = true
    fakeServer({
      '/user/p/me': () => [200, { error: false, user: student() }],
      '/event/p/get': () =>
        fail
          ? [500, { error: true, message: 'Database unavailable' }]
          : [200, { error: false, events: { UPCOMING: [detail({ id: 41, name: 'Back again', state: 'UPCOMING' })] } }],
    })
    go('/')
    const root = mount(<App />)
    await waitFor(() => getByText(root, /Database unavailable/, 'p'))
    fail = false
    await click(getByText(root, 'Try again', 'button'))
    await waitFor(() => getByText(root, 'Back again', 'h3'))
    expect(root.querySelector('main [role=alert]')).toBeNull()
  })
})
