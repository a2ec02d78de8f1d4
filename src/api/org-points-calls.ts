// The console's activity points calls (issue 26, contract/points.ts): the college's categories for the editor, an
// event's points and its winners, and the admin's screen (categories and targets, below target, the CSV). A file of
// its own, imported only by the console's points screens.
import type { PathOf, Request } from '../../contract/api.ts'
import { authorizedFetcher } from './authorized-fetch.ts'
import { client } from './calls.ts'
import type { Post } from './client.ts'

const post = client.request as Post
const authorizedFetch = authorizedFetcher(client)

export const orgPointsApi = {
  settings: () => post('/org/p/points/settings', {}).then((d) => d.settings),
  saveSettings: (body: Request<'pointsSettingsSave'>) => post('/org/p/points/settings/save', body).then((d) => d.settings),
  eventPoints: (eventId: number) => post('/org/p/event/points', { event_id: eventId }),
  winners: (body: Request<'orgEventWinners'>) => post('/org/p/event/winners', body).then((d) => d.winners),
  belowTarget: (body: Request<'pointsBelowTarget'>) => post('/org/p/points/below-target', body),
  /** The points CSV as a file (GET with the bearer, so not a plain link); year and branch optional. */
  exportCsv: async (query: { year?: string; branch?: string }) =>
    (await authorizedFetch(`${'/org/p/points/export.csv' satisfies PathOf<'pointsExportCsv'>}?${new URLSearchParams(query)}`)).blob(),
}

export type OrgPointsApi = typeof orgPointsApi
