// The one fetch wrapper of the app, written here for the API's one shape of call: every call is
// `POST {baseUrl}/api/v1{path}` with a JSON body and the stored bearer token; answers resolve with the response
// data, failures reject with an ApiError.
// A 401 triggers ONE refresh shared by every caller waiting at that moment, then the call is retried once; with no
// access token beside the refresh token, the refresh comes first.

import type { PostByPath } from '../../contract/api.ts'
import type { RefusalCode } from '../../contract/refusal-codes.ts'
import { ACCESS_TOKEN, REFRESH_TOKEN } from './token-keys.ts'

export { ACCESS_TOKEN, REFRESH_TOKEN }

/** SPEC §8: a 401 from any call rejects with this message, whatever the body said. */
export const INVALID_TOKEN = 'Invalid Token'
export const NETWORK_MESSAGE = 'No connection to the server. Check your network and try again.'

export class ApiError extends Error {
  /** HTTP status; 0 when the request never got an answer (offline, DNS, CORS). */
  declare readonly status: number
  /** The Retry-After header of a 503, when the server sent one. */
  declare readonly retryAfter?: string | null
  /**
   * The refusal's whole body: its `code`, which the app decides by, never the words (contract/refusal-codes.ts; read
   * where it is used, so the first load carries no field for it), and what else it says (the door's 409
   * ALREADY_CHECKED_IN: who and when). Null or absent when the answer was not the API's JSON.
   */
  declare readonly data?: RefusalBody | null
  constructor(status: number, message: string, retryAfter?: string | null, data?: RefusalBody | null) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.retryAfter = retryAfter
    this.data = data
  }
}

/** A refusal's body as the API sends it: `{error: true, message, code}`, and a door answer's fields beside. */
export type RefusalBody = { readonly code?: RefusalCode; readonly [field: string]: unknown }

/** The part of `localStorage` the client needs; tests pass a Map-backed fake. */
export interface TokenStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

/** Calls src/boot.ts started before the app's code arrived: the token they carry and the answer per path (and body, when not `true`). */
export interface EarlyCalls {
  token: string
  calls: Record<string, Promise<Response>>
}

export interface ClientOptions {
  /** API origin (`VITE_API_HOST`); empty means same origin. */
  baseUrl?: string
  fetch?: typeof fetch
  storage: TokenStorage
  /** Called once per failed refresh (or when there is no refresh token): the app goes to /logout. */
  onLogout: () => void
  /** Answers already on their way (src/boot.ts); each is taken once, by the first call of its path and token. */
  early?: EarlyCalls
  /**
   * Runs a refresh under a lock shared by every tab of the app (Web Locks by default). Refresh tokens work once:
   * two tabs refreshing with the same token would look like a replay and revoke the session of both.
   */
  lock?: (run: () => Promise<void>) => Promise<void>
  /** Waits before a retry of a write (src/api/retry.ts); tests pass a fake clock. */
  sleep?: (ms: number) => Promise<void>
  /** A request with no answer after this long is given up (status 0, as offline): no spinner waits for ever. */
  timeoutMs?: number
}

/** The client's POST typed by the path (contract/api.ts PostByPath): each call names its path once. Types only. */
export type Post = PostByPath<RequestOptions>

export interface RequestOptions {
  /** false: no bearer header and no refresh on 401 (sign-in and sign-out calls). */
  auth?: boolean
  /** Let the request outlive the page (logout is fire and forget). */
  keepalive?: boolean
}

/** No answer after 30 s: the server answers or sheds well within that (its proxy's read timeout is 35 s). */
const TIMEOUT_MS = 30_000

/** What a call came back with: its status and parsed answer, or the ApiError of no answer at all. */
export type Outcome = { status: number; data: any; retryAfter?: string | null } | ApiError

