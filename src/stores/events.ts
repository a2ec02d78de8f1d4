// Home's events list (POST /event/p/get {scope: 'home'}, grouped by state), loaded once per session and refreshed
// on demand. Built with the session, on the start path (src/models.ts).
// Screens read the signals; only refresh() fetches.
import { action, computed, createModel, signal, type ReadonlySignal } from '@preact/signals'
import type { EventsByState, EventSummary } from '../../contract/types.ts'
import { EVENT_STATES } from '../../contract/shell.ts'
import type { StartApi } from '../api/calls.ts'

export const EventsModel = createModel((getEvents: StartApi['getEvents']) => {
  const byState = signal<EventsByState>({})
  const loading = signal(false)
  const loaded = signal(false)
  const error = signal<string | null>(null)
  let inFlight: Promise<void> | null = null

  /** Every event once, in state order: for screens that do not care about the grouping (calendar, lookups). */
  const all = computed<EventSummary[]>(() => EVENT_STATES.flatMap((state) => byState.value[state] ?? []))

  const refresh = action((): Promise<void> => {
    // Callers arriving while a fetch runs share it instead of starting another.
    inFlight ??= (async () => {
      loading.value = true
      try {
        // What Home shows (issue 15): the calendar and child events ask for their own (event-lists.ts).
        byState.value = (await getEvents({ scope: 'home' })) ?? {}
        error.value = null
      } catch (err) {
        // SPEC §8: a failed fetch is logged; the screens show what they have plus the error signal.
        console.error('events fetch failed', err)
        error.value = (err as Error).message
      } finally {
        loading.value = false
        loaded.value = true
        inFlight = null
      }
    })()
    return inFlight
  })

  /** Changes the list in place (src/stores/event-detail.ts writes a register's or RSVP's answer into its card). */
  const update = action((change: (list: EventsByState) => EventsByState) => {
    byState.value = change(byState.value)
  })

  const reset = action(() => {
    byState.value = {}
    loaded.value = false
    error.value = null
  })

  return {
    byState: byState as ReadonlySignal<EventsByState>,
    all,
    loading: loading as ReadonlySignal<boolean>,
    /** True once a fetch has ended, with or without success. */
    loaded: loaded as ReadonlySignal<boolean>,
    error: error as ReadonlySignal<string | null>,
    refresh,
    update,
    reset,
  }
})

export type Events = InstanceType<typeof EventsModel>
