// Event details through the real app, client and stores against a fake server: what the screen shows, the
// action button per state and its flows (labels during and after, toasts, revert on failure), the rating
// popup, share, and an unknown event.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DetailParticipant, EventDetail } from '../../contract/types.ts'
import { FEEDBACK_PARTICIPANTS_ONLY, FEEDBACK_TICKET_HOLDERS_ONLY } from '../../src/lib/feedback.ts'
import { showToast } from '../../src/components/toast/index.tsx'
import { buildEventDetail } from '../../src/stores/event-detail.ts'
import { events, room } from '../../src/models.ts'

const eventDetail = room(buildEventDetail)
import { detail, gate, openEventDetails, type World } from './event-fixtures.ts'
import { participant } from '../fixtures/events.ts'
import { cleanup, click, find, getByText, settle, waitFor } from './session-fakes.ts'

beforeEach(() => {
  // The toast is app-wide and outlives a test by 3 s: start each test from an empty one.
  showToast('')
})
afterEach(() => {
  cleanup()
  eventDetail.reset()
  vi.restoreAllMocks()
})

const open = (world: World, id: number) => openEventDetails(world, id, 'article, main [role=alert]')

const bar = (root: HTMLElement) => {
  const el = [...root.querySelectorAll<HTMLElement>('article > div')].at(-1)
  if (!el) throw new Error('no action bar')
  return el.firstElementChild as HTMLButtonElement | HTMLAnchorElement
}
const toastText = () => [...document.querySelectorAll('.toast')].map((t) => t.textContent).join('|')

