// The council directory of POST /council/p/get, fetched each time the Councils screen opens.
import { action, createModel, type ReadonlySignal } from '@preact/signals'
import type { Council } from '../../contract/types.ts'
import { lastKnown } from '../api/calls.ts'
import { accountApi as api } from '../api/account-calls.ts'
import type { Api } from '../api/all-calls.ts'
import { fetchedList } from './fetched-list.ts'

export const CouncilsModel = createModel((getCouncils: Api['getCouncils']) => {
  // SPEC §8: a failure is logged; the screen shows the message with a retry.
  const { items, loading, error, load } = fetchedList(getCouncils, 'councils')

  return {
    /** null until a fetch has succeeded. */
    councils: items as ReadonlySignal<Council[] | null>,
    loading: loading as ReadonlySignal<boolean>,
    error: error as ReadonlySignal<string | null>,
    /** Fetches the list (callers arriving while it runs share the fetch); failures land in `error`. */
    load: action(load),
  }
})

export type Councils = InstanceType<typeof CouncilsModel>

/**
 * The Councils screen's model (`room(buildCouncils)`). Offline, the last list fetched online is shown, like the other
 * screens (src/api/last-known.ts). The copy is kept here rather than in api/calls.ts, which is in the first load of
 * `/` (its byte budget has no room left).
 */
export const buildCouncils = (): Councils => new CouncilsModel(() => lastKnown.remember('councils', api.getCouncils))
