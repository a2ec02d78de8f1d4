// Ticket (SPEC §2): event image, name, description, organiser, holder and college, team, the Code 128 barcode
// of Participant.ticket_code (with its time code where tickets rotate: ./barcode.tsx), and a back button; below it,
// giving the ticket to a friend (issue 25).
import { useEffect, useState } from 'preact/hooks'
import { useLocation, useRoute } from 'preact-iso'
import { EventNotFound, LoadOrRetry } from '../../components/load-or-retry/index.tsx'
import { formatDate, formatIST } from '../../lib/dates.ts'
import { splitVenue } from '../../lib/venue.ts'
import { noteServerTime } from '../../lib/server-clock.ts'
import { offline } from '../../stores/connection.ts'
import { buildEventDetail } from '../../stores/event-detail.ts'
import { room, session } from '../../models.ts'
import { TicketBarcode } from './barcode.tsx'
import s from './style.module.css'
import { eventImage } from '../../lib/event-image.ts'

const eventDetail = room(buildEventDetail)

/** While the door may check tickets, a ticket not yet used can go to a friend (issue 25; the server decides). */
const TRANSFER_STATES = new Set(['TICKET_OPEN', 'TICKET_CLOSED', 'ONGOING'])

export default function Ticket() {
  const { id } = useRoute().params
  const { route } = useLocation()
  useEffect(() => {
    // A fresh answer sets the clock of the time code by its server_time (issue 25); a copy kept for offline use
    // (`offline`, set by this same fetch) is old: the clock set when it was fresh stands.
    eventDetail.load(id).then(() => offline.value || noteServerTime(eventDetail.event.value?.server_time))
  }, [id])

  // Opened from a link in another tab there is nothing to go back to inside the app: go Home instead.
  const back = () => (history.length > 1 ? history.back() : route('/'))
  const backButton = (
    <button type="button" class={s.back} onClick={back} aria-label="Back">
      <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
        <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
      </svg>
    </button>
  )

  const event = eventDetail.event.value
  if (eventDetail.notFound.value) {
    return <EventNotFound />
  }
  if (!event || String(event.id) !== id) {
    return <LoadOrRetry loading="Loading the ticket" what="the ticket" error={eventDetail.error.value} retry={() => eventDetail.refresh()} />
  }

  const p = event.Participant
  if (!p || !p.ticket_collected || !p.ticket_code) {
    return (
      <div class="page-message">
        {backButton}
        <h1>No ticket yet</h1>
        <p>You have not collected a ticket for {event.name}.</p>
        <a href={`/event-details/${event.id}`}>Go to the event</a>
      </div>
    )
  }

  const user = session.user.value
  const image = eventImage(event)
  const first = event.dates[0]
  const [venueHead, venueRest] = splitVenue(event.venue)
  // A multi-day event (issue 37 item 3): each IST day the ticket admits, by its first date, and whether it was used.
  const days = p.days_used ? [...new Map(event.dates.map((d) => [formatIST(d, '{YYYY}-{MM}-{DD}'), d])).entries()].sort() : []
  return (
    <article class={s.ticket}>
      {backButton}
      {image && <img class={s.image} src={image} alt={event.name} width={640} height={320} />}
      <div class={s.body}>
        <h1 class={s.name}>{event.name}</h1>
        <p class={s.muted}>{event.description}</p>
        <dl class={s.facts}>
          {first && (
            <div class={s.wide}>
              <dt>When</dt>
              <dd>
                {formatDate(first)}, {formatIST(first, '{h}:{mm} {A}')}
              </dd>
            </div>
          )}
          {event.venue && (
            <div class={`${s.wide} ${s.venue}`}>
              <dt>Where</dt>
              <dd>
                <strong>{venueHead}</strong> {venueRest}
              </dd>
            </div>
          )}
          <div>
            <dt>Organiser</dt>
            <dd>{event.organizer.name}</dd>
          </div>
          <div>
            <dt>Name</dt>
            <dd>{user?.name || 'Unknown'}</dd>
          </div>
          <div>
            <dt>College</dt>
            <dd>{user?.college || 'Unknown College'}</dd>
          </div>
          {p.team && (
            <div>
              <dt>Team</dt>
              <dd>{p.team.name}</dd>
            </div>
          )}
        </dl>
        {days.length > 1 && (
          <>
            <h2 class={s.daysHead}>Admits on {days.length} days</h2>
            <ul class={s.days}>
              {days.map(([day, at]) => (
                <li key={day}>
                  {formatDate(at)}
                  <span>{p.days_used!.includes(day) ? 'Used' : 'Not used yet'}</span>
                </li>
              ))}
            </ul>
          </>
        )}
        {p.checked_in_at && (
          <p class={s.checkedIn} role="status">
            Checked in at {formatIST(p.checked_in_at, '{h}:{mm} {A}')}
          </p>
        )}
        {/* Just claimed, its secret not known yet (issue 25): the barcode waits for the ticket's fetch under way. */}
        {!(p.ticket_secret === undefined && eventDetail.loading.value) && <TicketBarcode code={p.ticket_code} secret={p.ticket_secret} />}
        {!p.checked_in_at && TRANSFER_STATES.has(event.state) && <GiveToFriend eventId={event.id} />}
      </div>
    </article>
  )
}

/** 'Give to a friend': the form's module loads on the tap (issue 25), so the ticket's own chunk stays small. */
function GiveToFriend({ eventId }: { eventId: number }) {
  const [Form, setForm] = useState<null | typeof import('./transfer.tsx').default>(null)
  const [failed, setFailed] = useState(false)
  if (Form) return <Form eventId={eventId} />
  const open = () =>
    import('./transfer.tsx').then(
      (m) => setForm(() => m.default),
      () => setFailed(true),
    )
  return (
    <>
      <button type="button" class={`button button-secondary ${s.give}`} onClick={open}>
        Give to a friend
      </button>
      {failed && <p role="alert">Could not open the form: check your connection and try again.</p>}
    </>
  )
}
