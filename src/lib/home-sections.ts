// The Home screen's sections (SPEC §2 Home), computed from the list grouped by state.
import type { EventState } from '../../contract/shell.ts'
import type { EventSummary, EventsByState } from '../../contract/types.ts'
import { eventHref } from './event-href.ts'

export type SectionKey = 'yourTickets' | 'trending' | 'upcoming' | 'registrationOpen' | 'ticketsReleased'

export interface HomeItem {
  event: EventSummary
  href: string
  /** The trending card's state label; absent elsewhere. */
  label?: string
}

export interface HomeSection {
  key: SectionKey
  title: string
  items: HomeItem[]
}

/** Trending states in display order, with each card's label. */
export const TRENDING_LABELS: Partial<Record<EventState, string>> = {
  TICKET_OPEN: 'RSVP Now',
  ONGOING: 'Ongoing',
  REGISTRATION_OPEN: 'Registrations Open',
  UPCOMING: 'Coming Soon',
}
const TRENDING_ORDER: EventState[] = ['TICKET_OPEN', 'ONGOING', 'REGISTRATION_OPEN', 'UPCOMING']

const childless = (e: EventSummary) => e.children.length === 0
const plain = (e: EventSummary): HomeItem => ({ event: e, href: eventHref(e) })

/** Sections in screen order; a section with no events is left out. */
export function homeSections(byState: EventsByState): HomeSection[] {
  const of = (state: EventState) => byState[state] ?? []

  const yourTickets = [...of('TICKET_CLOSED'), ...of('ONGOING')]
    .filter((e) => e.Participant !== false && e.Participant.ticket_collected)
    .map((e): HomeItem => ({ event: e, href: `/ticket/${e.id}` }))

  // A ticket holder's card says 'View Ticket' (issue 37 item 7: it said 'RSVP Now'); the event page's button opens it.
  const trending = TRENDING_ORDER.flatMap((state) =>
    of(state)
      .filter((e) => e.parent_id === null)
      .map((e): HomeItem => ({ ...plain(e), label: e.Participant && e.Participant.ticket_collected ? 'View Ticket' : TRENDING_LABELS[state] })),
  )

  const sections: HomeSection[] = [
    { key: 'yourTickets', title: 'Your Tickets', items: yourTickets },
    { key: 'trending', title: 'Trending Events', items: trending },
    { key: 'upcoming', title: 'Upcoming Events', items: of('UPCOMING').filter(childless).map(plain) },
    { key: 'registrationOpen', title: 'Registration Open', items: of('REGISTRATION_OPEN').filter(childless).map(plain) },
    { key: 'ticketsReleased', title: 'Tickets Released', items: of('TICKET_OPEN').filter(childless).map(plain) },
  ]
  return sections.filter((s) => s.items.length > 0)
}
