// How many SQL statements a good live scan sends (issue 38 item 1): a check-in that admits, a check-out and a
// re-entry on a re-entry event, a second day's admission, a rotating code. Counted from the route's repository call
// to its answer, the access check included: every statement Drizzle sends on the database the app uses, read from a
// second Drizzle over the same connection with a logger (the driver's BEGIN and COMMIT around the transaction are
// not statements of ours and are not counted). On every database kind.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { STEP_MS, stepOf } from '../../contract/time-code.ts'
import { doorRepository } from '../../server/db/door/door.ts'
import { type Db, type Database, schema } from '../../server/db/index.ts'
import { doorWorld, scannedText, type DoorWorld } from './door-fixtures.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

/** The most statements a good scan may send (issue 38: it was 9). */
const GOOD_SCAN_MAX = 4

/** A Drizzle over the test database's own connection that writes down every statement it sends. */
async function countingDb(database: Database): Promise<{ db: Db; sent: string[] }> {
  const sent: string[] = []
  const logger = { logQuery: (query: string) => void sent.push(query) }
  const client = (database.db as unknown as { $client: never }).$client
  const db =
    database.kind === 'postgres'
      ? (await import('drizzle-orm/postgres-js')).drizzle(client, { schema, logger })
      : (await import('drizzle-orm/pglite')).drizzle(client, { schema, logger })
  return { db: db as unknown as Db, sent }
}

describe.each(DB_KINDS)('statements per good scan on %s', (kind) => {
  let t: TestApp
  let counted: { db: Db; sent: string[] }
  beforeAll(async () => {
    t = await testApp({ kind })
    counted = await countingDb(t.database)
  }, 60_000)
  afterAll(() => t?.close())
  afterEach(() => vi.useRealTimers())

  /** One scan through the door's repository at `instant`: its answer and the statements it sent. */
  async function scan(w: DoorWorld, direction: 'IN' | 'OUT', ticketCode: string, instant = new Date()) {
    const door = doorRepository(counted.db, () => instant)
    counted.sent.length = 0
    const input = { eventId: w.eventId, ticketCode, scanId: randomUUID(), gate: 'North' }
    const outcome = await (direction === 'IN' ? door.checkIn(w.users.door.id, input) : door.checkOut(w.users.door.id, input))
    if (!outcome.ok) throw new Error(`refused: ${outcome.refusal}`)
    return { result: outcome.value.result, reentry: 'reentry' in outcome.value ? outcome.value.reentry : undefined, sent: [...counted.sent] }
  }
  const within = (s: { sent: string[] }) => expect(s.sent.length, s.sent.join('\n')).toBeLessThanOrEqual(GOOD_SCAN_MAX)

  it('a check-in that admits', async () => {
    const w = await doorWorld(t)
    const admitted = await scan(w, 'IN', w.codes[0])
    expect(admitted.result).toBe('CHECKED_IN')
    within(admitted)
  })

  it('a check-out, and the re-entry after it, on an event with re-entry', async () => {
    const w = await doorWorld(t)
    await t.database.db.update(schema.events).set({ reentry: true }).where(eq(schema.events.id, w.eventId))
    expect((await scan(w, 'IN', w.codes[0])).result).toBe('CHECKED_IN')
    const out = await scan(w, 'OUT', w.codes[0])
    expect(out.result).toBe('CHECKED_OUT')
    within(out)
    const back = await scan(w, 'IN', w.codes[0])
    expect(back).toMatchObject({ result: 'CHECKED_IN', reentry: true })
    within(back)
  })

  it('a second day’s admission on a multi-day event', async () => {
    const w = await doorWorld(t)
    const dates = ['2026-11-27T10:00:00+05:30', '2026-11-28T10:00:00+05:30']
    await t.database.db.update(schema.events).set({ dates }).where(eq(schema.events.id, w.eventId))
    expect((await scan(w, 'IN', w.codes[0], new Date('2026-11-27T12:00:00+05:30'))).result).toBe('CHECKED_IN')
    const second = await scan(w, 'IN', w.codes[0], new Date('2026-11-28T12:00:00+05:30'))
    expect(second.result).toBe('CHECKED_IN')
    within(second)
  })

  it('a rotating code, checked by the server’s clock', async () => {
    const w = await doorWorld(t, { rotating: true })
    // The middle of the step now is in, so the code read is nowhere near a step's edge.
    const now = stepOf(Date.now()) * STEP_MS + STEP_MS / 2
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(now)
    const admitted = await scan(w, 'IN', await scannedText(t, w.codes[0], now), new Date(now))
    expect(admitted.result).toBe('CHECKED_IN')
    within(admitted)
  })
})
