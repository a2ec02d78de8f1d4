// Give back and waitlist (issue 13), for the event page's waitlist panel only: kept out of the event page's store so
// that the event page's chunk, which every student loads, carries neither their calls nor their flow (as the ticket
// screen's transfer, stores/transfer.ts). Each runs the call, then fetches the event again (the waitlist position and
// offer are the server's) and tells the events list; failures reject so the panel can show the refusal.
import { aroundApi } from '../api/around-calls.ts'
import type { Builder } from './session.ts'
import { buildEventDetail, buildSetParticipant } from './event-detail.ts'

export interface GiveBack {
  /** Gives the ticket back: the server's message, for the toast. */
  releaseTicket: () => Promise<string>
  /** Joins (true) or leaves (false) the waitlist: the server's message, for the toast. */
  joinWaitlist: (join: boolean) => Promise<string>
}

/** The waitlist panel's flows, in the event screens' room (`room(buildGiveBack)`). */
export const buildGiveBack: Builder<GiveBack> = (_, room) => {
  const eventDetail = room(buildEventDetail)
  const setParticipant = room(buildSetParticipant)
  async function act(call: (eventId: number) => Promise<{ message: string }>): Promise<string> {
    const current = eventDetail.event.value
    if (!current) throw new Error('No event loaded')
    const { message } = await call(current.id)
    await eventDetail.refresh()
    const p = eventDetail.event.value?.id === current.id ? eventDetail.event.value.Participant : null
    if (p) setParticipant(current.id, { ticket_collected: p.ticket_collected, team: p.team && { id: p.team.id, name: p.team.name } })
    return message
  }
  return {
    releaseTicket: () => act(aroundApi.releaseTicket),
    joinWaitlist: (join) => act((id) => aroundApi.waitlist(id, join)),
  }
}