describe('event details: what it shows', () => {
  it('shows image, date and time in IST, venue split, 500 participants, fee, activity, about text and calendar link', async () => {
    const e = detail({
      name: 'HackKJSCE',
      dates: ['2026-11-21T13:00:00Z'],
      venue: 'Auditorium Main Building',
      fee: 1500,
      in_event_activity: 'https://activity.example/hk',
      long_description: 'Bring a laptop.\n<b>No</b> markup here',
    })
    const { root } = await open({ events: [e] }, e.id)
    expect(root.querySelector('h1')!.textContent).toBe('HackKJSCE')
    const img = root.querySelector<HTMLImageElement>('article > img')!
    expect(img.getAttribute('src')).toBe(e.event_page_image_url)
    expect(img.getAttribute('alt')).toBe('HackKJSCE')
    expect(getByText(root, 'Sat, 21 Nov 2026, 06:30 PM')).toBeTruthy()
    expect(getByText(root, 'Auditorium', 'strong')).toBeTruthy()
    expect(getByText(root, 'Auditorium', 'strong').parentElement!.textContent).toBe('Auditorium Main Building')
    expect(getByText(root, '500', 'dd')).toBeTruthy()
    expect(getByText(root, '₹1,500', 'dd')).toBeTruthy()
    const activity = getByText(root, 'Event Activity', 'a') as HTMLAnchorElement
    expect(activity.getAttribute('href')).toBe('https://activity.example/hk')
    expect(activity.getAttribute('target')).toBe('_blank')
    expect(activity.getAttribute('rel')).toContain('noopener')
    expect(getByText(root, 'About the Event', 'h2')).toBeTruthy()
    const about = getByText(root, 'About the Event', 'h2').nextElementSibling!
    expect(about.textContent).toBe('Bring a laptop.\n<b>No</b> markup here') // text, never markup
    expect(about.querySelector('b')).toBeNull()
    const cal = getByText(root, 'Add to calendar', 'a') as HTMLAnchorElement
    expect(cal.href).toContain('calendar.google.com')
    expect(cal.href).toContain('ctz=Asia%2FKolkata')
    expect(cal.getAttribute('rel')).toContain('noopener')
  })

  it("a parent's details list its children, each with its state label and a link to its details (issue 14)", async () => {
    const parent = detail({ id: 400, name: 'Techfest', children: [{ id: 401 }, { id: 402 }], long_description: 'Pick an event below to register.' })
    const kids = [
      detail({ id: 401, name: 'Robo Race', state: 'REGISTRATION_OPEN', parent_id: 400, dates: ['2026-11-29T04:30:00Z'] }),
      detail({ id: 402, name: 'Tech Quiz', state: 'REGISTRATION_CLOSED', parent_id: 400 }),
    ]
    const { root } = await open({ events: [parent, ...kids] }, 400)
    const section = await waitFor(() => getByText(root, 'Events in Techfest', 'h2').closest('section')!)
    const links = [...section.querySelectorAll<HTMLAnchorElement>('li > a')]
    expect(links.map((a) => [...a.children].map((c) => c.textContent))).toEqual([
      ['Robo Race', 'Sun, 29 Nov 2026', 'Registrations Open'],
      ['Tech Quiz', 'Sat, 21 Nov 2026', 'Registration Closed'],
    ])
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/event-details/401', '/event-details/402'])
  })

  it('a childless event has no list of events', async () => {
    const e = detail({ children: [] })
    const { root } = await open({ events: [e] }, e.id)
    expect(root.textContent).not.toContain('Events in')
  })

  it("shows 'Free' for a fee of 0 and no activity link without in_event_activity", async () => {
    const e = detail({ fee: 0 })
    const { root } = await open({ events: [e] }, e.id)
    expect(getByText(root, 'Free', 'dd')).toBeTruthy()
    expect(() => getByText(root, 'Event Activity', 'a')).toThrow()
  })

  it("an unknown id shows 'Event not found' with a link home", async () => {
    const { root } = await open({ events: [] }, 999)
    await waitFor(() => getByText(root, 'Event not found', 'h1'))
    expect(getByText(root, 'Go to Home', 'a').getAttribute('href')).toBe('/')
  })

  it('an id that is not a number is not found, without asking the server', async () => {
    const { root, server } = await open({ events: [] }, 'abc' as unknown as number)
    await waitFor(() => getByText(root, 'Event not found', 'h1'))
    expect(server.requests.some((r) => r.path.startsWith('/event/p/get/'))).toBe(false)
  })

  it('a network failure shows the message and Try again fetches again', async () => {
    const e = detail()
    let fail = true
    const { root } = await open(
      { events: [e], extra: { [`/event/p/get/${e.id}`]: () => (fail ? [503, { error: true, message: 'Server busy' }] : [200, { error: false, event: e }]) } },
      e.id,
    )
    await waitFor(() => getByText(root, /Server busy/, 'p'))
    fail = false
    await click(getByText(root, 'Try again', 'button'))
    await waitFor(() => getByText(root, e.name, 'h1'))
  })

  it('share uses navigator.share with title, url and description', async () => {
    const e = detail({ name: 'Share me', description: 'Come along' })
    const shared = vi.fn(async (_: ShareData) => {})
    Object.defineProperty(navigator, 'share', { value: shared, configurable: true })
    try {
      const { root } = await open({ events: [e] }, e.id)
      await click(root.querySelector<HTMLButtonElement>('button[aria-label="Share this event"]')!)
      expect(shared).toHaveBeenCalledWith({ title: 'Share me', text: 'Come along', url: location.href })
      expect(location.href).toContain(`/event-details/${e.id}`)
    } finally {
      delete (navigator as { share?: unknown }).share
    }
  })

  it('without navigator.share the link is copied with a toast', async () => {
    const e = detail()
    const writeText = vi.fn(async (_: string) => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const { root } = await open({ events: [e] }, e.id)
    await click(root.querySelector<HTMLButtonElement>('button[aria-label="Share this event"]')!)
    await waitFor(() => expect(toastText()).toBe('Link copied'))
    expect(writeText).toHaveBeenCalledWith(location.href)
  })
})

describe('event details: the action button', () => {
  const cases: [string, Partial<EventDetail>, string, 'button' | 'a', boolean, string?][] = [
    ['team event, not registered', { ma_ppt: 4 }, 'Register', 'a', false, '/team-register/'],
    [
      'team event, registered',
      { ma_ppt: 4, Participant: participant({ id: 1, ticket_collected: false, ticket_code: null, team: null }) },
      'View Team',
      'a',
      false,
      '/team-details/',
    ],
    ['registration closed', { state: 'REGISTRATION_CLOSED' }, 'Registration Closed', 'button', true],
    ['upcoming', { state: 'UPCOMING' }, 'Registrations Opening Soon', 'button', true],
    [
      'ticket collected',
      { state: 'TICKET_CLOSED', Participant: participant({ id: 1, ticket_collected: true, ticket_code: 'K7Q2X9M4P8Z1', team: null }) },
      'View Ticket',
      'a',
      false,
      '/ticket/',
    ],
    [
      'ongoing, external',
      { state: 'ONGOING', registration_type: 'EXTERNAL', external_registration_link: 'https://forms.example/x' },
      'Register',
      'a',
      false,
      'https://forms.example/x',
    ],
    [
      'ongoing, activity',
      { state: 'ONGOING', start_in_event_activity: true, in_event_activity: 'https://act.example/y' },
      'Follow Activity',
      'a',
      false,
      'https://act.example/y',
    ],
    ['ongoing', { state: 'ONGOING' }, 'Event is Ongoing', 'button', true],
  ]
  it.each(cases)('%s → %s', async (_, over, label, tag, disabled, href) => {
    const e = detail(over)
    const { root } = await open({ events: [e] }, e.id)
    const button = bar(root)
    expect(button.tagName.toLowerCase()).toBe(tag)
    expect(button.textContent).toBe(label)
    if (tag === 'button') expect((button as HTMLButtonElement).disabled).toBe(disabled)
    if (href) {
      const expected = href.startsWith('/') ? href + e.id : href
      expect(button.getAttribute('href')).toBe(expected)
      if (!href.startsWith('/')) expect(button.getAttribute('target')).toBe('_blank')
    }
  })

  it("Register: 'Registering' with a spinner, then 'Registered', the toast, and the list updated, in one round trip (issue 9)", async () => {
    const e = detail({ state: 'REGISTRATION_OPEN' })
    const held = gate()
    const world: World = { events: [e] }
    world.extra = {
      '/event/p/register-for-event': async (body) => {
        await held.opened
        world.events = [{ ...e, Participant: participant({ id: 5, ticket_collected: false, ticket_code: null, team: null }) }]
        return [200, { error: false, message: `Registered for ${body.event_id}` }]
      },
    }
    const { root, server } = await open(world, e.id)
    await waitFor(() => expect(events.loaded.value).toBe(true))
    const before = server.requests.length
    expect(bar(root).textContent).toBe('Register')
    await click(bar(root))
    await waitFor(() => expect(bar(root).textContent).toBe('Registering'))
    expect((bar(root) as HTMLButtonElement).disabled).toBe(true)
    expect(bar(root).querySelector('.spinner')).not.toBeNull()
    held.release()
    await waitFor(() => expect(bar(root).textContent).toBe('Registered'))
    expect((bar(root) as HTMLButtonElement).disabled).toBe(true)
    expect(toastText()).toBe('Registration Successful!!')
    expect(server.calls('/event/p/register-for-event')[0].body).toEqual({ event_id: e.id })
    // The answer is written into the event and the list: no refetch of either.
    await settle()
    expect(server.requests.slice(before).map((r) => r.path)).toEqual(['/event/p/register-for-event'])
    expect(events.all.value.find((x) => x.id === e.id)?.Participant).toEqual({ ticket_collected: false, team: null })
  })

  it('the registration toast goes after 3 seconds', async () => {
    const e = detail()
    const { root } = await open({ events: [e], extra: { '/event/p/register-for-event': () => [200, { error: false, message: 'ok' }] } }, e.id)
    await click(bar(root))
    await waitFor(() => expect(toastText()).toBe('Registration Successful!!'))
    const shownAt = Date.now()
    await waitFor(() => expect(toastText()).toBe(''), 4000)
    expect(Date.now() - shownAt).toBeGreaterThan(2800)
  }, 8000)

  it("Register failing goes back to 'Register' with no message, and logs", async () => {
    const e = detail()
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const { root } = await open(
      { events: [e], extra: { '/event/p/register-for-event': () => [409, { error: true, message: 'You are already registered' }] } },
      e.id,
    )
    await click(bar(root))
    await waitFor(() => expect(bar(root).textContent).toBe('Register'))
    expect((bar(root) as HTMLButtonElement).disabled).toBe(false)
    expect(toastText()).toBe('')
    expect(log).toHaveBeenCalled()
  })

  it("RSVP: 'RSVPing', then 'View Ticket' linking to the ticket, plus the server's message as a toast, in one round trip (issue 9)", async () => {
    const registered = participant({ id: 5, ticket_collected: false, ticket_code: null, team: null })
    const e = detail({ state: 'TICKET_OPEN', is_ticket_feature_enabled: true, ticket_count: 10, tickets_sold: 3, Participant: registered })
    const held = gate()
    const world: World = { events: [e] }
    world.extra = {
      '/event/p/claim-ticket': async () => {
        await held.opened
        world.events = [{ ...e, Participant: { ...registered, ticket_collected: true, ticket_code: 'ABC123' } }]
        return [200, { error: false, message: 'Ticket collected', ticket_code: 'ABC123' }]
      },
    }
    const { root, server } = await open(world, e.id)
    await waitFor(() => expect(events.loaded.value).toBe(true))
    const before = server.requests.length
    expect(bar(root).textContent).toBe('RSVP for this event')
    await click(bar(root))
    await waitFor(() => expect(bar(root).textContent).toBe('RSVPing'))
    held.release()
    await waitFor(() => expect(bar(root).textContent).toBe('View Ticket'))
    expect(bar(root).getAttribute('href')).toBe(`/ticket/${e.id}`)
    expect(toastText()).toBe('Ticket collected')
    await settle()
    expect(server.requests.slice(before).map((r) => r.path)).toEqual(['/event/p/claim-ticket'])
    expect(eventDetail.event.value?.Participant).toMatchObject({ ticket_collected: true, ticket_code: 'ABC123' })
    expect(eventDetail.event.value?.tickets_sold).toBe(4)
  })

  it("RSVP failing (sold out meanwhile) goes back to 'RSVP for this event' with no message", async () => {
    const e = detail({
      state: 'TICKET_OPEN',
      is_ticket_feature_enabled: true,
      ticket_count: 10,
      tickets_sold: 3,
      Participant: participant({ id: 5, ticket_collected: false, ticket_code: null, team: null }),
    })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { root } = await open({ events: [e], extra: { '/event/p/claim-ticket': () => [409, { error: true, message: 'Sold out' }] } }, e.id)
    await click(bar(root))
    await waitFor(() => expect(bar(root).textContent).toBe('RSVP for this event'))
    expect(toastText()).toBe('')
  })

  it("a sold-out RSVP on a stale page reverts with no message, then refetches so the button reads 'Tickets Sold Out' (issue 14)", async () => {
    const registered = participant({ id: 5, ticket_collected: false, ticket_code: null, team: null })
    const stale = detail({ state: 'TICKET_OPEN', is_ticket_feature_enabled: true, ticket_count: 10, tickets_sold: 9, Participant: registered })
    const world: World = { events: [stale] }
    const held = gate()
    world.extra = {
      '/event/p/claim-ticket': async () => {
        await held.opened
        // Someone else took the last ticket since this page was loaded.
        world.events = [{ ...stale, tickets_sold: 10 }]
        return [409, { error: true, message: 'Tickets are sold out.' }]
      },
    }
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { root, server } = await open(world, stale.id)
    const fetchesBefore = server.calls(`/event/p/get/${stale.id}`).length
    await click(bar(root))
    await waitFor(() => expect(bar(root).textContent).toBe('RSVPing'))
    held.release()
    await waitFor(() => expect(bar(root).textContent).toBe('Tickets Sold Out'))
    expect((bar(root) as HTMLButtonElement).disabled).toBe(true)
    expect(server.calls(`/event/p/get/${stale.id}`).length).toBe(fetchesBefore + 1)
    expect(toastText()).toBe('') // SPEC §8: no message
  })

  it("RSVP answered 503 by a server shedding a burst is retried, the button staying 'RSVPing' (issue 15)", async () => {
    const registered = participant({ id: 5, ticket_collected: false, ticket_code: null, team: null })
    const e = detail({ state: 'TICKET_OPEN', is_ticket_feature_enabled: true, ticket_count: 10, tickets_sold: 3, Participant: registered })
    const seen: string[] = []
    let tries = 0
    const world: World = { events: [e] }
    world.extra = {
      '/event/p/claim-ticket': () => {
        seen.push(bar(document.body).textContent ?? '')
        return ++tries < 3 ? [503, { error: true, message: 'The server is busy.' }] : [200, { error: false, message: 'Ticket claimed!', ticket_code: 'R1' }]
      },
    }
    const { root, server } = await open(world, e.id)
    // The fake server sends no Retry-After: each retry waits 1 to 1.5 s.
    await click(bar(root))
    await waitFor(() => expect(bar(root).textContent).toBe('View Ticket'), 6000)
    expect(server.calls('/event/p/claim-ticket')).toHaveLength(3)
    // While each retry goes out the button still says RSVPing (the first leaves before the screen re-renders).
    expect(seen.slice(1)).toEqual(['RSVPing', 'RSVPing'])
    expect(toastText()).toBe('Ticket claimed!')
  }, 10_000)

  it('Give Feedback opens the popup; Submit sends the rating, thanks, and closes', async () => {
    const e = detail({ state: 'COMPLETED', Participant: participant({ id: 5, ticket_collected: true, ticket_code: 'X', team: null }) })
    const { root, server } = await open({ events: [e], extra: { '/event/p/rate': () => [200, { error: false, message: 'Thanks' }] } }, e.id)
    expect(bar(root).textContent).toBe('Give Feedback')
    await click(bar(root))
    const dialog = await waitFor(
      () =>
        root.querySelector<HTMLElement>('[role=dialog]') ??
        (() => {
          throw new Error('no dialog')
        })(),
    )
    const submit = getByText(dialog, 'Submit', 'button') as HTMLButtonElement
    expect(submit.disabled).toBe(true)
    const four = dialog.querySelector<HTMLInputElement>('input[aria-label="4 stars"]')!
    four.click()
    await settle()
    expect(submit.disabled).toBe(false)
    await click(submit)
    await waitFor(() => expect(root.querySelector('[role=dialog]')).toBeNull())
    expect(server.calls('/event/p/rate')[0].body).toEqual({ event_id: e.id, rating: 4 })
    expect(toastText()).toBe('Thank you for your feedback!')
  })

  it('a refused rating keeps the popup open and shows why', async () => {
    const e = detail({ state: 'COMPLETED', Participant: participant({ id: 5 }) })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { root } = await open(
      { events: [e], extra: { '/event/p/rate': () => [403, { error: true, message: 'Only participants can rate this event' }] } },
      e.id,
    )
    await click(bar(root))
    const dialog = await waitFor(() => find(root, '[role=dialog]'))
    dialog.querySelector<HTMLInputElement>('input[aria-label="1 star"]')!.click()
    await settle()
    await click(getByText(dialog, 'Submit', 'button'))
    await waitFor(() => expect(toastText()).toBe('Only participants can rate this event'))
    expect(root.querySelector('[role=dialog]')).not.toBeNull()
  })

  it('Give Feedback for a student who did not take part says who can rate, with no stars, and sends nothing (issue 14)', async () => {
    const e = detail({ state: 'COMPLETED', Participant: false })
    const { root, server } = await open({ events: [e] }, e.id)
    expect(bar(root).textContent).toBe('Give Feedback') // SPEC §4: the button stays
    await click(bar(root))
    const dialog = await waitFor(() => find(root, '[role=dialog]'))
    expect(dialog.textContent).toContain(FEEDBACK_PARTICIPANTS_ONLY)
    expect(dialog.querySelector('input')).toBeNull()
    expect(() => getByText(dialog, 'Submit', 'button')).toThrow()
    await click(getByText(dialog, 'Close', 'button'))
    await waitFor(() => expect(root.querySelector('[role=dialog]')).toBeNull())
    expect(server.calls('/event/p/rate')).toEqual([])
  })

  it('Give Feedback for a registered student without a ticket at a ticketed event says only ticket holders can rate (issue 20 item 6)', async () => {
    const e = detail({ state: 'COMPLETED', is_ticket_feature_enabled: true, ticket_count: 50, Participant: participant({ id: 5, ticket_collected: false }) })
    const { root, server } = await open({ events: [e] }, e.id)
    // SPEC §4 "COMPLETED | any": not a disabled 'Event Completed' with no reason.
    expect(bar(root).textContent).toBe('Give Feedback')
    expect((bar(root) as HTMLButtonElement).disabled).toBe(false)
    await click(bar(root))
    const dialog = await waitFor(() => find(root, '[role=dialog]'))
    expect(dialog.textContent).toContain(FEEDBACK_TICKET_HOLDERS_ONLY)
    expect(dialog.querySelector('input')).toBeNull()
    await click(getByText(dialog, 'Close', 'button'))
    expect(server.calls('/event/p/rate')).toEqual([])
  })

  it("reopening Give Feedback after rating shows the student's own rating, as the server now holds it (issue 14)", async () => {
    const world: World = { events: [detail({ state: 'COMPLETED', Participant: participant({ id: 5 }) })] }
    const e = world.events[0]
    world.extra = {
      '/event/p/rate': (body) => {
        world.events = [{ ...e, Participant: { ...(e.Participant as DetailParticipant), rating: body.rating } }]
        return [200, { error: false, message: 'Thank you for your feedback!' }]
      },
    }
    const { root } = await open(world, e.id)
    await click(bar(root))
    let dialog = await waitFor(() => find(root, '[role=dialog]'))
    expect(dialog.querySelector<HTMLInputElement>('input:checked')).toBeNull()
    dialog.querySelector<HTMLInputElement>('input[aria-label="3 stars"]')!.click()
    await settle()
    await click(getByText(dialog, 'Submit', 'button'))
    await waitFor(() => expect(root.querySelector('[role=dialog]')).toBeNull())
    await waitFor(() => expect((eventDetail.event.value!.Participant as DetailParticipant).rating).toBe(3))

    await click(bar(root))
    dialog = await waitFor(() => find(root, '[role=dialog]'))
    expect(dialog.querySelector<HTMLInputElement>('input:checked')!.getAttribute('aria-label')).toBe('3 stars')
    expect(dialog.textContent).toContain('You rated it 3 stars.')
  })
})
