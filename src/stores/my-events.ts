// The student's own participations (POST /event/p/get/me), fetched each time My Events opens: registrations
// change on other screens, so a copy from earlier could be stale.
import { action, createModel, type ReadonlySignal } from '@preact/signals'
import type { MyEvent } from '../../contract/types.ts'
import { accountApi as api } from '../api/account-calls.ts'
import type { Api } from '../api/all-calls.ts'
import { fetchedList } from './fetched-list.ts'

export const MyEventsModel = createModel((getMyEvents: Api['getMyEvents']) => {
  // dropFirst: the previous list is dropped as a fetch starts (it may be another student's, after a sign-out).
  const { items, loading, error, load } = fetchedList(getMyEvents, 'my events', true)

  return {
    /** null until a fetch has succeeded. */
    items: items as ReadonlySignal<MyEvent[] | null>,
    loading: loading as ReadonlySignal<boolean>,
    error: error as ReadonlySignal<string | null>,
    /** Fetches afresh (callers arriving while it runs share the fetch); failures land in `error`. */
    load: action(load),
  }
})

export type MyEvents = InstanceType<typeof MyEventsModel>

/** My Events' model (`room(buildMyEvents)`). */
export const buildMyEvents = (): MyEvents => new MyEventsModel(api.getMyEvents)
