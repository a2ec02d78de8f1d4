// The organiser console's calls (API.md Part 2 "Organiser calls"), one function each. A file of its own, imported
// only by the console's stores, so none of it reaches a student's first load. The upload (multipart) and the CSV
// (a file, not JSON) go through `authorizedFetch`: the same bearer and the same one refresh on 401 as the client.
import type { Answer, PathOf, Request } from '../../contract/api.ts'
import type { Client } from './client.ts'
import { authorizedFetcher } from './authorized-fetch.ts'
import { API_HOST, client as appClient } from './calls.ts'

export function createOrgCalls(client: Pick<Client, 'request' | 'authorized'>, base = API_HOST) {
  const post = client.request

  const authorizedFetch = authorizedFetcher(client, base)

  return {
    events: () => post<Answer<'orgEvents'>>('/org/p/events' satisfies PathOf<'orgEvents'>, {}).then((d) => d.events),
    saveEvent: (input: Request<'orgEventSave'>) =>
      post<Answer<'orgEventSave'>>('/org/p/event/save' satisfies PathOf<'orgEventSave'>, input).then((d) => d.event),
    setState: (body: Request<'orgEventState'>) =>
      post<Answer<'orgEventState'>>('/org/p/event/state' satisfies PathOf<'orgEventState'>, body).then((d) => d.event),
    participants: (eventId: number) =>
      post<Answer<'orgParticipants'>>(
        '/org/p/event/participants' satisfies PathOf<'orgParticipants'>,
        { event_id: eventId } satisfies Request<'orgParticipants'>,
      ),
    staff: (body: Request<'orgEventStaff'>) => post<Answer<'orgEventStaff'>>('/org/p/event/staff' satisfies PathOf<'orgEventStaff'>, body).then((d) => d.staff),
    councils: () => post<Answer<'orgCouncils'>>('/org/p/councils' satisfies PathOf<'orgCouncils'>, {}).then((d) => d.councils),
    saveCouncil: (body: Request<'orgCouncilSave'>) =>
      post<Answer<'orgCouncilSave'>>('/org/p/council/save' satisfies PathOf<'orgCouncilSave'>, body).then((d) => d.council),
    organizers: (body: Request<'orgCouncilOrganizers'>) =>
      post<Answer<'orgCouncilOrganizers'>>('/org/p/council/organizers' satisfies PathOf<'orgCouncilOrganizers'>, body).then((d) => d.organizers),
    /** Issue 22 item 1: how many each audience reaches and the messages left today, then the message itself. */
    notifyStatus: (eventId: number) =>
      post<Answer<'orgNotifyStatus'>>(
        '/org/p/event/notify/status' satisfies PathOf<'orgNotifyStatus'>,
        { event_id: eventId } satisfies Request<'orgNotifyStatus'>,
      ),
    notify: (body: Request<'orgNotify'>) => post<Answer<'orgNotify'>>('/org/p/event/notify' satisfies PathOf<'orgNotify'>, body).then((d) => d.sent),
    /** Admins: the audit log, newest first, 100 a page; `before` an entry id to read on from. */
    audit: (body: Request<'orgAudit'>) => post<Answer<'orgAudit'>>('/org/p/audit' satisfies PathOf<'orgAudit'>, body).then((d) => d.entries),
    /** One image as multipart/form-data; answers the stored image's address. */
    upload: async (file: Blob, name = 'image') => {
      const form = new FormData()
      form.append('file', file, name)
      const res = await authorizedFetch('/org/p/upload' satisfies PathOf<'orgUpload'>, { method: 'POST', body: form })
      return ((await res.json()) as Answer<'orgUpload'>).url
    },
    /** The participants' CSV as a file (GET with the bearer, so not a plain link). */
    participantsCsv: async (eventId: number) => (await authorizedFetch(`/org/p/event/${eventId}/participants.csv`)).blob(),
  }
}

export type OrgApi = ReturnType<typeof createOrgCalls>

export const orgApi = createOrgCalls(appClient)
