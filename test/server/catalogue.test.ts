// The import format of API.md: everything validated before anything is written, upserts by slug, and the
// demo data (itself an import file) with what every screen needs.
import { existsSync, readFileSync, statSync } from 'node:fs'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CatalogueError, importCatalogue, isIsoDateTime, parseCatalogue } from '../../server/db/events/catalogue.ts'
import { DEMO_ANCHOR, daysSinceAnchor, demoCatalogue, loadDemoCatalogue, seedDemoData, shiftDate } from '../../server/db/demo.ts'
import { schema, type Database } from '../../server/db/index.ts'
import { testDatabase } from './helpers.ts'

const { councils, events } = schema

const council = (slug: string, extra: Record<string, unknown> = {}) => ({
  slug,
  name: `Council ${slug}`,
  photo_url: `/demo/${slug}.svg`,
  phone_number: '9820011223',
  email: `${slug}@example.edu`,
  ...extra,
})
const event = (slug: string, extra: Record<string, unknown> = {}) => ({
  slug,
  name: `Event ${slug}`,
  dates: ['2026-11-25T10:00:00+05:30'],
  organizer: 'csi',
  ...extra,
})

async function counts(db: Database['db']) {
  const [c] = await db.select({ n: sql<number>`count(*)::int` }).from(councils)
  const [e] = await db.select({ n: sql<number>`count(*)::int` }).from(events)
  return { councils: Number(c.n), events: Number(e.n) }
}

/** The problems of a refused import, with proof that it wrote nothing. */
async function problemsOf(db: Database['db'], data: unknown): Promise<string[]> {
  const before = await counts(db)
  const err = await importCatalogue(db, data).then(
    () => null,
    (e) => e,
  )
  expect(err).toBeInstanceOf(CatalogueError)
  expect(err.message).toMatch(/nothing was written/)
  expect(await counts(db)).toEqual(before)
  return err.problems
}

