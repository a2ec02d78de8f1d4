// The console's activity points model (src/stores/org-points.ts): the college's settings read afresh each time a
// screen asks and kept, and what the admin saves kept too, so the editor's points fields and the admin's screen show
// one list; the event's calls are the server's answers as they are.
import { expect, it, vi } from 'vitest'
import type { OrgPointsApi } from '../../src/api/org-points-calls.ts'
import { OrgPointsModel } from '../../src/stores/org-points.ts'

it('keeps the settings read and saved; reads afresh on every load', async () => {
  let stored = { categories: ['Technical'], target: 100, lateral_entry_target: 75 }
  const api = {
    settings: vi.fn(async () => stored),
    saveSettings: vi.fn(async (body: typeof stored) => (stored = body)),
    eventPoints: vi.fn(),
    winners: vi.fn(),
    belowTarget: vi.fn(),
    exportCsv: vi.fn(),
  } as unknown as OrgPointsApi
  const model = new OrgPointsModel(api)
  expect(model.settings.value).toBeNull()
  expect((await model.loadSettings()).categories).toEqual(['Technical'])
  expect(model.settings.value?.target).toBe(100)
  await model.saveSettings({ categories: ['Technical', 'Cultural'], target: 120, lateral_entry_target: 80 })
  expect(model.settings.value).toEqual({ categories: ['Technical', 'Cultural'], target: 120, lateral_entry_target: 80 })
  stored = { ...stored, target: 130 } // another admin, elsewhere
  await model.loadSettings()
  expect(model.settings.value?.target).toBe(130)
  expect(api.settings).toHaveBeenCalledTimes(2)
  await model.winners({ event_id: 4 })
  expect(api.winners).toHaveBeenCalledWith({ event_id: 4 })
})
