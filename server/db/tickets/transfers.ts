// Ticket transfer (issue 25 item 2): a holder gives the ticket's place, not its code, to a friend who has signed in
// once, is registered for the event (in the holder's team, for a team event) and holds no ticket. One transaction
// under the event's row lock (the lock order of claims and give-backs): the holder's code stops working at once,
// the friend gets a new code, tickets_sold does not move (the participants trigger takes one off and puts one
// back), a place held for the friend on the waitlist goes to the next in line, the old code is kept so the door can
// answer TRANSFERRED for it, and the move is audited. The friend's new code comes with a new time-code secret
// (migration 0016's trigger): the holder's old time codes stop working with the old code. A place changes hands at most TRANSFERS_PER_TICKET times.
import { sql } from 'drizzle-orm'
import { DOOR_STATES } from '../../../contract/door.ts'
import { TRANSFERS_PER_TICKET } from '../../../contract/transfer.ts'
import { recordAudit } from '../audit.ts'
import { newTicketCode } from './claims.ts'
import type { Db } from '../index.ts'
import { type Outcome, outcomeOf, Refused, rowsOf } from '../outcomes.ts'
import { pushRepository } from '../people/push.ts'
import { WAITLIST_HOLD_MINUTES } from './waitlist.ts'

export interface Transferred {
  /** The friend's name, as their account has it. */
  to: string
  /** How many more times the place may change hands. */
  transfers_left: number
}

interface LockedEvent {
  name: string
  state: string
  is_ticket_feature_enabled: boolean
  organizer_id: number
  first_date: string | null
  transfer_closes_minutes: number | null
}

interface Holding {
  id: number
  team_id: number | null
  ticket_collected: boolean
  ticket_code: string | null
  checked_in_at: unknown
  ticket_transfers: number
}

const TRANSFER_STATES = new Set<string>(DOOR_STATES)

/** When transfers of the event close (the first date less the organiser's minutes), or null when they never do. */
export function transfersCloseAt(firstDate: string | null, closesMinutes: number | null): Date | null {
  if (closesMinutes === null || firstDate === null) return null
  const start = Date.parse(firstDate)
  return Number.isNaN(start) ? null : new Date(start - closesMinutes * 60_000)
}

