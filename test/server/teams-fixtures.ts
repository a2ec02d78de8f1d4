// Shared set-up for the team test files: events inserted straight into the database, a compact `post`,
// the teams repository's create answered the way the route answers it (a refusal thrown as the HTTP error with
// its status and message), and a snapshot of an event's teams and participants to prove what a call did or did not change.
import { asc, eq } from 'drizzle-orm'
import type { AnyEventState as EventState } from '../../contract/constants.ts'
import { schema, type Db } from '../../server/db/index.ts'
import { teamsRepository, type CreateTeamInput, type InviteCodeGenerator } from '../../server/db/teams/teams.ts'
import { valueOf } from '../../server/routes/outcomes.ts'
import { randomInviteCode } from '../../server/teams/invite-codes.ts'
import type { TestApp } from './helpers.ts'

let serial = 0

export async function makeEvent(t: TestApp, fields: { state?: EventState; maPpt?: number } = {}): Promise<number> {
  serial += 1
  const [council] = await t.database.db
    .insert(schema.councils)
    .values({ slug: `council-${serial}-${Date.now()}`, name: `Council ${serial}` })
    .returning({ id: schema.councils.id })
  const [event] = await t.database.db
    .insert(schema.events)
    .values({
      slug: `event-${serial}-${Date.now()}`,
      name: `Hackathon ${serial}`,
      organizerId: council.id,
      state: fields.state ?? 'REGISTRATION_OPEN',
      maPpt: fields.maPpt ?? 4,
      dates: ['2026-03-01T10:00:00+05:30'],
    })
    .returning({ id: schema.events.id })
  return event.id
}

export async function setState(t: TestApp, eventId: number, state: EventState) {
  await t.database.db.update(schema.events).set({ state }).where(eq(schema.events.id, eventId))
}

export type Auth = { authorization: string } | undefined

export async function post(t: TestApp, path: string, body: unknown, auth?: Auth) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/event/p/${path}`,
    headers: { 'content-type': 'application/json', ...auth },
    payload: JSON.stringify(body),
  })
  return { status: res.statusCode, body: res.json(), headers: res.headers }
}

/** Every team of the event (id, name, leader) and every participant (user, team), in a stable order. */
export async function snapshot(t: TestApp, eventId: number) {
  const db = t.database.db
  const teams = await db
    .select({ id: schema.teams.id, name: schema.teams.name, leaderId: schema.teams.leaderId })
    .from(schema.teams)
    .where(eq(schema.teams.eventId, eventId))
    .orderBy(asc(schema.teams.id))
  const members = await db
    .select({ userId: schema.participants.userId, teamId: schema.participants.teamId })
    .from(schema.participants)
    .where(eq(schema.participants.eventId, eventId))
    .orderBy(asc(schema.participants.userId))
  return { teams, members }
}

export async function teamMembers(t: TestApp, teamId: number): Promise<number[]> {
  const rows = await t.database.db
    .select({ userId: schema.participants.userId })
    .from(schema.participants)
    .where(eq(schema.participants.teamId, teamId))
    .orderBy(asc(schema.participants.userId))
  return rows.map((r) => r.userId)
}

/** The repository's create behind the route's outcome table: the team, or the refusal as status and message. */
export async function createTeam(db: Db, input: CreateTeamInput, generate: InviteCodeGenerator = randomInviteCode) {
  return valueOf(await teamsRepository(db, generate).create(input))
}
