// The student's own calls beyond the start (profile, my events, councils, sign-out), loaded with the screens that
// use them, not with the first one. Typed from the contract like calls.ts.
import type { Request } from '../../contract/api.ts'
import type { Post } from './client.ts'
import { API_HOST, client, lastKnown as appLastKnown, noCopies } from './calls.ts'
import type { LastKnown } from './last-known.ts'

export type ProfileUpdate = Request<'updateProfile'>

export function createAccountCalls({ request: post }: { request: Post }, { remember }: Pick<LastKnown, 'remember'> = noCopies) {
  return {
    updateProfile: (payload: ProfileUpdate) => post('/user/p/update', payload),
    // Answered from the last good copy when offline, like the start's reads.
    getMyEvents: () => remember('myEvents', () => post('/event/p/get/me').then((d) => d.events)),
    getCouncils: () => post('/council/p/get').then((d) => d.councils),
    /** Revokes the refresh-token family; no bearer, no refresh, and it may outlive the page. */
    logout: (refreshToken: string) => post('/auth/logout', { refreshToken }, { auth: false, keepalive: true }),
  }
}

/** Where `GET /auth/google` lives: the login button navigates the whole window there. */
export const googleSignInUrl = () => `${API_HOST}/api/v1/auth/google`

export const accountApi = createAccountCalls(client, appLastKnown)
