// The door (API.md Part 2 "At the door", issue 12): the events a volunteer may check tickets at, the ticket list a
// device keeps for offline checking, check-in, undo and the sync of offline scans.
//
// Safe under retries and races:
// - A scan is recorded in door_scans under the device's scan_id (the primary key) in the same transaction as the
//   admission it made, with its answer; a repeated scan_id does not decide again: it answers the ticket's state now
//   (issue 21 item 13), which is the first answer as long as the check-in that scan made stands, ALREADY_CHECKED_IN
//   when another scan's check-in stands, and NOT_CHECKED_IN once the check-in was undone. A code of no ticket records
//   nothing.
// - Every scan, live or synced, locks the event's row (FOR KEY SHARE), then its tickets' rows (FOR UPDATE, in id
//   order), then claims its scan_ids (tickets.ts lockTickets): of any number of gates scanning one ticket at once,
//   one at a time decides it, from the admissions the one before left, so exactly one admits it for the day; a repeat
//   of a scan_id still being decided waits on the key, and is asked again once that scan has committed.
// - A good live scan is three statements (scan.ts): the lock, which reads who may scan, the event's rules, the
//   ticket's time-code secret and the scan_id's first answer with it; the ticket's admissions; and one statement
//   that claims the scan_id with its answer and writes the admission and the ticket's mirror.
// - Offline scans (sync) are applied in `scanned_at` order and carry their own time, clamped to the ticket's door
//   window (not before the ticket was collected, not after now: issue 21 item 6). Of two offline scans of one
//   ticket the earliest `scanned_at` is the check-in, whichever reached the server first: a later-synced earlier
//   scan takes the record over from an earlier-synced later one (under the participant's row lock, audited as
//   'door.rewrite'), and the displaced scan's stored answer becomes ALREADY_CHECKED_IN, so its device hears of it
//   on its next sync of it. A live (online) check-in is never taken over: the server let that person in in real
//   time, and an offline scan synced after it is reported ALREADY_CHECKED_IN whatever its time.
// - A sync is bounded work whatever it carries (issue 21 item 1: 30 syncs of 100 codes of no ticket were 3,000
//   transactions and made every other call wait): a fixed number of statements. Reads first (which codes are
//   tickets of the event, and what the others answer); codes of no ticket stop there. Then one transaction: the
//   tickets locked (as above), their scans' ids claimed in id order, the decisions made in memory in scanned_at
//   order (tickets.ts admitScan, the live scan's too), and each kind of write made once for the whole batch.
import { doorListRepository } from './list.ts'
import { doorScanRepository } from './scan.ts'
import { doorSyncRepository } from './sync.ts'
import { doorAccess } from './tickets.ts'
import type { Db } from '../index.ts'

export type { OfflineScan } from './sync.ts'
export { clampScan, doorAnswersOf, replayed, type ScanAnswer } from './tickets.ts'

/**
 * The door's repository, joined from its parts along their seams: what a device downloads (list.ts), the live
 * scans and the undo (scan.ts), the offline scans' sync (sync.ts), on what they share (tickets.ts: a
 * ticket's row and its holder, who may check tickets, the answers). `clock`: the server's time, injectable so
 * tests can scan either side of midnight IST without waiting.
 */
export function doorRepository(db: Db, clock: () => Date = () => new Date()) {
  return {
    /** Whether the user may check tickets at the event now: null when yes, else the refusal. */
    access: (userId: number, eventId: number) => doorAccess(db, userId, eventId),
    ...doorListRepository(db),
    ...doorScanRepository(db, clock),
    ...doorSyncRepository(db, clock),
  }
}

export type DoorRepository = ReturnType<typeof doorRepository>
