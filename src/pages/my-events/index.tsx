// My Events (SPEC §2): the student's participations from POST /event/p/get/me, as event cards; a collected
// ticket leads to the ticket, anything else to the event.
import { useEffect } from 'preact/hooks'
import { EventCard } from '../../components/event-card/index.tsx'
import { RetryMessage } from '../../components/load-or-retry/index.tsx'
import { Section } from '../../components/section/index.tsx'
import { PageSpinner } from '../../components/spinner/index.tsx'
import { eventHref } from '../../lib/event-href.ts'
import { buildMyEvents } from '../../stores/my-events.ts'
import { CertificateButton, ReceiptButton } from '../../components/download-button/index.tsx'
import { buildFeeds } from '../../stores/feeds.ts'
import { room } from '../../models.ts'

const myEvents = room(buildMyEvents)
const feeds = room(buildFeeds)

export default function MyEvents() {
  useEffect(() => {
    myEvents.load()
  }, [])
  const items = myEvents.items.value
  const error = myEvents.error.value

  if (error && !items) {
    return (
      <RetryMessage heading="My Events" retry={() => myEvents.load()} busy={myEvents.loading.value}>
        Could not load your events: {error}
      </RetryMessage>
    )
  }
  if (!items) return <PageSpinner label="Loading your events" />

  return (
    <>
      <h1>My Events</h1>
      {items.length === 0 ? (
        <p class="page-message">
          You have not registered for any events yet. <a href="/">Find events on Home</a>
        </p>
      ) : (
        <Section title="Registered events" layout="column">
          {items.map((item, i) => (
            <li key={item.id}>
              <EventCard
                // get/me lists participations, so each one is registered even if its event omits Participant.
                event={{ ...item.event, Participant: item.event.Participant || { ticket_collected: item.ticket_collected, team: item.team } }}
                href={item.ticket_collected ? `/ticket/${item.event.id}` : eventHref(item.event)}
                eager={i < 2}
              />
              {item.receipt && (
                <ReceiptButton class="button button-secondary" download={() => feeds.receipt(item.receipt!)} filename={`receipt-${item.receipt}.pdf`} />
              )}
              {item.event.state === 'COMPLETED' && item.checked_in_at && (
                <CertificateButton
                  class="button button-secondary"
                  download={() => feeds.certificate(item.event.id)}
                  filename={`certificate-${item.event.id}.pdf`}
                />
              )}
            </li>
          ))}
        </Section>
      )}
    </>
  )
}
