// Activity points (issue 26): the record follows the verified facts exactly. A check-in gives the event's points and
// its undo takes them away; a per-day event counts the event days the door scanned the ticket; a winner marked after
// the event (audited), the event's door volunteers and its council's organisers get their roles' points; a property
// test drives random sequences of check-ins, undos, winners and volunteers and compares with a model. Privacy: the
// record is the student's own (admins read any), an event's points only its organisers'. The CSV export, the
// below-target list, the transcript PDF and its codes at /verify.
import { fileURLToPath } from 'node:url'
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importCatalogue } from '../../server/db/events/catalogue.ts'
import { schema } from '../../server/db/index.ts'
import { finalYearOn, pointsRepository } from '../../server/db/points/points.ts'
import { doorPost, doorWorld, type DoorWorld } from './door-fixtures.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

const standardFontDataUrl = fileURLToPath(new URL('../../node_modules/pdfjs-dist/standard_fonts/', import.meta.url))

async function pdfText(data: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(data), useSystemFonts: false, isEvalSupported: false, standardFontDataUrl }).promise
  let text = ''
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent()
    text += `${content.items.map((item) => ('str' in item ? item.str : '')).join('\n')}\n`
  }
  await doc.destroy()
  return text
}

const POINTS = { category: 'Technical', points: 10, winner: 20, volunteer: 5, organiser: 8 }

