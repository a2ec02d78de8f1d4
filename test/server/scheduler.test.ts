// The scheduler (API.md Part 2 "Event lifecycle"): each passed step moves its event to the state it starts, exactly
// once however many instances run on one PostgreSQL, catching up after downtime (the latest passed step wins),
// never moving a draft, never replaying a step a manual move overruled; every move audited (actor 'scheduler') and
// told to the lifecycle listeners. The lateness of each move is printed (figures, not thresholds).
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { type Database, openDatabase, schema } from '../../server/db/index.ts'
import type { StateChange } from '../../server/db/events/lifecycle.ts'
import { testApp, type TestApp } from './helpers.ts'

async function council(db: Database['db']) {
  const [c] = await db
    .insert(schema.councils)
    .values({ slug: `sched-${randomBytes(4).toString('hex')}`, name: 'Scheduler council' })
    .returning({ id: schema.councils.id })
  return c!.id
}

async function event(db: Database['db'], councilId: number, fields: Partial<typeof schema.events.$inferInsert>) {
  const [e] = await db
    .insert(schema.events)
    .values({ slug: `s-${randomBytes(5).toString('hex')}`, name: 'Scheduled', organizerId: councilId, state: 'UPCOMING', ...fields })
    .returning({ id: schema.events.id })
  return e!.id
}

const at = (ms: number) => new Date(Date.now() + ms)

async function schedulerEntries(db: Database['db'], ids: number[]) {
  return db
    .select()
    .from(schema.auditLog)
    .where(and(inArray(schema.auditLog.eventId, ids), eq(schema.auditLog.actorKind, 'scheduler')))
}

describe('the scheduler on one instance (PGlite)', () => {
  let t: TestApp
  beforeAll(async () => (t = await testApp({ app: { scheduler: { intervalMs: 200 } } })), 120_000)
  afterAll(() => t.close())

  it('catches up to the latest passed step, never moves a draft, and a manual move wins', async () => {
    const db = t.database.db
    const c = await council(db)
    const seen: StateChange[] = []
    t.app.lifecycle.onStateChange((change) => void seen.push(change))
    const behind = await event(db, c, { registrationOpensAt: at(-60_000), registrationClosesAt: at(-30_000), ticketsOpenAt: at(3_600_000) })
    const draft = await event(db, c, { state: 'DRAFT', registrationOpensAt: at(-60_000) })
    const manual = await event(db, c, { state: 'TICKET_OPEN', registrationOpensAt: at(-60_000), scheduleAppliedThrough: at(-1_000) })
    await t.app.schedulerTick()
    const states = Object.fromEntries(
      (
        await db
          .select({ id: schema.events.id, state: schema.events.state })
          .from(schema.events)
          .where(inArray(schema.events.id, [behind, draft, manual]))
      ).map((r) => [r.id, r.state]),
    )
    expect(states).toEqual({ [behind]: 'REGISTRATION_CLOSED', [draft]: 'DRAFT', [manual]: 'TICKET_OPEN' })
    const log = await schedulerEntries(db, [behind, draft, manual])
    expect(log).toHaveLength(1)
    expect(log[0]).toMatchObject({
      eventId: behind,
      actorId: null,
      action: 'event.state',
      before: { state: 'UPCOMING' },
      after: { state: 'REGISTRATION_CLOSED', step: 'registration_closes_at' },
    })
    expect(seen.filter((s) => s.eventId === behind).map((s) => [s.from, s.to, s.by.kind])).toEqual([['UPCOMING', 'REGISTRATION_CLOSED', 'scheduler']])
    // Ticking again changes nothing: each step once.
    await t.app.schedulerTick()
    expect(await schedulerEntries(db, [behind, draft, manual])).toHaveLength(1)
  })

  it('moves an event at its minute without being asked', async () => {
    const db = t.database.db
    const c = await council(db)
    const id = await event(db, c, { registrationOpensAt: at(700) })
    for (let i = 0; i < 100; i++) {
      const [row] = await db.select({ state: schema.events.state }).from(schema.events).where(eq(schema.events.id, id))
      if (row!.state === 'REGISTRATION_OPEN') break
      await new Promise((r) => setTimeout(r, 100)) // kept: the step of a poll for the scheduler's real tick
    }
    const [row] = await db.select({ state: schema.events.state }).from(schema.events).where(eq(schema.events.id, id))
    expect(row!.state).toBe('REGISTRATION_OPEN')
  })
})

