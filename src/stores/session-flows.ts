// The session store's flows that only the sign-in, sign-out and onboarding screens run: starting and completing
// a sign-in, signing out, saving the profile. They act on the session store (src/stores/session.ts) and are kept
// in a module of their own so the first load of `/` does not carry them (only those lazy screens import it).
import { action } from '@preact/signals'
import type { User } from '../../contract/types.ts'
import { api, client, googleSignInUrl, type ProfileUpdate } from '../api/calls.ts'
import { parseAuthReturn, session } from './session.ts'

/** What the login screen does with the address it was opened with. */
export type SignInCompletion =
  /** Tokens stored: go to /. */
  | { kind: 'signed-in' }
  /** The callback reported a failure: show it. */
  | { kind: 'error'; message: string }
  /** Nothing to complete: already signed in on this phone. */
  | { kind: 'signed-in-already' }
  /** Nothing to complete: show the sign-in button. */
  | { kind: 'none' }

/** Whether this phone holds a session (either token). */
export const hasSession = () => client.hasSession()

/** Starts a sign-in: the address the whole window goes to (the server sends it on to Google and back to /login). */
export const beginSignIn = (): string => googleSignInUrl()

/**
 * Completes a sign-in from the address /login was opened with (`location.hash`, `location.search`): tokens are
 * stored, and the caller takes them out of the address at once.
 */
export const completeSignIn = action((hash: string, search: string): SignInCompletion => {
  const back = parseAuthReturn(hash, search)
  if (back && 'accessToken' in back) {
    session.signIn(back.accessToken, back.refreshToken)
    return { kind: 'signed-in' }
  }
  if (back) return { kind: 'error', message: back.error }
  return client.hasSession() ? { kind: 'signed-in-already' } : { kind: 'none' }
})

/**
 * SPEC §2 logout: revokes the refresh-token family on the server without waiting for the answer (a slow network
 * must not keep the student waiting; keepalive lets it outlive the page), clears ALL local storage (tokens and
 * the last known answers), drops the service worker's personal pictures, and forgets the user.
 */
export const signOut = action(() => {
  const refreshToken = client.refreshToken()
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
