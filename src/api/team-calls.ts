// The team calls (create, join, remove a member, delete), loaded with the team screens (src/stores/team.ts), not
// with the first screen. Typed from the contract like calls.ts.
import type { Post } from './client.ts'
import { client } from './calls.ts'

export function createTeamCalls({ request: post }: { request: Post }) {
  return {
    createTeam: (eventId: number, teamName: string, answers?: Record<string, string>) =>
      post('/event/p/create-team/', answers ? { event_id: eventId, team_name: teamName, answers } : { event_id: eventId, team_name: teamName }),
    joinTeam: (eventId: number, inviteCode: string, answers?: Record<string, string>) =>
      post('/event/p/join-team/', answers ? { event_id: eventId, invite_code: inviteCode, answers } : { event_id: eventId, invite_code: inviteCode }),
    removeFromTeam: (teamId: number, userId: number) => post('/event/p/remove-from-team/', { team_id: teamId, user_id: userId }),
    deleteTeam: (eventId: number, teamId: number) => post('/event/p/delete-team/', { event_id: eventId, team_id: teamId }),
  }
}

export const teamApi = createTeamCalls(client)
