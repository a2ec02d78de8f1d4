// The personal calendar feed (issue 13 "Calendar", API.md Part 2): the secret URL from POST /user/p/calendar, the
// feed parsed by an independent iCalendar parser (ical.js): TZID Asia/Kolkata with its VTIMEZONE, one VEVENT per
// date of a multi-day event, stable UIDs and a rising SEQUENCE so an update replaces, cancelled registrations and
// drafts left out; the secret rotated kills the old URL; unknown secrets answer 404; the RFC 5545 line rules hold.
import ICAL from 'ical.js'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { escapeText, fold } from '../../server/feeds/ics.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

describe.each(DB_KINDS)('the calendar feed on %s', (kind) => {
  let t: TestApp
  let council: number
  beforeAll(async () => {
    t = await testApp({ kind })
    ;[{ id: council }] = await t.database.db
      .insert(schema.councils)
      .values({ slug: `c-${kind}`, name: 'IEEE, KJSCE' })
      .returning({ id: schema.councils.id })
  }, 180_000)
  afterAll(() => t.close())

  let n = 0
  async function event(fields: Partial<typeof schema.events.$inferInsert> = {}) {
    n += 1
    const [row] = await t.database.db
      .insert(schema.events)
      .values({
        slug: `feed-${kind}-${n}`,
        name: `Event ${n}`,
        organizerId: council,
        state: 'REGISTRATION_OPEN',
        dates: ['2026-12-05T18:30:00+05:30'],
        ...fields,
      })
      .returning({ id: schema.events.id })
    return row.id
  }
  const register = (eventId: number, userId: number) => t.database.db.insert(schema.participants).values({ eventId, userId })

  async function feedUrl(auth: { authorization: string }, body: unknown = {}) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/p/calendar',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    })
    expect(res.statusCode, res.body).toBe(200)
    return res.json().url as string
  }
  const get = (url: string) => t.app.inject({ method: 'GET', url: new URL(url).pathname })
  function parse(text: string) {
    const calendar = new ICAL.Component(ICAL.parse(text))
    return { calendar, events: calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v)) }
  }

  it('gives a stable secret URL under the API, and the feed lists each date of the events the student registered for', async () => {
    const student = await t.student({ name: 'Asha Rao' })
    const single = await event({ name: 'Code, Chai; and \\ more', description: 'Line one\nLine two', venue: 'Room 101, Block B' })
    const festival = await event({
      name: 'Techfest',
      dates: ['2026-12-10T09:00:00+05:30', '2026-12-11T09:00:00+05:30', '2026-12-12T10:00:00+05:30'],
      endsAt: new Date('2026-12-12T17:00:00+05:30'),
    })
    const notMine = await event({ name: 'Not mine' })
    for (const id of [single, festival]) await register(id, student.id)

    const url = await feedUrl(student.auth)
    expect(url).toMatch(/^http:\/\/app\.test\/api\/v1\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)
    expect(await feedUrl(student.auth)).toBe(url)
    expect(await feedUrl(student.auth, true)).toBe(url)

    const res = await get(url)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8')
    expect(res.body.endsWith('\r\n')).toBe(true)
    expect(res.body.replace(/\r\n/g, '')).not.toMatch(/\n/)
    for (const line of res.body.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75)

    const { calendar, events } = parse(res.body)
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0')
    const zone = calendar.getFirstSubcomponent('vtimezone')!
    expect(zone.getFirstPropertyValue('tzid')).toBe('Asia/Kolkata')
    ICAL.TimezoneService.register(zone)

    expect(events.map((e) => e.summary)).toEqual(['Code, Chai; and \\ more', 'Techfest (day 1 of 3)', 'Techfest (day 2 of 3)', 'Techfest (day 3 of 3)'])
    expect(events.some((e) => e.summary === 'Not mine' || e.uid.includes(`event-${notMine}-`))).toBe(false)
    const first = events[0]
    expect(first.description).toBe(`Line one\nLine two\n\nhttp://app.test/event-details/${single}`)
    expect(first.location).toBe('Room 101, Block B')
    expect(first.component.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('Asia/Kolkata')
    expect(first.startDate.zone?.tzid).toBe('Asia/Kolkata')
    expect(first.startDate.toString()).toBe('2026-12-05T18:30:00')
    expect(first.startDate.toJSDate().toISOString()).toBe('2026-12-05T13:00:00.000Z')
    expect(first.endDate.toJSDate().toISOString()).toBe('2026-12-05T14:00:00.000Z')
    // Each day of the festival its own occurrence; the last ends at the event's end.
    const days = events.slice(1)
    expect(days.map((e) => e.startDate.toString())).toEqual(['2026-12-10T09:00:00', '2026-12-11T09:00:00', '2026-12-12T10:00:00'])
    expect(days.map((e) => e.endDate.toString())).toEqual(['2026-12-10T10:00:00', '2026-12-11T10:00:00', '2026-12-12T17:00:00'])
    expect(new Set(events.map((e) => e.uid)).size).toBe(4)
    expect(days.map((e) => e.uid)).toEqual([0, 1, 2].map((i) => `event-${festival}-${i}@app.test`))
    for (const e of events) {
      expect(e.component.getFirstPropertyValue('dtstamp')).toBeTruthy()
      expect(e.component.getFirstPropertyValue('last-modified')).toBeTruthy()
    }
  })

  it('an update keeps the UIDs and raises SEQUENCE and LAST-MODIFIED, so it replaces the event; a cancelled registration and a draft leave the feed', async () => {
    const student = await t.student()
    const a = await event({ name: 'Workshop' })
    const b = await event({ name: 'Talk' })
    for (const id of [a, b]) await register(id, student.id)
    const url = await feedUrl(student.auth)
    const before = parse((await get(url)).body).events
    const workshop = before.find((e) => e.summary === 'Workshop')!

    await t.database.db
      .update(schema.events)
      .set({ name: 'Workshop (moved)', dates: ['2026-12-06T11:00:00+05:30'] })
      .where(eq(schema.events.id, a))
    // A ticket sold elsewhere changes nothing the feed shows: no new revision.
    await t.database.db.update(schema.events).set({ ticketCount: 50 }).where(eq(schema.events.id, b))
    const after = parse((await get(url)).body).events
    const moved = after.find((e) => e.uid === workshop.uid)!
    expect(moved.summary).toBe('Workshop (moved)')
    expect(moved.startDate.toString()).toBe('2026-12-06T11:00:00')
    expect(moved.sequence).toBeGreaterThan(workshop.sequence)
    const lastModified = (e: ICAL.Event) => (e.component.getFirstPropertyValue('last-modified') as ICAL.Time).toJSDate().getTime()
    expect(lastModified(moved)).toBeGreaterThanOrEqual(lastModified(workshop))
    expect(after.filter((e) => e.uid === workshop.uid)).toHaveLength(1)
    const talk = (list: ICAL.Event[]) => list.find((e) => e.summary === 'Talk')!
    expect(talk(after).sequence).toBe(talk(before).sequence)

    await t.database.db.delete(schema.participants).where(eq(schema.participants.eventId, b))
    await t.database.db.update(schema.events).set({ state: 'DRAFT' }).where(eq(schema.events.id, a))
    expect(parse((await get(url)).body).events).toEqual([])
  })

  it('each date ends at its own end time when it has one (issue 22 item 7), and a new end time raises SEQUENCE', async () => {
    const student = await t.student()
    const fest = await event({
      name: 'Hackathon',
      dates: ['2026-12-10T09:00:00+05:30', '2026-12-11T18:00:00+05:30', '2026-12-12T10:00:00+05:30'],
      // The second day runs overnight; the third has no end time (one hour, as before).
      dateEnds: ['2026-12-10T17:30:00+05:30', '2026-12-12T02:00:00+05:30', null],
    })
    await register(fest, student.id)
    const url = await feedUrl(student.auth)
    const before = parse((await get(url)).body).events
    expect(before.map((e) => [e.startDate.toString(), e.endDate.toString()])).toEqual([
      ['2026-12-10T09:00:00', '2026-12-10T17:30:00'],
      ['2026-12-11T18:00:00', '2026-12-12T02:00:00'],
      ['2026-12-12T10:00:00', '2026-12-12T11:00:00'],
    ])
    await t.database.db
      .update(schema.events)
      .set({ dateEnds: ['2026-12-10T17:30:00+05:30', '2026-12-12T02:00:00+05:30', '2026-12-12T16:00:00+05:30'] })
      .where(eq(schema.events.id, fest))
    const after = parse((await get(url)).body).events
    expect(after[2].endDate.toString()).toBe('2026-12-12T16:00:00')
    expect(after[2].sequence).toBeGreaterThan(before[2].sequence)
  })

  it('rotating the secret kills the old URL; unknown or malformed secrets answer 404', async () => {
    const student = await t.student()
    const old = await feedUrl(student.auth)
    const fresh = await feedUrl(student.auth, { rotate: true })
    expect(fresh).not.toBe(old)
    expect((await get(fresh)).statusCode).toBe(200)
    const gone = await get(old)
    expect(gone.statusCode).toBe(404)
    expect(gone.json()).toMatchObject({ error: true, message: expect.stringContaining('Profile') })
    for (const path of ['/api/v1/calendar/nope.ics', `/api/v1/calendar/${'A'.repeat(43)}.ics`, '/api/v1/calendar/%00.ics']) {
      expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(404)
    }
    // Another student's feed is another URL.
    expect(await feedUrl((await t.student()).auth)).not.toBe(fresh)
  })

  it('refuses a rotate that is not a boolean, naming the field, and asks for a token', async () => {
    const student = await t.student()
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/p/calendar',
      headers: { ...student.auth, 'content-type': 'application/json' },
      payload: '{"rotate":"yes"}',
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toBe('rotate must be true or false')
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/user/p/calendar' })).statusCode).toBe(401)
  })
})

describe('RFC 5545 text', () => {
  it('folds at 75 octets without splitting a character, and escapes TEXT', () => {
    const line = `SUMMARY:${'नमस्ते '.repeat(20)}`
    const folded = fold(line).split('\r\n')
    for (const part of folded) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75)
    expect(folded.slice(1).every((p) => p.startsWith(' '))).toBe(true)
    expect(folded.map((p, i) => (i ? p.slice(1) : p)).join('')).toBe(line)
    expect(escapeText('a,b;c\\d\r\ne')).toBe('a\\,b\\;c\\\\d\\ne')
  })
})
