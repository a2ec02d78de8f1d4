// The onboarding rules of SPEC §5 for this screen: the same rules and words as personalStep / educationalStep /
// interestStep in contract/schemas.ts (which the server applies), written out as plain checks so this route's
// chunk does not carry zod (~5 KB brotli: it alone broke the 6 KB per-chunk budget). test/dom/onboarding-rules.test.ts
// holds the two to the same answer over a table of inputs, so they cannot drift apart unnoticed.
import { GENDERS, PHONE_DIGITS } from '../../../contract/constants.ts'
import { GRADUATION_YEARS, INTEREST_OPTIONS } from '../../../contract/profile-options.ts'
import { MESSAGES } from '../../../contract/messages.ts'

type Errors = Record<string, string>
const PHONE = new RegExp(`^\\d{${PHONE_DIGITS}}$`)
const ROLL_MAX = 32

/** Each returns the first message per field, like `fieldErrors(schema, value)`; a valid value gives {}. */
export function personalErrors(v: { phone_number: string; roll_number: string; gender?: string }): Errors {
  const e: Errors = {}
  if (!v.phone_number) e.phone_number = MESSAGES.phoneRequired
  else if (!PHONE.test(v.phone_number)) e.phone_number = MESSAGES.phoneDigits
  if (!v.roll_number.trim()) e.roll_number = MESSAGES.rollRequired
  else if (v.roll_number.length > ROLL_MAX) e.roll_number = MESSAGES.rollTooLong
  if (v.gender === undefined || v.gender === '') e.gender = MESSAGES.genderRequired
  else if (!(GENDERS as readonly string[]).includes(v.gender)) e.gender = MESSAGES.genderInvalid
  return e
}

export function educationalErrors(v: { year?: number; branch: string }): Errors {
  const e: Errors = {}
  // zod's number refuses NaN and ±Infinity as "not a number".
  if (v.year === undefined) e.year = MESSAGES.yearRequired
  else if (!Number.isFinite(v.year)) e.year = MESSAGES.yearNumber
  else if (!(GRADUATION_YEARS as readonly number[]).includes(v.year)) e.year = MESSAGES.yearRange
  if (!v.branch) e.branch = MESSAGES.branchRequired
  return e
}

export function interestErrors(v: { interests: string[] }): Errors {
  if (!v.interests.length) return { interests: MESSAGES.interestsRequired }
  if (!v.interests.every((i) => (INTEREST_OPTIONS as readonly string[]).includes(i))) return { interests: MESSAGES.interestsUnknown }
  return {}
}

/** What the mobile number field keeps of typed or pasted text: digits only, a +91 or 0 in front dropped, 10 at most. */
export function phoneDigits(text: string): string {
  const digits = text.replace(/\D/g, '')
  const national = digits.length > PHONE_DIGITS && /^(91|0)/.test(digits) ? digits.slice(-PHONE_DIGITS) : digits
  return national.slice(0, PHONE_DIGITS)
}
