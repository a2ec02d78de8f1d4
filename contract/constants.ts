// Business constants of SPEC.md §3 and §9, shared by the app and the server.

export const EVENT_STATES = ['UPCOMING', 'REGISTRATION_OPEN', 'REGISTRATION_CLOSED', 'TICKET_OPEN', 'TICKET_CLOSED', 'ONGOING', 'COMPLETED'] as const
export type EventState = (typeof EVENT_STATES)[number]

/** The states an organiser sees: DRAFT comes first and exists only in the console (students never see it). */
export const ALL_EVENT_STATES = ['DRAFT', ...EVENT_STATES] as const
export type AnyEventState = (typeof ALL_EVENT_STATES)[number]

export const REGISTRATION_TYPES = ['EXTERNAL', 'ONPLATFORM'] as const
export type RegistrationType = (typeof REGISTRATION_TYPES)[number]

export const GENDERS = ['MALE', 'FEMALE'] as const
export type Gender = (typeof GENDERS)[number]

export const DEGREE = 'B.tech'
export const COLLEGE = 'KJSCE'

export const PHONE_DIGITS = 10
export const INVITE_CODE_LENGTH = 5
export const TEAM_NAME_MIN = 3
export const RATING_MAX = 5
export const TOAST_MS = 3000
export const SPLASH_MS = 1500
export const PARTICIPANTS_SHOWN = 500
export const TIME_ZONE = 'Asia/Kolkata'

/** The shape of the app's one-time sign-in value (GET /auth/google?state=…, carried back to /login#…&state=…). */
export const SIGN_IN_STATE = /^[A-Za-z0-9_-]{16,128}$/
