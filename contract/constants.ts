// Business constants of SPEC.md §3 and §9, shared by the app and the server. Those the app's first screen needs
// live in contract/shell.ts (re-exported here), so that the rest stay out of the first load.
export {
  ALL_EVENT_STATES,
  type AnyEventState,
  EVENT_STATES,
  type EventState,
  REGISTRATION_TYPES,
  type RegistrationType,
  SPLASH_MS,
  TOAST_MS,
} from './shell.ts'

export const GENDERS = ['MALE', 'FEMALE'] as const
export type Gender = (typeof GENDERS)[number]

export const DEGREE = 'B.tech'
export const COLLEGE = 'KJSCE'

export const PHONE_DIGITS = 10
export const INVITE_CODE_LENGTH = 5
export const TEAM_NAME_MIN = 3
export const RATING_MAX = 5
export const PARTICIPANTS_SHOWN = 500
export const TIME_ZONE = 'Asia/Kolkata'

/** The shape of the app's one-time sign-in value (GET /auth/google?state=…, carried back to /login#…&state=…). */
export const SIGN_IN_STATE = /^[A-Za-z0-9_-]{16,128}$/