describe.each(DB_KINDS)('activity points on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind })
  }, 180_000)
  afterAll(() => t.close())

  async function post(path: string, body: unknown, auth?: { authorization: string }) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1${path}`,
      headers: { 'content-type': 'application/json', ...auth },
      payload: JSON.stringify(body),
    })
    return { status: res.statusCode, body: res.json() }
  }
  const record = async (auth: { authorization: string }) => {
    const res = await post('/user/p/points', true, auth)
    expect(res.status).toBe(200)
    return res.body.record as {
      total: number
      target: number
      entries: { kind: string; points: number; days: number | null; event: { id: number } }[]
      by_category: { category: string; points: number }[]
    }
  }
  const totalOf = async (auth: { authorization: string }) => (await record(auth)).total

  /** A door world whose event gives POINTS (set by its organiser through the editor's call). */
  async function pointsWorld(extra: Record<string, unknown> = {}, state: 'ONGOING' | 'COMPLETED' = 'ONGOING'): Promise<DoorWorld> {
    const w = await doorWorld(t, { state })
    const saved = await post('/org/p/event/save', { id: w.eventId, activity_points: { ...POINTS, ...extra } }, w.users.organiser.auth)
    expect(saved.status).toBe(200)
    return w
  }
  const checkIn = (w: DoorWorld, code: string) =>
    doorPost(t, 'check-in', { event_id: w.eventId, ticket_code: code, scan_id: randomUUID(), gate: 'A' }, w.users.door.auth)
  const undo = (w: DoorWorld, code: string) => doorPost(t, 'check-in/undo', { event_id: w.eventId, ticket_code: code }, w.users.door.auth)

  it('the editor sets points and a category of the college’s list; an unknown category is a 400 naming the list, nothing changed', async () => {
    const w = await pointsWorld()
    const events = await post('/org/p/events', {}, w.users.organiser.auth)
    const ev = events.body.events.find((e: { id: number }) => e.id === w.eventId)
    expect(ev.activity_points).toEqual({ ...POINTS, per_day: false })
    const bad = await post('/org/p/event/save', { id: w.eventId, activity_points: { category: 'Dancing', points: 5 } }, w.users.organiser.auth)
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe(
      'activity_points.category must be one of the college’s categories: Technical, Cultural, Sports, Social service/NSS, Entrepreneurship, Professional body',
    )
    const negative = await post('/org/p/event/save', { id: w.eventId, activity_points: { category: 'Technical', points: -1 } }, w.users.organiser.auth)
    expect(negative.status).toBe(400)
    expect(negative.body.message).toBe('activity_points.points must be a whole number from 0 to 100')
    // The category in the college's spelling, whatever the case sent.
    const lower = await post('/org/p/event/save', { id: w.eventId, activity_points: { category: 'sports', points: 4 } }, w.users.organiser.auth)
    expect(lower.body.event.activity_points).toEqual({ category: 'Sports', points: 4, per_day: false, winner: 0, volunteer: 0, organiser: 0 })
    const cleared = await post('/org/p/event/save', { id: w.eventId, activity_points: null }, w.users.organiser.auth)
    expect(cleared.body.event.activity_points).toBeNull()
  })

  it('the import format takes activity_points: the category in the college’s spelling, an unknown one refused with the list', async () => {
    const file = (category: string) => ({
      councils: [{ slug: `pts-${kind}`, name: 'Points Council' }],
      events: [
        {
          slug: `pts-event-${kind}`,
          name: 'Hack',
          dates: ['2027-01-18T10:00:00+05:30'],
          organizer: `pts-${kind}`,
          activity_points: { category, points: 5, per_day: true },
        },
      ],
    })
    await expect(importCatalogue(t.database.db, file('Dancing'))).rejects.toThrow(
      `events[0] "pts-event-${kind}".activity_points.category: must be one of the college's categories (Technical, Cultural, Sports, Social service/NSS, Entrepreneurship, Professional body)`,
    )
    const { events } = await importCatalogue(t.database.db, file('professional BODY'))
    const [row] = await t.database.db
      .select({ p: schema.events.activityPoints })
      .from(schema.events)
      .where(eq(schema.events.id, events[`pts-event-${kind}`]))
    expect(row.p).toEqual({ category: 'Professional body', points: 5, per_day: true, winner: 0, volunteer: 0, organiser: 0 })
  })

  it('a check-in at the door gives the event’s points; undoing it takes them away; no check-in, no points', async () => {
    const w = await pointsWorld()
    const [holder, other] = w.people
    expect(await totalOf(holder.auth)).toBe(0)
    expect((await checkIn(w, w.codes[0])).status).toBe(200)
    const r = await record(holder.auth)
    expect(r.total).toBe(10)
    expect(r.target).toBe(100)
    expect(r.entries).toMatchObject([{ kind: 'ATTENDED', points: 10, days: null, event: { id: w.eventId } }])
    expect(r.by_category.find((c) => c.category === 'Technical')?.points).toBe(10)
    // A ticket holder who was not scanned, and a registered student without a ticket, have nothing.
    expect(await totalOf(other.auth)).toBe(0)
    expect(await totalOf(w.registered.auth)).toBe(0)
    expect((await undo(w, w.codes[0])).status).toBe(200)
    expect(await totalOf(holder.auth)).toBe(0)
  })

  it('a per-day event counts each event day the door admitted the ticket on; an undo takes back today’s (issue 25 item 3)', async () => {
    const w = await pointsWorld({ per_day: true, points: 6 })
    await t.database.db
      .update(schema.events)
      .set({ dates: ['2026-11-20T10:00:00+05:30', '2026-11-21T10:00:00+05:30', '2026-11-22T10:00:00+05:30'] })
      .where(eq(schema.events.id, w.eventId))
    const holder = w.people[0]
    // Offline scans on the first two days: each day's first is its admission, the second on day 2 is ALREADY_CHECKED_IN.
    const sync = await doorPost(
      t,
      'sync',
      {
        event_id: w.eventId,
        scans: [
          { ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'A', scanned_at: '2026-11-20T09:55:00+05:30' },
          { ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'A', scanned_at: '2026-11-21T09:40:00+05:30' },
          { ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'B', scanned_at: '2026-11-21T13:00:00+05:30' },
        ],
      },
      w.users.door.auth,
    )
    expect(sync.status).toBe(200)
    expect(sync.body.results.map((r: { result: string }) => r.result)).toEqual(['CHECKED_IN', 'CHECKED_IN', 'ALREADY_CHECKED_IN'])
    let r = await record(holder.auth)
    expect(r.entries).toMatchObject([{ kind: 'ATTENDED', days: 2, points: 12 }])
    // A scan after the last day counts for the last day (contract/admission.ts dayOf): a third day.
    await doorPost(
      t,
      'sync',
      { event_id: w.eventId, scans: [{ ticket_code: w.codes[0], scan_id: randomUUID(), gate: 'A', scanned_at: '2026-11-25T10:00:00+05:30' }] },
      w.users.door.auth,
    )
    expect((await record(holder.auth)).total).toBe(18)
    // Today (after the event's dates) is the last day too: the undo takes that day back, not the two before.
    expect((await undo(w, w.codes[0])).status).toBe(200)
    expect(await totalOf(holder.auth)).toBe(12)
    // Checked in again: the last day is back.
    expect((await checkIn(w, w.codes[0])).status).toBe(200)
    r = await record(holder.auth)
    expect(r.entries).toMatchObject([{ kind: 'ATTENDED', days: 3, points: 18 }])
  })

  it('winners: marked only once the event is completed, only participants, audited; unmarking takes the points away', async () => {
    const w = await pointsWorld()
    const winner = w.people[1]
    const early = await post('/org/p/event/winners', { event_id: w.eventId, user_id: winner.id }, w.users.organiser.auth)
    expect(early.status).toBe(403)
    expect(early.body.message).toBe('Winners can be marked once the event is completed.')
    expect((await post('/org/p/event/state', { event_id: w.eventId, state: 'COMPLETED' }, w.users.organiser.auth)).status).toBe(200)
    const stranger = await t.student()
    const notParticipant = await post('/org/p/event/winners', { event_id: w.eventId, user_id: stranger.id }, w.users.organiser.auth)
    expect(notParticipant.status).toBe(404)
    expect(notParticipant.body.message).toBe('This student is not a participant of this event.')
    // The door volunteer and a student cannot mark winners.
    for (const role of ['door', 'student'] as const) {
      const refused = await post('/org/p/event/winners', { event_id: w.eventId, user_id: winner.id }, w.users[role].auth)
      expect(refused.status).toBe(403)
    }
    expect(await totalOf(winner.auth)).toBe(0)
    const marked = await post('/org/p/event/winners', { event_id: w.eventId, user_id: winner.id, title: 'First place' }, w.users.organiser.auth)
    expect(marked.status).toBe(200)
    expect(marked.body.winners).toMatchObject([{ user: { id: winner.id }, title: 'First place' }])
    const r = await record(winner.auth)
    expect(r.entries).toMatchObject([{ kind: 'WINNER', points: 20 }])
    const removed = await post('/org/p/event/winners', { event_id: w.eventId, user_id: winner.id, remove: true }, w.users.organiser.auth)
    expect(removed.body.winners).toEqual([])
    expect(await totalOf(winner.auth)).toBe(0)
    const audit = await post('/org/p/audit', { event_id: w.eventId }, w.users.admin.auth)
    const actions = audit.body.entries.map((e: { action: string; actor_id: number }) => [e.action, e.actor_id])
    expect(actions).toContainEqual(['winner.add', w.users.organiser.id])
    expect(actions).toContainEqual(['winner.remove', w.users.organiser.id])
  })

  it('the event’s door volunteers and its council’s organisers (granted before it ended) get their roles’ points once it runs', async () => {
    const w = await pointsWorld()
    // The world's organiser was granted today, after the event's only date: they did not organise it.
    expect(await totalOf(w.users.organiser.auth)).toBe(0)
    await t.database.db
      .update(schema.councilOrganizers)
      .set({ createdAt: new Date('2026-01-01T00:00:00Z') })
      .where(eq(schema.councilOrganizers.userId, w.users.organiser.id))
    expect((await record(w.users.organiser.auth)).entries).toMatchObject([{ kind: 'ORGANISER', points: 8 }])
    expect((await record(w.users.door.auth)).entries).toMatchObject([{ kind: 'VOLUNTEER', points: 5 }])
    // Not while the event has not started.
    await t.database.db.update(schema.events).set({ state: 'TICKET_OPEN' }).where(eq(schema.events.id, w.eventId))
    expect(await totalOf(w.users.door.auth)).toBe(0)
    expect(await totalOf(w.users.organiser.auth)).toBe(0)
    await t.database.db.update(schema.events).set({ state: 'COMPLETED' }).where(eq(schema.events.id, w.eventId))
    // The volunteer of another event, the admin and a student have nothing.
    for (const role of ['otherDoor', 'admin', 'student'] as const) expect(await totalOf(w.users[role].auth)).toBe(0)
    // Removing the volunteer removes the points.
    const doorEmail = (await t.database.db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, w.users.door.id)))[0].email
    expect((await post('/org/p/event/staff', { event_id: w.eventId, email: doorEmail, remove: true }, w.users.organiser.auth)).status).toBe(200)
    expect(await totalOf(w.users.door.auth)).toBe(0)
  })

  it('a draft, or an event without points, gives nothing', async () => {
    const w = await doorWorld(t, { state: 'ONGOING' })
    expect((await checkIn(w, w.codes[0])).status).toBe(200)
    expect(await totalOf(w.people[0].auth)).toBe(0)
    await post('/org/p/event/save', { id: w.eventId, activity_points: POINTS }, w.users.organiser.auth)
    expect(await totalOf(w.people[0].auth)).toBe(10)
    await t.database.db.update(schema.events).set({ state: 'DRAFT' }).where(eq(schema.events.id, w.eventId))
    expect(await totalOf(w.people[0].auth)).toBe(0)
  })

  it('property: over random sequences of check-ins, undos, winners and volunteer changes, the record equals the model', async () => {
    // A small seeded generator (mulberry32): the sequence is the same on every run, and a failure names its seed.
    const rng = (seed: number) => () => {
      seed = (seed + 0x6d2b79f5) | 0
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
      return ((x ^ (x >>> 14)) >>> 0) / 4294967296
    }
    for (const seed of [1, 2, 3]) {
      const random = rng(seed)
      const w = await pointsWorld({}, 'COMPLETED')
      const people = w.people
      const emails = new Map<number, string>()
      for (const p of people)
        emails.set(p.id, (await t.database.db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, p.id)))[0].email)
      const model = new Map(people.map((p) => [p.id, { in: false, winner: false, volunteer: false }]))
      for (let step = 0; step < 30; step++) {
        const i = Math.floor(random() * people.length)
        const p = people[i]
        const m = model.get(p.id)!
        const op = Math.floor(random() * 4)
        const state = op < 2 ? 'ONGOING' : 'COMPLETED'
        await t.database.db.update(schema.events).set({ state }).where(eq(schema.events.id, w.eventId))
        if (op === 0) {
          const res = await checkIn(w, w.codes[i])
          expect(res.status, `seed ${seed} step ${step}`).toBe(m.in ? 409 : 200)
          m.in = true
        } else if (op === 1) {
          const res = await undo(w, w.codes[i])
          expect(res.status, `seed ${seed} step ${step}`).toBe(m.in ? 200 : 409)
          m.in = false
        } else if (op === 2) {
          const remove = m.winner
          expect((await post('/org/p/event/winners', { event_id: w.eventId, user_id: p.id, remove }, w.users.organiser.auth)).status).toBe(200)
          m.winner = !remove
        } else {
          const remove = m.volunteer
          expect((await post('/org/p/event/staff', { event_id: w.eventId, email: emails.get(p.id), remove }, w.users.organiser.auth)).status).toBe(200)
          m.volunteer = !remove
        }
        const expected = (m.in ? 10 : 0) + (m.winner ? 20 : 0) + (m.volunteer ? 5 : 0)
        expect(await totalOf(p.auth), `seed ${seed} step ${step} op ${op}`).toBe(expected)
      }
      // And the organiser's view of the event agrees with every student's record.
      const view = await post('/org/p/event/points', { event_id: w.eventId }, w.users.organiser.auth)
      for (const p of people) {
        const m = model.get(p.id)!
        const sum = view.body.points.filter((r: { user: { id: number } }) => r.user.id === p.id).reduce((s: number, r: { points: number }) => s + r.points, 0)
        expect(sum).toBe((m.in ? 10 : 0) + (m.winner ? 20 : 0) + (m.volunteer ? 5 : 0))
      }
    }
  }, 120_000)

  it('privacy: a record is the student’s own and admins’; an event’s points only its organisers’ and admins’', async () => {
    const w = await pointsWorld()
    await checkIn(w, w.codes[0])
    const holderEmail = (await t.database.db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, w.people[0].id)))[0].email
    // The student's call takes no one else's id: a body naming another student is ignored.
    const own = await post('/user/p/points', { user_id: w.people[0].id }, w.people[1].auth)
    expect(own.body.record.total).toBe(0)
    for (const role of ['student', 'door', 'organiser', 'otherDoor'] as const) {
      const res = await post('/org/p/points/student', { email: holderEmail }, w.users[role].auth)
      expect(res.status, role).toBe(403)
      expect(res.body.message).toBe('Only admins can do this.')
    }
    const admin = await post('/org/p/points/student', { email: holderEmail }, w.users.admin.auth)
    expect(admin.status).toBe(200)
    expect(admin.body.record.total).toBe(10)
    for (const role of ['student', 'door', 'otherDoor'] as const) {
      const res = await post('/org/p/event/points', { event_id: w.eventId }, w.users[role].auth)
      expect(res.status, role).toBe(403)
    }
    // An organiser of another council.
    const other = await doorWorld(t)
    expect((await post('/org/p/event/points', { event_id: w.eventId }, other.users.organiser.auth)).status).toBe(403)
    const mine = await post('/org/p/event/points', { event_id: w.eventId }, w.users.organiser.auth)
    expect(mine.status).toBe(200)
    expect(mine.body.points.map((r: { user: { id: number }; kind: string; points: number }) => [r.user.id, r.kind, r.points])).toEqual([
      [w.users.door.id, 'VOLUNTEER', 5],
      [w.people[0].id, 'ATTENDED', 10],
    ])
    expect((await post('/org/p/event/points', { event_id: 999_999 }, w.users.student.auth)).status).toBe(403)
    expect((await post('/org/p/event/points', { event_id: 999_999 }, w.users.admin.auth)).status).toBe(404)
    const csv = await t.app.inject({ method: 'GET', url: '/api/v1/org/p/points/export.csv', headers: w.users.organiser.auth })
    expect(csv.statusCode).toBe(403)
    expect((await post('/org/p/points/below-target', {}, w.users.organiser.auth)).status).toBe(403)
    expect((await post('/org/p/points/settings/save', { target: 90 }, w.users.organiser.auth)).status).toBe(403)
    expect((await post('/org/p/points/settings', {}, w.users.student.auth)).status).toBe(403)
    expect((await post('/org/p/points/settings', {}, w.users.organiser.auth)).status).toBe(200)
  })

  it('admins set the categories and targets (audited) and mark lateral entry; the student’s target follows', async () => {
    const w = await pointsWorld()
    const holderEmail = (await t.database.db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, w.people[2].id)))[0].email
    const dup = await post('/org/p/points/settings/save', { categories: ['Technical', 'technical'] }, w.users.admin.auth)
    expect(dup.status).toBe(400)
    expect(dup.body.message).toBe('categories has the same category twice')
    const lateral = await post('/org/p/points/student', { email: holderEmail, lateral_entry: true }, w.users.admin.auth)
    expect(lateral.body.student).toMatchObject({ lateral_entry: true, target: 75 })
    expect((await record(w.people[2].auth)).target).toBe(75)
    const saved = await post('/org/p/points/settings/save', { target: 120, lateral_entry_target: 80 }, w.users.admin.auth)
    expect(saved.body.settings).toMatchObject({ target: 120, lateral_entry_target: 80 })
    expect((await record(w.people[2].auth)).target).toBe(80)
    expect((await record(w.people[1].auth)).target).toBe(120)
    const audit = await post('/org/p/audit', {}, w.users.admin.auth)
    expect(audit.body.entries.map((e: { action: string }) => e.action)).toEqual(expect.arrayContaining(['points.settings', 'points.lateral_entry']))
    await post('/org/p/points/settings/save', { target: 100, lateral_entry_target: 75 }, w.users.admin.auth)
    await post('/org/p/points/student', { email: holderEmail, lateral_entry: false }, w.users.admin.auth)
  })

  it('the admin’s CSV: by year and branch, BOM, formula-safe, times in Asia/Kolkata; and who is below target in a year', async () => {
    const w = await pointsWorld()
    const year = 2031 + (kind === 'postgres' ? 1 : 0)
    await t.database.db.update(schema.users).set({ year, branch: 'Computer_Engineering', name: '=HYPERLINK("x")' }).where(eq(schema.users.id, w.people[0].id))
    await t.database.db.update(schema.users).set({ year, branch: 'Mechanical' }).where(eq(schema.users.id, w.people[1].id))
    await checkIn(w, w.codes[0])
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/org/p/points/export.csv?year=${year}&branch=Computer Engineering`,
      headers: w.users.admin.auth,
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(res.body.startsWith('\uFEFF')).toBe(true)
    const lines = res.body.slice(1).trim().split('\r\n')
    expect(lines[0]).toBe(
      'Student ID,Name,E-mail,Graduation year,Branch,Lateral entry,Technical,Cultural,Sports,Social service/NSS,Entrepreneurship,Professional body,Total,Target,Below target,Last earned at',
    )
    expect(lines).toHaveLength(2)
    const cells = lines[1].split(',')
    expect(cells[1]).toBe(`"'=HYPERLINK(""x"")"`)
    expect(cells[3]).toBe(String(year))
    expect(cells[4]).toBe('Computer Engineering')
    expect(cells[6]).toBe('10')
    expect(cells.slice(12, 15)).toEqual(['10', '100', 'yes'])
    expect(cells[15]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+05:30$/)
    const all = await t.app.inject({ method: 'GET', url: `/api/v1/org/p/points/export.csv?year=${year}`, headers: w.users.admin.auth })
    expect(all.body.trim().split('\r\n')).toHaveLength(3)
    const badYear = await t.app.inject({ method: 'GET', url: '/api/v1/org/p/points/export.csv?year=abc', headers: w.users.admin.auth })
    expect(badYear.statusCode).toBe(400)
    expect(badYear.json().message).toBe('year must be a graduation year, e.g. 2027')

    const below = await post('/org/p/points/below-target', { year }, w.users.admin.auth)
    expect(below.status).toBe(200)
    expect(below.body.students.map((s: { user: { id: number }; points: number }) => [s.user.id, s.points])).toEqual([
      [w.people[1].id, 0],
      [w.people[0].id, 10],
    ])
    const branchOnly = await post('/org/p/points/below-target', { year, branch: 'Mechanical' }, w.users.admin.auth)
    expect(branchOnly.body.students).toHaveLength(1)
    expect((await post('/org/p/points/below-target', {}, w.users.admin.auth)).body.year).toBe(finalYearOn(new Date()))
  })

  it('the final year runs July to June in India', () => {
    expect(finalYearOn(new Date('2026-11-27T00:00:00Z'))).toBe(2027)
    expect(finalYearOn(new Date('2027-06-30T12:00:00Z'))).toBe(2027)
    expect(finalYearOn(new Date('2027-06-30T19:00:00Z'))).toBe(2028)
  })

  it('the transcript PDF lists every entry with a code that /verify confirms, and says when the entry no longer stands', async () => {
    const w = await pointsWorld()
    await t.database.db.update(schema.users).set({ name: 'अनन्या शर्मा' }).where(eq(schema.users.id, w.people[0].id))
    await checkIn(w, w.codes[0])
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/user/p/points/transcript.pdf', headers: w.people[0].auth })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/pdf')
    const text = await pdfText(res.rawPayload)
    expect(text).toContain('Activity points transcript')
    expect(text).toContain('Activity points: 10 of 100')
    const codes = [...text.matchAll(/\b([0-9A-Z]{5}-[0-9A-Z]{5})\b/g)].map((m) => m[1])
    expect(codes).toHaveLength(1)
    // The short address (issue 37 item 1), not the API's path.
    expect(text).toContain('Check any code at http://app.test/verify/CODE')
    // The same code on the next download.
    const again = await pdfText((await t.app.inject({ method: 'GET', url: '/api/v1/user/p/points/transcript.pdf', headers: w.people[0].auth })).rawPayload)
    expect(again).toContain(codes[0])
    const verify = await t.app.inject({ method: 'GET', url: `/api/v1/verify/${codes[0]}`, headers: { accept: 'application/json' } })
    expect(verify.statusCode).toBe(200)
    expect(verify.json()).toEqual({
      error: false,
      kind: 'ACTIVITY_POINTS',
      activity_points: expect.objectContaining({ code: codes[0], name: 'अनन्या शर्मा', category: 'Technical', role: 'ATTENDED', points: 10, stands: true }),
    })
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/verify/${codes[0].toLowerCase()}`, headers: { accept: 'text/html' } })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('<h1>Activity points verified</h1>')
    await undo(w, w.codes[0])
    const withdrawn = await t.app.inject({ method: 'GET', url: `/api/v1/verify/${codes[0]}`, headers: { accept: 'application/json' } })
    expect(withdrawn.json().activity_points).toMatchObject({ stands: false, points: 0 })
    const withdrawnPage = await t.app.inject({ method: 'GET', url: `/api/v1/verify/${codes[0]}`, headers: { accept: 'text/html' } })
    expect(withdrawnPage.body).toContain('<h1>Activity points withdrawn</h1>')
    // A student with no points gets a transcript that says so.
    const empty = await pdfText((await t.app.inject({ method: 'GET', url: '/api/v1/user/p/points/transcript.pdf', headers: w.users.student.auth })).rawPayload)
    expect(empty).toContain('No activity points yet.')
  }, 60_000)

  it('a transcript’s codes are made in one insert; a code another entry holds is drawn again, and after three tries the answer is a refusal', async () => {
    const w = await pointsWorld()
    for (const code of w.codes) expect((await checkIn(w, code)).status).toBe(200)
    await t.database.db.update(schema.events).set({ state: 'COMPLETED' }).where(eq(schema.events.id, w.eventId))
    await post('/org/p/event/winners', { event_id: w.eventId, user_id: w.people[1].id }, w.users.organiser.auth)
    const taken = 'TAKEN00000'
    const script = [taken, taken, 'FRESH00001', 'FRESH00002', 'FRESH00003']
    const repo = pointsRepository(t.database.db, () => script.shift() ?? 'NEVER00000')
    const first = await repo.transcript(w.people[0].id)
    expect(first.ok && first.value.entries.map((e) => e.code)).toEqual([taken])
    // Two entries: the first draw [taken, FRESH00001] fails whole; the second [FRESH00002, FRESH00003] is kept.
    const second = await repo.transcript(w.people[1].id)
    expect(second.ok && second.value.entries.map((e) => e.code).sort()).toEqual(['FRESH00002', 'FRESH00003'])
    expect(script).toEqual([])
    const stuck = pointsRepository(t.database.db, () => taken)
    expect(await stuck.transcript(w.people[2].id)).toEqual({ ok: false, refusal: 'certificateCodesExhausted' })
  }, 60_000)
})
