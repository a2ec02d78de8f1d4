// The organiser console (issue 11) through the real app, client, store and lazy screens, against a fake server:
// Profile's links by role, who may open /manage, My events with live counts, a manual state move confirmed with
// what students will see, the editor's messages on touch and the server's under its field, door volunteers, and
// the participants' search and teams.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { OrgEvent, ParticipantRow } from '../../contract/types.ts'
import { App } from '../../src/app.tsx'
import { STUDENTS_SEE } from '../../src/lib/state-moves.ts'
import { buildOrg } from '../../src/stores/org.ts'
import { room } from '../../src/models.ts'

const org = room(buildOrg)
import { eventDetail } from '../fixtures/events.ts'
import { blur, choose, cleanup, click, fakeServer, find, getByText, go, mount, student, typeInto, waitFor, type Handler } from './session-fakes.ts'

afterEach(() => {
  cleanup()
  org.reset()
  vi.restoreAllMocks()
})

const organiser = student({ roles: { admin: false, councils: [1], door_events: [] } })

function orgEvent(over: Partial<OrgEvent> = {}): OrgEvent {
  const { Participant: _, ...detail } = eventDetail({
    id: 5,
    name: 'Hack Night',
    organizer: { id: 1, name: 'CSI Council', photo_url: null },
    ...(over as object),
  })
  return {
    ...detail,
    state: 'DRAFT',
    counts: { registered: 12, teams: 4, tickets_sold: 7, checked_in: 3, waitlist: 2, ratings: { count: 2, average: 4.5, by_star: [0, 0, 0, 1, 1] } },
    ...over,
  } as OrgEvent
}

function open(
  path: string,
  user = organiser,
  extra: Record<string, Handler> = {},
  events: OrgEvent[] = [orgEvent({ is_ticket_feature_enabled: true, ticket_count: 50 })],
) {
  localStorage.setItem('accessToken', 'A')
  localStorage.setItem('refreshToken', 'R')
  const server = fakeServer({
    '/user/p/me': () => [200, { error: false, user }],
    '/event/p/get': () => [200, { error: false, events: {} }],
    '/org/p/events': () => [200, { error: false, events }],
    '/org/p/councils': () => [
      200,
      { error: false, councils: [{ id: 1, name: 'CSI Council', photo_url: null, phone_number: null, email: null, organizers: [] }] },
    ],
    ...extra,
  })
  go(path)
  return { root: mount(<App />), server }
}

describe('profile links', () => {
  it.each([
    ['a student', [], student()],
    ['an organiser', ['Organiser console', 'Door check-in'], organiser],
    ['an admin', ['Organiser console', 'Door check-in'], student({ roles: { admin: true, councils: [], door_events: [] } })],
    ['a door volunteer', ['Door check-in'], student({ roles: { admin: false, councils: [], door_events: [3] } })],
  ])('%s sees the links %j', async (_who, links, user) => {
    const { root } = open('/profile', user)
    await waitFor(() => getByText(root, 'My Profile', 'h1'))
    const shown = ['Organiser console', 'Door check-in'].filter((name) => [...root.querySelectorAll('a')].some((a) => a.textContent?.trim() === name))
    expect(shown).toEqual(links)
  })
})

