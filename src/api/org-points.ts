// The console's activity points calls (issue 26, contract/points.ts): the college's categories for the editor, an
// event's points and its winners. A file of its own, imported only by the console's points screens.
import type { Answer, PathOf, Request } from '../../contract/api.ts'
import { client } from './calls.ts'

const post = client.request

export const orgPointsApi = {
  settings: () => post<Answer<'pointsSettingsGet'>>('/org/p/points/settings' satisfies PathOf<'pointsSettingsGet'>, {}).then((d) => d.settings),
  eventPoints: (eventId: number) =>
    post<Answer<'orgEventPoints'>>('/org/p/event/points' satisfies PathOf<'orgEventPoints'>, { event_id: eventId } satisfies Request<'orgEventPoints'>),
  winners: (body: Request<'orgEventWinners'>) =>
    post<Answer<'orgEventWinners'>>('/org/p/event/winners' satisfies PathOf<'orgEventWinners'>, body).then((d) => d.winners),
}
