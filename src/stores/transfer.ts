// Ticket transfer (issue 25 item 2), for the ticket screen's form only: kept out of the event page's store so that
// the event page's chunk, which every student loads, does not carry it.
import { aroundApi } from '../api/around-calls.ts'
import type { Builder } from './session.ts'
import { buildEventDetail, buildGivenAway, buildSetParticipant } from './event-detail.ts'

/** The ticket screen's transfer, in the event screens' room (`room(buildTransfer)`). */
export const buildTransfer: Builder<(eventId: number, email: string) => Promise<string>> = (_, room) => {
  const eventDetail = room(buildEventDetail)
  const setParticipant = room(buildSetParticipant)
  const givenAway = room(buildGivenAway)
  /** Gives the caller's ticket to the friend signed in with `email`: the server's message, for the toast. */
  return async (eventId, email) => {
    const { message } = await aroundApi.transferTicket(eventId, email)
    givenAway.value = { id: eventId, to: email }
    // The ticket is the friend's now: the page and the events list show none (the code on this phone stopped).
    await eventDetail.refresh()
    const p = eventDetail.event.value?.Participant
    const team = p ? p.team : null
    setParticipant(eventId, { ticket_collected: false, team: team && { id: team.id, name: team.name } })
    return message
  }
}
