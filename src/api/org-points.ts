// The console's activity points calls (issue 26, contract/points.ts): the college's categories for the editor, an
// event's points and its winners, and the admin's screen (categories and targets, below target, the CSV). A file of
// its own, imported only by the console's points screens.
import type { Answer, PathOf, Request } from '../../contract/api.ts'
import { authorizedFetcher } from './authorized-fetch.ts'
import { client } from './calls.ts'

const post = client.request
const authorizedFetch = authorizedFetcher(client)

export const orgPointsApi = {
  settings: () => post<Answer<'pointsSettingsGet'>>('/org/p/points/settings' satisfies PathOf<'pointsSettingsGet'>, {}).then((d) => d.settings),
  saveSettings: (body: Request<'pointsSettingsSave'>) =>
    post<Answer<'pointsSettingsSave'>>('/org/p/points/settings/save' satisfies PathOf<'pointsSettingsSave'>, body).then((d) => d.settings),
  eventPoints: (eventId: number) =>
    post<Answer<'orgEventPoints'>>('/org/p/event/points' satisfies PathOf<'orgEventPoints'>, { event_id: eventId } satisfies Request<'orgEventPoints'>),
  winners: (body: Request<'orgEventWinners'>) =>
    post<Answer<'orgEventWinners'>>('/org/p/event/winners' satisfies PathOf<'orgEventWinners'>, body).then((d) => d.winners),
  belowTarget: (body: Request<'pointsBelowTarget'>) =>
    post<Answer<'pointsBelowTarget'>>('/org/p/points/below-target' satisfies PathOf<'pointsBelowTarget'>, body),
  /** The points CSV as a file (GET with the bearer, so not a plain link); year and branch optional. */
  exportCsv: async (query: { year?: string; branch?: string }) =>
    (await authorizedFetch(`${'/org/p/points/export.csv' satisfies PathOf<'pointsExportCsv'>}?${new URLSearchParams(query)}`)).blob(),
}
