// The refresh of SPEC §4, apart from src/api/client.ts so that it is fetched on the first 401 rather than with
// the first screen: one refresh-token call under a lock shared by every tab, the rotated tokens stored, or the
// app sent to /logout when the server refuses the token.
// It imports nothing of client.ts (which imports it): the client hands over what it needs.
import { ACCESS_TOKEN, REFRESH_TOKEN } from './token-keys.ts'
import { keepExpiry } from './token-expiry.ts'

export interface RenewDeps<Outcome> {
  /** The client's request without bearer or retry. */
  send: (path: string, body: unknown, token: null) => Promise<Outcome>
  /** The client's reading of an answer: the error it is, or null for a good one (whose `data` is the body). */
  fail: (outcome: Outcome) => { status: number } | null
  logout: () => never
  storage: { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void }
  /** Runs the refresh under a lock shared by every tab of the app (Web Locks when not given). */
  lock?: (run: () => Promise<void>) => Promise<void>
}

const webLock = (run: () => Promise<void>): Promise<void> =>
  globalThis.navigator?.locks ? globalThis.navigator.locks.request('campus-events-refresh', run).then(() => {}) : run()

/**
 * Refresh tokens work once: two tabs refreshing with the same token would look like a replay and revoke the
 * session of both, hence the lock. `staleToken`: the access token the caller saw refused.
 */
export function renew<Outcome>({ send, fail, logout, storage, lock = webLock }: RenewDeps<Outcome>, staleToken?: string | null): Promise<void> {
  return lock(async () => {
    // Another tab refreshed while this one waited for the lock: its tokens are in the shared storage.
    if (staleToken !== undefined && storage.getItem(ACCESS_TOKEN) !== staleToken) return
    const refreshToken = storage.getItem(REFRESH_TOKEN)
    if (!refreshToken) logout()
    const outcome = await send('/auth/refresh-token', { refreshToken }, null)
    const error = fail(outcome)
    if (error && (error.status === 0 || error.status === 429 || error.status >= 500)) throw error
    const data = !error && (outcome as { data?: any }).data
    if (!data || typeof data.accessToken !== 'string') logout()
    // Logged out while the answer was on its way (all of storage cleared): a session is not written back.
    if (storage.getItem(REFRESH_TOKEN) !== refreshToken) return
    storage.setItem(ACCESS_TOKEN, data.accessToken)
    keepExpiry(storage, data.accessToken)
    // Refresh tokens rotate (API.md): the old one is now spent, keep the new one.
    if (typeof data.refreshToken === 'string') storage.setItem(REFRESH_TOKEN, data.refreshToken)
  })
}
