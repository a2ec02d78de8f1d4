// An event as a card (SPEC §2 Home): image, name, organiser, first date (IST), venue and tags; the whole card
// is one link. It renders what it is given: where it leads is the caller's decision.
import type { EventSummary } from '../../../contract/types.ts'
import { formatDate } from '../../lib/dates.ts'
import s from './style.module.css'

export interface EventCardProps {
  event: Pick<EventSummary, 'id' | 'name' | 'banner_url' | 'event_page_image_url' | 'dates' | 'venue' | 'tags' | 'organizer' | 'Participant'>
  href: string
  /** A state label over the image (trending cards: 'RSVP Now', 'Ongoing'...). */
  label?: string
  /** Cards in the first screenful load at once; the rest wait until scrolled near (no layout shift either way). */
  eager?: boolean
}

export const REGISTERED_TAG = 'Registered'
const TAG_CLASS: Record<string, string | undefined> = { Tech: s.tech, [REGISTERED_TAG]: s.registered }

/** The event's tags, plus 'Registered' when the student is a participant (once, even if also a plain tag). */
export function cardTags(event: Pick<EventSummary, 'tags' | 'Participant'>): string[] {
  const tags = event.tags.filter((t) => t !== REGISTERED_TAG)
  return event.Participant !== false ? [...tags, REGISTERED_TAG] : tags
}

export function EventCard({ event, href, label, eager }: EventCardProps) {
  const image = event.banner_url || event.event_page_image_url
  const first = event.dates[0]
  return (
    <a class={s.card} href={href}>
      <div class={s.media}>
        {image && <img src={image} alt={event.name} width={320} height={160} loading={eager ? 'eager' : 'lazy'} decoding="async" />}
        {label && <span class={s.label}>{label}</span>}
      </div>
      <div class={s.body}>
        <h3 class={s.name}>{event.name}</h3>
        <p class={s.organizer}>
          {event.organizer.photo_url && <img src={event.organizer.photo_url} alt="" width={20} height={20} loading="lazy" decoding="async" />}
          {event.organizer.name}
        </p>
        {first && <p class={s.meta}>{formatDate(first)}</p>}
        {event.venue && <p class={s.meta}>{event.venue}</p>}
        <ul class={s.tags} aria-label="Tags">
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
