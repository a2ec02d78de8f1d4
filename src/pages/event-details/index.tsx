// Event details (SPEC §2, §4): image, share, add to calendar, date and time, venue, participants, activity
// link, About the Event, fee, and the bottom action button of lib/action-button with the Register and RSVP
// flows. The event, the flow under way and the button come from the event-detail store.
import type { ComponentType } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { useRoute } from 'preact-iso'
import { PARTICIPANTS_SHOWN } from '../../../contract/constants.ts'
import type { EventDetail } from '../../../contract/types.ts'
import { EventNotFound, LoadOrRetry } from '../../components/load-or-retry/index.tsx'
import { showToast } from '../../components/toast/index.tsx'
import { calendarLinks } from '../../lib/calendar-link.ts'
import { formatDate } from '../../lib/dates.ts'
import { formatTime } from '../../lib/date-formats.ts'
import { formatFee } from '../../lib/money.ts'
import { splitVenue } from '../../lib/venue.ts'
import { buildEventDetail, type Flow } from '../../stores/event-detail.ts'
import { room } from '../../models.ts'
import { ActionBar, external } from './action-bar.tsx'
import { ChildList } from './children.tsx'
import s from './style.module.css'
import { eventImage } from '../../lib/event-image.ts'

const eventDetail = room(buildEventDetail)

export const RATING_TOAST = 'Thank you for your feedback!'
export const LINK_COPIED = 'Link copied'

async function share(event: EventDetail) {
  const url = location.href
  if (navigator.share) {
    try {
      await navigator.share({ title: event.name, text: event.description, url })
    } catch (err) {
      // The student closing the share sheet is not a failure.
      if ((err as Error)?.name !== 'AbortError') console.error('share failed', err)
    }
    return
  }
  try {
    await navigator.clipboard.writeText(url)
    showToast(LINK_COPIED)
  } catch (err) {
    console.error('copy link failed', err)
    showToast('Could not copy the link', 'error')
  }
}

const WAITLIST_STATES = new Set(['UPCOMING', 'REGISTRATION_OPEN', 'REGISTRATION_CLOSED', 'TICKET_OPEN'])

/**
 * A part of the page fetched as a chunk of its own only when it shows: give back, waitlist and "Notify me"
 * (issue 13) for events with tickets, the certificate button, and the Register form of an event that asks
 * registration questions.
 */
function Chunk<P extends object>({ load, props }: { load: () => Promise<ComponentType<P>>; props: P }) {
  const [Loaded, setLoaded] = useState<ComponentType<P> | null>(null)
  useEffect(() => {
    load().then(
      (c) => setLoaded(() => c),
      (err) => console.error('chunk failed', err),
    )
  }, [])
  return Loaded ? <Loaded {...props} /> : null
}

