// A parent event's children on its details page (issue 14): each child's name, first date and state, linking to
// its own details, so "pick an event below" has something below. The children come from the parent's list.
import type { EventDetail } from '../../../contract/types.ts'
import { formatDate } from '../../lib/dates.ts'
import { eventHref } from '../../lib/event-href.ts'
import { stateLabel } from '../../lib/state-label.ts'
import { useEffect } from 'preact/hooks'
import { buildEventLists } from '../../stores/event-lists.ts'
import { room, events } from '../../models.ts'
import s from './style.module.css'

const eventLists = room(buildEventLists)

export function ChildList({ parent }: { parent: Pick<EventDetail, 'id' | 'name' | 'children'> }) {
  // Home's list holds only some children (issue 15): the parent's are asked for when it has any.
  const query = { parent_id: parent.id }
  const hasChildren = parent.children.length > 0
  useEffect(() => {
    if (hasChildren) eventLists.load(query)
  }, [parent.id, hasChildren])
  const listed = new Map([...events.all.value, ...(eventLists.list(query) ?? [])].map((e) => [e.id, e]))
  const children = parent.children.flatMap((c) => listed.get(c.id) ?? [])
  if (children.length === 0) return null
  return (
    <section aria-labelledby="children-title">
      <h2 id="children-title" class={s.h2}>
        Events in {parent.name}
      </h2>
      <ul class={s.children}>
        {children.map((child) => (
          <li key={child.id}>
            <a href={eventHref(child)}>
              <span class={s.childName}>{child.name}</span>
              {child.dates[0] && <span class={s.childDate}>{formatDate(child.dates[0])}</span>}
              <span class={s.state}>{stateLabel(child.state)}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  )
}
