// The messages of SPEC.md §5 and of the form rules in schemas.ts, with no dependency: importable by a screen
// without pulling in zod (every byte of a lazy route chunk counts on a student's phone).
export const MESSAGES = {
  phoneRequired: 'Mobile number is required',
  phoneDigits: 'Mobile number must be 10 digits',
  rollRequired: 'Student ID is a required field',
  rollTooLong: 'Student ID must be at most 32 characters',
  genderRequired: 'Gender is required',
  genderInvalid: 'Gender is required.',
  yearNumber: 'Graduation year must be a number',
  yearRequired: 'Graduation year is required',
  yearRange: 'Graduation year must be between 2025 and 2028',
  branchRequired: 'Branch is required',
  branchForYear: 'Branch is not offered for that graduation year',
  interestsRequired: 'Interests are required',
  interestsUnknown: 'Interests must be chosen from the list',
  teamNameRequired: 'Team name is a required field',
  teamNameMin: 'Team name must be at least 3 characters',
  teamNameMax: 'Team name must be at most 40 characters',
  inviteRequired: 'Invite code is a required field',
  inviteLength: 'Invite code must be exactly 5 characters',
  eventIdRequired: 'event_id is a required field',
  // 409 from /user/p/update: the onboarding matches these to put the message under the field to change.
  phoneTaken: 'This mobile number is already registered to another student.',
  rollTaken: 'This Student ID is already registered to another student.',
} as const
