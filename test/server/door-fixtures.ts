// A door world for the door tests and the authorization matrix: a ticketed event of a council in `state`, with
// ticket holders (codes inserted straight into the database), and the roles of API.md Part 2: a door volunteer
// of the event, an organiser of its council, an admin, a plain student, and the volunteer of another event.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { AnyEventState } from '../../contract/constants.ts'
import { stepOf, timeCode, withTimeCode } from '../../contract/time-code.ts'
import { schema } from '../../server/db/index.ts'
import type { TestApp } from './helpers.ts'

let serial = 0

/**
 * When the world's tickets were collected: before every scan the door tests date (an offline scan's time counts from
 * its ticket's collection at the earliest: issue 21 item 6).
 */
export const COLLECTED_AT = new Date('2026-01-01T00:00:00Z')

export type DoorRole = 'door' | 'organiser' | 'admin' | 'student' | 'otherDoor'

/**
 * `rotating`: the events' tickets show a code that changes every 30 s (issue 25). Off by default here: these worlds
 * serve the door's other rules, scanned with plain codes (test/server/rotating-codes.test.ts turns it on).
 */
export async function doorWorld(t: TestApp, options: { state?: AnyEventState; holders?: number; teamName?: string; rotating?: boolean } = {}) {
  serial += 1
  const db = t.database.db
  const tag = `${serial}-${Date.now().toString(36)}-${randomUUID().slice(0, 6)}`
  const [council] = await db
    .insert(schema.councils)
    .values({ slug: `door-council-${tag}`, name: `Door Council ${serial}` })
    .returning({ id: schema.councils.id })
  const holders = options.holders ?? 3
  const event = async (name: string) => {
    const [row] = await db
      .insert(schema.events)
      .values({
        slug: `door-event-${name}-${tag}`,
        name: `${name} ${serial}`,
        organizerId: council.id,
        state: options.state ?? 'ONGOING',
        maPpt: 4,
        dates: ['2026-11-25T18:00:00+05:30'],
        isTicketFeatureEnabled: true,
        ticketCount: holders + 10,
        rotatingCodes: options.rotating ?? false,
      })
      .returning({ id: schema.events.id })
    return row.id
  }
  const eventId = await event('Gala')
  const otherEventId = await event('Other')
  const [team] = options.teamName
    ? await db
        .insert(schema.teams)
        .values({ eventId, name: options.teamName, inviteCode: `T${serial}`.padEnd(5, 'X').slice(0, 5), leaderId: (await t.student()).id })
        .returning({ id: schema.teams.id })
    : [null]
  const codes: string[] = []
  const people: { id: number; auth: { authorization: string } }[] = []
  for (let i = 0; i < holders; i++) {
    const s = await t.student({ name: `Holder ${i + 1}`, photoUrl: `https://example.edu/p/${i + 1}.jpg` })
    const code = `${serial}${String(i).padStart(4, '0')}${randomUUID().replace(/\D/g, '').slice(0, 8)}`
    await db
      .insert(schema.participants)
      .values({ eventId, userId: s.id, ticketCollected: true, ticketCode: code, ticketCollectedAt: COLLECTED_AT, teamId: i === 0 && team ? team.id : null })
    codes.push(code)
    people.push(s)
  }
  // A registered student without a ticket, and a ticket of the other event.
  const registered = await t.student({ name: 'No Ticket' })
  await db.insert(schema.participants).values({ eventId, userId: registered.id })
  const otherHolder = await t.student({ name: 'Other Holder' })
  const otherCode = `9${serial}${randomUUID().replace(/\D/g, '').slice(0, 10)}`
  await db
    .insert(schema.participants)
    .values({ eventId: otherEventId, userId: otherHolder.id, ticketCollected: true, ticketCode: otherCode, ticketCollectedAt: COLLECTED_AT })

  const door = await t.student({ name: 'Door Volunteer' })
  await db.insert(schema.eventStaff).values({ eventId, userId: door.id })
  const organiser = await t.student({ name: 'Organiser' })
  await db.insert(schema.councilOrganizers).values({ councilId: council.id, userId: organiser.id })
  const admin = await t.student({ name: 'Admin', isAdmin: true })
  const student = await t.student({ name: 'Just A Student' })
  const otherDoor = await t.student({ name: 'Other Door' })
  await db.insert(schema.eventStaff).values({ eventId: otherEventId, userId: otherDoor.id })
  const users: Record<DoorRole, { id: number; auth: { authorization: string } }> = { door, organiser, admin, student, otherDoor }
  return { councilId: council.id, eventId, otherEventId, codes, people, otherCode, registered, users, teamId: team?.id ?? null }
}

export type DoorWorld = Awaited<ReturnType<typeof doorWorld>>

export async function doorPost(t: TestApp, path: string, body: unknown, auth?: { authorization: string }) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/door/p/${path}`,
    headers: { 'content-type': 'application/json', ...auth },
    payload: JSON.stringify(body),
  })
  return { status: res.statusCode, body: res.json() }
}

/** The text a ticket's barcode carries at `atMs` (issue 25): its code, '-' and the time code of that step (off by `steps`). */
export async function scannedText(t: TestApp, code: string, atMs = Date.now(), steps = 0) {
  const [row] = await t.database.db
    .select({ secret: schema.participants.ticketSecret })
    .from(schema.participants)
    .where(eq(schema.participants.ticketCode, code))
  if (!row?.secret) throw new Error(`no ticket secret for ${code}`)
  return withTimeCode(code, await timeCode(row.secret, stepOf(atMs) + steps))
}

export async function checkedInOf(t: TestApp, code: string) {
  const [row] = await t.database.db
    .select({ at: schema.participants.checkedInAt, gate: schema.participants.checkedInGate })
    .from(schema.participants)
    .where(eq(schema.participants.ticketCode, code))
  return row
}