const PG = process.env.TEST_DATABASE_URL

describe.skipIf(!PG)('the scheduler with two instances on one PostgreSQL', () => {
  let name: string
  let url: string
  let admin: any
  const opened: { close(): Promise<void> }[] = []

  async function instance() {
    const database = await openDatabase({ url, max: 5 })
    const config = loadConfig({
      DATA_DIR: mkdtempSync(join(tmpdir(), 'campus-sched-')),
      APP_URL: 'http://app.test',
      JWT_SECRET: 'test-secret',
      STATIC_DIR: join(tmpdir(), 'no-static-here'),
    })
    const app = await buildApp({ config, database, rateLimits: false, overload: { maxInFlight: Number.MAX_SAFE_INTEGER, maxEventLoopDelayMs: 0 } })
    await app.ready()
    const handle = {
      app,
      database,
      async close() {
        await app.close()
        await database.close()
      },
    }
    opened.push(handle)
    return handle
  }

  beforeAll(async () => {
    const { default: postgres } = await import('postgres')
    name = `t_sched_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`
    admin = postgres(PG!, { max: 1, onnotice: () => {} })
    await admin.unsafe(`CREATE DATABASE ${name}`)
    const u = new URL(PG!)
    u.pathname = `/${name}`
    url = u.toString()
  }, 60_000)
  afterAll(async () => {
    for (const h of opened) await h.close().catch(() => {})
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.end()
  })

  it('20 events scheduled over the next ~16 s each move exactly once; an instance started later catches up', async () => {
    const a = await instance()
    const b = await instance()
    const db = a.database.db
    const c = await council(db)
    const moves: { id: number; to: string; when: number; by: string }[] = []
    for (const [label, h] of [
      ['a', a],
      ['b', b],
    ] as const)
      h.app.lifecycle.onStateChange((s) => void moves.push({ id: s.eventId, to: s.to, when: Date.now(), by: label }))
    const start = Date.now() + 2_000
    const due = new Map<number, number>()
    for (let i = 0; i < 20; i++) {
      const when = start + i * 750
      const id = await event(db, c, { registrationOpensAt: new Date(when) })
      due.set(id, when)
    }
    const ids = [...due.keys()]
    while (Date.now() < start + 20 * 750 + 8_000 && new Set(moves.map((m) => m.id)).size < 20) await new Promise((r) => setTimeout(r, 100)) // kept: the step of a poll; the lateness is measured
    const lateness = moves.map((m) => m.when - due.get(m.id)!)
    console.log(
      `scheduler: ${moves.length} moves of 20 events by two instances (a: ${moves.filter((m) => m.by === 'a').length}, b: ${moves.filter((m) => m.by === 'b').length}); lateness ms: max ${Math.max(...lateness)}, median ${lateness.sort((x, y) => x - y)[Math.floor(lateness.length / 2)]}`,
    )
    expect(moves).toHaveLength(20)
    expect(new Set(moves.map((m) => m.id)).size).toBe(20)
    expect(moves.every((m) => m.to === 'REGISTRATION_OPEN')).toBe(true)
    expect(await schedulerEntries(db, ids)).toHaveLength(20)
    const states = await db.select({ state: schema.events.state }).from(schema.events).where(inArray(schema.events.id, ids))
    expect(states.every((s) => s.state === 'REGISTRATION_OPEN')).toBe(true)

    // Downtime: both stop; steps pass; a new instance catches up to the latest passed step, once.
    await a.close()
    await b.close()
    const late = await instance()
    const ldb = late.database.db
    const stale = await event(ldb, c, { registrationOpensAt: at(-20_000), registrationClosesAt: at(-10_000), ticketsOpenAt: at(-5_000) })
    for (let i = 0; i < 50; i++) {
      const [row] = await ldb.select({ state: schema.events.state }).from(schema.events).where(eq(schema.events.id, stale))
      if (row!.state === 'TICKET_OPEN') break
      await new Promise((r) => setTimeout(r, 100)) // kept: the step of a poll for the catch-up
    }
    const [row] = await ldb.select({ state: schema.events.state }).from(schema.events).where(eq(schema.events.id, stale))
    expect(row!.state).toBe('TICKET_OPEN')
    expect(await schedulerEntries(ldb, [stale])).toHaveLength(1)
  }, 60_000)
})
