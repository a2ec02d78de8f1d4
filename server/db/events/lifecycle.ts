// Event state changes as they happen, for whatever must react to them (the around helper's "Tickets are open" push
// and waitlist, for instance). Both the organiser's manual move (/org/p/event/state) and the scheduler emit here,
// after their transaction has committed, once per move.
//
// Usage (in a plugin registered after the repositories):
//   app.lifecycle.onStateChange(({ eventId, from, to }) => { if (to === 'TICKET_OPEN') ... })
// A listener's error or rejection is caught and reported to `onError` (the app logs it); it never undoes the move.
import type { AnyEventState } from '../../../contract/constants.ts'

export interface StateChange {
  eventId: number
  from: AnyEventState
  to: AnyEventState
  /** Who moved it: an organiser or admin (their user id), or the scheduler. */
  by: { kind: 'user'; userId: number } | { kind: 'scheduler' }
  at: Date
}

export type StateChangeListener = (change: StateChange) => void | Promise<void>

export function createLifecycle(onError: (err: unknown) => void = () => {}) {
  const listeners = new Set<StateChangeListener>()
  return {
    /** Adds a listener; the answer removes it. */
    onStateChange(listener: StateChangeListener): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    /** Tells every listener (without waiting for them). */
    emit(change: StateChange): void {
      for (const listener of listeners) {
        try {
          Promise.resolve(listener(change)).catch(onError)
        } catch (err) {
          onError(err)
        }
      }
    },
  }
}

export type Lifecycle = ReturnType<typeof createLifecycle>
