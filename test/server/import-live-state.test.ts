// Issue 10, item 6: operator import never silently undoes live state. Re-importing a file must not move an event
// students take part in to another state, or clear its images, unless the operator passes --force; the refusal
// names the events and writes nothing. Item 7: the import refuses a link whose normalised form leaves the origin.
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { CliError, runCommand } from '../../server/cli/commands.ts'
import { CatalogueError, importCatalogue, isLink } from '../../server/db/events/catalogue.ts'
import { schema, type Database } from '../../server/db/index.ts'
import { accessTokens } from '../../server/auth/tokens.ts'
import { DB_KINDS, testDatabase } from './helpers.ts'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const { events } = schema
const council = { slug: 'csi', name: 'CSI', photo_url: '/demo/csi.svg', phone_number: '9820011223', email: 'csi@example.edu' }
const gig = (extra: Record<string, unknown> = {}) => ({
  slug: 'gig',
  name: 'Gig',
  dates: ['2026-11-25T10:00:00+05:30'],
  organizer: 'csi',
  state: 'TICKET_CLOSED',
  is_ticket_feature_enabled: true,
  ticket_count: 10,
  event_page_image_url: '/demo/gig.png',
  banner_url: '/demo/gig-banner.png',
  ...extra,
})
const quiet = (extra: Record<string, unknown> = {}) => ({ slug: 'quiet', name: 'Quiet', dates: ['2026-11-25T10:00:00+05:30'], organizer: 'csi', ...extra })

describe.each(DB_KINDS)('re-import over live events on %s', (kind) => {
  let database: Database
  beforeAll(async () => {
    database = await testDatabase(kind)
  })
  afterAll(() => database.close())
  beforeEach(async () => {
    await database.db.execute(sql`TRUNCATE councils, events, users RESTART IDENTITY CASCADE`)
    await importCatalogue(database.db, { councils: [council], events: [gig(), quiet()] })
    const [gigRow] = await database.db.select({ id: events.id }).from(events).where(eq(events.slug, 'gig'))
    // Two students hold tickets for the gig (the trigger keeps tickets_sold at 2).
    for (const n of [1, 2]) {
      const [u] = await database.db
        .insert(schema.users)
        .values({ issuer: 'test', subject: `s${n}`, email: `s${n}@example.edu`, name: `S${n}` })
        .returning({ id: schema.users.id })
      await database.db.insert(schema.participants).values({ eventId: gigRow.id, userId: u.id, ticketCollected: true, ticketCode: `CODE${n}` })
    }
  })
  const gigNow = async () => (await database.db.select().from(events).where(eq(events.slug, 'gig')))[0]

  it('a file that would reset the state and clear the image of an event with ticket holders is refused, naming the event', async () => {
    const err = await importCatalogue(database.db, {
      councils: [council],
      events: [gig({ state: 'REGISTRATION_OPEN', event_page_image_url: null }), quiet({ state: 'REGISTRATION_OPEN' })],
    }).catch((e) => e)
    expect(err).toBeInstanceOf(CatalogueError)
    expect(err.problems).toEqual([
      'event "gig" has 2 participants: the file would change its state from TICKET_CLOSED to REGISTRATION_OPEN and would clear its event_page_image_url (run the import with --force to apply it anyway)',
    ])
    // Nothing was written, the event without participants included.
    expect(await gigNow()).toMatchObject({ state: 'TICKET_CLOSED', eventPageImageUrl: '/demo/gig.png', ticketsSold: 2 })
    const [q] = await database.db.select().from(events).where(eq(events.slug, 'quiet'))
    expect(q.state).toBe('UPCOMING')
  })

  it('the same file again (no change to live state) still imports', async () => {
    await importCatalogue(database.db, { councils: [council], events: [gig({ venue: 'OAT' }), quiet()] })
    expect(await gigNow()).toMatchObject({ state: 'TICKET_CLOSED', venue: 'OAT', ticketsSold: 2 })
  })

  it('lowering ticket_count below the tickets held is refused, even with --force', async () => {
    for (const force of [false, true]) {
      const err = await importCatalogue(database.db, { councils: [council], events: [gig({ ticket_count: 1 })] }, { force }).catch((e) => e)
      expect(err).toBeInstanceOf(CatalogueError)
      expect(err.problems).toEqual(['events[0] "gig".ticket_count: 1 is below the 2 tickets already claimed'])
    }
  })

  it('with --force the operator applies it', async () => {
    await importCatalogue(database.db, { councils: [council], events: [gig({ state: 'TICKET_OPEN', banner_url: null })] }, { force: true })
    expect(await gigNow()).toMatchObject({ state: 'TICKET_OPEN', bannerUrl: null, ticketsSold: 2 })
  })

  it('the CLI refuses without --force and applies with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'campus-import-'))
    const file = join(dir, 'file.json')
    writeFileSync(file, JSON.stringify({ councils: [council], events: [gig({ state: 'UPCOMING' })] }))
    const ctx = { db: database.db, tokens: accessTokens(new TextEncoder().encode('x')) }
    const err = await runCommand(['import', file], ctx).catch((e) => e)
    expect(err).toBeInstanceOf(CliError)
    expect(err.message).toMatch(/event "gig" has 2 participants.*--force/)
    expect((await gigNow()).state).toBe('TICKET_CLOSED')
    await runCommand(['import', file, '--force'], ctx)
    expect((await gigNow()).state).toBe('UPCOMING')
  })
})

describe('links that leave the origin once normalised', () => {
  it.each([
    ['/\t/evil.example/x', 'a tab a browser drops'],
    ['/\n/evil.example', 'a newline'],
    ['//evil.example', 'a protocol-relative link'],
    ['/\\evil.example', 'a backslash (read as a slash)'],
    ['/%09/x\u0000', 'a NUL'],
    ['https://evil.example/\u0007', 'a control character in a URL'],
    ['javascript:alert(1)', 'another scheme'],
    ['https:///x', 'no host'],
  ])('refused: %j (%s)', (link) => {
    expect(isLink(link)).toBe(false)
  })
  it.each(['/demo/logo.svg', '/activity/quiz?round=1', 'https://example.edu/page', 'http://example.edu'])('accepted: %s', (link) => {
    expect(isLink(link)).toBe(true)
  })
  it('the import names the field', async () => {
    const database = await testDatabase()
    try {
      const err = await importCatalogue(database.db, {
        councils: [council],
        events: [quiet({ start_in_event_activity: true, in_event_activity: '/\t/evil.example' })],
      }).catch((e) => e)
      expect(err).toBeInstanceOf(CatalogueError)
      expect(err.problems).toEqual(['events[0] "quiet".in_event_activity: must be an http(s) URL or a path starting with /'])
    } finally {
      await database.close()
    }
  })
})