describe('console', () => {
  it('a student opening /manage is told the console is for organisers, and no organiser call is made', async () => {
    const { root, server } = open('/manage', student())
    await waitFor(() => getByText(root, /is for council organisers/, 'p'))
    expect(server.calls('/org/p/events')).toHaveLength(0)
  })

  it('lets /manage be used in landscape (html.wide), and not the student screens', async () => {
    const { root } = open('/manage')
    await waitFor(() => getByText(root, 'My events', 'h1'))
    expect(document.documentElement.classList.contains('wide')).toBe(true)
    await click(getByText(root, 'Profile', 'span').closest('a')!)
    await waitFor(() => getByText(root, 'My Profile', 'h1'))
    expect(document.documentElement.classList.contains('wide')).toBe(false)
  })

  it('My events shows each event with its state and live counts', async () => {
    const { root } = open('/manage')
    const card = (await waitFor(() => getByText(root, 'Hack Night', 'h2'))).closest('li')!
    expect(card.textContent).toContain('Draft')
    const counts = Object.fromEntries(
      [...card.querySelectorAll('dl > div')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]),
    )
    expect(counts).toEqual({ registered: '12', teams: '4', 'tickets sold': '7 of 50', 'checked in': '3', waitlist: '2', '2 ratings': '4.5 ★' })
  })

  it('a manual move says what students will see, then sends the state', async () => {
    const moved: unknown[] = []
    const { root } = open('/manage/event/5', organiser, {
      '/org/p/event/state': (body) => {
        moved.push(body)
        return [200, { error: false, event: orgEvent({ state: body.state }) }]
      },
      '/org/p/event/staff': () => [200, { error: false, staff: [] }],
    })
    await waitFor(() => getByText(root, 'Draft', 'strong'))
    expect(root.textContent).toContain('A draft never moves by itself')
    await choose(find<HTMLSelectElement>(root, '#move-to'), 'REGISTRATION_OPEN')
    await click(getByText(root, 'Move', 'button'))
    const dialog = await waitFor(() => find(document.body, '[role="dialog"]'))
    expect(dialog.textContent).toContain(STUDENTS_SEE.REGISTRATION_OPEN)
    await click(getByText(dialog, 'Confirm', 'button'))
    await waitFor(() => getByText(root, 'Registration open', 'strong'))
    expect(moved).toEqual([{ event_id: 5, state: 'REGISTRATION_OPEN' }])
  })

  it('door volunteers: added by e-mail, the server refusal shown, removed', async () => {
    let staff = [{ id: 8, name: 'Vol One', email: 'vol@example.edu' }]
    const { root, server } = open('/manage/event/5', organiser, {
      '/org/p/event/staff': (body) => {
        if (body.email === 'nobody@example.edu') return [404, { error: true, message: 'No user with that e-mail has signed in yet.' }]
        if (body.email) staff = body.remove ? staff.filter((p) => p.email !== body.email) : [...staff, { id: 9, name: 'Vol Two', email: body.email }]
        return [200, { error: false, staff }]
      },
    })
    await waitFor(() => getByText(root, /Vol One/, 'li'))
    const input = find<HTMLInputElement>(root, '#staff-email')
    await typeInto(input, 'nobody@example.edu')
    await click(getByText(root, 'Add', 'button'))
    await waitFor(() => getByText(root, 'No user with that e-mail has signed in yet.', 'p'))
    await typeInto(input, 'two@example.edu')
    await click(getByText(root, 'Add', 'button'))
    await waitFor(() => getByText(root, /Vol Two/, 'li'))
    await click(find(root, '[aria-label="Remove Vol One"]'))
    await waitFor(() => expect(root.textContent).not.toContain('Vol One'))
    expect(server.calls('/org/p/event/staff').map((c) => c.body)).toEqual([
      { event_id: 5 },
      { event_id: 5, email: 'nobody@example.edu', remove: false },
      { event_id: 5, email: 'two@example.edu', remove: false },
      { event_id: 5, email: 'vol@example.edu', remove: true },
    ])
  })

  it('an admin adds a council’s organiser by e-mail (the refusal under the field), then removes them', async () => {
    const admin = student({ roles: { admin: true, councils: [], door_events: [] } })
    let organizers: { id: number; name: string; email: string }[] = []
    const { root, server } = open('/manage/admin', admin, {
      '/org/p/council/organizers': (body) => {
        if (body.email === 'nobody@example.edu') return [404, { error: true, message: 'No user with that e-mail has signed in yet.' }]
        organizers = body.remove ? organizers.filter((p) => p.email !== body.email) : [...organizers, { id: 9, name: 'Ria Org', email: body.email }]
        return [200, { error: false, organizers }]
      },
    })
    const input = await waitFor(() => find<HTMLInputElement>(root, '#org-1'))
    expect(root.querySelector('label[for="org-1"]')?.textContent).toBe('E-mail of an organiser')
    await click(getByText(root, 'Add', 'button'))
    await waitFor(() => getByText(root, 'E-mail is required', 'p'))
    await typeInto(input, 'nobody@example.edu')
    await click(getByText(root, 'Add', 'button'))
    const refusal = await waitFor(() => getByText(root, 'No user with that e-mail has signed in yet.', 'p'))
    expect(input.getAttribute('aria-describedby')).toBe(refusal.id)
    await typeInto(input, 'ria@example.edu')
    await click(getByText(root, 'Add', 'button'))
    await waitFor(() => getByText(root, /Ria Org/, 'li'))
    expect(input.value).toBe('')
    await click(find(root, '[aria-label="Remove Ria Org from CSI Council"]'))
    await waitFor(() => expect(root.textContent).not.toContain('Ria Org'))
    expect(server.calls('/org/p/council/organizers').map((c) => c.body)).toEqual([
      { council_id: 1, email: 'nobody@example.edu', remove: false },
      { council_id: 1, email: 'ria@example.edu', remove: false },
      { council_id: 1, email: 'ria@example.edu', remove: true },
    ])
  })

  it('the editor checks a field on touch, sends the event, and shows a server message under the field it names', async () => {
    let answer: [number, unknown] = [400, { error: true, message: 'fee must be a whole number from 0 to 1000000' }]
    const { root, server } = open('/manage/event/new', organiser, { '/org/p/event/save': () => answer })
    const name = await waitFor(() => find<HTMLInputElement>(root, '#f-name'))
    await blur(name)
    // In plain words (issue 22 item 7): the contract says 'name is a required field'.
    await waitFor(() => getByText(root, 'Name is required', 'p'))
    expect(name.getAttribute('aria-invalid')).toBe('true')
    await typeInto(name, 'Hack Night')
    expect(root.textContent).not.toContain('Name is required')
    await typeInto(find<HTMLInputElement>(root, '#f-registration_closes_at'), '2026-11-30T18:00')
    await typeInto(find<HTMLInputElement>(root, '#f-registration_opens_at'), '2026-12-01T18:00')
    await blur(find<HTMLInputElement>(root, '#f-registration_opens_at'))
    await waitFor(() => getByText(root, '“Registration closes” must be after “Registration opens”', 'p'))
    await typeInto(find<HTMLInputElement>(root, '#f-registration_closes_at'), '')
    await click(getByText(root, 'Create draft', 'button'))
    await waitFor(() => getByText(root, 'Fee must be a whole number from 0 to 1000000', 'p'))
    expect(find(root, '#f-fee').getAttribute('aria-invalid')).toBe('true')
    const sent = server.calls('/org/p/event/save')[0].body
    expect(sent).toMatchObject({ name: 'Hack Night', organizer_id: 1, fee: 0, min_ppt: 1, ma_ppt: 1, parent_id: null, questions: [] })
    expect(sent.schedule.registration_opens_at).toBe('2026-12-01T18:00:00+05:30')
    // The preview shows the card as students will see it.
    await waitFor(() => expect(getByText(find(root, 'aside'), 'Hack Night', 'h3').closest('a')).toBeTruthy())

    answer = [200, { error: false, event: orgEvent({ id: 6, name: 'Hack Night' }) }]
    await click(getByText(root, 'Create draft', 'button'))
    await waitFor(() => expect(location.pathname).toBe('/manage/event/6'))
  })

  it('a question marked "show at the door" (issue 25 item 4): its checkbox shows the stored flag and the save sends it', async () => {
    const questions = [
      { id: 'sz', label: 'T-shirt size', kind: 'CHOICE' as const, options: ['S', 'M'], required: false, show_at_door: true },
      { id: 'ph', label: 'Phone', kind: 'TEXT' as const, options: [], required: false },
    ]
    const { root, server } = open('/manage/event/5/edit', organiser, { '/org/p/event/save': () => [200, { error: false, event: orgEvent({ questions }) }] }, [
      orgEvent({ questions }),
    ])
    const boxes = await waitFor(() => {
      const found = [...root.querySelectorAll<HTMLInputElement>('fieldset input[type=checkbox]')].filter((b) =>
        b.parentElement!.textContent!.includes('Show at the door'),
      )
      expect(found).toHaveLength(2)
      return found
    })
    expect(boxes.map((b) => b.checked)).toEqual([true, false])
    await click(boxes[1])
    await click(getByText(root, 'Save', 'button'))
    await waitFor(() => expect(server.calls('/org/p/event/save')).toHaveLength(1))
    expect(server.calls('/org/p/event/save')[0].body.questions.map((q: { show_at_door?: boolean }) => q.show_at_door)).toEqual([true, true])
  })

  it('participants: search, teams against min_ppt, answers by question', async () => {
    const row = (id: number, name: string, team: ParticipantRow['team']): ParticipantRow => ({
      user: { id, name, email: `u${id}@example.edu`, roll_number: `1601${id}`, phone_number: null, branch: 'Computer_Engineering', year: 2027 },
      team,
      registered_at: '2026-11-20T10:00:00Z',
      ticket_collected: id === 1,
      ticket_code: null,
      checked_in_at: null,
      rating: null,
      waitlist_position: null,
      answers: { gh: `https://github.com/u${id}` },
    })
    const { root } = open(
      '/manage/event/5/participants',
      organiser,
      {
        '/org/p/event/participants': () => [
          200,
          {
            error: false,
            participants: [
              row(1, 'Asha Rao', { id: 2, name: 'Bytes' }),
              row(2, 'Ravi Kumar', { id: 2, name: 'Bytes' }),
              row(3, 'Meera Shah', { id: 3, name: 'Alpha' }),
            ],
            questions: [{ id: 'gh', label: 'GitHub', kind: 'URL', options: [], required: true }],
          },
        ],
      },
      [orgEvent({ min_ppt: 2, ma_ppt: 4 })],
    )
    await waitFor(() => getByText(root, /Asha Rao/, 'th'))
    expect(getByText(root, 'GitHub', 'th')).toBeTruthy()
    expect(getByText(root, 'https://github.com/u3', 'td')).toBeTruthy()
    await typeInto(find<HTMLInputElement>(root, '#p-search'), 'bytes')
    expect(root.querySelectorAll('tbody tr')).toHaveLength(2)
    expect(getByText(root, '2 of 3 registered', 'p')).toBeTruthy()
    const alpha = getByText(root, 'Alpha', 'h3').closest('li')!
    expect(alpha.textContent).toContain('Incomplete: 1 of at least 2')
    expect(getByText(root, 'Bytes', 'h3').closest('li')!.textContent).toContain('Complete')
  })
})

