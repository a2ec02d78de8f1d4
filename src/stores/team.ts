// The team actions of SPEC §7 (create, join, remove a member, delete) for the team screens. The team itself is
// read from the event details (Participant.team), so after a change the screens look at what the server holds.
// `pending` says which action is in flight: the screens show its spinner and refuse a second press.
import { action, createModel, signal, type ReadonlySignal } from '@preact/signals'
import type { Team } from '../../contract/types.ts'
import type { Api } from '../api/all-calls.ts'
import { teamApi as api } from '../api/team-calls.ts'
import { ApiError } from '../api/client.ts'
import type { Builder } from './session.ts'
import { buildEventDetail, type EventDetailStore } from './event-detail.ts'

/**
 * The server's words when a team call was refused (an answer with the error flag: shown in a toast, SPEC §8);
 * null when there was no answer at all (offline), where the screens go on to team-details instead.
 */
export const refusalOf = (err: unknown): string | null => (err instanceof ApiError && err.status >= 400 ? err.message : null)

export type TeamAction = 'create' | 'join' | 'remove' | 'delete'

export interface TeamDeps {
  createTeam: Api['createTeam']
  joinTeam: Api['joinTeam']
  removeFromTeam: Api['removeFromTeam']
  deleteTeam: Api['deleteTeam']
  /** The event details the team screens show: refetched after a removal (SPEC §7). */
  detail: Pick<EventDetailStore, 'refresh'>
  /** After any change: the events list carries the 'Registered' tag of each card. */
  onChanged?: () => unknown
}

export const TeamModel = createModel(({ createTeam, joinTeam, removeFromTeam, deleteTeam, detail, onChanged }: TeamDeps) => {
  const pending = signal<TeamAction | null>(null)

  /** Runs one action at a time; a press while another runs is ignored (resolves undefined). */
  const run = async <T>(name: TeamAction, call: () => Promise<T>): Promise<T | undefined> => {
    if (pending.value) return undefined
    pending.value = name
    try {
      const result = await call()
      onChanged?.()
      return result
    } finally {
      pending.value = null
    }
  }

  return {
    pending: pending as ReadonlySignal<TeamAction | null>,
    /** Resolves with the new team; rejects with the ApiError of a refusal (its message is the server's). */
    /** `answers`: the registration questions' answers by question id, when the event asks any. */
    create: action((eventId: number, name: string, answers?: Record<string, string>) =>
      run('create', () => (answers ? createTeam(eventId, name, answers) : createTeam(eventId, name)).then((answer): Team => answer.team)),
    ),
    join: action((eventId: number, inviteCode: string, answers?: Record<string, string>) =>
      run('join', () => (answers ? joinTeam(eventId, inviteCode, answers) : joinTeam(eventId, inviteCode)).then((answer): Team => answer.team)),
    ),
    /** Removes a member, then refetches the event (a student who removed themself then has no team). */
    remove: action((teamId: number, userId: number) =>
      run('remove', async () => {
        await removeFromTeam(teamId, userId)
        await detail.refresh()
      }),
    ),
    delete: action((eventId: number, teamId: number) =>
      run('delete', async () => {
        await deleteTeam(eventId, teamId)
      }),
    ),
  }
})

export type TeamStore = InstanceType<typeof TeamModel>

/** The team screens' actions, in the event screens' room (`room(buildTeam)`): after a change, the events list again. */
export const buildTeam: Builder<TeamStore> = ({ events }, room) =>
  new TeamModel({
    createTeam: api.createTeam,
    joinTeam: api.joinTeam,
    removeFromTeam: api.removeFromTeam,
    deleteTeam: api.deleteTeam,
    detail: room(buildEventDetail),
    onChanged: () => events.refresh(),
  })
