// The steps of an event's schedule (API.md Part 2 "Event lifecycle"): no zod and no I/O, so the console's chunks
// that only name the steps carry nothing else of the contract.

/**
 * The schedule's steps in the order they happen, each with the state it starts: the one list the contract's schema and
 * rules (contract/org.ts, contract/event-rules.ts), the scheduler (server/db/events/schedule.ts) and the console
 * (src/lib/org-event.ts) read.
 */
export const SCHEDULE_STEPS = [
  ['registration_opens_at', 'REGISTRATION_OPEN'],
  ['registration_closes_at', 'REGISTRATION_CLOSED'],
  ['tickets_open_at', 'TICKET_OPEN'],
  ['tickets_close_at', 'TICKET_CLOSED'],
  ['starts_at', 'ONGOING'],
  ['ends_at', 'COMPLETED'],
] as const

export type ScheduleKey = (typeof SCHEDULE_STEPS)[number][0]
