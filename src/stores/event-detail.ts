// One event's details (POST /event/p/get/{id}) and the actions taken on it. The event-details, ticket and team
// screens read the signals; every action calls the api and then refreshes, so the screen shows what the server
// now holds (Participant, ticket_code, team) instead of a guess.
import { action, createModel, effect, signal, type ReadonlySignal } from '@preact/signals'
import type { EventDetail } from '../../contract/types.ts'
import { ApiError } from '../api/client.ts'
import { api, type Api } from '../api/calls.ts'
import { aroundApi, type AroundApi } from '../api/around-calls.ts'
import { events } from './events.ts'
import { session } from './session.ts'

export interface EventDetailDeps {
  getEvent: Api['getEvent']
  register: Api['register']
  claimTicket: Api['claimTicket']
  rate: Api['rate']
  /** Give back and waitlist (issue 13); optional so that a test's fake api can leave them out. */
  releaseTicket?: AroundApi['releaseTicket']
  waitlist?: AroundApi['waitlist']
  /** Called after an action succeeded: the events list shows 'Registered' tags and Your Tickets from it. */
  onChanged?: () => unknown
}

/** An id the server could answer for; anything else ('abc', '0', '1.5') can only be "not found". */
const isId = (id: string) => /^[1-9]\d{0,9}$/.test(id)

export const EventDetailModel = createModel(({ getEvent, register, claimTicket, rate, releaseTicket, waitlist, onChanged }: EventDetailDeps) => {
  const event = signal<EventDetail | null>(null)
  const loading = signal(false)
  const error = signal<string | null>(null)
  const notFound = signal(false)
  let currentId: string | null = null
  // Bumped by every load: an answer for an id the student has since left must not overwrite the new one.
  let generation = 0

  const fetchCurrent = async (): Promise<void> => {
    const id = currentId
    const mine = ++generation
    if (id === null) return
    if (!isId(id)) {
      event.value = null
      notFound.value = true
      error.value = null
      return
    }
    loading.value = true
    try {
      const fetched = await getEvent(id)
      if (mine !== generation) return
      event.value = fetched
      error.value = null
      notFound.value = false
    } catch (err) {
      if (mine !== generation) return
      // 404 unknown or hidden; 400 a path the server cannot read as an id: both mean "no such event" here.
      if (err instanceof ApiError && (err.status === 404 || err.status === 400)) {
        event.value = null
        notFound.value = true
        error.value = null
      } else {
        console.error('event fetch failed', err)
        error.value = (err as Error).message
      }
    } finally {
      if (mine === generation) loading.value = false
    }
  }

  /** Shows event `id`; a different id clears the previous event at once so its details never flash. */
  const load = action((id: number | string): Promise<void> => {
    const key = String(id).trim()
    if (key !== currentId) {
      currentId = key
      event.value = null
      notFound.value = false
      error.value = null
    }
    return fetchCurrent()
  })

  /** Fetches the current event again (after an action, or a retry after an error). */
  const refresh = action((): Promise<void> => fetchCurrent())

  /** Runs a call on the current event, then refreshes; failures reject so the screen can revert its button. */
  const act = async (call: (eventId: number) => Promise<unknown>): Promise<void> => {
    const current = event.value
    if (!current) throw new Error('No event loaded')
    await call(current.id)
    onChanged?.()
    await refresh()
  }

  /** Forgets the event (sign-out, tests): the next load starts from nothing. */
  const reset = action(() => {
    currentId = null
    generation++
    event.value = null
    loading.value = false
    error.value = null
    notFound.value = false
  })

  return {
    event: event as ReadonlySignal<EventDetail | null>,
    loading: loading as ReadonlySignal<boolean>,
    error: error as ReadonlySignal<string | null>,
    notFound: notFound as ReadonlySignal<boolean>,
    load,
    refresh,
    reset,
    register: action(() => act(register)),
    claimTicket: action(() => act(claimTicket)),
    rate: action((rating: number) => act((id) => rate(id, rating))),
    /** Gives the ticket back (issue 13): the server's message, for the toast. */
    releaseTicket: action(async (): Promise<string> => {
      let message = ''
      await act(async (id) => {
        if (!releaseTicket) throw new Error('releaseTicket is not available')
        message = (await releaseTicket(id)).message
      })
      return message
    }),
    /** Joins (true) or leaves (false) the waitlist; the server's message, for the toast. */
    waitlist: action(async (join: boolean): Promise<string> => {
      let message = ''
      await act(async (id) => {
        if (!waitlist) throw new Error('waitlist is not available')
        message = (await waitlist(id, join)).message
      })
      return message
    }),
  }
})

export type EventDetailStore = InstanceType<typeof EventDetailModel>

export const eventDetail = new EventDetailModel({
  getEvent: api.getEvent,
  register: api.register,
  claimTicket: api.claimTicket,
  rate: api.rate,
  releaseTicket: aroundApi.releaseTicket,
  waitlist: aroundApi.waitlist,
  onChanged: () => events.refresh(),
})

// Participant is per student: after a sign-out (or another student signing in on this phone) the held event
// must not be shown again, even for a moment.
effect(() => {
  session.user.value?.id
  eventDetail.reset()
})
