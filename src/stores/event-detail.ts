// One event's details (POST /event/p/get/{id}) and the actions taken on it. The event-details, ticket and team
// screens read the signals. Register, RSVP and rating are one round trip each: the store writes the answer of
// the write into the event it holds (and the events list), and keeps the flow under way and the bottom button
// (SPEC §4, lib/action-button) as signals, so the screen only renders them.
import { action, computed, createModel, effect, signal, type ReadonlySignal } from '@preact/signals'
import { TICKET_CLAIMED } from '../../contract/claim-messages.ts'
import type { DetailParticipant, EventDetail, SummaryParticipant } from '../../contract/types.ts'
import { ApiError } from '../api/client.ts'
import type { Api } from '../api/all-calls.ts'
import { api } from '../api/calls.ts'
import { detailApi } from '../api/detail-calls.ts'
import { drawStep } from '../lib/draw-step.ts'
import { nextStep, type NextStep } from '../lib/next-step.ts'
import { actionFor, REGISTER_TOAST, REGISTERING, RSVP_TOAST, RSVPING, type ActionButton } from '../lib/action-button.ts'
import type { Builder, StartModels } from './session.ts'

/** The writes of the bottom button that show a transient label while they run. */
export type Flow = 'register' | 'claim-ticket'
const FLOW_LABEL: Record<Flow, string> = { register: REGISTERING, 'claim-ticket': RSVPING }

/** The button while a flow runs: its transient label, disabled, busy. */
export interface PendingButton extends ActionButton {
  busy: true
}

/** What a flow ended with: the toast to show (the server's words where it sends them), or null after a failure. */
export type FlowResult = { toast: string } | null

export interface EventDetailDeps {
  getEvent: Api['getEvent']
  register: Api['register']
  claimTicket: Api['claimTicket']
  rate: Api['rate']
  /** Called after an action succeeded with the event's new participation: the events list shows it. */
  onChanged?: (eventId: number, participant: SummaryParticipant) => unknown
}

/** A registration just made: what the server holds for it until the next fetch (its id is not in the answer). */
const newParticipant = (): DetailParticipant => ({
  id: 0,
  ticket_collected: false,
  ticket_code: null,
  team: null,
  checked_in_at: null,
  rating: null,
  waitlist: null,
  answers: {},
  draw: null,
})

/** setTimeout's longest delay (about 24 days); a step further away is planned when the page is opened nearer it. */
const MAX_TIMER_MS = 2_147_483_647
/** When the event is fetched again after a step of its schedule is due (ms after it). */
const AFTER_STEP_MS = [1_500, 6_000, 15_000, 30_000, 60_000]

/** An id the server could answer for; anything else ('abc', '0', '1.5') can only be "not found". */
const isId = (id: string) => /^[1-9]\d{0,9}$/.test(id)

