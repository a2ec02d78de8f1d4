// The teams repository: create, join, remove, delete, and the `Team` wire shape. Every rule that can race (one
// membership per event, at most ma_ppt members, unique names and codes) is decided inside one transaction by a
// row lock or a unique index, never by a read followed by a separate write. A refusal inside a transaction is
// thrown as `Refused`, which rolls it back, and answered as an outcome.
import { and, asc, desc, eq, ne, sql } from 'drizzle-orm'
import type { Team } from '../../../contract/types.ts'
import { INVITE_CODE_LENGTH } from '../../../contract/constants.ts'
import { type AskedQuestion, checkAnswers } from '../../../contract/questions.ts'
import type { Db } from '../index.ts'
import { events, participants, teams, users } from '../schema.ts'
import { Refused, isUniqueViolation, outcomeOf, type Outcome } from '../outcomes.ts'

/** Draws one invite code; tests inject another generator to force a collision. */
export type InviteCodeGenerator = () => string

const INVITE_CODE_PATTERN = new RegExp(`^[A-Za-z0-9]{${INVITE_CODE_LENGTH}}$`)

/** How many fresh codes to draw when one is already taken in the event (p ≈ teams/62^5 each time). */
export const INVITE_CODE_TRIES = 5

/** The team with its members, leader first, then by join time; null when there is no such team. */
export async function loadTeam(db: Db, teamId: number): Promise<Team | null> {
  const [team] = await db
    .select({ id: teams.id, name: teams.name, invite_code: teams.inviteCode, leader_id: teams.leaderId })
    .from(teams)
    .where(eq(teams.id, teamId))
  if (!team) return null
  const members = await db
    .select({ id: users.id, name: users.name, photo_url: users.photoUrl })
    .from(participants)
    .innerJoin(users, eq(users.id, participants.userId))
    .where(eq(participants.teamId, teamId))
    .orderBy(desc(sql`${participants.userId} = ${team.leader_id}`), asc(participants.createdAt), asc(participants.id))
  return { ...team, Participant: members.map((user) => ({ user })) }
}

async function eventOf(tx: Db, eventId: number) {
  const [event] = await tx
    .select({ id: events.id, state: events.state, maPpt: events.maPpt, questions: events.questions })
    .from(events)
    .where(and(eq(events.id, eventId), ne(events.state, 'DRAFT'))) // a draft is no event to a student
  if (!event) throw new Refused('eventNotFound')
  return event
}

async function isRegistered(tx: Db, eventId: number, userId: number) {
  const [row] = await tx
    .select({ id: participants.id })
    .from(participants)
    .where(and(eq(participants.eventId, eventId), eq(participants.userId, userId)))
  return Boolean(row)
}

/** Inserts the participant row; the unique (event_id, user_id) key is the arbiter under concurrency. */
async function addParticipant(tx: Db, eventId: number, userId: number, teamId: number, answers: Record<string, string> = {}) {
  try {
    await tx.insert(participants).values({ eventId, userId, teamId, answers })
  } catch (err) {
    if (isUniqueViolation(err, 'participants_event_user')) throw new Refused('alreadyRegistered')
    throw err
  }
}

export interface CreateTeamInput {
  eventId: number
  userId: number
  /** Already validated by `createTeamForm`; trimmed here. */
  name: string
  /** The answers to the event's registration questions, by question id (checked here against the event's). */
  answers?: Record<string, unknown> | null
}

/** The answers to store, or the refusal naming the first question answered wrongly (before anything is written). */
function answersFor(event: { questions: unknown[] }, answers: Record<string, unknown> | null | undefined): Record<string, string> {
  const checked = checkAnswers(event.questions as AskedQuestion[], answers)
  if ('error' in checked) throw new Refused('invalidAnswer', checked.error)
  return checked.answers
}

async function createTeam(db: Db, input: CreateTeamInput, generate: InviteCodeGenerator): Promise<Team> {
  const name = input.name.trim()
  return db.transaction(async (tx) => {
    const event = await eventOf(tx, input.eventId)
    if (event.maPpt <= 1) throw new Refused('individualEvent')
    if (event.state !== 'REGISTRATION_OPEN') throw new Refused('createClosed')
    // A readable early answer; the unique key in addParticipant still decides when two requests race.
    if (await isRegistered(tx, event.id, input.userId)) throw new Refused('alreadyRegistered')
    const answers = answersFor(event, input.answers)

    let teamId: number | undefined
    for (let attempt = 1; teamId === undefined; attempt++) {
      const code = generate()
      if (!INVITE_CODE_PATTERN.test(code)) throw new Error(`invite code generator returned ${JSON.stringify(code)}`)
      try {
        // A savepoint, so a taken code can be retried without losing the transaction.
        const [row] = await tx.transaction((sp) =>
          sp.insert(teams).values({ eventId: event.id, name, inviteCode: code, leaderId: input.userId }).returning({ id: teams.id }),
        )
        teamId = row.id
      } catch (err) {
        // The unique index on (event_id, lower(name)) is the arbiter for names, also between racing requests.
        if (isUniqueViolation(err, 'teams_event_name')) throw new Refused('nameTaken')
        if (!isUniqueViolation(err, 'teams_event_invite_code')) throw err
        if (attempt >= INVITE_CODE_TRIES) throw new Refused('codesExhausted')
      }
    }
    await addParticipant(tx, event.id, input.userId, teamId, answers)
    return (await loadTeam(tx, teamId))!
  })
}

