// claim_tickets() (migration 0002), the database function every ticket claim goes through, called directly:
// the answers for a batch with every kind of student in it, a batch's rollback as a whole, and on PostgreSQL
// many batches at once on separate connections (the app sends one batch per event at a time per instance,
// so test/server/claim-rush.test.ts alone no longer has transactions racing in the database; instances do).
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importCatalogue } from '../../server/db/events/catalogue.ts'
import { schema, type Database } from '../../server/db/index.ts'
import { DB_KINDS, testDatabase } from './helpers.ts'

const { events, participants, users } = schema

describe.each(DB_KINDS)('claim_tickets() on %s', (kind) => {
  let database: Database
  let userIds: number[]
  let eventNo = 0

  beforeAll(async () => {
    database = await testDatabase(kind)
    await importCatalogue(database.db, { councils: [{ slug: 'cc', name: 'Cultural Committee' }], events: [] })
    userIds = (
      await database.db
        .insert(users)
        .values(Array.from({ length: 300 }, (_, i) => ({ issuer: 'test', subject: `batch-${i}`, email: `batch${i}@example.edu`, name: `Batch ${i}` })))
        .returning({ id: users.id })
    ).map((u) => u.id)
  })
  afterAll(() => database.close())

  /** A ticket event with `tickets` tickets and the given students registered. */
  async function ticketEvent(tickets: number, registered: number[], state: 'TICKET_OPEN' | 'COMPLETED' = 'TICKET_OPEN'): Promise<number> {
    const slug = `ev-${kind}-${++eventNo}`
    const { events: ids } = await importCatalogue(database.db, {
      councils: [{ slug: 'cc', name: 'Cultural Committee' }],
      events: [
        {
          slug,
          name: slug,
          dates: ['2026-11-25T19:00:00+05:30'],
          organizer: 'cc',
          state,
          is_ticket_feature_enabled: true,
          ticket_count: tickets,
          fair_start: { window_seconds: 0 },
        },
      ], // first come, first served
    })
    if (registered.length) await database.db.insert(participants).values(registered.map((userId) => ({ eventId: ids[slug], userId })))
    return ids[slug]
  }

  const codeFor = (i: number) => String(1_000_000_000_000_000n + BigInt(eventNo) * 100_000n + BigInt(i))

  async function claim(eventId: number, students: number[], codes = students.map((_, i) => codeFor(i))): Promise<string[]> {
    const result = await database.db.execute(
      // The draw nonces (migration 0018) matter only to an entry: these events open first come, first served.
      sql`SELECT claim_tickets(${eventId}::int, ${`{${students.join(',')}}`}::text::int[], ${`{${codes.join(',')}}`}::text::text[], ${`{${students.map(() => '0'.repeat(32)).join(',')}}`}::text::text[]) AS statuses`,
    )
    const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows
    return (rows[0] as { statuses: string[] }).statuses
  }

  async function sold(eventId: number) {
    const [event] = await database.db.select({ counter: events.ticketsSold }).from(events).where(eq(events.id, eventId))
    const holders = await database.db
      .select({ userId: participants.userId, code: participants.ticketCode })
      .from(participants)
      .where(and(eq(participants.eventId, eventId), eq(participants.ticketCollected, true)))
    return { counter: event.counter, holders: holders.map((h) => h.userId).sort((a, b) => a - b), codes: new Set(holders.map((h) => h.code)).size }
  }

  it('answers each student of a batch in order: claimed, already (same batch), not registered, sold out', async () => {
    const [a, b, c, d, outsider] = userIds
    const eventId = await ticketEvent(2, [a, b, c, d])

    expect(await claim(eventId, [a, a, outsider, b, c, d])).toEqual(['claimed', 'already', 'not_registered', 'claimed', 'sold_out', 'sold_out'])
    expect(await sold(eventId)).toEqual({ counter: 2, holders: [a, b].sort((x, y) => x - y), codes: 2 })

    // Sold out: a holder is still told they have a ticket, an outsider that they are not registered.
    expect(await claim(eventId, [a, c, outsider])).toEqual(['already', 'sold_out', 'not_registered'])
    expect(await sold(eventId)).toEqual({ counter: 2, holders: [a, b].sort((x, y) => x - y), codes: 2 })
  })

  it('answers not_found for an unknown event and not_open for a closed one, and writes nothing', async () => {
    const [a] = userIds
    expect(await claim(2_000_000_000, [a])).toEqual(['not_found'])
    const closed = await ticketEvent(5, [a], 'COMPLETED')
    expect(await claim(closed, [a, a])).toEqual(['not_open', 'not_open'])
    expect(await sold(closed)).toEqual({ counter: 0, holders: [], codes: 0 })
  })

  it('rolls a batch back as a whole when one claim in it fails (a repeated ticket code)', async () => {
    const [a, b, c] = userIds
    const eventId = await ticketEvent(10, [a, b, c])
    await expect(claim(eventId, [a, b, c], ['1111222233334444', '5555666677778888', '1111222233334444'])).rejects.toThrow()
    // a and b were updated before c's code collided: nothing of it stays.
    expect(await sold(eventId)).toEqual({ counter: 0, holders: [], codes: 0 })
    expect(await claim(eventId, [a, b, c])).toEqual(['claimed', 'claimed', 'claimed'])
    expect((await sold(eventId)).counter).toBe(3)
  })

  it('refuses a batch whose students and codes do not pair up', async () => {
    const [a, b] = userIds
    const eventId = await ticketEvent(10, [a, b])
    await expect(claim(eventId, [a, b], [codeFor(0)])).rejects.toThrow()
    expect(await sold(eventId)).toEqual({ counter: 0, holders: [], codes: 0 })
  })

  it.skipIf(kind !== 'postgres')('60 overlapping batches at once on separate connections: exactly ticket_count tickets, one per student', async () => {
    const students = userIds.slice(0, 250)
    const eventId = await ticketEvent(100, students)
    // Every student in three different batches, the batches shuffled: the same student races in the database.
    const order = [...students, ...students, ...students]
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1))
      ;[order[i], order[j]] = [order[j], order[i]]
    }
    const batches = Array.from({ length: 60 }, (_, k) => order.slice(Math.floor(k * 12.5), Math.floor((k + 1) * 12.5)))
    let next = 0
    const answers = await Promise.all(
      batches.map((batch) => {
        const codes = batch.map(() => String(9_000_000_000_000_000n + BigInt(next++)))
        return claim(eventId, batch, codes)
      }),
    )
    const all = answers.flat()
    expect(all).toHaveLength(750)
    expect(all.filter((s) => s === 'claimed')).toHaveLength(100)
    expect(new Set(all)).toEqual(new Set(['claimed', 'already', 'sold_out']))
    const result = await sold(eventId)
    expect(result.counter).toBe(100)
    expect(result.holders).toHaveLength(100)
    expect(new Set(result.holders).size).toBe(100)
    expect(result.codes).toBe(100)
  })
})
