// What the two team screens (team-register, team-details) share: the event fetched afresh for the screen,
// and the redirect to the screen the event belongs on (lib/action-button.ts's `screenOf`).
import { useEffect, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import type { EventDetail } from '../../contract/types.ts'
import { screenOf } from '../lib/action-button.ts'
import type { EventDetailStore } from '../stores/event-detail.ts'

/**
 * The event of `id` once this screen's own fetch has ended (null before, or when it failed), and `redirect`,
 * the screen the event belongs on when it is not `here` (null while it is, and mid-refetch).
 */
export function useTeamEvent(id: string, detail: EventDetailStore, here: 'team-details' | 'team-register') {
  const { route } = useLocation()
  const [loaded, setLoaded] = useState(false)

  // The store may still hold this event as another screen saw it (Participant as it was then, before the team
  // was created, say): the redirect below waits for this screen's own fetch.
  useEffect(() => {
    let live = true
    setLoaded(false)
    void detail.load(id).then(() => live && setLoaded(true))
    return () => {
      live = false
    }
  }, [id])

  const stored = detail.event.value
  const event = loaded && stored?.id === Number(id) ? stored : null
  // Decided on settled data only, never mid-refetch.
  const target = !event || detail.loading.value ? null : `/${screenOf(event)}/${id}`
  const redirect = target === `/${here}/${id}` ? null : target
  useEffect(() => {
    if (redirect) route(redirect, true)
  }, [redirect])

  return { loaded, event, redirect }
}

/** Teams are created, joined and changed only while registration is open: the server refuses it otherwise. */
export const teamChangesOpen = (event: Pick<EventDetail, 'state'>) => event.state === 'REGISTRATION_OPEN'
export const TEAM_CHANGES_CLOSED = 'Registration has closed, so this team can no longer change.'
export const TEAMS_CLOSED = 'Registration for this event is closed, so teams can no longer be created or joined.'

/**
 * Both team screens' answer to an event the server does not know: the other screens of one event use
 * components/load-or-retry's `EventNotFound`, which team-details does not otherwise load (importing it took that
 * screen to 7.40 KB, over its 7.25 KB).
 */
export const EventNotFound = () => (
  <div class="page-message">
    <h1>Event not found</h1>
    <p>
      <a href="/">Go to Home</a>
    </p>
  </div>
)
