// The calls of SPEC §7 / API.md the app starts from (the user, Home's events, an event's details), and the app's
// client. The other screens' calls load with those screens, not with the first one: src/api/detail-calls.ts,
// team-calls.ts, account-calls.ts (and around-calls.ts); src/api/all-calls.ts puts them all in one object.
// Reads resolve with the entity itself (the user, the events...). Bodies, answers and paths are typed from the
// contract's schemas (contract/api.ts), as types only: no zod in the bundle.
import type { Answer, Request } from '../../contract/api.ts'
import { createClient, type Client, type EarlyCalls, type Post } from './client.ts'
import { createLastKnown, type LastKnown, type LastKnownStorage } from './last-known.ts'

/** Without a LastKnown (tests), reads go to the server only. */
export const noCopies: Pick<LastKnown, 'remember'> = { remember: (_key, fetcher) => fetcher() }

/** The reads the app starts from: answered from the last good copy when offline. */
export function createStartCalls(client: Client, { remember }: Pick<LastKnown, 'remember'> = noCopies) {
  const post = client.request as Post
  return {
    // The user, and how many of their messages are unread (the header's bell, contract/inbox.ts).
    // Kept as 'user' since it carries the count too ('me' held the user alone).
    me: () => remember('user', () => post('/user/p/me')),
    // Narrowed by `query` (issue 15: Home, a calendar month, one parent's children); each narrowing its own copy.
    getEvents: (query?: Request<'events'>) =>
      remember(query ? `events:${JSON.stringify(query)}` : 'events', () => post('/event/p/get', query).then((d) => d.events)),
    // An event's details: the details screen's, and the offline tickets' (src/stores/offline-tickets.ts), which
    // main.tsx loads a moment after every start.
    // Its path carries the id: the client's own request, typed by the call's name.
    getEvent: (id: number | string) =>
      remember(`event:${id}`, () => (post as Client['request'])<Answer<'event'>>(`/event/p/get/${encodeURIComponent(id)}`).then((d) => d.event)),
  }
}

export type StartApi = ReturnType<typeof createStartCalls>

/** Where `GET /auth/google` lives: the login button navigates the whole window there. */
export const API_HOST: string = import.meta.env.VITE_API_HOST ?? '' // without its trailing slash (vite.config.ts)

// In a browser the tokens live in localStorage (SPEC §3); in node tests a throwaway memory store. `MODE` is a
// constant of the build: the memory store is test code and the app's bundle does not carry it.
export const appStorage: LastKnownStorage = import.meta.env.MODE !== 'test' || typeof localStorage !== 'undefined' ? localStorage : memoryStorage()

function memoryStorage(): LastKnownStorage {
  const memory = new Map<string, string>()
  return {
    getItem: (k) => memory.get(k) ?? null,
    setItem: (k, v) => void memory.set(k, v),
    removeItem: (k) => void memory.delete(k),
    get length() {
      return memory.size
    },
    key: (i) => [...memory.keys()][i] ?? null,
  }
}

/** Navigates the way the router's LocationProvider listens (app.tsx): a new address plus a popstate event. */
function goToLogout() {
  if ((import.meta.env.MODE === 'test' && typeof location === 'undefined') || location.pathname === '/logout') return
  history.replaceState(null, '', '/logout')
  dispatchEvent(new PopStateEvent('popstate'))
}

/** The app's client: tokens from localStorage, and /logout when the session cannot be renewed. */
export const client = createClient({
  baseUrl: API_HOST,
  storage: appStorage,
  onLogout: goToLogout,
  early: (globalThis as { __earlyCalls?: EarlyCalls }).__earlyCalls,
})
/** The last good answers of the reads, for starting with no network (the connection store listens). */
export const lastKnown = createLastKnown(appStorage)
export const api = createStartCalls(client, lastKnown)
