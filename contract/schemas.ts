// One set of rules and messages (SPEC.md §5) for the onboarding and team forms, used by the app to
// validate on touch and by the server to refuse bad input with the same words.
import * as z from 'zod/mini'
import { GENDERS, INVITE_CODE_LENGTH, PHONE_DIGITS, TEAM_NAME_MIN } from './constants.ts'
import { BRANCHES_BY_YEAR, GRADUATION_YEARS, INTEREST_OPTIONS, branchFromWire } from './profile-options.ts'

// The messages live in a module without zod, so a screen that needs only the words (and a rule as short as
// a length check) does not ship the validator. Re-exported here for everything that imported them from here.
import { MESSAGES } from './messages.ts'
export { MESSAGES }

const missing = (input: unknown) => input === undefined || input === null || input === ''

const text = (required: string, invalid = required) => z.string({ error: (iss) => (missing(iss.input) ? required : invalid) })

export const phoneNumber = text(MESSAGES.phoneRequired, MESSAGES.phoneDigits).check(
  z.minLength(1, MESSAGES.phoneRequired),
  z.regex(new RegExp(`^\\d{${PHONE_DIGITS}}$`), MESSAGES.phoneDigits),
)

export const rollNumber = text(MESSAGES.rollRequired).check(
  z.refine((s) => s.trim().length > 0, MESSAGES.rollRequired),
  z.maxLength(32, MESSAGES.rollTooLong),
)

export const gender = z.enum(GENDERS, {
  error: (iss) => (missing(iss.input) ? MESSAGES.genderRequired : MESSAGES.genderInvalid),
})

export const graduationYear = z
  .number({ error: (iss) => (missing(iss.input) ? MESSAGES.yearRequired : MESSAGES.yearNumber) })
  .check(z.refine((n) => (GRADUATION_YEARS as readonly number[]).includes(n), MESSAGES.yearRange))

export const branch = text(MESSAGES.branchRequired).check(z.minLength(1, MESSAGES.branchRequired))

export const interests = z.array(z.string(), { error: MESSAGES.interestsRequired }).check(
  z.minLength(1, MESSAGES.interestsRequired),
  z.refine((list) => list.every((i) => (INTEREST_OPTIONS as readonly string[]).includes(i)), MESSAGES.interestsUnknown),
)

/** Whether a branch (wire form, underscored) is offered for a graduation year. */
export const branchFitsYear = (wireBranch: string, year: number) => (BRANCHES_BY_YEAR[year] ?? []).includes(branchFromWire(wireBranch))

export const personalStep = z.object({ phone_number: phoneNumber, roll_number: rollNumber, gender })
export const educationalStep = z.object({ year: graduationYear, branch })
export const interestStep = z.object({ interests })

/** The onboarding fields of every step, for the whole payload here and the profile update call (contract/api.ts). */
export const onboardingFields = { ...personalStep.shape, ...educationalStep.shape, ...interestStep.shape }

/** The whole onboarding payload (SPEC §3); the profile update call adds id, degree and college (contract/api.ts). */
export const onboardingPayload = z.object(onboardingFields).check(
  z.refine((p) => branchFitsYear(p.branch, p.year), {
    message: MESSAGES.branchForYear,
    path: ['branch'],
  }),
)
export type OnboardingPayload = z.infer<typeof onboardingPayload>

export const createTeamForm = z.object({
  team_name: text(MESSAGES.teamNameRequired).check(
    z.refine((s) => s.trim().length > 0, MESSAGES.teamNameRequired),
    z.refine((s) => s.trim().length >= TEAM_NAME_MIN, MESSAGES.teamNameMin),
    z.refine((s) => s.trim().length <= 40, MESSAGES.teamNameMax),
  ),
})

export const joinTeamForm = z.object({
  invite_code: text(MESSAGES.inviteRequired).check(
    z.minLength(1, MESSAGES.inviteRequired),
    z.refine((s) => s.length === INVITE_CODE_LENGTH, MESSAGES.inviteLength),
  ),
})

/** First message per field, keyed by the top-level field name: what a form shows under each control. */
export function fieldErrors(schema: z.ZodMiniType, value: unknown): Record<string, string> {
  const result = schema.safeParse(value)
  const errors: Record<string, string> = {}
  if (result.success) return errors
  for (const issue of result.error.issues) {
    const key = String(issue.path[0] ?? '')
    errors[key] ??= issue.message
  }
  return errors
}
