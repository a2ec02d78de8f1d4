// Business constants of SPEC.md §3 and §9, shared by the app and the server.

export const EVENT_STATES = [
  'UPCOMING',
  'REGISTRATION_OPEN',
  'REGISTRATION_CLOSED',
  'TICKET_OPEN',
  'TICKET_CLOSED',
  'ONGOING',
  'COMPLETED',
] as const
export type EventState = (typeof EVENT_STATES)[number]

export const REGISTRATION_TYPES = ['EXTERNAL', 'ONPLATFORM'] as const
export type RegistrationType = (typeof REGISTRATION_TYPES)[number]

export const GENDERS = ['MALE', 'FEMALE'] as const
export type Gender = (typeof GENDERS)[number]

export const INTEREST_OPTIONS = [
  'Web Development',
  'Cybersecurity',
  'AI/ML',
  'Competitive Programming',
  'Data Science',
  'Data Analytics',
  'WEB3',
  'Networking',
] as const

const BRANCHES_2027 = [
  'Computer Engineering',
  'Computer And Communication',
  'Information Technology',
  'Artificial Intelligence And Data Science',
  'Mechanical',
  'Electronics And Telecommunications',
  'Electronics And Computers',
  'Robotics And Artificial Intelligence',
]

/** Branch names by graduation year, as shown to students (spaces, not underscores). */
export const BRANCHES_BY_YEAR: Record<number, readonly string[]> = {
  2025: [
    'Computer Engineering',
    'Information Technology',
    'Electronics',
    'Mechanical',
    'Electronics And Telecommunications',
  ],
  2026: [
    'Computer Engineering',
    'Information Technology',
    'Mechanical',
    'Electronics And Telecommunications',
    'Electronics And Computers',
  ],
  2027: BRANCHES_2027,
  2028: [...BRANCHES_2027, 'Computer Science And Business Systems', 'Electronics VLSI'],
}

export const GRADUATION_YEARS = [2025, 2026, 2027, 2028] as const

/** The wire form of a branch: spaces replaced by underscores (SPEC §3). */
export const branchToWire = (name: string) => name.replace(/ /g, '_')
export const branchFromWire = (wire: string) => wire.replace(/_/g, ' ')

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
