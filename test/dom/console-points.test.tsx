// The console's activity points (issue 26) through the real app, client, stores and lazy screens, against a fake
// server: the editor's points fields (a save that does not touch them sends none; clearing them is said aloud and
// sends null; the contract's messages under the field), an event's points and winners, and the admins' screen
// (categories and targets, who is below target, the CSV).
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ActivityPoints, OrgEvent } from '../../contract/types.ts'
import { App } from '../../src/app.tsx'
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
const admin = student({ roles: { admin: true, councils: [], door_events: [] } })
const CULTURAL: ActivityPoints = { category: 'Cultural', points: 10, per_day: false, winner: 5, volunteer: 0, organiser: 0 }
const SETTINGS = { categories: ['Technical', 'Cultural', 'Sports'], target: 100, lateral_entry_target: 75 }

function orgEvent(over: Partial<OrgEvent> = {}): OrgEvent {
  const { Participant: _, ...detail } = eventDetail({ id: 5, name: 'Garba Night', organizer: { id: 1, name: 'CSI Council', photo_url: null } })
  return {
    ...detail,
    state: 'DRAFT',
    activity_points: null,
    counts: { registered: 2, teams: 0, tickets_sold: 0, checked_in: 1, waitlist: 0, ratings: { count: 0, average: null, by_star: [0, 0, 0, 0, 0] } },
    ...over,
  } as OrgEvent
}

function open(path: string, user: typeof organiser, event: OrgEvent, extra: Record<string, Handler> = {}) {
  localStorage.setItem('accessToken', 'A')
  localStorage.setItem('refreshToken', 'R')
  const server = fakeServer({
    '/user/p/me': () => [200, { error: false, user }],
    '/event/p/get': () => [200, { error: false, events: {} }],
    '/org/p/events': () => [200, { error: false, events: [event] }],
    '/org/p/councils': () => [
      200,
      { error: false, councils: [{ id: 1, name: 'CSI Council', photo_url: null, phone_number: null, email: null, organizers: [] }] },
    ],
    '/org/p/points/settings': () => [200, { error: false, settings: SETTINGS }],
    '/org/p/event/staff': () => [200, { error: false, staff: [] }],
    '/org/p/event/notify/status': () => [403, { error: true, message: 'No.' }],
    ...extra,
  })
  go(path)
  return { root: mount(<App />), server }
}

describe('the editor’s activity points', () => {
  it('a save that does not touch them sends none; a change sends them; clearing them warns and sends null', async () => {
    let stored = orgEvent({ activity_points: CULTURAL })
    const { root, server } = open('/manage/event/5/edit', organiser, stored, {
      '/org/p/event/save': (body) => {
        stored = {
          ...stored,
          ...(body.activity_points !== undefined ? { activity_points: body.activity_points && { ...CULTURAL, ...body.activity_points } } : {}),
        }
        return [200, { error: false, event: stored }]
      },
    })
    const points = await waitFor(() => find<HTMLInputElement>(root, '#ap-points'))
    await waitFor(() => expect(find<HTMLSelectElement>(root, '#ap-category').options.length).toBe(3))
    expect(find<HTMLSelectElement>(root, '#ap-category').value).toBe('Cultural')
    expect(points.value).toBe('10')
    expect(find<HTMLInputElement>(root, '#ap-winner').value).toBe('5')

    const save = getByText(root, 'Save', 'button')
    await click(save)
    await waitFor(() => expect(server.calls('/org/p/event/save')).toHaveLength(1))
    expect(server.calls('/org/p/event/save')[0].body).not.toHaveProperty('activity_points')

    await typeInto(points, '15')
    await choose(find<HTMLSelectElement>(root, '#ap-category'), 'Sports')
    await click(save)
    await waitFor(() => expect(server.calls('/org/p/event/save')).toHaveLength(2))
    expect(server.calls('/org/p/event/save')[1].body.activity_points).toEqual({
      category: 'Sports',
      per_day: false,
      points: 15,
      winner: 5,
      volunteer: 0,
      organiser: 0,
    })

    // Saved: the next untouched save sends none again.
    await click(save)
    await waitFor(() => expect(server.calls('/org/p/event/save')).toHaveLength(3))
    expect(server.calls('/org/p/event/save')[2].body).not.toHaveProperty('activity_points')

    await click(getByText(root, /This event gives activity points/, 'label').querySelector('input')!)
    await waitFor(() => getByText(root, /Saving takes these points away from every student who earned them here/, 'p'))
    expect(root.querySelector('#ap-points')).toBeNull()
    await click(save)
    await waitFor(() => expect(server.calls('/org/p/event/save')).toHaveLength(4))
    expect(server.calls('/org/p/event/save')[3].body.activity_points).toBeNull()
  })

  it('checks the points on touch and before saving, in the editor’s words (issue 22 item 7), and shows the server’s category message under the field', async () => {
    let answer: [number, unknown] = [400, { error: true, message: 'activity_points.category must be one of the college’s categories: Technical' }]
    const { root, server } = open('/manage/event/5/edit', organiser, orgEvent(), { '/org/p/event/save': () => answer })
    const box = (await waitFor(() => getByText(root, /This event gives activity points/, 'label'))).querySelector('input')!
    await click(box)
    const points = await waitFor(() => find<HTMLInputElement>(root, '#ap-points'))
    await waitFor(() => expect(find<HTMLSelectElement>(root, '#ap-category').options.length).toBe(4))
    await blur(points)
    await waitFor(() => getByText(root, 'Category is required', 'p'))
    await choose(find<HTMLSelectElement>(root, '#ap-category'), 'Cultural')
    await typeInto(points, '500')
    await waitFor(() => getByText(root, 'Points for attending must be a whole number from 0 to 100', 'p'))
    expect(points.getAttribute('aria-invalid')).toBe('true')
    await click(getByText(root, 'Save', 'button'))
    expect(server.calls('/org/p/event/save')).toHaveLength(0)

    await typeInto(points, '10')
    expect(root.textContent).not.toContain('Points for attending must')
    await click(getByText(root, 'Save', 'button'))
    await waitFor(() => getByText(root, /^Category must be one of the college’s categories/, 'p'))
    expect(find(root, '#ap-category').getAttribute('aria-invalid')).toBe('true')
    answer = [200, { error: false, event: orgEvent({ activity_points: CULTURAL }) }]
    await click(getByText(root, 'Save', 'button'))
    await waitFor(() => expect(server.calls('/org/p/event/save')).toHaveLength(2))
    expect(server.calls('/org/p/event/save')[1].body.activity_points).toEqual({
      category: 'Cultural',
      per_day: false,
      points: 10,
      winner: 0,
      volunteer: 0,
      organiser: 0,
    })
  })
})

