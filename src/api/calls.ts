// One function per call of SPEC §7 / API.md. Reads resolve with the entity itself (the user, the events...);
// writes resolve with the whole answer ({message, team...}) so a screen can show the server's words. Bodies,
// answers and paths are typed from the contract's schemas (contract/api.ts), as types only: no zod in the bundle.
import type { Answer, PathOf, Request } from '../../contract/api.ts'
import { createClient, type Client, type EarlyCalls } from './client.ts'
import { createLastKnown, type LastKnown, type LastKnownStorage } from './last-known.ts'

export type ProfileUpdate = Request<'updateProfile'>

/** How many times a 503 of an idempotent write (claim, register) is retried (issue 15): at most 4 requests. */
export const WRITE_RETRIES = 3

/** Without a LastKnown (tests), reads go to the server only. */
const noCopies: Pick<LastKnown, 'remember'> = { remember: (_key, fetcher) => fetcher() }

export function createCalls(client: Client, lastKnown: Pick<LastKnown, 'remember'> = noCopies) {
  const post = client.request
  // The reads the app starts from, and the ticket screen's: answered from the last good copy when offline.
  const { remember } = lastKnown
  return {
    me: () => remember('me', () => post<Answer<'me'>>('/user/p/me' satisfies PathOf<'me'>).then((d) => d.user)),
    updateProfile: (payload: ProfileUpdate) => post<Answer<'updateProfile'>>('/user/p/update' satisfies PathOf<'updateProfile'>, payload),
    // Narrowed by `query` (issue 15: Home, a calendar month, one parent's children); each narrowing its own copy.
    getEvents: (query?: Request<'events'>) =>
      remember(query ? `events:${JSON.stringify(query)}` : 'events', () =>
        post<Answer<'events'>>('/event/p/get' satisfies PathOf<'events'>, query).then((d) => d.events),
      ),
    getMyEvents: () => remember('myEvents', () => post<Answer<'myEvents'>>('/event/p/get/me' satisfies PathOf<'myEvents'>).then((d) => d.events)),
    getEvent: (id: number | string) => remember(`event:${id}`, () => post<Answer<'event'>>(`/event/p/get/${encodeURIComponent(id)}`).then((d) => d.event)),
    // Safe to repeat (a second one is refused, never doubled): a 503 of the server shedding a burst is retried.
    register: (eventId: number) =>
      post<Answer<'register'>>('/event/p/register-for-event' satisfies PathOf<'register'>, { event_id: eventId } satisfies Request<'register'>, {
        retries: WRITE_RETRIES,
      }),
    claimTicket: (eventId: number) =>
      post<Answer<'claimTicket'>>('/event/p/claim-ticket' satisfies PathOf<'claimTicket'>, { event_id: eventId } satisfies Request<'claimTicket'>, {
        retries: WRITE_RETRIES,
      }),
    rate: (eventId: number, rating: number) =>
      post<Answer<'rate'>>('/event/p/rate' satisfies PathOf<'rate'>, { event_id: eventId, rating } satisfies Request<'rate'>),
    createTeam: (eventId: number, teamName: string, answers?: Record<string, string>) =>
      post<Answer<'createTeam'>>(
        '/event/p/create-team/' satisfies PathOf<'createTeam'>,
        (answers ? { event_id: eventId, team_name: teamName, answers } : { event_id: eventId, team_name: teamName }) satisfies Request<'createTeam'>,
      ),
    joinTeam: (eventId: number, inviteCode: string, answers?: Record<string, string>) =>
      post<Answer<'joinTeam'>>(
        '/event/p/join-team/' satisfies PathOf<'joinTeam'>,
        (answers ? { event_id: eventId, invite_code: inviteCode, answers } : { event_id: eventId, invite_code: inviteCode }) satisfies Request<'joinTeam'>,
      ),
    removeFromTeam: (teamId: number, userId: number) =>
      post<Answer<'removeFromTeam'>>(
        '/event/p/remove-from-team/' satisfies PathOf<'removeFromTeam'>,
        { team_id: teamId, user_id: userId } satisfies Request<'removeFromTeam'>,
      ),
    deleteTeam: (eventId: number, teamId: number) =>
      post<Answer<'deleteTeam'>>(
        '/event/p/delete-team/' satisfies PathOf<'deleteTeam'>,
        { event_id: eventId, team_id: teamId } satisfies Request<'deleteTeam'>,
      ),
    getCouncils: () => post<Answer<'councils'>>('/council/p/get' satisfies PathOf<'councils'>).then((d) => d.councils),
    /** Revokes the refresh-token family; no bearer, no refresh, and it may outlive the page. */
    logout: (refreshToken: string) =>
      post<Answer<'logout'>>('/auth/logout' satisfies PathOf<'logout'>, { refreshToken } satisfies Request<'logout'>, { auth: false, keepalive: true }),
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
