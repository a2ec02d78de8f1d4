// The session of SPEC §4: on load fetch the user (the client turns a 401 into one refresh, then a retry, and
// sends the app to /logout when there is no refresh token or the refresh is refused), then fetch the events
// list in any case. Screens read the signals; the layout redirects on `needsOnboarding`.
//
// Built, with the events list it loads, in src/models.ts (the one place the app's models are built).
import { action, computed, createModel, signal, type ReadonlySignal } from '@preact/signals'
import type { User } from '../../contract/types.ts'
import { ApiError } from '../api/client.ts'
import type { StartApi } from '../api/calls.ts'
import type { Events } from './events.ts'

/**
 * idle: nothing fetched yet · loading: user or events on their way · ready: both fetched (events may have
 * failed, see the events store) · error: the user could not be fetched (offline, server down) · signed-out: the
 * client gave up on the tokens and went to /logout.
 */
export type SessionStatus = 'idle' | 'loading' | 'ready' | 'error' | 'signed-out'

interface SessionDeps {
  me: StartApi['me']
  events: Pick<Events, 'refresh' | 'reset'>
}

export const SessionModel = createModel(({ me, events }: SessionDeps) => {
  const user = signal<User | null>(null)
  /** The student's unread messages (the header's bell); the inbox writes it as it marks them read. */
  const unread = signal(0)
  const status = signal<SessionStatus>('idle')
  const error = signal<string | null>(null)
  let inFlight: Promise<void> | null = null
  // Bumped by reset(): a load that began before a sign-out must not write the old user back afterwards.
  let generation = 0

  /** The shared user data of SPEC §3: name and photo_url, empty until the user is known. */
  const userData = computed(() => ({ name: user.value?.name ?? '', photo_url: user.value?.photo_url ?? '' }))
  /** SPEC §1: a user without phone number or roll number belongs in /getting-started. */
  const needsOnboarding = computed(() => !!user.value && (!user.value.phone_number || !user.value.roll_number))

  /** Fetches the user, then the events; a second call while one runs, or after success, does nothing more. */
  const load = action((): Promise<void> => {
    if (status.value === 'ready') return Promise.resolve()
    if (inFlight) return inFlight
    const mine = generation
    const run = (async () => {
      status.value = 'loading'
      let next: SessionStatus = 'ready'
      try {
        const fetched = await me()
        if (mine !== generation) return
        user.value = fetched.user
        unread.value = fetched.unread
        error.value = null
      } catch (err) {
        if (mine !== generation) return
        // A 401 reaching here means the client already sent the app to /logout: fetching more would only 401.
        if (err instanceof ApiError && err.status === 401) next = 'signed-out'
        else {
          console.error('user fetch failed', err) // SPEC §8: other errors are logged
          next = 'error'
          error.value = (err as Error).message
        }
      }
      if (next !== 'signed-out') await events.refresh()
      if (mine === generation) status.value = next
    })().finally(() => {
      if (inFlight === run) inFlight = null
    })
    inFlight = run
    return run
  })

  /** After onboarding: the server's updated user. */
  const setUser = action((next: User) => {
    user.value = next
  })

  const reset = action(() => {
    generation++
    inFlight = null
    user.value = null
    status.value = 'idle'
    error.value = null
    events.reset()
  })

  return {
    user: user as ReadonlySignal<User | null>,
    unread,
    status: status as ReadonlySignal<SessionStatus>,
    error: error as ReadonlySignal<string | null>,
    userData,
    needsOnboarding,
    load,
    setUser,
    reset,
  }
})

export type Session = InstanceType<typeof SessionModel>

export type StartModels = { events: Events; session: Session }

/**
 * A lazy room's builder (src/models.ts `room`): its models from the start models, and from the rooms it needs, asked
 * of `room`. Declared here, beside the start models, so that a store module imports nothing of src/models.ts.
 */
export type Builder<T> = (start: StartModels, room: <U>(build: Builder<U>) => U) => T
