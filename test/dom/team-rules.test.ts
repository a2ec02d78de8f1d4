// The team-register screen checks its fields with two short functions instead of zod (chunk budget); they must
// give exactly the answer of the contract's schemas, which the server applies, for every kind of input.
import { describe, expect, it } from 'vitest'
import { createTeamForm, fieldErrors, joinTeamForm, MESSAGES } from '../../contract/schemas.ts'
import { inviteCodeError, teamNameError } from '../../src/pages/team-register/rules.ts'

const names = [
  '',
  ' ',
  '   ',
  'a',
  'ab',
  ' ab ',
  'abc',
  '  abc  ',
  'Byte Club',
  'x'.repeat(40),
  'x'.repeat(41),
  ` ${'x'.repeat(40)} `,
  'टीम',
  'टीम१',
  '🦄🦄',
  '\tab\n',
  'a b',
]
const codes = ['', ' ', 'a', 'aB3d', 'aB3dE', 'aB3dEf', '     ', 'टीमटीम', '🦄🦄🦄', 'ab de', '12345']

describe('team form rules match the contract schemas', () => {
  it.each(names)('team name %j', (name) => {
    expect(teamNameError(name)).toBe(fieldErrors(createTeamForm, { team_name: name }).team_name)
  })
  it.each(codes)('invite code %j', (code) => {
    expect(inviteCodeError(code)).toBe(fieldErrors(joinTeamForm, { invite_code: code }).invite_code)
  })
  it('says each message of SPEC §5 somewhere in the table (the table is not all-valid)', () => {
    const said = new Set([...names.map(teamNameError), ...codes.map(inviteCodeError)])
    for (const m of [MESSAGES.teamNameRequired, MESSAGES.teamNameMin, MESSAGES.teamNameMax, MESSAGES.inviteRequired, MESSAGES.inviteLength]) {
      expect(said).toContain(m)
    }
    expect(said).toContain(undefined)
  })
})