export const EventDetailModel = createModel(({ getEvent, register, claimTicket, rate, onChanged }: EventDetailDeps) => {
  const event = signal<EventDetail | null>(null)
  const loading = signal(false)
  const error = signal<string | null>(null)
  const notFound = signal(false)
  const pending = signal<Flow | null>(null)
  // A fair opening's result seen by a fetch (issue 24): the toast the page shows once, then clears.
  const announcement = signal<string | null>(null)
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
      const was = event.value
      if (was?.id === fetched.id && was.Participant && was.Participant.draw?.result === 'PENDING' && fetched.Participant) {
        const now = fetched.Participant
        if (now.draw?.result === 'WON' && now.ticket_collected) announcement.value = TICKET_CLAIMED
        else if (now.draw?.result === 'WAITLISTED' && now.waitlist) announcement.value = `You are number ${now.waitlist.position} on the waitlist.`
      }
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

  /** The bottom button: the flow under way, else SPEC §4's row for the event as the store now holds it. */
  const button = computed<ActionButton | PendingButton | null>(() => {
    if (pending.value) return { label: FLOW_LABEL[pending.value], action: 'none', disabled: true, busy: true }
    return event.value && actionFor(event.value)
  })

  /** Writes a participation into the held event (if it is still the one written to) and tells the list. */
  const write = (id: number, change: (e: EventDetail) => EventDetail) => {
    const current = event.value
    if (!current || current.id !== id) return
    const next = change(current)
    event.value = next
    const p = next.Participant
    if (p) onChanged?.(id, { ticket_collected: p.ticket_collected, team: p.team && { id: p.team.id, name: p.team.name } })
  }

  /**
   * Runs the Register or RSVP flow on the current event: one call, whose answer is written into the event.
   * Resolves with the toast to show, or null when it failed (SPEC §8: the button reverts with no message; the
   * reason is logged). A conflict means the page was stale (sold out, already registered): the event is fetched
   * again so the button shows what the server holds ('Tickets Sold Out').
   */
  const flow = async (which: Flow): Promise<FlowResult> => {
    const current = event.value
    if (!current || pending.value) return null
    const id = current.id
    pending.value = which
    try {
      if (which === 'register') {
        await register(id)
        write(id, (e) => ({ ...e, Participant: e.Participant || newParticipant() }))
        return { toast: REGISTER_TOAST } // SPEC §4 names this toast word for word
      }
      let answer: Awaited<ReturnType<typeof claimTicket>>
      try {
        answer = await claimTicket(id)
      } catch (err) {
        // A claim retried after its answer was lost (issue 27), or sent from a stale page: ALREADY_HAS_TICKET means
        // the student holds it. Show the ticket, as the lost answer would have. (By the code: the words may change.)
        if ((err as ApiError | null)?.data?.code !== 'ALREADY_HAS_TICKET') throw err
        write(id, (e) => ({ ...e, Participant: { ...(e.Participant || newParticipant()), ticket_collected: true } }))
        await refresh() // its code
        return { toast: TICKET_CLAIMED }
      }
      if (answer.result === 'IN_DRAW' || answer.result === 'PAYMENT_PENDING') {
        // A fair opening's window (issue 24): entered in the draw; the event as the server now holds it ('In the
        // draw', "Results at ...", and the fetch at draw_at).
        await refresh()
        return { toast: answer.message }
      }
      write(id, (e) => ({
        ...e,
        tickets_sold: e.Participant && e.Participant.ticket_collected ? e.tickets_sold : e.tickets_sold + 1,
        // The claim's answer has no time-code secret (issue 25): not known until the ticket is fetched.
        Participant: { ...(e.Participant || newParticipant()), ticket_collected: true, ticket_code: answer.ticket_code, ticket_secret: undefined },
      }))
      return { toast: answer.message || RSVP_TOAST }
    } catch (err) {
      console.error(`${which} failed`, err)
      if (err instanceof ApiError && err.status === 409 && currentId === String(id)) void refresh()
      return null
    } finally {
      pending.value = null
    }
  }

  /** Rates the current event; the rating is written into Participant.rating. Rejects with the server's refusal. */
  const rateCurrent = async (rating: number): Promise<void> => {
    const current = event.value
    if (!current) throw new Error('No event loaded')
    await rate(current.id, rating)
    write(current.id, (e) => ({ ...e, Participant: e.Participant && { ...e.Participant, rating } }))
  }

  /** Forgets the event (sign-out, tests): the next load starts from nothing. */
  const reset = action(() => {
    currentId = null
    generation++
    event.value = null
    pending.value = null
    announcement.value = null
    loading.value = false
    error.value = null
    notFound.value = false
  })

  // The next step of the event's schedule (lib/next-step), counted down in its last hour; at its minute the event
  // is fetched again, and a few times more over the next minute should the server's move land late (a busy
  // scheduler), so a student who kept the page open sees the Register or RSVP button appear without reloading.
  // The timers follow the step's time, not each fetch: a step the server never takes is fetched 5 times, not forever.
  const clock = signal(Date.now())
  const next = computed<NextStep | null>(() => (event.value ? (drawStep(event.value, clock.value) ?? nextStep(event.value, clock.value)) : null))
  const nextAt = computed(() => next.value?.at ?? 0)
  effect(() => {
    const at = nextAt.value
    const left = at - Date.now()
    if (!at || left > MAX_TIMER_MS) return
    const timers = AFTER_STEP_MS.map((after) => setTimeout(() => void fetchCurrent(), Math.max(0, left) + after))
    // Past the last fetch the step is over: the line moves on to the one after it.
    timers.push(setTimeout(() => (clock.value = Date.now()), Math.max(0, left) + AFTER_STEP_MS.at(-1)! + 1_000))
    // The countdown's words change by the minute: the clock ticks every half minute until the step's time.
    const tick = setInterval(() => {
      if (Date.now() < at) clock.value = Date.now()
    }, 30_000)
    return () => {
      for (const t of timers) clearTimeout(t)
      clearInterval(tick)
    }
  })

  return {
    event: event as ReadonlySignal<EventDetail | null>,
    /** When the event moves on by itself next ("Registration opens Fri 6:00 PM"), or null. */
    next: next as ReadonlySignal<NextStep | null>,
    loading: loading as ReadonlySignal<boolean>,
    error: error as ReadonlySignal<string | null>,
    notFound: notFound as ReadonlySignal<boolean>,
    /** A fair opening's result just seen (issue 24): the toast to show once ("Ticket claimed!"), else null. */
    announcement: announcement as ReadonlySignal<string | null>,
    clearAnnouncement: action(() => void (announcement.value = null)),
    /** The Register or RSVP flow under way, else null. */
    pending: pending as ReadonlySignal<Flow | null>,
    button: button as ReadonlySignal<ActionButton | PendingButton | null>,
    load,
    refresh,
    reset,
    flow: action(flow),
    register: action(() => flow('register')),
    claimTicket: action(() => flow('claim-ticket')),
    rate: action(rateCurrent),
  }
})

