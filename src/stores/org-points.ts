// The console's activity points (issue 26): the college's categories and targets, kept here once read so that the
// editor's points fields and the admin's screen show the same list (the admin's save is what an editor open beside
// it offers next), read afresh each time a screen asks; and an event's points and winners, the admin's below-target
// list and the CSV, each the server's answer for the screen that asked. The console's points screens take it as a
// room (`room(buildOrgPoints)`).
import { action, createModel, signal, type ReadonlySignal } from '@preact/signals'
import type { Request } from '../../contract/api.ts'
import { orgPointsApi, type OrgPointsApi } from '../api/org-points-calls.ts'

type Settings = Awaited<ReturnType<OrgPointsApi['settings']>>

export const OrgPointsModel = createModel((api: OrgPointsApi) => {
  /** The college's categories and targets as last read or saved; null until a screen has read them. */
  const settings = signal<Settings | null>(null)

  return {
    settings: settings as ReadonlySignal<Settings | null>,
    /** Reads the settings afresh, and keeps them. */
    loadSettings: action(async (): Promise<Settings> => (settings.value = await api.settings())),
    /** Saves the settings; keeps what the server answered. Rejects with its message. */
    saveSettings: action(async (body: Request<'pointsSettingsSave'>): Promise<Settings> => (settings.value = await api.saveSettings(body))),
    eventPoints: api.eventPoints,
    winners: api.winners,
    belowTarget: api.belowTarget,
    exportCsv: api.exportCsv,
  }
})

export type OrgPoints = InstanceType<typeof OrgPointsModel>

/** The console's points screens' room (`room(buildOrgPoints)`, src/models.ts). */
export const buildOrgPoints = (): OrgPoints => new OrgPointsModel(orgPointsApi)