describe('an event’s points and winners', () => {
  const asha = { id: 7, name: 'Asha Rao', email: 'asha@example.edu' }
  const ravi = { id: 8, name: 'Ravi Iyer', email: 'ravi@example.edu' }
  const row = (u: typeof asha) => ({
    user: { ...u, roll_number: null, phone_number: null, branch: null, year: null },
    team: null,
    registered_at: '2026-11-01T10:00:00.000Z',
    ticket_collected: true,
    ticket_code: null,
    checked_in_at: null,
    rating: null,
    waitlist_position: null,
    answers: {},
  })

  it('lists the points given, marks a participant winner with a title and removes the mark, once completed', async () => {
    let winners: unknown[] = []
    const { root, server } = open('/manage/event/5', organiser, orgEvent({ state: 'COMPLETED', activity_points: CULTURAL }), {
      '/org/p/event/points': () => [
        200,
        { error: false, activity_points: CULTURAL, points: [{ user: { ...asha, roll_number: null }, kind: 'ATTENDED', points: 10, days: null }] },
      ],
      '/org/p/event/winners': (body) => {
        if (body.user_id === 8 && !body.remove) winners = [{ user: ravi, title: body.title ?? null, marked_at: '2026-11-02T10:00:00.000Z' }]
        if (body.remove) winners = []
        return [200, { error: false, winners }]
      },
      '/org/p/event/participants': () => [200, { error: false, participants: [row(asha), row(ravi)], questions: [] }],
    })
    const panel = (await waitFor(() => getByText(root, 'Activity points', 'h2'))).closest('section')!
    await waitFor(() => getByText(panel, /Asha Rao/, 'li'))
    expect(panel.textContent).toContain('Cultural: 10 for attending')
    expect(panel.textContent).toContain('No winners marked.')
    await waitFor(() => expect(find<HTMLSelectElement>(panel, '#w-pick').options.length).toBe(3))
    await click(getByText(panel, 'Mark as winner', 'button'))
    await waitFor(() => getByText(panel, 'Choose a participant', 'p'))
    await choose(find<HTMLSelectElement>(panel, '#w-pick'), '8')
    await typeInto(find<HTMLInputElement>(panel, '#w-title'), 'First place')
    await click(getByText(panel, 'Mark as winner', 'button'))
    await waitFor(() => getByText(panel, /Ravi Iyer\s*First place/, 'li'))
    await click(find(panel, '[aria-label="Remove Ravi Iyer as winner"]'))
    await waitFor(() => getByText(panel, 'No winners marked.', 'p'))
    expect(server.calls('/org/p/event/winners').map((c) => c.body)).toContainEqual({ event_id: 5, user_id: 8, title: 'First place' })
    expect(server.calls('/org/p/event/winners').map((c) => c.body)).toContainEqual({ event_id: 5, user_id: 8, remove: true })
  })

  it('before the event is completed, says when winners can be marked and offers no form', async () => {
    const { root } = open('/manage/event/5', organiser, orgEvent({ state: 'ONGOING', activity_points: CULTURAL }), {
      '/org/p/event/points': () => [200, { error: false, activity_points: CULTURAL, points: [] }],
      '/org/p/event/winners': () => [200, { error: false, winners: [] }],
    })
    await waitFor(() => getByText(root, 'Winners can be marked once the event is completed.', 'p'))
    await waitFor(() => getByText(root, /No points given yet/, 'p'))
    expect(root.querySelector('#w-pick')).toBeNull()
  })

  it('an event that gives no points has no points panel', async () => {
    const { root, server } = open('/manage/event/5', organiser, orgEvent({ state: 'COMPLETED' }))
    await waitFor(() => getByText(root, 'Door volunteers', 'h2'))
    expect(root.textContent).not.toContain('Winners')
    expect(server.calls('/org/p/event/points')).toHaveLength(0)
  })
})

