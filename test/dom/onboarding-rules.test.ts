// The getting-started screen checks its steps with plain functions instead of zod (chunk budget); they must give
// exactly the answer of the contract's schemas, which the server applies, for every kind of input.
import { describe, expect, it } from 'vitest'
import { educationalStep, fieldErrors, interestStep, MESSAGES, personalStep } from '../../contract/schemas.ts'
import { educationalErrors, interestErrors, personalErrors, phoneDigits } from '../../src/pages/getting-started/rules.ts'

const phones = ['', ' ', '12345', '9876543210', '98765432101', '987654321a', '９８７６５４３２１０', '+919876543210', '0000000000']
const rolls = ['', ' ', '   ', '16010121001', 'x'.repeat(32), 'x'.repeat(33), ` ${'x'.repeat(32)}`, '\t', 'रोल']
const genders = [undefined, '', 'MALE', 'FEMALE', 'male', 'OTHER']
const years = [undefined, NaN, Infinity, 2024, 2025, 2028, 2029, 2026.5, 0]
const branches = ['', ' ', 'Computer_Engineering', 'x']
const interestLists = [[], ['AI/ML'], ['AI/ML', 'WEB3'], ['Cooking'], ['AI/ML', 'Cooking'], ['']]

describe('onboarding rules match the contract schemas', () => {
  for (const phone_number of phones)
    for (const roll_number of rolls)
      for (const gender of genders) {
        const v = { phone_number, roll_number, gender }
        it(`personal ${JSON.stringify(v)}`, () => expect(personalErrors(v)).toEqual(fieldErrors(personalStep, v)))
      }
  for (const year of years)
    for (const branch of branches) {
      const v = { year, branch }
      it(`educational ${String(year)} ${JSON.stringify(branch)}`, () => expect(educationalErrors(v)).toEqual(fieldErrors(educationalStep, v)))
    }
  it.each(interestLists)('interests %j', (...interests) => {
    const v = { interests: interests as string[] }
    expect(interestErrors(v)).toEqual(fieldErrors(interestStep, v))
  })
  it('says each message of SPEC §5 somewhere in the table (the table is not all-valid)', () => {
    const said = new Set<string | undefined>()
    for (const p of phones)
      for (const r of rolls) for (const g of genders) Object.values(personalErrors({ phone_number: p, roll_number: r, gender: g })).forEach((m) => said.add(m))
    for (const y of years) for (const b of branches) Object.values(educationalErrors({ year: y, branch: b })).forEach((m) => said.add(m))
    for (const i of interestLists) Object.values(interestErrors({ interests: i })).forEach((m) => said.add(m))
    for (const key of [
      'phoneRequired',
      'phoneDigits',
      'rollRequired',
      'rollTooLong',
      'genderRequired',
      'genderInvalid',
      'yearRequired',
      'yearNumber',
      'yearRange',
      'branchRequired',
      'interestsRequired',
      'interestsUnknown',
    ] as const) {
      expect(said).toContain(MESSAGES[key])
    }
  })
})

// Issue 14: the mobile number field keeps digits only, 10 at most, and reads a pasted number with +91 or 0 whole.
describe('phoneDigits', () => {
  it.each([
    ['9876543210', '9876543210'],
    ['98765 43210', '9876543210'],
    ['+91 98765 43210', '9876543210'],
    ['+91-98765-43210', '9876543210'],
    ['09876543210', '9876543210'],
    ['98a76', '9876'],
    ['123456789012', '1234567890'],
    ['', ''],
  ])('%j → %j', (typed, kept) => {
    expect(phoneDigits(typed)).toBe(kept)
  })
})
