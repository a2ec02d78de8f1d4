// The narrow reads of the events list (issue 15): a calendar month, one parent's children. Home's list
// (events.ts) holds only what Home shows, so these screens ask for their own, each time they open (an answer
// from earlier may be stale), and show the last answer for the same query meanwhile.
import { action, signal } from '@preact/signals'
import type { EventSummary } from '../../contract/types.ts'
import type { Request } from '../../contract/api.ts'
import { EVENT_STATES } from '../../contract/shell.ts'
import { api, type StartApi } from '../api/calls.ts'

export type EventListQuery = Request<'events'>

/** The calendar's month as the query's `month` field: 'YYYY-MM'. */
export const monthQuery = (m: { year: number; month: number }): EventListQuery => ({ month: `${m.year}-${String(m.month).padStart(2, '0')}` })

export function createEventLists(getEvents: StartApi['getEvents']) {
  const lists = signal<ReadonlyMap<string, EventSummary[]>>(new Map())
  const error = signal<string | null>(null)
  const inFlight = new Map<string, Promise<void>>()
  const keyOf = (query: EventListQuery) => JSON.stringify(query)

  /** The last answer for the query (every event once, in state order), or null before the first. */
  const list = (query: EventListQuery): EventSummary[] | null => lists.value.get(keyOf(query)) ?? null

  /** Fetches the query afresh; callers arriving while it runs share the fetch; a failure lands in `error`. */
  const load = action((query: EventListQuery): Promise<void> => {
    const key = keyOf(query)
    let running = inFlight.get(key)
    if (!running) {
      running = (async () => {
        try {
          const byState = (await getEvents(query)) ?? {}
          const next = new Map(lists.value)
          next.set(
            key,
            EVENT_STATES.flatMap((state) => byState[state] ?? []),
          )
          lists.value = next
          error.value = null
        } catch (err) {
          // SPEC §8: a failed fetch is logged; the screen shows what it has plus the error.
          console.error('events fetch failed', err)
          error.value = (err as Error).message
        } finally {
          inFlight.delete(key)
        }
      })()
      inFlight.set(key, running)
    }
    return running
  })

  return { list, load, error }
}

export type EventLists = ReturnType<typeof createEventLists>

/** The calendar's and the children's lists (`room(buildEventLists)`). */
export const buildEventLists = (): EventLists => createEventLists(api.getEvents)
