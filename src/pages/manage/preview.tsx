// The editor's preview: the event's card (the student app's own EventCard) and its details as a student reads
// them (image, dates and times in IST, venue, fee, about), from the form as it is now.
import { EventCard } from '../../components/event-card/index.tsx'
import { Section } from '../../components/section/index.tsx'
import { formatDate } from '../../lib/dates.ts'
import { formatTime } from '../../lib/date-formats.ts'
import { fromLocalInput } from '../../lib/org-event.ts'
import { formatFee } from '../../lib/money.ts'
import type { EventForm } from './rules.ts'

export default function Preview({ form, councilName }: { form: EventForm; councilName: string }) {
  const dates = form.dates.map(fromLocalInput).filter((d): d is string => !!d)
  const tags = form.tags
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
  const fee = Number(form.fee)
  return (
    <div class="m-preview">
      <h2>Preview</h2>
      <div inert>
        <Section title="The card on Home" layout="column">
          <li>
            <EventCard
              event={{
                id: 0,
                name: form.name || 'Event name',
                banner_url: form.banner_url || null,
                event_page_image_url: form.event_page_image_url || null,
                dates,
                venue: form.venue,
                tags,
                organizer: { id: 0, name: councilName, photo_url: null },
                Participant: false,
              }}
              href="#"
              eager
            />
          </li>
        </Section>
      </div>
      <p class="m-muted">The event's page</p>
      <article class="m-card">
        {(form.event_page_image_url || form.banner_url) && (
          <img class="m-thumb" src={form.event_page_image_url || form.banner_url} alt="" width={320} height={160} />
        )}
        <h3>{form.name || 'Event name'}</h3>
        {dates.map((d) => (
          <p key={d}>
            {formatDate(d)}, {formatTime(d)}
          </p>
        ))}
        {form.venue && <p>{form.venue}</p>}
        <p>Fee: {Number.isFinite(fee) ? formatFee(fee) : '–'}</p>
        {form.description && <p>{form.description}</p>}
        {form.long_description && (
          <>
            <h4>About the Event</h4>
            <p class="m-pre">{form.long_description}</p>
          </>
        )}
      </article>
    </div>
  )
}