export default function EventDetails() {
  const { id } = useRoute().params
  const [rating, setRating] = useState(false)
  // The event whose Register form (questions asked) is open, if any.
  const [asking, setAsking] = useState(0)

  useEffect(() => {
    setRating(false)
    eventDetail.load(id)
  }, [id])

  // A fair opening's draw just ran for this student (issue 24): its result as a toast, once.
  const announcement = eventDetail.announcement.value
  useEffect(() => {
    if (!announcement) return
    showToast(announcement)
    eventDetail.clearAnnouncement()
  }, [announcement])

  // Until load(id) has run, the store may still hold the event of the previous screen.
  const held = eventDetail.event.value
  const event = held && String(held.id) === id ? held : null
  if (eventDetail.notFound.value) {
    return <EventNotFound>This event does not exist or is no longer shown.</EventNotFound>
  }
  if (!event) {
    return <LoadOrRetry loading="Loading the event" what="the event" error={eventDetail.error.value} retry={() => eventDetail.refresh()} />
  }

  // SPEC §8: a failure reverts the button with no message (the store logs the reason).
  const run = async (which: Flow) => {
    const result = await eventDetail.flow(which)
    if (result) showToast(result.toast)
  }

  const button = eventDetail.button.value!
  const image = eventImage(event)
  const first = event.dates[0]
  const [venueHead, venueRest] = splitVenue(event.venue)
  const calendar = calendarLinks(event)
  // The door scanned the student in at a completed event: a participation certificate (issue 13).
  const certified = event.state === 'COMPLETED' && event.Participant !== false && event.Participant.checked_in_at !== null

  return (
    <article class={s.page}>
      {image && <img class={s.image} src={image} alt={event.name} width={640} height={320} />}
      <div class={s.head}>
        <h1 class={s.name}>{event.name}</h1>
        <button type="button" class={s.share} onClick={() => share(event)} aria-label="Share this event">
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
            <path
              d="M18 8a3 3 0 1 0-2.8-4M6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6zm12 7a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM8.6 13.5l6.8 4M15.4 6.5l-6.8 4"
              fill="none"
              stroke="currentColor"
              stroke-width="2"
              stroke-linecap="round"
            />
          </svg>
        </button>
      </div>
      {eventDetail.next.value && (
        <p class={s.organizer} role="status" aria-live="polite">
          {eventDetail.next.value.text}
        </p>
      )}
      <p class={s.organizer}>
        {event.organizer.photo_url && <img src={event.organizer.photo_url} alt="" width={24} height={24} />}
        {event.organizer.name}
      </p>
      <dl class={s.facts}>
        {first && (
          <div>
            <dt>Date and time</dt>
            <dd>
              {formatDate(first)}, {formatTime(first)}
            </dd>
          </div>
        )}
        <div>
          <dt>Venue</dt>
          <dd>
            <strong>{venueHead}</strong> {venueRest}
          </dd>
        </div>
        <div>
          <dt>Participants</dt>
          <dd>{PARTICIPANTS_SHOWN}</dd>
        </div>
        <div>
          <dt>Fee</dt>
          <dd>{formatFee(event.fee)}</dd>
        </div>
      </dl>
      <p class={s.links}>
        {calendar.map((link) => (
          <a key={link.href} href={link.href} target="_blank" rel="noopener noreferrer">
            {link.label}
          </a>
        ))}
        {event.in_event_activity && <a {...external(event.in_event_activity)}>Event Activity</a>}
        {event.fair_start && <a href={`/event-details/${event.id}/draw`}>How the draw works</a>}
      </p>
      <section aria-labelledby="about">
        <h2 id="about" class={s.h2}>
          About the Event
        </h2>
        <p class={s.about}>{event.long_description || event.description}</p>
      </section>
      {event.Participant && event.Participant.payment && <Chunk load={() => import('./pay.tsx').then((m) => m.PayPanel)} props={{ event }} />}
      {certified && <Chunk load={() => import('./certificate.tsx').then((m) => m.Certificate)} props={{ eventId: event.id }} />}
      <ChildList parent={event} />
      {/* In the page, not in the fixed bar: its dialog must open above the navigation, and the bar stays one
          button high so the toasts above it keep clear of it (issue 14 item 2). */}
      {!eventDetail.pending.value && event.is_ticket_feature_enabled && event.Participant !== false && WAITLIST_STATES.has(event.state) && (
        <Chunk load={() => import('./waitlist.tsx').then((m) => m.WaitlistPanel)} props={{ event }} />
      )}
      {asking === event.id && <Chunk load={() => import('./register-form.tsx').then((m) => m.RegisterForm)} props={{ event, onClose: () => setAsking(0) }} />}
      <div class={s.bar}>
        <ActionBar event={event} button={button} run={run} ask={() => setAsking(event.id)} rate={() => setRating(true)} />
      </div>
      {/* Lazy: only a student rating a completed event needs it (the service worker holds it for offline). */}
      {rating && (
        <Chunk
          load={() => import('../../components/rating-popup/index.tsx').then((m) => m.RatingPopupFor)}
          props={{
            event,
            onClose: () => setRating(false),
            onSubmit: (n: number) =>
              eventDetail.rate(n).then(
                () => showToast(RATING_TOAST),
                (err) => {
                  console.error('rating failed', err)
                  showToast((err as Error).message, 'error')
                  throw err
                },
              ),
          }}
        />
      )}
    </article>
  )
}
