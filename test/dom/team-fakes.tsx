// Shared by the team screen tests: the two screens inside a real LocationProvider/Router, fed by the real
// EventDetail and Team models built over fake api functions that keep one event's state in memory, the way
// the server would (create/join put the student in a team, remove/delete take members out).
import { LocationProvider, Route, Router } from 'preact-iso'
import { vi } from 'vitest'
import { participant } from '../fixtures/events.ts'
import type { EventDetail, Team } from '../../contract/types.ts'
import { ApiError } from '../../src/api/client.ts'
import { Toaster } from '../../src/components/toast/index.tsx'
import TeamDetails from '../../src/pages/team-details/index.tsx'
import TeamRegister from '../../src/pages/team-register/index.tsx'
import { EventDetailModel } from '../../src/stores/event-detail.ts'
import { TeamModel } from '../../src/stores/team.ts'
import { eventDetail } from '../fixtures/events.ts'
import { go, mount, waitFor } from './session-fakes.ts'

export const EVENT_ID = 5
export const TEAM_ID = 9
export const LEADER = { id: 7, name: 'Asha Rao', photo_url: 'https://images.example/asha.png' }
export const MEMBER = { id: 8, name: 'Ravi Kumar', photo_url: null }
export const OTHER = { id: 11, name: 'Meera Shah', photo_url: 'https://images.example/meera.png' }

export const byteClub = (over: Partial<Team> = {}): Team => ({
  id: TEAM_ID,
  name: 'Byte Club',
  invite_code: 'aB3dE',
  leader_id: LEADER.id,
  Participant: [{ user: LEADER }, { user: MEMBER }, { user: OTHER }],
  ...over,
})

export function teamEvent(over: Partial<EventDetail> = {}): EventDetail {
  return eventDetail({
    id: EVENT_ID,
    name: 'Hack the Campus',
    description: 'A 24-hour hackathon',
    long_description: 'Build something in 24 hours.',
    dates: ['2030-02-01T10:00:00+05:30'],
    venue: 'Auditorium Block A',
    tags: ['Tech'],
    organizer: { id: 1, name: 'CSI', photo_url: null },
    ma_ppt: 4,
    ...over,
  })
}

export const inTeam = (team: Team = byteClub()): EventDetail['Participant'] => participant({ id: 1, team })

/** A fake server for one event: `state.event` is what POST /event/p/get/{id} answers (a copy each time). */
export function fakeTeamApi(initial: EventDetail) {
  // viewer: who is calling (a member removing themself leaves the team with no Participant at all).
  const state = { event: initial, viewer: LEADER.id }
  const getEvent = vi.fn(async (id: number | string) => {
    if (Number(id) !== state.event.id) throw new ApiError(404, 'Event not found.')
    return structuredClone(state.event)
  })
  const joined = (team: Team) => {
    state.event = { ...state.event, Participant: inTeam(team) }
    return { error: false as const, message: 'ok', team }
  }
  const createTeam = vi.fn(async (_eventId: number, name: string) => joined(byteClub({ name, Participant: [{ user: LEADER }] })))
  const joinTeam = vi.fn(async (_eventId: number, _code: string) => joined(byteClub()))
  const removeFromTeam = vi.fn(async (_teamId: number, userId: number) => {
    const p = state.event.Participant
    if (!p || !p.team) throw new ApiError(404, 'Team not found.')
    if (userId === state.viewer) state.event = { ...state.event, Participant: false }
    else {
      const team = { ...p.team, Participant: p.team.Participant.filter((m) => m.user.id !== userId) }
      state.event = { ...state.event, Participant: { ...p, team } }
    }
    return { error: false as const, message: 'Member removed' }
  })
  const deleteTeam = vi.fn(async (_eventId: number, _teamId: number) => {
    state.event = { ...state.event, Participant: false }
    return { error: false as const, message: 'Team deleted' }
  })
  const onChanged = vi.fn()
  const never = () => Promise.reject(new Error('not used by the team screens'))
  const detail = new EventDetailModel({ getEvent, register: never, claimTicket: never, rate: never })
  const teams = new TeamModel({ createTeam, joinTeam, removeFromTeam, deleteTeam, detail, onChanged })
  return { state, detail, teams, getEvent, createTeam, joinTeam, removeFromTeam, deleteTeam, onChanged }
}

export type FakeTeamApi = ReturnType<typeof fakeTeamApi>

/** Mounts both team screens (and a stand-in event-details screen) at `url`, wired to `api`. */
export function openAt(url: string, api: FakeTeamApi) {
  const Register = (props: { id: string }) => <TeamRegister id={props.id} detail={api.detail} teams={api.teams} />
  const Details = (props: { id: string }) => <TeamDetails id={props.id} detail={api.detail} teams={api.teams} />
  const EventDetails = () => <h1>Event details stand-in</h1>
  go(url)
  return mount(
    <LocationProvider>
      <Router>
        <Route path="/team-register/:id" component={Register} />
        <Route path="/team-details/:id" component={Details} />
        <Route path="/event-details/:id" component={EventDetails} />
      </Router>
      <Toaster />
    </LocationProvider>,
  )
}

export const $ = <T extends Element = HTMLElement>(root: ParentNode, selector: string): T => {
  const el = root.querySelector<T>(selector)
  if (!el) throw new Error(`nothing matches ${selector}`)
  return el
}

/** A button's visible name: its aria-label, else its text without a spinner's hidden 'Creating team'. */
const visibleName = (b: HTMLButtonElement) => {
  const label = b.getAttribute('aria-label')
  if (label) return label
  const copy = b.cloneNode(true) as HTMLElement
  copy.querySelectorAll('.visually-hidden').forEach((el) => el.remove())
  return copy.textContent?.trim()
}

export const button = (root: ParentNode, name: string) => {
  const found = [...root.querySelectorAll<HTMLButtonElement>('button')].find((b) => visibleName(b) === name)
  if (!found) throw new Error(`no button named ${name}`)
  return found
}

export const buttonNames = (root: ParentNode) => [...root.querySelectorAll('button')].map(visibleName)

export const pathIs = (path: string) =>
  waitFor(() => {
    if (location.pathname !== path) throw new Error(`at ${location.pathname}, waiting for ${path}`)
  })

/** Every address the app moves to from now on (the router's route() goes through these two). */
export function addressesVisited() {
  const seen: string[] = []
  for (const method of ['pushState', 'replaceState'] as const) {
    const original = history[method].bind(history)
    vi.spyOn(history, method).mockImplementation((data, unused, url) => {
      if (url != null) seen.push(String(url))
      original(data, unused, url)
    })
  }
  return seen
}

/** A promise the test settles itself, to look at the screen while a call is in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (err: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}
