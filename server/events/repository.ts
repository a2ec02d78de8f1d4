// Reads events in their wire shapes (API.md "Entities on the wire") with a constant number of queries per
// call, whatever the number of events: the list is two queries, a detail four at most.
import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import type { EventDetail, EventsByState, EventSummary, MyEvent, Organizer } from '../../contract/types.ts'
import { EVENT_STATES } from '../../contract/constants.ts'
import type { Db } from '../db/index.ts'
import { councils, events, participants, teams } from '../db/schema.ts'
import { loadTeam } from '../teams/repository.ts'

type EventRow = typeof events.$inferSelect
type Teamlet = { id: number; name: string }

const organizerColumns = { id: councils.id, name: councils.name, photo_url: councils.photoUrl }

/** Every wire field of an event except the caller's participation. */
function eventFields(e: EventRow, organizer: Organizer, children: { id: number }[]) {
  return {
    id: e.id,
    name: e.name,
    description: e.description,
    event_page_image_url: e.eventPageImageUrl,
    banner_url: e.bannerUrl,
    dates: e.dates,
    venue: e.venue,
    tags: e.tags,
    organizer,
    parent_id: e.parentId,
    children,
    state: e.state,
    fee: e.fee,
    ma_ppt: e.maPpt,
    registration_type: e.registrationType,
    external_registration_link: e.externalRegistrationLink,
    start_in_event_activity: e.startInEventActivity,
    in_event_activity: e.inEventActivity,
    is_ticket_feature_enabled: e.isTicketFeatureEnabled,
    ticket_count: e.ticketCount,
    tickets_sold: e.ticketsSold,
  }
}

/** Events in list order: by first date, then id, so every screen shows the same order. */
const firstDate = sql`${events.dates}->>0`

/** Children ids of the given parents, in the same order as the lists, grouped by parent. */
async function childrenOf(db: Db, parentIds: number[]): Promise<Map<number, { id: number }[]>> {
  const map = new Map<number, { id: number }[]>()
  if (parentIds.length === 0) return map
  const rows = await db
    .select({ id: events.id, parentId: events.parentId })
    .from(events)
    .where(inArray(events.parentId, parentIds))
    .orderBy(asc(firstDate), asc(events.id))
  for (const r of rows) {
    const list = map.get(r.parentId!) ?? []
    list.push({ id: r.id })
    map.set(r.parentId!, list)
  }
  return map
}

/** The caller's participations (with team id and name), keyed by event id. */
async function participationsOf(db: Db, userId: number, eventIds?: number[]) {
  const rows = await db
    .select({
      id: participants.id,
      eventId: participants.eventId,
      ticketCollected: participants.ticketCollected,
      createdAt: participants.createdAt,
      teamId: teams.id,
      teamName: teams.name,
    })
    .from(participants)
    .leftJoin(teams, eq(teams.id, participants.teamId))
    .where(and(eq(participants.userId, userId), eventIds ? inArray(participants.eventId, eventIds) : undefined))
    .orderBy(asc(participants.createdAt), asc(participants.id))
  return rows.map((r) => ({
    id: r.id,
    eventId: r.eventId,
    ticket_collected: r.ticketCollected,
    team: r.teamId === null ? null : ({ id: r.teamId, name: r.teamName! } satisfies Teamlet),
  }))
}

/** Every event as a summary for the caller, grouped by state in SPEC order; a key only where non-empty. */
export async function listEventsByState(db: Db, userId: number): Promise<EventsByState> {
  const [rows, mine] = await Promise.all([
    db
      .select({ event: events, organizer: organizerColumns })
      .from(events)
      .innerJoin(councils, eq(councils.id, events.organizerId))
      .orderBy(asc(firstDate), asc(events.id)),
    participationsOf(db, userId),
  ])
  // Every event is in the list, so the children come from the list itself: no third query.
  const children = new Map<number, { id: number }[]>()
  for (const { event } of rows) {
    if (event.parentId === null) continue
    const list = children.get(event.parentId) ?? []
    list.push({ id: event.id })
    children.set(event.parentId, list)
  }
  const byEvent = new Map(mine.map((p) => [p.eventId, p]))
  const grouped: EventsByState = {}
  for (const state of EVENT_STATES) {
    const list = rows.filter((r) => r.event.state === state)
    if (list.length === 0) continue
    grouped[state] = list.map(({ event, organizer }) => {
      const p = byEvent.get(event.id)
      return {
        ...eventFields(event, organizer, children.get(event.id) ?? []),
        Participant: p ? { ticket_collected: p.ticket_collected, team: p.team } : false,
      }
    })
  }
  return grouped
}

/** The caller's participations, each with its event as a summary, most recent registration last. */
export async function listMyEvents(db: Db, userId: number): Promise<MyEvent[]> {
  const mine = await participationsOf(db, userId)
  if (mine.length === 0) return []
  const ids = mine.map((p) => p.eventId)
  const [rows, children] = await Promise.all([
    db
      .select({ event: events, organizer: organizerColumns })
      .from(events)
      .innerJoin(councils, eq(councils.id, events.organizerId))
      .where(inArray(events.id, ids)),
    childrenOf(db, ids),
  ])
  const byId = new Map(rows.map((r) => [r.event.id, r]))
  return mine.flatMap((p) => {
    const row = byId.get(p.eventId)
    if (!row) return []
    const event: EventSummary = {
      ...eventFields(row.event, row.organizer, children.get(p.eventId) ?? []),
      Participant: { ticket_collected: p.ticket_collected, team: p.team },
    }
    return [{ id: p.id, ticket_collected: p.ticket_collected, team: p.team, event }]
  })
}

/** One event in full for the caller, or null when there is no such event. */
export async function getEventDetail(db: Db, eventId: number, userId: number): Promise<EventDetail | null> {
  const [[row], children, [mine]] = await Promise.all([
    db
      .select({ event: events, organizer: organizerColumns })
      .from(events)
      .innerJoin(councils, eq(councils.id, events.organizerId))
      .where(eq(events.id, eventId)),
    childrenOf(db, [eventId]),
    db
      .select()
      .from(participants)
      .where(and(eq(participants.eventId, eventId), eq(participants.userId, userId))),
  ])
  if (!row) return null
  const team = mine?.teamId != null ? await loadTeam(db, mine.teamId) : null
  return {
    ...eventFields(row.event, row.organizer, children.get(eventId) ?? []),
    long_description: row.event.longDescription,
    Participant: mine
      ? { id: mine.id, ticket_collected: mine.ticketCollected, ticket_code: mine.ticketCode, team, rating: mine.rating }
      : false,
  }
}

/** How many tickets are out for an event, counted from the participants (the truth behind tickets_sold). */
export async function ticketsCollected(db: Db, eventId: number): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(participants)
    .where(and(eq(participants.eventId, eventId), eq(participants.ticketCollected, true), isNotNull(participants.ticketCode)))
  return Number(r.n)
}