export interface JoinTeamInput {
  eventId: number
  userId: number
  /** Exactly 5 characters (joinTeamForm); compared case-sensitively. */
  code: string
  answers?: Record<string, unknown> | null
}

async function joinTeam(db: Db, input: JoinTeamInput): Promise<Team> {
  return db.transaction(async (tx) => {
    const event = await eventOf(tx, input.eventId)
    if (event.maPpt <= 1) throw new Refused('individualEvent')
    if (event.state !== 'REGISTRATION_OPEN') throw new Refused('joinClosed')
    // The row lock serialises joins to one team: each one counts the members only after the previous
    // joiner has committed, so the team can never pass ma_ppt however many arrive at once.
    // Looked up first without a lock: a code that names no team now is a wrong code (a failed guess). A team that
    // exists here but is gone once its lock is ours was deleted while this join waited for it (issue 10): that is
    // not a wrong code, and is not counted as one.
    const [named] = await tx
      .select({ id: teams.id })
      .from(teams)
      .where(and(eq(teams.eventId, event.id), eq(teams.inviteCode, input.code)))
    if (!named) throw new Refused('unknownCode')
    const [team] = await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, named.id)).for('update')
    if (!team) throw new Refused('teamNotFound')
    if (await isRegistered(tx, event.id, input.userId)) throw new Refused('alreadyRegistered')
    const [{ members }] = await tx.select({ members: sql<number>`count(*)::int` }).from(participants).where(eq(participants.teamId, team.id))
    if (members >= event.maPpt) throw new Refused('full')
    await addParticipant(tx, event.id, input.userId, team.id, answersFor(event, input.answers))
    return (await loadTeam(tx, team.id))!
  })
}

/** The team locked for a change, with its own event's state (never the state of an event named in a body). */
async function lockTeam(tx: Db, teamId: number) {
  const [team] = await tx.select({ id: teams.id, eventId: teams.eventId, leaderId: teams.leaderId }).from(teams).where(eq(teams.id, teamId)).for('update')
  if (!team) return null
  const event = await eventOf(tx, team.eventId)
  return { ...team, state: event.state }
}

export interface RemoveMemberInput {
  callerId: number
  teamId: number
  userId: number
}

async function removeMember(db: Db, input: RemoveMemberInput): Promise<void> {
  await db.transaction(async (tx) => {
    const team = await lockTeam(tx, input.teamId)
    if (!team) throw new Refused('teamNotFound')
    const callerIsMember = await tx
      .select({ id: participants.id })
      .from(participants)
      .where(and(eq(participants.teamId, team.id), eq(participants.userId, input.callerId)))
    // Outsiders learn nothing about who is in the team: they are refused before any member lookup.
    if (callerIsMember.length === 0) throw new Refused('notAMember')
    if (team.state !== 'REGISTRATION_OPEN') throw new Refused('changeClosed')
    if (input.userId === team.leaderId) throw new Refused('leaderNotRemovable')
    if (input.callerId !== team.leaderId && input.userId !== input.callerId) {
      throw new Refused('leaderOnlyRemove')
    }
    const removed = await tx
      .delete(participants)
      .where(and(eq(participants.teamId, team.id), eq(participants.userId, input.userId)))
      .returning({ id: participants.id })
    if (removed.length === 0) throw new Refused('memberNotFound')
  })
}

export interface DeleteTeamInput {
  callerId: number
  eventId: number
  teamId: number
}

async function deleteTeam(db: Db, input: DeleteTeamInput): Promise<void> {
  await db.transaction(async (tx) => {
    const team = await lockTeam(tx, input.teamId)
    if (!team || team.eventId !== input.eventId) throw new Refused('teamNotInEvent')
    if (team.leaderId !== input.callerId) throw new Refused('leaderOnlyDelete')
    if (team.state !== 'REGISTRATION_OPEN') throw new Refused('changeClosed')
    // Every member is unregistered from the event with the team (the foreign key would cascade too;
    // saying it here keeps the rule visible).
    await tx.delete(participants).where(eq(participants.teamId, team.id))
    await tx.delete(teams).where(eq(teams.id, team.id))
  })
}

export function teamsRepository(db: Db, generate: InviteCodeGenerator) {
  return {
    load: (teamId: number) => loadTeam(db, teamId),
    create: (input: CreateTeamInput): Promise<Outcome<Team>> => outcomeOf(() => createTeam(db, input, generate)),
    join: (input: JoinTeamInput): Promise<Outcome<Team>> => outcomeOf(() => joinTeam(db, input)),
    removeMember: (input: RemoveMemberInput): Promise<Outcome> => outcomeOf(() => removeMember(db, input)),
    delete: (input: DeleteTeamInput): Promise<Outcome> => outcomeOf(() => deleteTeam(db, input)),
  }
}

export type TeamsRepository = ReturnType<typeof teamsRepository>
