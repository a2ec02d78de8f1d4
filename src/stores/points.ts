// The student's activity points (issue 26): fetched each time Profile opens (a check-in at the door changes it), and
// from the last good copy when there is no network, with the time it was computed (`as_of`) for the screen to say.
import { action, createModel, signal, type ReadonlySignal } from '@preact/signals'
import type { PointsRecord } from '../../contract/types.ts'
import { pointsApi, type PointsApi } from '../api/points-calls.ts'

export const PointsModel = createModel((deps: PointsApi) => {
  const record = signal<PointsRecord | null>(null)
  const loading = signal(false)
  const error = signal<string | null>(null)

  const load = action(async () => {
    if (loading.value) return
    loading.value = true
    error.value = null
    try {
      record.value = await deps.record()
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err)
    } finally {
      loading.value = false
    }
  })

  return {
    /** null until the first answer (or kept copy). */
    record: record as ReadonlySignal<PointsRecord | null>,
    loading: loading as ReadonlySignal<boolean>,
    error: error as ReadonlySignal<string | null>,
    load,
    /** The transcript PDF; rejects with the server's message. */
    transcript: () => deps.transcript(),
  }
})

export type Points = InstanceType<typeof PointsModel>

/** Profile's activity points (`room(buildPoints)`). */
export const buildPoints = (): Points => new PointsModel(pointsApi)
