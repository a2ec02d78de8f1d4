// My events (issue 11): every event of my councils in every state, drafts included, with live counts (fetched
// again every 20 s while the screen is open, and when the tab comes back).
import { useEffect } from 'preact/hooks'
import type { OrgEvent } from '../../../contract/types.ts'
import { LoadOrRetry } from '../../components/load-or-retry/index.tsx'
import { formatDate } from '../../lib/dates.ts'
import { nextMove, STATE_NAMES, formatMoment } from '../../lib/org-event.ts'
import { buildOrg } from '../../stores/org.ts'
import { room } from '../../models.ts'
import { Counts } from './counts.tsx'

const org = room(buildOrg)

export const REFRESH_MS = 20_000

function EventItem({ event }: { event: OrgEvent }) {
  const next = nextMove(event.schedule, event.state)
  return (
    <li class="m-card">
      <h2>{event.name || 'Untitled event'}</h2>
      <p class="m-muted">
        <span class="m-badge">{STATE_NAMES[event.state]}</span> {event.organizer.name}
        {event.dates[0] && ` · ${formatDate(event.dates[0])}`}
      </p>
      {next && (
        <p class="m-muted">
          {next.label} {formatMoment(next.at)}
        </p>
      )}
      <Counts event={event} />
      <p class="m-actions">
        <a href={`/manage/event/${event.id}`} aria-label={`Manage ${event.name}`}>
          Manage
        </a>
        <a href={`/manage/event/${event.id}/edit`} aria-label={`Edit ${event.name}`}>
          Edit
        </a>
        <a href={`/manage/event/${event.id}/participants`} aria-label={`Participants of ${event.name}`}>
          Participants
        </a>
      </p>
    </li>
  )
}

export default function Events() {
  useEffect(() => {
    org.load()
    const refresh = () => document.visibilityState === 'visible' && org.load()
    const timer = setInterval(refresh, REFRESH_MS)
    document.addEventListener('visibilitychange', refresh)
    return () => {
      clearInterval(timer)
      document.removeEventListener('visibilitychange', refresh)
    }
  }, [])
  const events = org.events.value
  return (
    <>
      <div class="m-head">
        <h1>My events</h1>
        <a class="button" href="/manage/event/new">
          New event
        </a>
      </div>
      {!events ? (
        <LoadOrRetry loading="Loading your events" what="your events" error={org.error.value} retry={org.load} />
      ) : events.length === 0 ? (
        <p>No events yet. Create the first with New event.</p>
      ) : (
        <ul class="m-cards">
          {events.map((event) => (
            <EventItem key={event.id} event={event} />
          ))}
        </ul>
      )}
    </>
  )
}
