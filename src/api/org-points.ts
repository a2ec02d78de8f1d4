// The console's activity points calls (issue 26, contract/points.ts): the college's categories for the editor. A
// file of its own, imported only by the editor's points fields.
import type { Answer, PathOf } from '../../contract/api.ts'
import { client } from './calls.ts'

export const orgPointsApi = {
  settings: () => client.request<Answer<'pointsSettingsGet'>>('/org/p/points/settings' satisfies PathOf<'pointsSettingsGet'>, {}).then((d) => d.settings),
}
