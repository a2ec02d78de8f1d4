// Whether the app is showing last known data instead of fresh answers (the offline notice).
import { computed, signal } from '@preact/signals'
import { lastKnown } from '../api/calls.ts'
import { events } from '../models.ts'

const fromCopy = signal(false)
// `MODE`: a build constant; the guards are for node tests and the app's bundle does not carry them.
const networkDown = signal((import.meta.env.MODE !== 'test' || typeof navigator !== 'undefined') && navigator.onLine === false)

lastKnown.listen((copy) => {
  fromCopy.value = copy
})

if (import.meta.env.MODE !== 'test' || typeof addEventListener === 'function') {
  addEventListener('offline', () => {
    networkDown.value = true
  })
  addEventListener('online', () => {
    networkDown.value = false
    // Back online while showing copies: fetch fresh ones (the notice goes when they arrive).
    if (fromCopy.value) events.refresh()
  })
}

/** True while the screens show last known data, or the phone says it has no network. */
export const offline = computed(() => fromCopy.value || networkDown.value)
