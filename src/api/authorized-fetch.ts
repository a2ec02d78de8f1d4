// A fetch with the bearer for the calls whose answer is a file or whose body is a form (the organiser's upload
// and CSV, the student's certificate): the same token and the same one refresh on 401 as the client's JSON
// calls. Kept out of client.ts so that it loads with the screens that use it, never on the start path.
import { ACCESS_TOKEN, ApiError, NETWORK_MESSAGE, type Client } from './client.ts'
import { API_HOST } from './calls.ts'

export function authorizedFetcher(client: Pick<Client, 'refresh'>, base = API_HOST, getToken = () => localStorage.getItem(ACCESS_TOKEN)) {
  /** A fetch with the bearer; a 401 refreshes once (shared with every other call) and tries again. */
  return async function authorizedFetch(path: string, init: RequestInit = {}): Promise<Response> {
    const send = () => {
      const headers = new Headers(init.headers)
      const token = getToken()
      if (token) headers.set('authorization', `Bearer ${token}`)
      return fetch(`${base}/api/v1${path}`, { ...init, headers }).catch(() => {
        throw new ApiError(0, NETWORK_MESSAGE)
      })
    }
    let res = await send()
    if (res.status === 401) {
      await client.refresh(getToken())
      res = await send()
    }
    if (!res.ok) {
      const data = await res.json().catch(() => null)
      throw new ApiError(res.status, typeof data?.message === 'string' ? data.message : `The server answered ${res.status}. Please try again.`)
    }
    return res
  }
}