export type EventDetailStore = InstanceType<typeof EventDetailModel>

/**
 * `setParticipant`, in the event screens' room (`room(buildSetParticipant)`): writes an answer (register, RSVP, a
 * transfer) into the start path's events list, so its card shows it without fetching the list again.
 */
export const buildSetParticipant =
  ({ events }: { events: Pick<StartModels['events'], 'update'> }) =>
  (id: number, participant: SummaryParticipant) =>
    events.update((byState) =>
      Object.fromEntries(Object.entries(byState).map(([state, list]) => [state, list.map((e) => (e.id === id ? { ...e, Participant: participant } : e))])),
    )

/**
 * The event screens' room (`room(buildEventDetail)`, src/models.ts): the event's details, built from the start path's
 * session and the room's `setParticipant`. The room's other models (team, register answers, transfer, give back) take
 * these.
 */
export const buildEventDetail: Builder<EventDetailStore> = ({ session }, room) => {
  const eventDetail = new EventDetailModel({
    getEvent: api.getEvent,
    register: detailApi.register,
    claimTicket: detailApi.claimTicket,
    rate: detailApi.rate,
    onChanged: room(buildSetParticipant),
  })
  // Participant is per student: after a sign-out (or another student signing in on this phone) the held event
  // must not be shown again, even for a moment.
  effect(() => {
    session.user.value?.id
    eventDetail.reset()
  })
  return eventDetail
}

/**
 * The ticket this phone has just given to a friend (issue 37 item 7), in the event screens' room
 * (`room(buildGivenAway)`): its event and the friend's e-mail, so the event page the giver lands on says so instead of
 * offering the waitlist for the place they gave away. For this visit only. Written by the transfer's flow
 * (stores/transfer.ts); the page reads it. One signal rather than a model: each name a screen unpacks from an object
 * is bytes in its chunk.
 */
export const buildGivenAway = () => signal<{ id: number; to: string } | null>(null)
