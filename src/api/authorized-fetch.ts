// The calls whose answer is a file or whose body is a form (the organiser's upload and CSV, the student's
// certificate and transcript): sent by this fetch with the client's bearer, through the client's one 401 path
// (`client.authorized`: the same shared refresh and the same logout). Kept out of client.ts so that it loads with
// the screens that use it, never on the start path.
import { ApiError, type Client, NETWORK_MESSAGE } from './client.ts'
import { API_HOST } from './calls.ts'

export function authorizedFetcher(client: Pick<Client, 'authorized'>, base = API_HOST) {
  /** Resolves with the Response of a 2xx; anything else rejects with the client's ApiError (the server's message). */
  return (path: string, init: RequestInit = {}): Promise<Response> =>
    client.authorized<Response>(async (token) => {
      const headers = new Headers(init.headers)
      if (token) headers.set('authorization', `Bearer ${token}`)
      let res: Response
      try {
        res = await fetch(`${base}/api/v1${path}`, { ...init, headers })
      } catch {
        return new ApiError(0, NETWORK_MESSAGE)
      }
      // A file is the answer itself; a refusal is the API's JSON ({ message }), read for the client's error.
      return { status: res.status, data: res.ok ? res : await res.json().catch(() => null) }
    })
}
