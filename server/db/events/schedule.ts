// The scheduler's database side (API.md Part 2 "Event lifecycle"): claims the events whose scheduled step has come
// and moves each to the state its latest passed step starts, exactly once however many instances run.
//
// Exactly once: the due events are selected `FOR UPDATE SKIP LOCKED` in one transaction that also moves them and
// marks `schedule_applied_through = now()`. Another instance skips rows being moved; one that reads after the
// commit no longer finds them due (PostgreSQL re-checks the WHERE on the newest version of a row it locks). Steps
// timed at or before `schedule_applied_through` are done: a manual move sets it to now (a manual move wins).
// Catching up: every passed step after the mark is due, and the latest of them decides the state, so an instance
// started after downtime lands the event where the schedule says it is now. Drafts are never moved.
import { sql } from 'drizzle-orm'
import { SCHEDULE_STEPS } from '../../../contract/org.ts'
import type { AnyEventState } from '../../../contract/constants.ts'
import { recordAudit } from '../audit.ts'
import type { Db } from '../index.ts'
import type { StateChange } from './lifecycle.ts'
import { rowsOf } from '../outcomes.ts'
import { events } from '../schema.ts'

/** At most this many events moved in one transaction (the rest on the next tick, a moment later). */
export const SCHEDULE_BATCH = 200

const col = (key: string) => sql.identifier(key)
const applied = sql.identifier(events.scheduleAppliedThrough.name)

/** A step is due when its time has passed and it comes after the applied-through mark. */
const dueCondition = sql.join(
  SCHEDULE_STEPS.map(([key]) => sql`(${col(key)} <= now() AND (${applied} IS NULL OR ${col(key)} > ${applied}))`),
  sql` OR `,
)

const toTime = (v: unknown): number | null => (v === null || v === undefined ? null : new Date(v as string | Date).getTime())

export interface Move {
  eventId: number
  from: AnyEventState
  to: AnyEventState
  step: string
  /** When the move was applied, and when its step was due (the difference is the scheduler's lateness). */
  at: Date
  dueAt: Date
}

export function scheduleRepository(db: Db) {
  return {
    /** Moves every due event (up to SCHEDULE_BATCH) in one transaction; the moves made, for the listeners. */
    async applyDue(): Promise<Move[]> {
      return db.transaction(async (txn) => {
        const tx = txn as unknown as Db
        const rows = rowsOf(
          await tx.execute(sql`
            SELECT id, state, organizer_id, now() AS now, ${applied} AS applied, ${sql.join(
              SCHEDULE_STEPS.map(([key]) => col(key)),
              sql`, `,
            )}
            FROM ${events}
            WHERE state <> 'DRAFT' AND (${dueCondition})
            ORDER BY id
            LIMIT ${SCHEDULE_BATCH}
            FOR UPDATE SKIP LOCKED`),
        ) as Record<string, unknown>[]
        const moves: Move[] = []
        for (const row of rows) {
          const now = toTime(row.now)!
          const mark = toTime(row.applied)
          // The latest passed step after the mark decides the state (later steps win ties by their order).
          let latest: { key: string; state: AnyEventState; time: number } | null = null
          for (const [key, state] of SCHEDULE_STEPS) {
            const time = toTime(row[key])
            if (time === null || time > now || (mark !== null && time <= mark)) continue
            if (!latest || time >= latest.time) latest = { key, state, time }
          }
          const id = Number(row.id)
          const from = row.state as AnyEventState
          await tx.execute(
            sql`UPDATE ${events} SET ${applied} = now()${latest && latest.state !== from ? sql`, state = ${latest.state}` : sql``} WHERE id = ${id}`,
          )
          if (!latest || latest.state === from) continue
          await recordAudit(tx, {
            actorId: null,
            actorKind: 'scheduler',
            action: 'event.state',
            eventId: id,
            councilId: Number(row.organizer_id ?? 0) || null,
            before: { state: from },
            after: { state: latest.state, step: latest.key, due_at: new Date(latest.time).toISOString() },
          })
          moves.push({ eventId: id, from, to: latest.state, step: latest.key, at: new Date(now), dueAt: new Date(latest.time) })
        }
        return moves
      })
    },

    /** When the next step is due (the soonest future step after each event's mark), or null. */
    async nextDueAt(): Promise<Date | null> {
      const rows = rowsOf(
        await db.execute(sql`
          SELECT min(v.t) AS next FROM ${events},
          LATERAL (VALUES ${sql.join(
            SCHEDULE_STEPS.map(([key]) => sql`(${col(key)})`),
            sql`, `,
          )}) AS v(t)
          WHERE state <> 'DRAFT' AND v.t > now() AND (${applied} IS NULL OR v.t > ${applied})`),
      ) as { next: unknown }[]
      const t = toTime(rows[0]?.next)
      return t === null ? null : new Date(t)
    },
  }
}

export type ScheduleRepository = ReturnType<typeof scheduleRepository>

export const asStateChange = (m: Move): StateChange => ({ eventId: m.eventId, from: m.from, to: m.to, by: { kind: 'scheduler' }, at: m.at })
