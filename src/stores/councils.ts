// The council directory of POST /council/p/get, fetched when the Councils screen first opens.
import { action, createModel, signal, type ReadonlySignal } from '@preact/signals'
import type { Council } from '../../contract/types.ts'
import { api, type Api } from '../api/calls.ts'

export const CouncilsModel = createModel((getCouncils: Api['getCouncils']) => {
  const councils = signal<Council[] | null>(null)
  const loading = signal(false)
  const error = signal<string | null>(null)
  let inFlight: Promise<void> | null = null

  /** Fetches the list (callers arriving while it runs share the fetch); failures land in `error`. */
  const load = action((): Promise<void> => {
    inFlight ??= (async () => {
      loading.value = true
      try {
        councils.value = (await getCouncils()) ?? []
        error.value = null
      } catch (err) {
        // SPEC §8: logged; the screen shows the message with a retry.
        console.error('councils fetch failed', err)
        error.value = (err as Error).message
      } finally {
        loading.value = false
        inFlight = null
      }
    })()
    return inFlight
  })

  return {
    /** null until a fetch has succeeded. */
    councils: councils as ReadonlySignal<Council[] | null>,
    loading: loading as ReadonlySignal<boolean>,
    error: error as ReadonlySignal<string | null>,
    load,
  }
})

export const councils = new CouncilsModel(api.getCouncils)
