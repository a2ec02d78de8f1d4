// One function per call of SPEC §7 / API.md. Reads resolve with the entity itself (the user, the events...);
// writes resolve with the whole answer ({message, team...}) so a screen can show the server's words.
import type { Council, EventDetail, EventsByState, MyEvent, Team, User } from '../../contract/types.ts'
import type { Gender } from '../../contract/constants.ts'
import { createClient, type Client, type EarlyCalls } from './client.ts'
import { createLastKnown, type LastKnown, type LastKnownStorage } from './last-known.ts'

export interface ProfileUpdate {
  phone_number: string
  roll_number: string
  gender: Gender
  year: number
  branch: string
  interests: string[]
  degree: string
  college: string
  id: number
}

interface Answer {
  error: false
  message?: string
}

/** Without a LastKnown (tests), reads go to the server only. */
const noCopies: Pick<LastKnown, 'remember'> = { remember: (_key, fetcher) => fetcher() }

export function createCalls(client: Client, lastKnown: Pick<LastKnown, 'remember'> = noCopies) {
  const post = client.request
  // The reads the app starts from, and the ticket screen's: answered from the last good copy when offline.
  const { remember } = lastKnown
  return {
    me: () => remember('me', () => post<{ user: User }>('/user/p/me').then((d) => d.user)),
    updateProfile: (payload: ProfileUpdate) => post<Answer & { user: User }>('/user/p/update', payload),
    getEvents: () => remember('events', () => post<{ events: EventsByState }>('/event/p/get').then((d) => d.events)),
    getMyEvents: () => remember('myEvents', () => post<{ events: MyEvent[] }>('/event/p/get/me').then((d) => d.events)),
    getEvent: (id: number | string) =>
      remember(`event:${id}`, () => post<{ event: EventDetail }>(`/event/p/get/${encodeURIComponent(id)}`).then((d) => d.event)),
    register: (eventId: number) => post<Answer>('/event/p/register-for-event', { event_id: eventId }),
    claimTicket: (eventId: number) =>
      post<Answer & { ticket_code: string }>('/event/p/claim-ticket', { event_id: eventId }),
    rate: (eventId: number, rating: number) => post<Answer>('/event/p/rate', { event_id: eventId, rating }),
    createTeam: (eventId: number, teamName: string) =>
      post<Answer & { team: Team }>('/event/p/create-team/', { event_id: eventId, team_name: teamName }),
    joinTeam: (eventId: number, inviteCode: string) =>
      post<Answer & { team: Team }>('/event/p/join-team/', { event_id: eventId, invite_code: inviteCode }),
    removeFromTeam: (teamId: number, userId: number) =>
      post<Answer>('/event/p/remove-from-team/', { team_id: teamId, user_id: userId }),
    deleteTeam: (eventId: number, teamId: number) =>
      post<Answer>('/event/p/delete-team/', { event_id: eventId, team_id: teamId }),
    getCouncils: () => post<{ councils: Council[] }>('/council/p/get').then((d) => d.councils),
    /** Revokes the refresh-token family; no bearer, no refresh, and it may outlive the page. */
    logout: (refreshToken: string) =>
      post<Answer>('/auth/logout', { refreshToken }, { auth: false, keepalive: true }),
  }
}

export type Api = ReturnType<typeof createCalls>

/** Where `GET /auth/google` lives: the login button navigates the whole window there. */
export const API_HOST: string = (import.meta.env.VITE_API_HOST ?? '').replace(/\/+$/, '')
export const googleSignInUrl = () => `${API_HOST}/api/v1/auth/google`

// In a browser the tokens live in localStorage (SPEC §3); elsewhere (node tests) a throwaway memory store.
const memory = new Map<string, string>()
const storage: LastKnownStorage =
  typeof localStorage !== 'undefined'
    ? localStorage
    : {
        getItem: (k) => memory.get(k) ?? null,
        setItem: (k, v) => void memory.set(k, v),
        removeItem: (k) => void memory.delete(k),
        get length() {
          return memory.size
        },
        key: (i) => [...memory.keys()][i] ?? null,
      }

/** Navigates the way preact-iso's LocationProvider listens: a new address plus a popstate event. */
function goToLogout() {
  if (typeof location === 'undefined' || location.pathname === '/logout') return
  history.replaceState(null, '', '/logout')
  dispatchEvent(new PopStateEvent('popstate'))
}

/** The app's client: tokens from localStorage, and /logout when the session cannot be renewed. */
export const client = createClient({
  baseUrl: API_HOST,
  storage,
  onLogout: goToLogout,
  early: (globalThis as { __earlyCalls?: EarlyCalls }).__earlyCalls,
})
/** The last good answers of the reads, for starting with no network (the connection store listens). */
export const lastKnown = createLastKnown(storage)
export const api = createCalls(client, lastKnown)
