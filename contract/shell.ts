// The constants of SPEC.md the app's start chunk holds (the events list by state, the splash, the toast; and the
// states and registration types the organiser's console reads, so that its editor needs no chunk of constants of its
// own), apart from contract/constants.ts, which re-exports them: a module is never split between chunks, and the
// other constants (genders, degree, the time zone...) are only the later student screens'.

export const EVENT_STATES = ['UPCOMING', 'REGISTRATION_OPEN', 'REGISTRATION_CLOSED', 'TICKET_OPEN', 'TICKET_CLOSED', 'ONGOING', 'COMPLETED'] as const
export type EventState = (typeof EVENT_STATES)[number]

/** The states an organiser sees: DRAFT comes first and exists only in the console (students never see it). */
export const ALL_EVENT_STATES = ['DRAFT', ...EVENT_STATES] as const
export type AnyEventState = (typeof ALL_EVENT_STATES)[number]

export const REGISTRATION_TYPES = ['EXTERNAL', 'ONPLATFORM'] as const
export type RegistrationType = (typeof REGISTRATION_TYPES)[number]

export const TOAST_MS = 3000
export const SPLASH_MS = 1500
