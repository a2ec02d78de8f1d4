// The session store's flows that only the sign-in, sign-out and onboarding screens run: starting and completing
// a sign-in, signing out, saving the profile. Those that act on the session (completing a sign-in, signing out) are
// rooms, `room(buildCompleteSignIn)` and `room(buildSignOut)` (src/models.ts), kept in a module of their own so the
// first load of `/` does not carry them (only those lazy screens import it).
//
// Login CSRF (issue 10): anyone can send a student a link /login#accessToken=…&refreshToken=… carrying the
// attacker's tokens. So a sign-in starts by keeping a one-time value in sessionStorage (this tab only) and sending
// it to the server, which carries it through the round trip (its signed cookie, or the development form) and
// hands it back beside the tokens. Tokens are accepted only with the value this tab keeps, once; anything else
// is dropped from the address and ignored. A live session is never replaced without the student confirming.
import { action } from '@preact/signals'
import type { User } from '../../contract/types.ts'
import { appStorage, client } from '../api/calls.ts'
import { ACCESS_TOKEN, REFRESH_TOKEN } from '../api/token-keys.ts'
import { keepExpiry } from '../api/token-expiry.ts'
import { forgetCopies } from '../api/last-known-copies.ts'
import { accountApi as api, googleSignInUrl, type ProfileUpdate } from '../api/account-calls.ts'
import type { StartModels } from './session.ts'

/** Where the one-time value of a sign-in under way is kept (sessionStorage: this tab, until it closes). */
export const SIGN_IN_STATE_KEY = 'signInState'

/** What the sign-in callback leaves in the address: tokens (fragment, or query as SPEC §2 says) or an error. */
export type AuthReturn = { accessToken: string; refreshToken: string; state: string | null } | { error: string } | null

export function parseAuthReturn(hash: string, search: string): AuthReturn {
  for (const part of [hash.replace(/^#/, ''), search.replace(/^\?/, '')]) {
    const params = new URLSearchParams(part)
    const accessToken = params.get('accessToken')
    const refreshToken = params.get('refreshToken')
    if (accessToken && refreshToken) return { accessToken, refreshToken, state: params.get('state') }
    const error = params.get('error')
    if (error) return { error }
  }
  return null
}

/** What the login screen does with the address it was opened with. */
export type SignInCompletion =
  /** Tokens stored: go to /. */
  | { kind: 'signed-in' }
  /** This phone holds another session: ask the student before replacing it. */
  | { kind: 'confirm'; accept: () => void; decline: () => void }
  /** The callback reported a failure: show it. */
  | { kind: 'error'; message: string }
  /** Nothing to complete (or tokens this tab did not ask for, ignored), and a session on this phone: go to /. */
  | { kind: 'signed-in-already' }
  /** Nothing to complete: show the sign-in button. */
  | { kind: 'none' }

const storage = (): Storage | null => {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage
  } catch {
    return null // storage blocked: no sign-in can be completed, which is the safe side
  }
}

function randomState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32))
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

/** Whether this phone holds a session (either token). */
export const hasSession = () => !!(appStorage.getItem(ACCESS_TOKEN) || appStorage.getItem(REFRESH_TOKEN))

/**
 * Starts a sign-in: keeps a new one-time value for it and answers the address the whole window goes to (the
 * server sends it on to Google, or shows the development form, and back to /login with the value).
 */
export function beginSignIn(): string {
  const state = randomState()
  storage()?.setItem(SIGN_IN_STATE_KEY, state)
  return `${googleSignInUrl()}?state=${state}`
}

/** The login screen's completion of a sign-in (`room(buildCompleteSignIn)`): it resets the session it replaces. */
export const buildCompleteSignIn = ({ session }: { session: Pick<StartModels['session'], 'reset'> }) => {
  /** Stores a sign-in's tokens; another student's last known answers must never show. */
  const accept = action((accessToken: string, refreshToken: string) => {
    forgetCopies(appStorage)
    client.setTokens(accessToken, refreshToken)
    keepExpiry(appStorage, accessToken)
    // Forget any previous user, so the next load fetches the new one.
    session.reset()
  })

  /**
   * Completes a sign-in from the address /login was opened with (`location.hash`, `location.search`); the caller
   * takes the address's tokens or error out of it at once, whatever this answers.
   */
  return action((hash: string, search: string): SignInCompletion => {
    const back = parseAuthReturn(hash, search)
    if (back && 'error' in back) return { kind: 'error', message: back.error }
    if (back) {
      const store = storage()
      const expected = store?.getItem(SIGN_IN_STATE_KEY)
      if (expected && back.state === expected) {
        store!.removeItem(SIGN_IN_STATE_KEY) // one time only
        const { accessToken, refreshToken } = back
        if (!hasSession()) {
          accept(accessToken, refreshToken)
          return { kind: 'signed-in' }
        }
        return { kind: 'confirm', accept: () => accept(accessToken, refreshToken), decline: () => {} }
      }
      // Not the answer to a sign-in this tab started: ignored.
      console.warn('sign-in tokens in the address were ignored: this browser did not start that sign-in')
    }
    return hasSession() ? { kind: 'signed-in-already' } : { kind: 'none' }
  })
}

/**
 * SPEC §2 logout (`room(buildSignOut)`): revokes the refresh-token family on the server without waiting for the answer
 * (a slow network must not keep the student waiting; keepalive lets it outlive the page), clears ALL local storage
 * (tokens and the last known answers), drops the service worker's personal pictures, and forgets the user.
 */
export const buildSignOut = ({ session }: { session: Pick<StartModels['session'], 'reset'> }) =>
  action(() => {
    const refreshToken = appStorage.getItem(REFRESH_TOKEN)
    if (refreshToken) api.logout(refreshToken).catch(() => {})
    localStorage.clear()
    // The student's photo and their tickets' events; the app shell is not personal.
    if (typeof caches !== 'undefined') caches.delete('images').catch(() => {})
    session.reset()
  })

/**
 * Onboarding: saves the profile; resolves with the server's updated user, which the screen hands to
 * `session.setUser` once its All Done step is up (a complete user sends every other screen away). Rejects with
 * the refusal (its message is the server's).
 */
export const saveProfile = (payload: ProfileUpdate): Promise<User> => api.updateProfile(payload).then((answer) => answer.user)