describe('admins’ activity points screen', () => {
  const below = {
    year: 2027,
    students: [
      {
        user: { id: 7, name: 'Asha Rao', email: 'asha@example.edu', roll_number: '16010122001', branch: 'Computer_Engineering', year: 2027 },
        lateral_entry: false,
        points: 10,
        target: 100,
      },
    ],
  }

  it('saves the categories and targets, lists who is below target, downloads the CSV by year and branch', async () => {
    const created = vi.fn(() => 'blob:points')
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: () => {} }))
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {})
    const { root, server } = open('/manage/points', admin, orgEvent(), {
      '/org/p/points/settings/save': (body) =>
        body.target === 0
          ? [400, { error: true, message: 'target must be a whole number from 1 to 1000' }]
          : [200, { error: false, settings: { ...SETTINGS, ...body } }],
      '/org/p/points/below-target': (body) => [200, { error: false, ...below, year: body.year ? Number(body.year) : 2027 }],
      '/org/p/points/export.csv?year=2027&branch=Computer+Engineering': () => [200, 'csv'],
    })
    await waitFor(() => getByText(root, 'Activity points', 'a'))
    const categories = await waitFor(() => find<HTMLTextAreaElement>(root, '#p-categories'))
    expect(categories.value).toBe('Technical\nCultural\nSports')
    await waitFor(() => getByText(root, /Below target, graduating in 2027: 1/, 'h3'))
    expect(getByText(root, /Asha Rao/, 'li').textContent).toContain('10 of 100')
    expect(getByText(root, /Asha Rao/, 'li').textContent).toContain('Computer Engineering')

    await typeInto(find<HTMLInputElement>(root, '#p-target'), '0')
    await click(getByText(root, 'Save', 'button'))
    await waitFor(() => getByText(root, 'target must be a whole number from 1 to 1000', 'p'))
    await typeInto(categories as unknown as HTMLInputElement, 'Technical\n Cultural \n\nNSS')
    await typeInto(find<HTMLInputElement>(root, '#p-target'), '120')
    await click(getByText(root, 'Save', 'button'))
    await waitFor(() => expect(server.calls('/org/p/points/settings/save')).toHaveLength(2))
    expect(server.calls('/org/p/points/settings/save')[1].body).toEqual({ categories: ['Technical', 'Cultural', 'NSS'], target: 120, lateral_entry_target: 75 })

    await typeInto(find<HTMLInputElement>(root, '#p-year'), '2027')
    await typeInto(find<HTMLInputElement>(root, '#p-branch'), 'Computer Engineering')
    await click(getByText(root, 'Download CSV', 'button'))
    await waitFor(() => expect(created).toHaveBeenCalled())
    expect(server.calls('/org/p/points/export.csv?year=2027&branch=Computer+Engineering')).toHaveLength(1)
    await click(getByText(root, 'Show who is below target', 'button'))
    await waitFor(() => expect(server.calls('/org/p/points/below-target').at(-1)?.body).toEqual({ year: '2027', branch: 'Computer Engineering' }))
  })

  it('an organiser who is not an admin has no tab, and the address says it is for admins', async () => {
    const { root, server } = open('/manage/points', organiser, orgEvent())
    await waitFor(() => getByText(root, 'Activity points settings are for admins.', 'p'))
    expect([...root.querySelectorAll('a')].some((a) => a.textContent === 'Activity points')).toBe(false)
    expect(server.calls('/org/p/points/below-target')).toHaveLength(0)
  })
})
