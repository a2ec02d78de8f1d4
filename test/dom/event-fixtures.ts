// Events for the DOM tests of the event screens, and a fake server that answers the session calls plus the
// event calls from a small in-memory state, so flows (register → refetch) behave like the real server.
import { h } from 'preact'
import type { Council, EventDetail, EventSummary, MyEvent } from '../../contract/types.ts'
import { App } from '../../src/app.tsx'
import { eventDetail, eventSummary, grouped, newEventId } from '../fixtures/events.ts'
import { fakeServer, go, mount, student, waitFor, type Handler } from './session-fakes.ts'

export { grouped }

/** What the event screens show (pictures, a date, a venue, an organiser), so the tests can look for it. */
const shown = (id: number): Partial<Omit<EventSummary, 'Participant'>> => ({
  name: `Event ${id}`,
  description: `Short about ${id}`,
  event_page_image_url: `https://img.example/${id}.png`,
  banner_url: `https://img.example/${id}-banner.png`,
  dates: ['2026-11-21T13:00:00Z'], // 06:30 PM IST
  venue: 'Auditorium Main Building',
  organizer: { id: 1, name: 'CSI Council', photo_url: 'https://img.example/csi.png' },
})

export function summary(over: Partial<EventSummary> = {}): EventSummary {
  const id = over.id ?? newEventId()
  return eventSummary({ ...shown(id), ...over, id })
}

export function detail(over: Partial<EventDetail> = {}): EventDetail {
  const id = over.id ?? newEventId()
  return eventDetail({ ...shown(id), long_description: 'Line one\nLine two', ...over, id })
}

/** The detail's list form (what POST /event/p/get holds). */
export function toSummary(e: EventDetail): EventSummary {
  const { long_description: _, Participant: p, ...rest } = e
  return { ...rest, Participant: p && { ticket_collected: p.ticket_collected, team: p.team && { id: p.team.id, name: p.team.name } } }
}

export interface World {
  user?: ReturnType<typeof student>
  events: EventDetail[]
  /** Events only reachable by id (not in the list), e.g. hidden parents. */
  hidden?: EventDetail[]
  councils?: Council[] | (() => [number, unknown])
  my?: MyEvent[]
  extra?: Record<string, Handler>
}

/** A fake API over `world`: lists and details read it on every call, so tests can change it between calls. */
export function eventsServer(world: World) {
  const byId = (id: number) => [...world.events, ...(world.hidden ?? [])].find((e) => e.id === id)
  return fakeServer({
    '/user/p/me': () => [200, { error: false, user: world.user ?? student() }],
    '/event/p/get': () => [200, { error: false, events: grouped(world.events.map(toSummary)) }],
    '/event/p/get/me': () => [200, { error: false, events: world.my ?? [] }],
    '/council/p/get': () => (typeof world.councils === 'function' ? world.councils() : [200, { error: false, councils: world.councils ?? [] }]),
    ...Object.fromEntries(
      [...world.events, ...(world.hidden ?? [])].map((e) => [
        `/event/p/get/${e.id}`,
        () => {
          const now = byId(e.id)
          return now ? [200, { error: false, event: now }] : [404, { error: true, message: 'Event not found' }]
        },
      ]),
    ),
    ...world.extra,
  })
}

/** Resolves when `release()` is called: lets a test look at the screen while a call is in flight. */
export function gate() {
  let release!: () => void
  const opened = new Promise<void>((r) => (release = r))
  return { opened, release }
}

/** A signed-in student opens /event-details/<id> on `world`'s server; answers once `ready` (a selector) is shown. */
export async function openEventDetails(world: World, id: number, ready: string) {
  localStorage.setItem('accessToken', 'A')
  localStorage.setItem('refreshToken', 'R')
  const server = eventsServer(world)
  go(`/event-details/${id}`)
  const root = mount(h(App, null))
  await waitFor(
    () =>
      root.querySelector(ready) ??
      (() => {
        throw new Error('not yet')
      })(),
  )
  return { root, server }
}
