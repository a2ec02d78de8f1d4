// Where an event card leads. A module of its own: the home screen needs only this line, and importing it from
// calendar.ts put the whole calendar arithmetic (~0.7 KB brotli) into the first load of `/`.
import type { EventSummary } from '../../contract/types.ts'

/** Where an event card leads: a parent's list of child events, or the event's own details. */
export const eventHref = (event: Pick<EventSummary, 'id' | 'children'>) =>
  event.children.length > 0 ? `/child-events/${event.id}` : `/event-details/${event.id}`