export function transfersRepository(db: Db, options: { holdMinutes?: number } = {}) {
  const hold = options.holdMinutes ?? WAITLIST_HOLD_MINUTES
  const push = pushRepository(db)

  return {
    /** Moves the caller's ticket for the event to the student signed in with `email`. */
    async transfer(userId: number, eventId: number, email: string, now = new Date()): Promise<Outcome<Transferred>> {
      return outcomeOf(() =>
        db.transaction(async (txn) => {
          const tx = txn as unknown as Db
          const [ev] = rowsOf(
            await tx.execute(sql`
              SELECT name, state, is_ticket_feature_enabled, organizer_id, dates->>0 AS first_date, transfer_closes_minutes
                FROM events WHERE id = ${eventId} FOR UPDATE`),
          ) as LockedEvent[]
          if (!ev || ev.state === 'DRAFT') throw new Refused('eventNotFound')
          if (!ev.is_ticket_feature_enabled || !TRANSFER_STATES.has(ev.state)) throw new Refused('transfersClosed')
          const closesAt = transfersCloseAt(ev.first_date, ev.transfer_closes_minutes === null ? null : Number(ev.transfer_closes_minutes))
          if (closesAt && now >= closesAt) throw new Refused('transfersClosed')

          const holder = await holdingOf(tx, eventId, userId)
          if (!holder) throw new Refused('notRegistered')
          if (!holder.ticket_collected || holder.ticket_code === null) throw new Refused('noTicket')
          if (holder.checked_in_at) throw new Refused('ticketUsed')
          if (Number(holder.ticket_transfers) >= TRANSFERS_PER_TICKET) throw new Refused('transferLimit')

          // Every account signed in with the address (compared without case); the one registered for the event.
          const accounts = rowsOf(await tx.execute(sql`SELECT id, name FROM users WHERE lower(email) = lower(${email}) ORDER BY id`)) as {
            id: number
            name: string
          }[]
          if (accounts.length === 0) throw new Refused('friendCannotReceive')
          if (accounts.some((a) => Number(a.id) === userId)) throw new Refused('transferToSelf')
          let friend: { id: number; name: string; holding: Holding } | null = null
          for (const account of accounts) {
            const holding = await holdingOf(tx, eventId, Number(account.id))
            if (holding) {
              friend = { id: Number(account.id), name: account.name, holding }
              break
            }
          }
          if (!friend) throw new Refused('friendCannotReceive')
          if (holder.team_id !== null && friend.holding.team_id !== holder.team_id) throw new Refused('friendCannotReceive')
          if (friend.holding.ticket_collected) throw new Refused('friendCannotReceive')
          // A friend whose own place is held for its payment (issue 35) is paying for one already: the same answer.
          const [paying] = rowsOf(
            await tx.execute(sql`
              SELECT 1 FROM payments WHERE event_id = ${eventId} AND user_id = ${friend.id} AND double_of IS NULL
                AND status IN ('PENDING', 'AWAITING_CONFIRMATION', 'PAID')`),
          )
          if (paying) throw new Refused('friendCannotReceive')

          const transfers = Number(holder.ticket_transfers) + 1
          // The holder's row first: the counter goes down, then up again with the friend's, never past ticket_count.
          await tx.execute(sql`
            UPDATE participants SET ticket_collected = false, ticket_code = NULL, ticket_collected_at = NULL, ticket_transfers = 0
              WHERE id = ${holder.id}`)
          await tx.execute(sql`
            UPDATE participants SET ticket_collected = true, ticket_code = ${newTicketCode()}, ticket_collected_at = now(),
                   ticket_transfers = ${transfers}
              WHERE id = ${friend.holding.id}`)
          // A paid place's payment goes with it (issue 35 item 5): the friend holds a paid ticket, nothing is refunded and
          // nothing charged; the receipt stays the one the holder paid.
          await tx.execute(sql`
            UPDATE payments SET participant_id = ${friend.holding.id}, user_id = ${friend.id}
              WHERE participant_id = ${holder.id} AND status = 'PAID' AND double_of IS NULL`)
          await tx.execute(sql`
            INSERT INTO ticket_transfers (event_id, from_user_id, to_user_id, old_code)
              VALUES (${eventId}, ${userId}, ${friend.id}, ${holder.ticket_code})`)
          // The friend's own place in the waitlist goes: a place held for them passes to the next in line.
          const [left] = rowsOf(await tx.execute(sql`DELETE FROM waitlist WHERE event_id = ${eventId} AND user_id = ${friend.id} RETURNING offered_at`)) as {
            offered_at: unknown
          }[]
          if (left?.offered_at) await tx.execute(sql`SELECT waitlist_offer(${eventId}::int, ${hold}::int)`)

          const [from] = rowsOf(await tx.execute(sql`SELECT name FROM users WHERE id = ${userId}`)) as { name: string }[]
          await push.queue(
            [friend.id],
            {
              title: 'You got a ticket',
              body: `${from?.name ?? 'A friend'} gave you their ticket for ${ev.name}.`,
              url: `/ticket/${eventId}`,
              tag: `ticket-${eventId}`,
            },
            tx,
          )
          await recordAudit(tx, {
            actorId: userId,
            actorKind: 'user',
            action: 'ticket.transfer',
            councilId: Number(ev.organizer_id),
            eventId,
            before: { holder: userId, transfers: transfers - 1 },
            // The new code came with a new time-code secret (migration 0016's trigger): the old one stopped working too.
            after: { holder: friend.id, transfers, secret: 'new' },
          })
          return { to: friend.name, transfers_left: TRANSFERS_PER_TICKET - transfers }
        }),
      )
    },
  }
}

async function holdingOf(tx: Db, eventId: number, userId: number): Promise<Holding | null> {
  const [row] = rowsOf(
    await tx.execute(sql`
      SELECT id, team_id, ticket_collected, ticket_code, checked_in_at, ticket_transfers
        FROM participants WHERE event_id = ${eventId} AND user_id = ${userId} FOR UPDATE`),
  ) as Holding[]
  return row ? { ...row, id: Number(row.id), team_id: row.team_id === null ? null : Number(row.team_id) } : null
}

export type TransfersRepository = ReturnType<typeof transfersRepository>
