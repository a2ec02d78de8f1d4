// The sorted draw keys of a fair opening (issue 24), for the draw's check page only: the event page's fetch leaves
// them out (about 1.3 MB at 20,000 entrants). Their own GET (issue 36 item 3): the server makes the answer once per
// event, and the browser keeps it (ETag, a year's Cache-Control), so a second visit reads them from the phone.
import type { Answer } from '../../contract/api.ts'
import { authorizedFetcher } from '../api/authorized-fetch.ts'
import { client } from '../api/calls.ts'

const get = authorizedFetcher(client)

export const drawKeysOf = (id: number | string) =>
  get(`/event/p/draw-keys/${encodeURIComponent(id)}`)
    .then((res) => res.json() as Promise<Answer<'drawKeys'>>)
    .then((d) => d.keys)
