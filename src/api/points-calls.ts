// The student's activity points (issue 26): the record, kept as the last good copy so Profile shows it with no
// network, as the tickets are (src/api/last-known.ts), and the transcript PDF. Loaded with Profile's points
// section only, never on the start path. Typed from the contract.
import type { PathOf } from '../../contract/api.ts'
import { authorizedFetcher } from './authorized-fetch.ts'
import { client, lastKnown } from './calls.ts'
import type { Post } from './client.ts'

const authorizedFetch = authorizedFetcher(client)

export const pointsApi = {
  /** The caller's record, computed by the server from check-ins, roles and winners; the kept copy when offline. */
  record: () => lastKnown.remember('points', () => (client.request as Post)('/user/p/points').then((d) => d.record)),
  /** The transcript PDF: every entry with its verification code. */
  transcript: async () => (await authorizedFetch('/user/p/points/transcript.pdf' satisfies PathOf<'pointsTranscript'>)).blob(),
}

export type PointsApi = typeof pointsApi
