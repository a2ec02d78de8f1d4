// The sorted draw keys of a fair opening (issue 24), for the draw's check page only: the event page's fetch leaves
// them out (about 1.3 MB at 20,000 entrants), so this asks for the event with `keys: true`.
import type { Answer, Request } from '../../contract/api.ts'
import { client } from '../api/calls.ts'

export const drawKeysOf = (id: number | string) =>
  client
    .request<Answer<'event'>>(`/event/p/get/${encodeURIComponent(id)}`, { keys: true } satisfies Request<'event'>)
    .then((d) => d.event.fair_start?.keys ?? [])
