// Child events (SPEC §2): the parent's name and its children as cards, each labelled with its state. The parent
// comes from the events list, or from POST /event/p/get/{id} when the list does not hold it; unknown there too →
// back to Home.
import { useEffect } from 'preact/hooks'
import { useLocation, useRoute } from 'preact-iso'
import { EventCard } from '../../components/event-card/index.tsx'
import { Section } from '../../components/section/index.tsx'
import { LoadOrRetry } from '../../components/load-or-retry/index.tsx'
import { eventHref } from '../../lib/event-href.ts'
import { stateLabel } from '../../lib/state-label.ts'
import { buildEventDetail } from '../../stores/event-detail.ts'
import { buildEventLists } from '../../stores/event-lists.ts'
import { room, events } from '../../models.ts'

const eventDetail = room(buildEventDetail)
const eventLists = room(buildEventLists)

export default function ChildEvents() {
  const { id } = useRoute().params
  const { route } = useLocation()
  const all = events.all.value
  const listed = all.find((e) => String(e.id) === id)
  const fetched = eventDetail.event.value
  const parent = listed ?? (fetched && String(fetched.id) === id ? fetched : null)
  const notFound = !listed && eventDetail.notFound.value

  useEffect(() => {
    if (!listed) eventDetail.load(id)
  }, [id, !listed])
  // The children (issue 15): Home's list holds only some of them, so the parent's are asked for as the screen opens.
  const childQuery = { parent_id: Number(id) }
  useEffect(() => {
    if (/^\d{1,9}$/.test(id ?? '')) eventLists.load(childQuery)
  }, [id])
  useEffect(() => {
    if (notFound) route('/', true)
  }, [notFound])

  if (!parent) {
    return <LoadOrRetry loading="Loading the events" what="the event" error={eventDetail.error.value} retry={() => eventDetail.refresh()} />
  }

  const fetchedChildren = eventLists.list(childQuery)
  const byId = new Map([...all, ...(fetchedChildren ?? [])].map((e) => [e.id, e]))
  const children = parent.children.flatMap((c) => byId.get(c.id) ?? [])
  if (children.length === 0 && parent.children.length > 0 && !fetchedChildren) {
    return <LoadOrRetry loading="Loading the events" what="the events" error={eventLists.error.value} retry={() => eventLists.load(childQuery)} />
  }
  return (
    <>
      <h1>{parent.name}</h1>
      {children.length === 0 ? (
        <p class="page-message">
          No events under {parent.name} yet. <a href={`/event-details/${parent.id}`}>See the event</a>
        </p>
      ) : (
        <Section title="Events" layout="column">
          {children.map((child, i) => (
            <li key={child.id}>
              <EventCard event={child} href={eventHref(child)} label={stateLabel(child.state)} eager={i < 2} />
            </li>
          ))}
        </Section>
      )}
    </>
  )
}
