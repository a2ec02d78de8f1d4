// Home (SPEC §2): the sections of lib/home-sections in order, empty ones left out, from the events store the
// layout has already loaded.
import { useMemo } from 'preact/hooks'
import { EventCard } from '../../components/event-card/index.tsx'
import { Section } from '../../components/section/index.tsx'
import { homeSections } from '../../lib/home-sections.ts'
import { events } from '../../models.ts'

// Roughly the first screenful (one card of the first two rows): loaded at once, the rest lazily.
const EAGER = 2

export default function Home() {
  const byState = events.byState.value
  const error = events.error.value
  const sections = useMemo(() => homeSections(byState), [byState])
  let shown = 0

  return (
    <>
      <h1 class="visually-hidden">Home</h1>
      {error && (
        <div class="page-message" role="alert">
          <p>Could not load the events: {error}</p>
          <button type="button" class="button" onClick={() => events.refresh()} disabled={events.loading.value}>
            Try again
          </button>
        </div>
      )}
      {!error && sections.length === 0 && <p class="page-message">No events yet. New events will show up here as councils announce them.</p>}
      {sections.map((section) => (
        <Section key={section.key} title={section.title}>
          {section.items.map((item) => (
            <li key={item.event.id}>
              <EventCard event={item.event} href={item.href} label={item.label} eager={shown++ < EAGER} />
            </li>
          ))}
        </Section>
      ))}
    </>
  )
}
