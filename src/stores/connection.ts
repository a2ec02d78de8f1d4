// Whether the app is showing last known data instead of fresh answers (the offline notice), and the start of
// the offline tickets (offline-tickets.ts).
import { computed, signal } from '@preact/signals'
import { lastKnown } from '../api/calls.ts'
import { events } from './events.ts'

const fromCopy = signal(false)
const networkDown = signal(typeof navigator !== 'undefined' && navigator.onLine === false)

lastKnown.listen((copy) => {
  fromCopy.value = copy
})

if (typeof addEventListener === 'function') {
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

// The offline tickets, fetched ahead in the background once the first screen has had the network to itself.
if (typeof window !== 'undefined') {
  const later = () => setTimeout(() => import('./offline-tickets.ts').catch(() => {}), 2000)
  if (document.readyState === 'complete') later()
  else addEventListener('load', later, { once: true })
}