describe('importCatalogue', () => {
  let database: Database
  beforeAll(async () => {
    database = await testDatabase()
  })
  afterAll(() => database.close())
  beforeEach(async () => {
    await database.db.execute(sql`TRUNCATE councils, events RESTART IDENTITY CASCADE`)
  })

  it('issue 25: rotating_codes (default true) and transfer_closes_minutes (default null) import, and a re-import sets them again', async () => {
    await importCatalogue(database.db, {
      councils: [council('csi')],
      events: [event('fest'), event('gala', { rotating_codes: false, transfer_closes_minutes: 90 })],
    })
    const read = async () =>
      Object.fromEntries((await database.db.select().from(events)).map((r) => [r.slug, { rotating: r.rotatingCodes, closes: r.transferClosesMinutes }]))
    expect(await read()).toEqual({ fest: { rotating: true, closes: null }, gala: { rotating: false, closes: 90 } })
    await importCatalogue(database.db, { councils: [council('csi')], events: [event('fest'), event('gala')] })
    expect(await read()).toEqual({ fest: { rotating: true, closes: null }, gala: { rotating: true, closes: null } })
    const problems = await problemsOf(database.db, {
      councils: [council('csi')],
      events: [event('fest', { rotating_codes: 'yes' }), event('gala', { transfer_closes_minutes: 10081 })],
    })
    expect(problems).toEqual([
      expect.stringMatching(/^events\[0\] "fest"\.rotating_codes: must be true or false$/),
      expect.stringMatching(/^events\[1\] "gala"\.transfer_closes_minutes: must be a whole number of minutes from 0 to 10080, or null$/),
    ])
  })

  it('creates councils and events, parents before children, and answers the id map', async () => {
    const result = await importCatalogue(database.db, {
      councils: [council('csi')],
      // The child comes first in the file: the import must still create the parent first.
      events: [event('child', { parent: 'fest' }), event('fest', { tags: ['Tech'], fee: 250, ma_ppt: 3 })],
    })
    const rows = await database.db.select().from(events)
    const bySlug = Object.fromEntries(rows.map((r) => [r.slug, r]))
    expect(result).toEqual({ councils: { csi: expect.any(Number) }, events: { fest: bySlug.fest.id, child: bySlug.child.id } })
    expect(bySlug.child.parentId).toBe(bySlug.fest.id)
    expect(bySlug.fest).toMatchObject({
      organizerId: result.councils.csi,
      parentId: null,
      state: 'UPCOMING',
      fee: 250,
      maPpt: 3,
      tags: ['Tech'],
      description: '',
      longDescription: '',
      registrationType: 'ONPLATFORM',
      isTicketFeatureEnabled: false,
      ticketCount: 0,
      ticketsSold: 0,
    })
  })

  it('is idempotent by slug, updates changed fields and keeps tickets already claimed', async () => {
    const file = {
      councils: [council('csi')],
      events: [event('gig', { state: 'TICKET_OPEN', is_ticket_feature_enabled: true, ticket_count: 50 })],
    }
    const first = await importCatalogue(database.db, file)
    const again = await importCatalogue(database.db, file)
    expect(again).toEqual(first)
    expect(await counts(database.db)).toEqual({ councils: 1, events: 1 })

    await database.db.update(events).set({ ticketsSold: 7 }).where(eq(events.slug, 'gig'))
    const changed = {
      councils: [council('csi', { name: 'CSI-KJSCE' })],
      events: [event('gig', { state: 'TICKET_CLOSED', is_ticket_feature_enabled: true, ticket_count: 60, venue: 'OAT' })],
    }
    expect(await importCatalogue(database.db, changed)).toEqual(first)
    const [row] = await database.db.select().from(events)
    expect(row).toMatchObject({ state: 'TICKET_CLOSED', ticketCount: 60, venue: 'OAT', ticketsSold: 7 })
    const [c] = await database.db.select().from(councils)
    expect(c.name).toBe('CSI-KJSCE')
  })

  it('accepts references to councils and parents already in the database', async () => {
    await importCatalogue(database.db, { councils: [council('csi')], events: [event('fest')] })
    const result = await importCatalogue(database.db, { events: [event('late-child', { parent: 'fest' })] })
    const [child] = await database.db.select().from(events).where(eq(events.slug, 'late-child'))
    const [fest] = await database.db.select().from(events).where(eq(events.slug, 'fest'))
    expect(child.parentId).toBe(fest.id)
    expect(result).toEqual({ councils: {}, events: { 'late-child': child.id } })
  })

  it.each<[string, unknown, string]>([
    ['a non-object file', [1, 2], 'the file must hold a JSON object: {"councils": [...], "events": [...]}'],
    ['an unknown top-level field', { councils: [], events: [], users: [] }, 'unknown top-level field(s) users: only "councils" and "events" are read'],
    ['councils not a list', { councils: {} }, 'councils: must be a list'],
    [
      'a bad slug',
      { councils: [council('CSI Council')] },
      'councils[0] "CSI Council".slug: must be a slug: lower-case letters, digits and hyphens, at most 80 characters, e.g. "tech-fest"',
    ],
    ['a council without name', { councils: [council('csi', { name: '  ' })] }, 'councils[0] "csi".name: is required'],
    [
      'a 9-digit phone',
      { councils: [council('csi', { phone_number: '982001122' })] },
      'councils[0] "csi".phone_number: must be exactly 10 digits, without +91',
    ],
    [
      'a +91 phone',
      { councils: [council('csi', { phone_number: '+919820011223' })] },
      'councils[0] "csi".phone_number: must be exactly 10 digits, without +91',
    ],
    ['a bad e-mail', { councils: [council('csi', { email: 'csi-at-example' })] }, 'councils[0] "csi".email: must be an e-mail address'],
    [
      'a javascript: photo',
      { councils: [council('csi', { photo_url: 'javascript:alert(1)' })] },
      'councils[0] "csi".photo_url: must be an http(s) URL or a path starting with /',
    ],
    ['a typo in a field name', { councils: [council('csi')], events: [event('e', { ma_pt: 2 })] }, 'events[0] "e": has unknown field(s) ma_pt'],
    [
      'an unknown state',
      { councils: [council('csi')], events: [event('e', { state: 'DRAFT' })] },
      'events[0] "e".state: must be one of UPCOMING, REGISTRATION_OPEN, REGISTRATION_CLOSED, TICKET_OPEN, TICKET_CLOSED, ONGOING, COMPLETED',
    ],
    ['a negative fee', { councils: [council('csi')], events: [event('e', { fee: -1 })] }, 'events[0] "e".fee: must be a whole number of rupees, 0 or more'],
    ['a fee in paise', { councils: [council('csi')], events: [event('e', { fee: 99.5 })] }, 'events[0] "e".fee: must be a whole number of rupees, 0 or more'],
    ['a fee as text', { councils: [council('csi')], events: [event('e', { fee: '100' })] }, 'events[0] "e".fee: must be a whole number of rupees, 0 or more'],
    [
      'ma_ppt 0',
      { councils: [council('csi')], events: [event('e', { ma_ppt: 0 })] },
      'events[0] "e".ma_ppt: must be a whole number, 1 or more (1 means an individual event)',
    ],
    [
      'a negative ticket_count',
      { councils: [council('csi')], events: [event('e', { ticket_count: -5 })] },
      'events[0] "e".ticket_count: must be a whole number, 0 or more',
    ],
    ['no dates', { councils: [council('csi')], events: [event('e', { dates: [] })] }, 'events[0] "e".dates: must list at least one date-time'],
    [
      'a date without offset',
      { councils: [council('csi')], events: [event('e', { dates: ['2026-11-25T10:00:00'] })] },
      'events[0] "e".dates[0]: must be an ISO date-time with an offset, e.g. 2026-03-14T10:00:00+05:30',
    ],
    [
      '30 February',
      { councils: [council('csi')], events: [event('e', { dates: ['2026-02-30T10:00:00+05:30'] })] },
      'events[0] "e".dates[0]: must be an ISO date-time with an offset, e.g. 2026-03-14T10:00:00+05:30',
    ],
    [
      'a date as a number',
      { councils: [council('csi')], events: [event('e', { dates: [1700000000000] })] },
      'events[0] "e".dates[0]: must be an ISO date-time',
    ],
    [
      'a flag as text',
      { councils: [council('csi')], events: [event('e', { is_ticket_feature_enabled: 'yes' })] },
      'events[0] "e".is_ticket_feature_enabled: must be true or false',
    ],
    [
      'EXTERNAL without a link',
      { councils: [council('csi')], events: [event('e', { registration_type: 'EXTERNAL' })] },
      'events[0] "e".external_registration_link: is required when registration_type is EXTERNAL',
    ],
    [
      'an activity without a link',
      { councils: [council('csi')], events: [event('e', { start_in_event_activity: true })] },
      'events[0] "e".in_event_activity: is required when start_in_event_activity is true',
    ],
    [
      'a missing organizer',
      { councils: [council('csi')], events: [{ slug: 'e', name: 'E', dates: ['2026-11-25T10:00:00Z'] }] },
      'events[0] "e".organizer: is required',
    ],
    [
      'an unknown organizer',
      { councils: [council('csi')], events: [event('e', { organizer: 'nope' })] },
      'events[0] "e".organizer: no council with slug "nope" in the file or the database (valid council slugs: csi)',
    ],
    [
      'an unknown parent',
      { councils: [council('csi')], events: [event('e', { parent: 'nope' })] },
      'events[0] "e".parent: no event with slug "nope" in the file or the database',
    ],
    ['its own parent', { councils: [council('csi')], events: [event('e', { parent: 'e' })] }, 'events[0] "e".parent: an event cannot be its own parent'],
    [
      'a grandchild',
      { councils: [council('csi')], events: [event('a'), event('b', { parent: 'a' }), event('c', { parent: 'b' })] },
      'events[2] "c".parent: "b" is itself a child event; a parent must be a top-level event',
    ],
    [
      'a cycle',
      { councils: [council('csi')], events: [event('a', { parent: 'b' }), event('b', { parent: 'a' })] },
      'events[0] "a".parent: "b" is itself a child event; a parent must be a top-level event',
    ],
    ['a duplicate council slug', { councils: [council('csi'), council('csi')] }, 'councils[1] "csi": the slug appears twice in the file'],
    ['a duplicate event slug', { councils: [council('csi')], events: [event('e'), event('e')] }, 'events[1] "e": the slug appears twice in the file'],
  ])('refuses %s, naming the item and field, and writes nothing', async (_what, data, problem) => {
    expect(await problemsOf(database.db, data)).toContain(problem)
  })

  it('reports every problem of the file at once, including references of items with other problems', async () => {
    const problems = await problemsOf(database.db, {
      councils: [council('csi'), council('bad', { email: 'x' })],
      events: [event('ok'), event('e1', { fee: -1, organizer: 'ghost' }), event('e2', { ma_ppt: 0, parent: 'nowhere' })],
    })
    expect(problems).toEqual([
      'councils[1] "bad".email: must be an e-mail address',
      'events[1] "e1".fee: must be a whole number of rupees, 0 or more',
      'events[2] "e2".ma_ppt: must be a whole number, 1 or more (1 means an individual event)',
      'events[1] "e1".organizer: no council with slug "ghost" in the file or the database (valid council slugs: bad, csi)',
      'events[2] "e2".parent: no event with slug "nowhere" in the file or the database',
    ])
  })

  it('refuses to lower ticket_count below the tickets already claimed', async () => {
    const file = (n: number) => ({ councils: [council('csi')], events: [event('gig', { is_ticket_feature_enabled: true, ticket_count: n })] })
    await importCatalogue(database.db, file(20))
    await database.db.update(events).set({ ticketsSold: 12 }).where(eq(events.slug, 'gig'))
    expect(await problemsOf(database.db, file(10))).toEqual(['events[0] "gig".ticket_count: 10 is below the 12 tickets already claimed'])
    const [row] = await database.db.select().from(events)
    expect(row.ticketCount).toBe(20)
  })

  it('refuses to make a stored parent into a child', async () => {
    await importCatalogue(database.db, { councils: [council('csi')], events: [event('fest'), event('talk', { parent: 'fest' }), event('other')] })
    const problems = await problemsOf(database.db, { events: [event('fest', { parent: 'other' })] })
    expect(problems).toEqual(['events[0] "fest".parent: this event has child events, so it must stay top-level'])
  })

  it('parses without a database: parseCatalogue reports shape problems only', () => {
    expect(parseCatalogue({ councils: [council('csi')], events: [event('e', { organizer: 'elsewhere' })] }).problems).toEqual([])
  })
})