export function createClient({
  baseUrl = '',
  fetch: givenFetch,
  storage,
  onLogout,
  early,
  lock,
  sleep = (ms) => new Promise((r) => setTimeout(r, ms)),
  timeoutMs = TIMEOUT_MS,
}: ClientOptions) {
  // Looked up at call time, not creation time, so a fetch installed later (a test's fake, a polyfill) is used.
  const doFetch: typeof fetch = givenFetch ?? ((input, init) => globalThis.fetch(input, init))
  const root = baseUrl.replace(/\/+$/, '') + '/api/v1'
  // The refresh in flight, shared by every call that meets a 401 while it runs.
  let refreshing: Promise<void> | null = null

  async function send(path: string, body: unknown, token: string | null, keepalive?: boolean): Promise<Outcome> {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (token) headers.authorization = `Bearer ${token}`
    // The same call with the same token already started: its answer goes through the same checks below.
    // Keyed by the path, and the body when it is not `true` (boot.ts: Home's narrowed events list).
    const json = JSON.stringify(body)
    const key = body === true ? path : path + json
    const started = early && early.token === token ? early.calls[key] : undefined
    if (started) delete early!.calls[key]
    let res: Response
    try {
      // (AbortSignal.timeout: every browser of the last three years; without it, no timeout, as before.)
      res = await (started ?? doFetch(root + path, { method: 'POST', headers, body: json, keepalive, signal: AbortSignal.timeout?.(timeoutMs) }))
    } catch {
      return new ApiError(0, NETWORK_MESSAGE)
    }
    // A proxy's HTML error page or an empty body must still end as a readable ApiError, not a SyntaxError.
    const data = await res.json().catch(() => null)
    return { status: res.status, data, retryAfter: res.headers?.get('retry-after') }
  }

  function fail(outcome: Outcome): ApiError | null {
    if (outcome instanceof ApiError) return outcome
    const { status, data } = outcome
    if (status === 401) return new ApiError(401, INVALID_TOKEN)
    if (status < 200 || status > 299 || !data || typeof data !== 'object' || data.error === true) {
      const message = typeof data?.message === 'string' && data.message ? data.message : `The server answered ${status}. Please try again.`
      return new ApiError(status, message, outcome.retryAfter, data)
    }
    return null
  }

  function logout(): never {
    onLogout()
    throw new ApiError(401, INVALID_TOKEN)
  }

  /**
   * SPEC §4: try the refresh token once (src/api/refresh.ts, fetched on the first 401: a start with a good token
   * never needs it). No token, or the server refusing it → onLogout. A refresh that could not reach the server
   * (offline, 5xx, 429) rejects without logging out: the token may still be good.
   */
  function refresh(staleToken?: string | null): Promise<void> {
    refreshing ??= import('./refresh.ts')
      .catch(() => {
        throw new ApiError(0, NETWORK_MESSAGE)
      })
      .then(({ renew }) => renew({ send, fail, logout, storage, lock }, staleToken))
      .finally(() => {
        refreshing = null
      })
    return refreshing
  }

  /**
   * A call with the stored bearer (`sendWith` sends it with the token given): a 401 refreshes once, shared with
   * every call waiting at that moment, and tries again; a fresh token refused at once logs out. The JSON calls
   * below and the file and form calls (src/api/authorized-fetch.ts) all go through here.
   */
  async function authorized<T>(sendWith: (token: string | null) => Promise<Outcome>): Promise<T> {
    if (refreshing) await refreshing.catch(() => {})
    let token = storage.getItem(ACCESS_TOKEN)
    // Signed out on this phone: the call could only answer 401, so take the 401 path without the round trip.
    if (!token && !storage.getItem(REFRESH_TOKEN)) logout()
    // A refresh token alone (src/boot.ts drops an access token about to expire): renewed before the call, rather than
    // after its 401 (issue 37 item 7). Offline, the call goes without one and fails as offline.
    if (!token)
      token = await refresh(token).then(
        () => storage.getItem(ACCESS_TOKEN),
        () => null,
      )
    let outcome = await sendWith(token)
    let error = fail(outcome)
    if (error?.status === 401) {
      // Someone else refreshed while this call was out: retry with their token instead of refreshing again.
      if (storage.getItem(ACCESS_TOKEN) === token) await refresh(token)
      token = storage.getItem(ACCESS_TOKEN)
      outcome = await sendWith(token)
      error = fail(outcome)
      // A fresh token refused at once: the session is unusable; retrying again would loop.
      if (error?.status === 401) logout()
    }
    if (error) throw error
    return (outcome as { data: T }).data
  }

  async function request<T = any>(path: string, body: unknown = true, { auth = true, keepalive }: RequestOptions = {}): Promise<T> {
    const sendWith = (token: string | null) => send(path, body, token, keepalive)
    if (auth) return authorized(sendWith)
    const outcome = await sendWith(null)
    const error = fail(outcome)
    if (error) throw error
    return (outcome as { data: T }).data
  }

  return {
    request,
    authorized,
    refresh,
    /** The client's clock for waiting before a retry (src/api/retry.ts: the writes' retry of a 503). */
    sleep,
    setTokens(accessToken: string, refreshToken: string) {
      storage.setItem(ACCESS_TOKEN, accessToken)
      storage.setItem(REFRESH_TOKEN, refreshToken)
    },
  }
}

export type Client = ReturnType<typeof createClient>
