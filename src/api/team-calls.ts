// The team calls (create, join, remove a member, delete), loaded with the team screens (src/stores/team.ts), not
// with the first screen. Typed from the contract like calls.ts.
import type { Answer, PathOf, Request } from '../../contract/api.ts'
import type { Client } from './client.ts'
import { client } from './calls.ts'

export function createTeamCalls({ request: post }: Client) {
  return {
    createTeam: (eventId: number, teamName: string, answers?: Record<string, string>) =>
      post<Answer<'createTeam'>>(
        '/event/p/create-team/' satisfies PathOf<'createTeam'>,
        (answers ? { event_id: eventId, team_name: teamName, answers } : { event_id: eventId, team_name: teamName }) satisfies Request<'createTeam'>,
      ),
    joinTeam: (eventId: number, inviteCode: string, answers?: Record<string, string>) =>
      post<Answer<'joinTeam'>>(
        '/event/p/join-team/' satisfies PathOf<'joinTeam'>,
        (answers ? { event_id: eventId, invite_code: inviteCode, answers } : { event_id: eventId, invite_code: inviteCode }) satisfies Request<'joinTeam'>,
      ),
    removeFromTeam: (teamId: number, userId: number) =>
      post<Answer<'removeFromTeam'>>(
        '/event/p/remove-from-team/' satisfies PathOf<'removeFromTeam'>,
        { team_id: teamId, user_id: userId } satisfies Request<'removeFromTeam'>,
      ),
    deleteTeam: (eventId: number, teamId: number) =>
      post<Answer<'deleteTeam'>>(
        '/event/p/delete-team/' satisfies PathOf<'deleteTeam'>,
        { event_id: eventId, team_id: teamId } satisfies Request<'deleteTeam'>,
      ),
  }
}

export const teamApi = createTeamCalls(client)
