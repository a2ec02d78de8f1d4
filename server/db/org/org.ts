// The organiser console's repository (API.md Part 2 "Organiser calls"), joined from its parts along their seams:
// the events (events.ts: the caller's events, save, state moves, access; their reads in read.ts), the
// participants' pages (read.ts), who works for an event or council (people.ts), the councils
// (councils.ts) and the audit log (audit.ts). Every check of a role reads the database (roles.ts); every
// write is recorded in the audit log inside its own transaction, so the entry exists exactly when the write does.
// An event's cross-field rules are contract/event-rules.ts's.
import type { Db } from '../index.ts'
import type { Lifecycle } from '../events/lifecycle.ts'
import { auditLogRepository } from './audit.ts'
import { councilsRepository } from './councils.ts'
import { orgEventsRepository } from './events.ts'
import { orgPeopleRepository } from './people.ts'
import { participantsPage } from './read.ts'

export type { CouncilInputValue } from './councils.ts'
export type { EventInputValue } from './events.ts'

export function orgRepository(db: Db, lifecycle?: Lifecycle, options: { razorpay?: boolean } = {}) {
  return {
    ...orgEventsRepository(db, lifecycle, options),
    /**
     * The event's participants in registration order, a page at a time (`afterId` the last participant id read),
     * for the list and the streamed CSV.
     */
    participantsPage: (eventId: number, afterId?: number, limit?: number) => participantsPage(db, eventId, afterId, limit),
    ...orgPeopleRepository(db),
    ...councilsRepository(db),
    ...auditLogRepository(db),
  }
}

export type OrgRepository = ReturnType<typeof orgRepository>
