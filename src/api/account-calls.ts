// The student's own calls beyond the start (profile, my events, councils, sign-out), loaded with the screens that
// use them, not with the first one. Typed from the contract like calls.ts.
import type { Answer, PathOf, Request } from '../../contract/api.ts'
import type { Client } from './client.ts'
import { API_HOST, client, lastKnown as appLastKnown, noCopies } from './calls.ts'
import type { LastKnown } from './last-known.ts'

export type ProfileUpdate = Request<'updateProfile'>

export function createAccountCalls({ request: post }: Client, { remember }: Pick<LastKnown, 'remember'> = noCopies) {
  return {
    updateProfile: (payload: ProfileUpdate) => post<Answer<'updateProfile'>>('/user/p/update' satisfies PathOf<'updateProfile'>, payload),
    // Answered from the last good copy when offline, like the start's reads.
    getMyEvents: () => remember('myEvents', () => post<Answer<'myEvents'>>('/event/p/get/me' satisfies PathOf<'myEvents'>).then((d) => d.events)),
    getCouncils: () => post<Answer<'councils'>>('/council/p/get' satisfies PathOf<'councils'>).then((d) => d.councils),
    /** Revokes the refresh-token family; no bearer, no refresh, and it may outlive the page. */
    logout: (refreshToken: string) =>
      post<Answer<'logout'>>('/auth/logout' satisfies PathOf<'logout'>, { refreshToken } satisfies Request<'logout'>, { auth: false, keepalive: true }),
  }
}

/** Where `GET /auth/google` lives: the login button navigates the whole window there. */
export const googleSignInUrl = () => `${API_HOST}/api/v1/auth/google`

export const accountApi = createAccountCalls(client, appLastKnown)
