// The organiser console's model (API.md Part 2 "Organiser calls"): the events I manage with their live counts,
// saving and moving them, uploads, each event's participants and door volunteers, and (admins) the councils with
// their organisers. Screens read the signals and call the actions; only this file talks to src/api/org-calls.ts.
import { action, createModel, signal, type ReadonlySignal } from '@preact/signals'
import type { AnyEventState } from '../../contract/constants.ts'
import type { AuditEntry, EventInput, ManagedCouncil, OrgEvent, OrgPerson, ParticipantRow, Question } from '../../contract/types.ts'
import { orgApi, type OrgApi } from '../api/org-calls.ts'
import type { Answer } from '../../contract/api.ts'
import { fetchedList } from './fetched-list.ts'

/** The audit log's page size (contract/org.ts orgAudit): a full page means there may be older entries. */
export const AUDIT_PAGE = 100

export interface AuditLog {
  /** The event it is narrowed to, or null for every event. */
  eventId: number | null
  entries: AuditEntry[]
  /** The last page was full: older entries may follow. */
  more: boolean
}

export type NotifyStatus = Omit<Answer<'orgNotifyStatus'>, 'error'>

export interface Participants {
  eventId: number
  rows: ParticipantRow[]
  questions: Question[]
}

/** A list that belongs to one event: the answer is dropped when another event was asked for meanwhile. */
function perEvent<T>(what: string) {
  const value = signal<T | null>(null)
  const error = signal<string | null>(null)
  let current = 0
  const load = async (eventId: number, get: () => Promise<T>) => {
    if (current !== eventId) value.value = null
    current = eventId
    try {
      const got = await get()
      if (current === eventId) {
        value.value = got
        error.value = null
      }
    } catch (err) {
      console.error(`${what} fetch failed`, err)
      if (current === eventId) error.value = (err as Error).message
      throw err
    }
  }
  return { value, error, load, isFor: (eventId: number) => current === eventId }
}

export const OrgModel = createModel((api: OrgApi) => {
  const list = fetchedList(api.events, 'organiser events')
  const councilList = fetchedList(api.councils, 'councils')
  const participants = perEvent<Participants>('participants')
  const staff = perEvent<OrgPerson[]>('door volunteers')
  const audit = perEvent<AuditLog>('audit log')
  const notifyStatus = perEvent<NotifyStatus>('notification status')

  /** The saved event replaces its old copy in the list, or joins it first. */
  const put = (event: OrgEvent) => {
    const events = list.items.value ?? []
    list.items.value = events.some((e) => e.id === event.id) ? events.map((e) => (e.id === event.id ? event : e)) : [event, ...events]
    return event
  }

  const putCouncil = (id: number, change: (c: ManagedCouncil) => ManagedCouncil) => {
    councilList.items.value = (councilList.items.value ?? []).map((c) => (c.id === id ? change(c) : c))
  }

  return {
    /** null until the first fetch succeeded. */
    events: list.items as ReadonlySignal<OrgEvent[] | null>,
    loading: list.loading as ReadonlySignal<boolean>,
    error: list.error as ReadonlySignal<string | null>,
    /** Fetches the events and their counts again (callers arriving while it runs share the fetch). */
    load: action(list.load),
    /** Creates (no id) or updates an event; rejects with the server's message (400 names the field). */
    save: action(async (input: EventInput) => put(await api.saveEvent(input))),
    move: action(async (eventId: number, state: AnyEventState) => put(await api.setState({ event_id: eventId, state }))),
    upload: action((file: Blob, name?: string) => api.upload(file, name)),

    participants: participants.value as ReadonlySignal<Participants | null>,
    participantsError: participants.error as ReadonlySignal<string | null>,
    loadParticipants: action((eventId: number) =>
      participants.load(eventId, () => api.participants(eventId).then((d) => ({ eventId, rows: d.participants, questions: d.questions }))).catch(() => {}),
    ),
    /** The CSV export as a file. */
    participantsCsv: action((eventId: number) => api.participantsCsv(eventId)),

    staff: staff.value as ReadonlySignal<OrgPerson[] | null>,
    staffError: staff.error as ReadonlySignal<string | null>,
    loadStaff: action((eventId: number) => staff.load(eventId, () => api.staff({ event_id: eventId })).catch(() => {})),
    /** Adds (or removes) a door volunteer by e-mail; rejects with the server's message. */
    changeStaff: action((eventId: number, email: string, remove?: boolean) => staff.load(eventId, () => api.staff({ event_id: eventId, email, remove }))),

    /** The "Send a notification" form (issue 22 item 1): each audience's reach and the messages left today. */
    notifyStatus: notifyStatus.value as ReadonlySignal<NotifyStatus | null>,
    notifyStatusError: notifyStatus.error as ReadonlySignal<string | null>,
    loadNotifyStatus: action((eventId: number) => notifyStatus.load(eventId, () => api.notifyStatus(eventId)).catch(() => {})),
    /**
     * Sends an organiser's message; answers how many students got it in the app's inbox (`in_app`) and how many of
     * them by push too (`sent`), and reads the status again.
     */
    notify: action(async (body: Parameters<OrgApi['notify']>[0]) => {
      try {
        return await api.notify(body)
      } finally {
        const id = Number(body.event_id)
        void notifyStatus.load(id, () => api.notifyStatus(id)).catch(() => {})
      }
    }),

    audit: audit.value as ReadonlySignal<AuditLog | null>,
    auditError: audit.error as ReadonlySignal<string | null>,
    /**
     * Admins: the audit log of every event (eventId null) or of one; `older` reads on after the entries held.
     * A failure is kept in auditError (the entries held stay).
     */
    loadAudit: action((eventId: number | null, older = false) => {
      const held = older && audit.isFor(eventId ?? 0) ? (audit.value.value?.entries ?? []) : []
      const before = held.at(-1)?.id
      return audit
        .load(eventId ?? 0, () =>
          api.audit({ ...(eventId ? { event_id: eventId } : {}), ...(before ? { before } : {}) }).then((page) => ({
            eventId,
            entries: [...held, ...page],
            more: page.length >= AUDIT_PAGE,
          })),
        )
        .catch(() => {})
    }),

    councils: councilList.items as ReadonlySignal<ManagedCouncil[] | null>,
    councilsError: councilList.error as ReadonlySignal<string | null>,
    loadCouncils: action(councilList.load),
    saveCouncil: action(async (input: Parameters<OrgApi['saveCouncil']>[0]) => {
      const council = await api.saveCouncil(input)
      const known = councilList.items.value ?? []
      if (known.some((c) => c.id === council.id)) putCouncil(council.id, (c) => ({ ...c, ...council }))
      else councilList.items.value = [...known, { ...council, organizers: [] }]
      return council
    }),
    /** Forgets everything (tests; another user signing in reloads the page anyway). */
    reset: action(() => {
      for (const s of [list.items, councilList.items, participants.value, staff.value, audit.value, notifyStatus.value] as { value: unknown }[]) s.value = null
    }),
    changeOrganizer: action(async (councilId: number, email: string, remove?: boolean) => {
      const organizers = await api.organizers({ council_id: councilId, email, remove })
      putCouncil(councilId, (c) => ({ ...c, organizers }))
    }),
  }
})

export type Org = InstanceType<typeof OrgModel>

/** The organiser console's model (`room(buildOrg)`), shared by its screens. */
export const buildOrg = (): Org => new OrgModel(orgApi)
