// Parent chains (issue 21 item 8): one rule, one level of children, in the console's save and in the importer
// alike. The console took a child of a child (and loops longer than 50), which the importer refused. Now: a parent
// is a top-level event (400), an event with children gets no parent (409), in both; and two saves racing to make a
// chain (A under B while B goes under C) cannot both win (the trigger of migration 0010 decides: PostgreSQL too).
import { eq, isNotNull, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ORG_MESSAGES } from '../../contract/org.ts'
import { CatalogueError, importCatalogue } from '../../server/db/events/catalogue.ts'
import { schema } from '../../server/db/index.ts'
import { rowsOf } from '../../server/db/outcomes.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

describe.each(DB_KINDS)('one level of children (%s)', (kind) => {
  let t: TestApp
  let organiser: { id: number; auth: { authorization: string } }
  let council: number
  let slug: string
  beforeAll(async () => {
    t = await testApp({ kind })
    slug = `parents-${kind}`
    ;[{ id: council }] = await t.database.db.insert(schema.councils).values({ slug, name: 'Parents' }).returning({ id: schema.councils.id })
    organiser = await t.student()
    await t.database.db.insert(schema.councilOrganizers).values({ councilId: council, userId: organiser.id })
  }, 60_000)
  afterAll(() => t.close())

  const save = async (body: Record<string, unknown>) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/org/p/event/save',
      headers: { 'content-type': 'application/json', ...organiser.auth },
      payload: JSON.stringify(body),
    })
    return { status: res.statusCode, body: res.json() }
  }
  let n = 0
  const create = async (parent_id: number | null = null) => {
    n += 1
    const res = await save({ name: `Event ${n}`, organizer_id: council, parent_id })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.event.id as number
  }
  const parentOf = async (id: number) => (await t.database.db.select({ p: schema.events.parentId }).from(schema.events).where(eq(schema.events.id, id)))[0]!.p
  /** Events whose parent has a parent: none may exist. */
  const chains = async () => {
    const rows = rowsOf(
      await t.database.db.execute(sql`SELECT count(*)::int AS n FROM events c JOIN events p ON p.id = c.parent_id WHERE p.parent_id IS NOT NULL`),
    )
    return Number((rows[0] as { n: number }).n)
  }

  it('the console refuses a child of a child (400) and a parent for an event with children (409), as the importer does', async () => {
    const fest = await create()
    const child = await create(fest)
    // A child of a child: taken before.
    expect(await save({ name: 'Grandchild', organizer_id: council, parent_id: child })).toEqual({
      status: 400,
      body: { error: true, message: ORG_MESSAGES.parentNotTopLevel, code: 'PARENT_NOT_TOP_LEVEL' },
    })
    const other = await create()
    expect(await save({ id: other, parent_id: child })).toEqual({
      status: 400,
      body: { error: true, message: ORG_MESSAGES.parentNotTopLevel, code: 'PARENT_NOT_TOP_LEVEL' },
    })
    // An event with children goes under another event: a chain, taken before.
    const top = await create()
    expect(await save({ id: fest, parent_id: top })).toEqual({
      status: 409,
      body: { error: true, message: ORG_MESSAGES.parentOfChildren, code: 'PARENT_OF_CHILDREN' },
    })
    // A loop of two: refused, nothing changed.
    expect((await save({ id: fest, parent_id: child })).status).toBe(400)
    expect([await parentOf(fest), await parentOf(child), await parentOf(top)]).toEqual([null, fest, null])
    // Moving a child to another top-level parent, and back to top level, is fine.
    expect((await save({ id: child, parent_id: top })).status).toBe(200)
    expect((await save({ id: child, parent_id: null })).status).toBe(200)
    expect((await save({ id: fest, parent_id: top })).status).toBe(200) // fest has no children now
    expect(await chains()).toBe(0)

    // The importer, over the same database: the same rule.
    const [festRow] = await t.database.db.select({ slug: schema.events.slug }).from(schema.events).where(eq(schema.events.id, fest))
    const error = await importCatalogue(t.database.db, {
      events: [{ slug: `grand-${kind}`, name: 'Grandchild', dates: ['2026-12-01T10:00:00+05:30'], organizer: slug, parent: festRow!.slug }],
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CatalogueError)
    expect(String((error as Error).message)).toContain('is itself a child event; a parent must be a top-level event')
  })

  it('the database itself holds the rule, whoever writes: a child of a child is refused by the trigger', async () => {
    const fest = await create()
    const child = await create(fest)
    const [{ id: loose }] = await t.database.db
      .insert(schema.events)
      .values({ slug: `loose-${kind}-${n}`, name: 'Loose', organizerId: council })
      .returning({ id: schema.events.id })
    await expect(t.database.db.update(schema.events).set({ parentId: child }).where(eq(schema.events.id, loose))).rejects.toThrow()
    await expect(t.database.db.update(schema.events).set({ parentId: loose }).where(eq(schema.events.id, fest))).rejects.toThrow()
    expect(await parentOf(loose)).toBeNull()
  })

  it('saves racing to make a chain (A under B while B goes under C, twenty times at once): never a chain', async () => {
    const pairs = await Promise.all(Array.from({ length: 20 }, async () => [await create(), await create(), await create()] as const))
    const answers = await Promise.all(pairs.flatMap(([a, b, c]) => [save({ id: a, parent_id: b }), save({ id: b, parent_id: c })]))
    expect(answers.filter((r) => r.status >= 500)).toEqual([])
    for (let i = 0; i < pairs.length; i++) {
      const both = [answers[2 * i]!.status, answers[2 * i + 1]!.status]
      // One of the two wins (or both are refused, never both taken).
      expect(both, JSON.stringify(both)).not.toEqual([200, 200])
    }
    expect(await chains()).toBe(0)
    expect((await t.database.db.select({ id: schema.events.id }).from(schema.events).where(isNotNull(schema.events.parentId))).length).toBeGreaterThan(0)
  })
})
