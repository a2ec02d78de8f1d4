// The wire types of API.md, imported by the app and the server alike. They are the output types of the schemas in
// api.ts, so the wire is declared once; `import type` keeps zod out of every bundle that imports these.
import type * as z from 'zod/mini'
import type * as api from './api.ts'
import type * as door from './door.ts'

export type User = z.output<typeof api.user>
export type Roles = z.output<typeof api.roles>
export type Schedule = z.output<typeof api.schedule>
export type Question = z.output<typeof api.question>
export type WaitlistPlace = z.output<typeof api.waitlistPlace>
export type FairStart = z.output<typeof api.fairStart>
export type DrawEntry = z.output<typeof api.drawEntry>
export type ParticipantPayment = z.output<typeof api.participantPayment>
export type PaymentSettings = z.output<typeof api.paymentSettings>
export type Organizer = z.output<typeof api.organizer>
export type TeamMember = z.output<typeof api.teamMember>
export type Team = z.output<typeof api.team>
export type SummaryParticipant = z.output<typeof api.summaryParticipant>
export type DetailParticipant = z.output<typeof api.detailParticipant>
export type EventSummary = z.output<typeof api.eventSummary>
export type EventDetail = z.output<typeof api.eventDetail>
export type EventsByState = z.output<typeof api.eventsByState>
export type MyEvent = z.output<typeof api.myEvent>
export type Council = z.output<typeof api.council>
export type ApiError = z.output<typeof api.apiError>

// Part 2, the organiser console (contract/org.ts).
import type * as org from './org.ts'
export type OrgEvent = z.output<typeof org.orgEvent>
export type EventCounts = z.output<typeof org.eventCounts>
/** What the console sends to /org/p/event/save (before the server's defaults). */
export type EventInput = z.input<typeof org.eventInput>
export type QuestionInput = z.input<typeof org.questionInput>
export type ParticipantRow = z.output<typeof org.participantRow>
export type OrgPerson = z.output<typeof org.orgPerson>
export type ManagedCouncil = z.output<typeof org.councilWithOrganizers>
export type OrgCouncil = z.output<typeof org.orgCouncil>
export type AuditEntry = z.output<typeof org.auditEntry>
export type DoorEvent = z.output<typeof door.doorEvent>
export type DoorTicket = z.output<typeof door.doorTicket>
export type Attendee = z.output<typeof door.attendee>
export type DoorQuestionAnswer = z.output<typeof door.doorAnswer>
/**
 * A scan's answer as the door app reads it: by its `result`. A refusal's `code` (issue 38 item 3) is the same word, and
 * is left out of this type: the door's screen names the ticket code it read `code` (src/lib/door-list.ts ShownAnswer).
 */
export type ScanResult = WithoutCode<z.output<typeof door.scanResult>>
/** Each kind of answer without its `code`. */
type WithoutCode<T> = T extends unknown ? Omit<T, 'code'> : never

// Activity points (issue 26, contract/points.ts).
import type * as points from './points.ts'
export type ActivityPoints = z.output<typeof points.activityPoints>
export type ActivityPointsInput = z.input<typeof points.activityPointsInput>
export type PointEntry = z.output<typeof points.pointEntry>
export type PointsRecord = z.output<typeof points.pointsRecord>
export type PointsSettings = z.output<typeof points.pointsSettings>
export type EventWinner = z.output<typeof points.eventWinner>
export type EventPointsRow = z.output<typeof points.eventPointsRow>
export type PointsStudent = z.output<typeof points.studentRow>
export type DoorDay = z.output<typeof door.doorDay>
export type DoorAdmission = z.output<typeof door.doorAdmission>

import type * as paymentsOrg from './payments-org.ts'
/** The console's payments and the desk (issue 35 items 3, 4, 6). */
export type OrgPayment = z.output<typeof paymentsOrg.orgPayment>
export type PaymentTotals = z.output<typeof paymentsOrg.paymentTotals>
export type DeskStudent = z.output<typeof paymentsOrg.deskStudent>

// The inbox (contract/inbox.ts).
import type * as inbox from './inbox.ts'
export type InboxMessage = z.output<typeof inbox.inboxMessage>
