// The wire types of API.md, imported by the app and the server alike.
import type { EventState, Gender, RegistrationType } from './constants.ts'

export interface User {
  id: number
  name: string
  email: string
  photo_url: string | null
  college: string | null
  phone_number: string | null
  roll_number: string | null
  gender: Gender | null
  year: number | null
  branch: string | null
  degree: string | null
  interests: string[]
}

export interface Organizer {
  id: number
  name: string
  photo_url: string | null
}

export interface TeamMember {
  user: { id: number; name: string; photo_url: string | null }
}

export interface Team {
  id: number
  name: string
  invite_code: string
  leader_id: number
  Participant: TeamMember[]
}

export interface SummaryParticipant {
  ticket_collected: boolean
  team: null | { id: number; name: string }
}

export interface DetailParticipant {
  id: number
  ticket_collected: boolean
  ticket_code: string | null
  team: null | Team
  /**
   * The caller's own rating (1–5) of the event, null before they rate it (issue 14: the feedback popup shows it).
   * The server always sends it; a copy the app kept offline from before it existed may lack it.
   */
  rating?: number | null
}

interface EventFields {
  id: number
  name: string
  description: string
  event_page_image_url: string | null
  banner_url: string | null
  dates: string[]
  venue: string
  tags: string[]
  organizer: Organizer
  parent_id: number | null
  children: { id: number }[]
  state: EventState
  fee: number
  ma_ppt: number
  registration_type: RegistrationType
  external_registration_link: string | null
  start_in_event_activity: boolean
  in_event_activity: string | null
  is_ticket_feature_enabled: boolean
  ticket_count: number
  tickets_sold: number
}

export interface EventSummary extends EventFields {
  Participant: false | SummaryParticipant
}

export interface EventDetail extends EventFields {
  long_description: string
  Participant: false | DetailParticipant
}

export type EventsByState = Partial<Record<EventState, EventSummary[]>>

export interface MyEvent {
  id: number
  ticket_collected: boolean
  team: null | { id: number; name: string }
  event: EventSummary
}

export interface Council {
  id: number
  name: string
  photo_url: string | null
  phone_number: string | null
  email: string | null
}

export interface ApiError {
  error: true
  message: string
}
