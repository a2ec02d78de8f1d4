// An event as a card (SPEC §2 Home): image (the council's artwork when it has none), name, organiser, first date (IST), venue, the next step of its
// schedule and tags; the whole card is one link. It renders what it is given: where it leads is the caller's
// decision. Its styles are in src/styles/critical.css, like the section's: Home's first screen is made of cards.
import type { EventSummary } from '../../../contract/types.ts'
import { formatDate } from '../../lib/dates.ts'
import { eventImage } from '../../lib/event-image.ts'
import { nextStep } from '../../lib/next-step.ts'

export interface EventCardProps {
  event: Pick<EventSummary, 'id' | 'name' | 'banner_url' | 'event_page_image_url' | 'dates' | 'venue' | 'tags' | 'organizer' | 'Participant'> &
    Partial<Pick<EventSummary, 'state' | 'schedule'>>
  href: string
  /** A state label over the image (trending cards: 'RSVP Now', 'Ongoing'...). */
  label?: string
  /** Cards in the first screenful load at once; the rest wait until scrolled near (no layout shift either way). */
  eager?: boolean
}

export const REGISTERED_TAG = 'Registered'
const TAG_CLASS: Record<string, string | undefined> = { Tech: 'tag-tech', [REGISTERED_TAG]: 'tag-registered' }

/** The event's tags, plus 'Registered' when the student is a participant (once, even if also a plain tag). */
export function cardTags(event: Pick<EventSummary, 'tags' | 'Participant'>): string[] {
  const tags = event.tags.filter((t) => t !== REGISTERED_TAG)
  return event.Participant !== false ? [...tags, REGISTERED_TAG] : tags
}

export function EventCard({ event, href, label, eager }: EventCardProps) {
  const image = eventImage(event, true)
  const first = event.dates[0]
  // Issue 11: when the event moves on next ("Registration opens Fri 6:00 PM", a countdown in the last hour).
  // Worked out at render time, with no timer of its own: a card is drawn again whenever the list changes.
  const next = nextStep(event)
  return (
    <a class="card" href={href}>
      <div class="card-media">
        {image && <img src={image} alt={event.name} width={320} height={160} loading={eager ? 'eager' : 'lazy'} decoding="async" />}
        {label && <span class="card-label">{label}</span>}
      </div>
      <div class="card-body">
        <h3 class="card-name">{event.name}</h3>
        <p class="card-org">
          {event.organizer.photo_url && <img src={event.organizer.photo_url} alt="" width={20} height={20} loading="lazy" decoding="async" />}
          {event.organizer.name}
        </p>
        {first && <p class="card-meta">{formatDate(first)}</p>}
        {event.venue && <p class="card-meta">{event.venue}</p>}
        {next && <p class="card-meta">{next.text}</p>}
        <ul class="card-tags" aria-label="Tags">
          {cardTags(event).map((tag) => (
            <li key={tag} class={TAG_CLASS[tag]}>
              {tag}
            </li>
          ))}
        </ul>
      </div>
    </a>
  )
}
