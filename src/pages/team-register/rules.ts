// The team form rules of SPEC §5 for this screen: the same rules and words as createTeamForm / joinTeamForm
// in contract/schemas.ts (which the server applies), written out as length checks so this route's chunk does
// not carry zod (~6 KB brotli, the whole per-chunk budget). test/dom/team-rules.test.ts holds the two to the
// same answer over a table of inputs, so they cannot drift apart unnoticed.
import { INVITE_CODE_LENGTH, TEAM_NAME_MIN } from '../../../contract/constants.ts'
import { MESSAGES } from '../../../contract/messages.ts'

/** createTeamForm's upper bound. */
export const TEAM_NAME_MAX = 40

/** The message for a team name as sent (trimmed by the caller), or undefined when it is fine. */
export function teamNameError(name: string): string | undefined {
  const length = name.trim().length
  if (length === 0) return MESSAGES.teamNameRequired
  if (length < TEAM_NAME_MIN) return MESSAGES.teamNameMin
  if (length > TEAM_NAME_MAX) return MESSAGES.teamNameMax
  return undefined
}

/** The message for an invite code as sent, or undefined when it is fine. */
export function inviteCodeError(code: string): string | undefined {
  if (code.length === 0) return MESSAGES.inviteRequired
  if (code.length !== INVITE_CODE_LENGTH) return MESSAGES.inviteLength
  return undefined
}