describe('isIsoDateTime', () => {
  it.each([
    ['2026-11-25T10:00:00+05:30', true],
    ['2026-11-25T10:00+05:30', true],
    ['2026-11-25T04:30:00.000Z', true],
    ['2028-02-29T10:00:00Z', true],
    ['2026-02-29T10:00:00Z', false],
    ['2026-13-01T10:00:00Z', false],
    ['2026-11-25T24:00:00Z', false],
    ['2026-11-25 10:00:00+05:30', false],
    ['2026-11-25', false],
    ['25/11/2026 10:00', false],
  ])('%s → %s', (s, ok) => expect(isIsoDateTime(s)).toBe(ok))
})

describe('demo data', () => {
  it('moves dates by whole days in Asia/Kolkata, keeping the time of day', () => {
    expect(shiftDate('2026-11-21T18:30:00+05:30', 3)).toBe('2026-11-24T18:30:00+05:30')
    expect(shiftDate('2026-11-21T00:15:00+05:30', -30)).toBe('2026-10-22T00:15:00+05:30')
    // 22:00 UTC on the 20th is already the 21st in Kolkata: zero days from the anchor.
    expect(daysSinceAnchor(new Date('2026-11-20T22:00:00Z'))).toBe(0)
    expect(daysSinceAnchor(new Date('2026-11-20T18:00:00Z'))).toBe(-1)
    expect(daysSinceAnchor(new Date('2027-01-01T06:00:00Z'))).toBe(41)
  })

  it('is a valid import file whose dates, once moved, sit around today', () => {
    expect(parseCatalogue(loadDemoCatalogue()).problems).toEqual([])
    const now = new Date('2027-03-10T06:00:00Z')
    const dates = demoCatalogue(now).events.flatMap((e) => e.dates.map((d) => Date.parse(d)))
    const day = 86_400_000
    expect(Math.min(...dates)).toBeGreaterThan(now.getTime() - 20 * day)
    expect(Math.max(...dates)).toBeLessThan(now.getTime() + 30 * day)
    // The calendar has dots on today's date.
    const today = '2027-03-10'
    expect(demoCatalogue(now).events.some((e) => e.dates.some((d) => d.startsWith(today)))).toBe(true)
  })

  describe('seedDemoData', () => {
    let database: Database
    let first: Awaited<ReturnType<typeof seedDemoData>>
    beforeAll(async () => {
      database = await testDatabase()
      first = await seedDemoData(database.db)
    })
    afterAll(() => database.close())

    it('imports once, into an empty catalogue only', async () => {
      expect(first).not.toBeNull()
      const before = await counts(database.db)
      expect(await seedDemoData(database.db)).toBeNull()
      expect(await counts(database.db)).toEqual(before)
    })

    it('has 4-5 councils with 10-digit phones and e-mails', async () => {
      const rows = await database.db.select().from(councils)
      expect(rows.length).toBeGreaterThanOrEqual(4)
      expect(rows.length).toBeLessThanOrEqual(5)
      for (const c of rows) {
        expect(c.phoneNumber).toMatch(/^\d{10}$/)
        expect(c.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/)
      }
    })

    it('has what every screen needs', async () => {
      const rows = await database.db.select().from(events)
      const states = new Set(rows.map((e) => e.state))
      expect([...states].sort()).toEqual(
        ['COMPLETED', 'ONGOING', 'REGISTRATION_CLOSED', 'REGISTRATION_OPEN', 'TICKET_CLOSED', 'TICKET_OPEN', 'UPCOMING'].sort(),
      )
      const childrenOf = (id: number) => rows.filter((e) => e.parentId === id)
      expect(rows.some((e) => e.parentId === null && childrenOf(e.id).length >= 2 && childrenOf(e.id).length <= 3)).toBe(true)
      expect(rows.some((e) => e.maPpt > 1 && e.state === 'REGISTRATION_OPEN')).toBe(true)
      expect(rows.some((e) => e.maPpt > 1 && e.state !== 'REGISTRATION_OPEN')).toBe(true)
      expect(rows.some((e) => e.maPpt === 1 && e.state === 'REGISTRATION_OPEN')).toBe(true)
      const ticketed = rows.filter((e) => e.state === 'TICKET_OPEN' && e.isTicketFeatureEnabled)
      expect(ticketed.some((e) => e.ticketsSold < e.ticketCount)).toBe(true)
      expect(ticketed.some((e) => e.ticketCount > 0 && e.ticketsSold === e.ticketCount)).toBe(true)
      expect(rows.some((e) => e.state === 'ONGOING' && e.registrationType === 'EXTERNAL' && e.externalRegistrationLink)).toBe(true)
      expect(rows.some((e) => e.state === 'ONGOING' && e.startInEventActivity && e.inEventActivity)).toBe(true)
      expect(rows.some((e) => e.fee === 0) && rows.some((e) => e.fee > 0)).toBe(true)
      expect(rows.some((e) => e.tags.includes('Tech'))).toBe(true)
    })

    it('every ticket counted is a ticket held (tickets_sold is kept by the database, migration 0004)', async () => {
      const held = await database.db.execute(
        sql`SELECT e.slug, e.tickets_sold, (SELECT count(*) FROM participants p WHERE p.event_id = e.id AND p.ticket_collected)::int AS held FROM events e WHERE e.tickets_sold > 0 ORDER BY e.slug`,
      )
      const rows = ((held as { rows?: unknown[] }).rows ?? held) as { slug: string; tickets_sold: number; held: number }[]
      expect(rows.length).toBeGreaterThanOrEqual(2)
      for (const r of rows) expect(r.held, r.slug).toBe(r.tickets_sold)
    })

    it('uses only local images that exist, are small and have width and height', async () => {
      const urls = [
        ...(await database.db.select({ u: councils.photoUrl }).from(councils)).map((r) => r.u),
        ...(await database.db.select({ a: events.eventPageImageUrl, b: events.bannerUrl }).from(events)).flatMap((r) => [r.a, r.b]),
      ]
      for (const url of new Set(urls)) {
        expect(url).toMatch(/^\/demo\/[a-z0-9-]+\.svg$/)
        const file = new URL(`../../public${url}`, import.meta.url)
        expect(existsSync(file), url!).toBe(true)
        expect(statSync(file).size).toBeLessThan(1536)
        expect(readFileSync(file, 'utf8')).toMatch(/^<svg [^>]*width="\d+" height="\d+"/)
      }
    })

    it('was written around DEMO_ANCHOR', () => {
      const anchorDay = loadDemoCatalogue()
        .events.flatMap((e) => e.dates)
        .filter((d) => d.startsWith(DEMO_ANCHOR))
      expect(anchorDay.length).toBeGreaterThan(0)
    })
  })
})
