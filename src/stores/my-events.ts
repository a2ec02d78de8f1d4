// The student's own participations (POST /event/p/get/me), fetched each time My Events opens: registrations
// change on other screens, so a copy from earlier could be stale.
import { action, createModel, signal, type ReadonlySignal } from '@preact/signals'
import type { MyEvent } from '../../contract/types.ts'
import { api, type Api } from '../api/calls.ts'

export const MyEventsModel = createModel((getMyEvents: Api['getMyEvents']) => {
  const items = signal<MyEvent[] | null>(null)
  const loading = signal(false)
  const error = signal<string | null>(null)
  let inFlight: Promise<void> | null = null

  /** Fetches afresh; the previous list is dropped first (it may be another student's, after a sign-out). */
  const load = action((): Promise<void> => {
    inFlight ??= (async () => {
      items.value = null
      loading.value = true
      try {
        items.value = (await getMyEvents()) ?? []
        error.value = null
      } catch (err) {
        console.error('my events fetch failed', err)
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
    items: items as ReadonlySignal<MyEvent[] | null>,
    loading: loading as ReadonlySignal<boolean>,
    error: error as ReadonlySignal<string | null>,
    load,
  }
})

export const myEvents = new MyEventsModel(api.getMyEvents)
