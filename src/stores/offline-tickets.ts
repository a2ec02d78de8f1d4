// The offline tickets: the details and picture of every event whose ticket the student has collected are
// fetched ahead, so each ticket, with its barcode, opens at the gate with no network (src/api/last-known.ts
// keeps the answers, the service worker keeps the pictures). Loaded by main.tsx once the first screen is
// up: nothing here is needed before it, and the first load of `/` has a byte budget.
import { effect } from '@preact/signals'
import type { EventSummary } from '../../contract/types.ts'
import { api, appStorage } from '../api/calls.ts'
import { isKept } from '../api/last-known-copies.ts'
import { events } from '../models.ts'
import { offline } from './connection.ts'
// The other background work of the start, in this chunk (no first-load bytes): 'Mobile Required''s staff links.
import './staff-links.ts'
import { eventImage } from '../lib/event-image.ts'

const fetchedAhead = new Set<number>()

/**
 * Resolves once a service worker controls this page, at once when one does or none can. On a first visit the worker
 * installs (the whole shell) while this runs: a picture fetched before it took over would pass it by, uncached.
 */
const controlled = () =>
  new Promise<unknown>((resolve) => {
    const sw = 'serviceWorker' in navigator ? navigator.serviceWorker : undefined
    if (!sw || sw.controller) resolve(undefined)
    else sw.addEventListener('controllerchange', resolve, { once: true })
  })

function keepTicket(event: EventSummary) {
  const picture = eventImage(event)
  // Through the service worker's picture cache; the answer itself is not needed here.
  if (picture) controlled().then(() => (new Image().src = picture))
  if (!isKept(appStorage, `event:${event.id}`)) api.getEvent(event.id).catch(() => {})
}

// After each fresh events list (a new ticket collected on this phone or another).
effect(() => {
  const list = events.all.value
  if (offline.value) return
  const wanted = list.filter((event) => event.Participant && event.Participant.ticket_collected && !fetchedAhead.has(event.id))
  wanted.forEach((event) => {
    fetchedAhead.add(event.id)
    keepTicket(event)
  })
})
