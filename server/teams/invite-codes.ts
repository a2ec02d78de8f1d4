// Invite codes: 5 characters from [A-Za-z0-9], drawn by the operating system's cryptographic generator.
// 62^5 ≈ 916 million codes; with join attempts rate limited (server/db/people/attempts.ts) a code cannot be guessed.
import { randomInt } from 'node:crypto'
import { INVITE_CODE_LENGTH } from '../../contract/constants.ts'

export const INVITE_CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/**
 * `crypto.randomInt(62)` rejects internally instead of taking a modulo, so every character is equally
 * likely (a byte % 62 would favour the first 8 characters). `pick` is injectable for tests only.
 */
export function randomInviteCode(pick: (max: number) => number = randomInt): string {
  let code = ''
  for (let i = 0; i < INVITE_CODE_LENGTH; i++) code += INVITE_CODE_ALPHABET[pick(INVITE_CODE_ALPHABET.length)]
  return code
}