describe('audit log (admins)', () => {
  const admin = student({ roles: { admin: true, councils: [], door_events: [] } })
  const entry = (id: number, over: Record<string, unknown> = {}) => ({
    id,
    at: '2026-11-21T13:00:00Z', // 6:30 PM IST
    actor_id: 3,
    actor_kind: 'user',
    actor_name: 'Nisha Organiser',
    action: 'event.state',
    council_id: 1,
    event_id: 5,
    before: { state: 'DRAFT' },
    after: { state: 'UPCOMING' },
    ...over,
  })

  it('lists entries newest first with who, what, the event and the change; narrows to an event; reads on 100 at a time', async () => {
    const firstPage = Array.from({ length: 100 }, (_, i) => entry(300 - i))
    firstPage[0] = entry(300, {
      actor_id: null,
      actor_kind: 'scheduler',
      actor_name: null,
      before: { state: 'UPCOMING' },
      after: { state: 'REGISTRATION_OPEN' },
    })
    const { root, server } = open('/manage/audit', admin, {
      '/org/p/audit': (body) => {
        if (body.event_id === 77) return [200, { error: false, entries: [entry(9, { event_id: 77, action: 'image.upload', before: null })] }]
        if (body.before) return [200, { error: false, entries: [entry(150, { after: { long: 'x'.repeat(400) } })] }]
        return [200, { error: false, entries: firstPage }]
      },
    })
    await waitFor(() => getByText(root, 'Audit log', 'h1'))
    expect(find(root, 'nav[aria-label="Console"]').textContent).toContain('Audit log')
    await waitFor(() => getByText(root, '100 entries (more below)', 'p'))
    const rows = () => [...root.querySelectorAll('tbody tr')]
    const cells = (tr: Element) => [...tr.children].map((c) => c.textContent)
    expect(cells(rows()[0])).toEqual(['Sat, 21 Nov, 6:30 PM', 'Scheduler', 'event.state', '5', '{"state":"UPCOMING"}', '{"state":"REGISTRATION_OPEN"}'])
    expect(cells(rows()[1])[1]).toBe('Nisha Organiser')
    expect(rows()[0].querySelector('a')?.getAttribute('href')).toBe('/manage/event/5')

    // Older entries: `before` is the last id held; they join the list below; a long change is cut.
    await click(getByText(root, 'Load older entries', 'button'))
    await waitFor(() => getByText(root, '101 entries', 'p'))
    expect(server.calls('/org/p/audit').at(-1)!.body).toEqual({ before: 201 })
    const last = cells(rows()[100])
    expect(last[5]!.length).toBe(160)
    expect(last[5]!.endsWith('…')).toBe(true)
    expect(root.textContent).not.toContain('Load older entries')

    // One event: a wrong number is refused on the spot; a right one narrows the log.
    const input = find<HTMLInputElement>(root, '#audit-event')
    await typeInto(input, 'abc')
    await click(getByText(root, 'Show', 'button'))
    await waitFor(() => getByText(root, 'event_id must be a positive whole number', 'p'))
    expect(input.getAttribute('aria-invalid')).toBe('true')
    await typeInto(input, '77')
    await click(getByText(root, 'Show', 'button'))
    await waitFor(() => getByText(root, '1 entry of event 77', 'p'))
    expect(server.calls('/org/p/audit').at(-1)!.body).toEqual({ event_id: 77 })
    expect(cells(rows()[0]).slice(2)).toEqual(['image.upload', '77', '–', '{"state":"UPCOMING"}'])
  })

  it('an organiser who is not an admin has no audit tab, and the address says it is for admins', async () => {
    const { root, server } = open('/manage/audit')
    await waitFor(() => getByText(root, 'The audit log is for admins.', 'p'))
    expect(find(root, 'nav[aria-label="Console"]').textContent).not.toContain('Audit log')
    expect(server.calls('/org/p/audit')).toHaveLength(0)
  })
})
