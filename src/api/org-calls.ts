// The organiser console's calls (API.md Part 2 "Organiser calls"), one function each. A file of its own, imported
// only by the console's stores, so none of it reaches a student's first load. The upload (multipart) and the CSV
// (a file, not JSON) go through `authorizedFetch`: the same bearer and the same one refresh on 401 as the client.
import type { Answer, PathOf, Request } from '../../contract/api.ts'
import type { Client, Post } from './client.ts'
import { authorizedFetcher } from './authorized-fetch.ts'
import { API_HOST, client as appClient } from './calls.ts'

export function createOrgCalls(client: Pick<Client, 'request' | 'authorized'>, base = API_HOST) {
  const post = client.request as Post

  const authorizedFetch = authorizedFetcher(client, base)

  return {
    events: () => post('/org/p/events', {}).then((d) => d.events),
    saveEvent: (input: Request<'orgEventSave'>) => post('/org/p/event/save', input).then((d) => d.event),
    setState: (body: Request<'orgEventState'>) => post('/org/p/event/state', body).then((d) => d.event),
    participants: (eventId: number) => post('/org/p/event/participants', { event_id: eventId }),
    staff: (body: Request<'orgEventStaff'>) => post('/org/p/event/staff', body).then((d) => d.staff),
    councils: () => post('/org/p/councils', {}).then((d) => d.councils),
    saveCouncil: (body: Request<'orgCouncilSave'>) => post('/org/p/council/save', body).then((d) => d.council),
    organizers: (body: Request<'orgCouncilOrganizers'>) => post('/org/p/council/organizers', body).then((d) => d.organizers),
    /** Issue 22 item 1: how many each audience reaches and the messages left today, then the message itself. */
    notifyStatus: (eventId: number) => post('/org/p/event/notify/status', { event_id: eventId }),
    notify: (body: Request<'orgNotify'>) => post('/org/p/event/notify', body),
    /** Admins: the audit log, newest first, 100 a page; `before` an entry id to read on from. */
    audit: (body: Request<'orgAudit'>) => post('/org/p/audit', body).then((d) => d.entries),
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
