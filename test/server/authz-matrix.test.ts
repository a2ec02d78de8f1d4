// Authorization matrix over every call of the contract (contract/api.ts) that test/server/teams.test.ts does not
// already cover (its matrix covers the four team calls): each role — signed out, a student, a team member, a team leader,
// another team's member — gets exactly what API.md allows, and the database changes exactly as the call says
// (a hash of every table before and after each row; a refusal changes nothing, a read changes nothing).
// Every row runs in a fresh world, so rows cannot influence each other.
import { randomBytes, randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSAGES as FORM } from '../../contract/messages.ts'
import type { Team } from '../../contract/types.ts'
import { startSession } from '../../server/db/people/sessions.ts'
import { accessTokens } from '../../server/auth/tokens.ts'
import { DOOR_MESSAGES as DOOR, MESSAGES as E } from '../../server/routes/outcomes.ts'
import { schema } from '../../server/db/index.ts'
import { FEED_MESSAGES } from '../../server/routes/feeds.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'
import { makeEvent, post } from './teams-fixtures.ts'

type Role = 'signedOut' | 'student' | 'member' | 'leader' | 'otherTeam'
const NOT_CHECKED_IN = 'Certificates are for participants checked in at the event: yours was not scanned at the door.'
const ROLES: Role[] = ['signedOut', 'student', 'member', 'leader', 'otherTeam']
const INVALID = { error: true, message: 'Invalid Token', code: 'INVALID_TOKEN' }
const PROFILE = {
  phone_number: '9123456780',
  roll_number: '16010122001',
  gender: 'FEMALE',
  year: 2027,
  branch: 'Artificial_Intelligence_And_Data_Science',
  interests: ['AI/ML'],
  degree: 'B.tech',
  college: 'KJSCE',
}

describe.each(DB_KINDS)('authorization matrix on %s', (kind) => {
  let t: TestApp
  let tables: string[]
  beforeAll(async () => {
    t = await testApp({ kind })
    const result = (await t.database.db.execute(
      sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
    )) as any
    tables = (result.rows ?? result).map((r: any) => r.table_name)
  }, 60_000)
  afterAll(() => t.close())

  /** Per table: a count and an md5 of all rows. */
  async function hashes(): Promise<Record<string, string>> {
    const q = tables
      .map((n) => `SELECT '${n}' AS t, count(*) || ':' || md5(coalesce(string_agg(x::text, '|' ORDER BY x::text), '')) AS h FROM "${n}" x`)
      .join(' UNION ALL ')
    const result = (await t.database.db.execute(sql.raw(q))) as any
    return Object.fromEntries((result.rows ?? result).map((r: any) => [r.t, r.h]))
  }
  const changed = (a: Record<string, string>, b: Record<string, string>) => tables.filter((n) => a[n] !== b[n])

  /** Individual events open, ticketed and completed; a team event with Alpha (leader + member) and Bravo. */
  async function world() {
    const open = await makeEvent(t, { maPpt: 1 })
    const teamEvent = await makeEvent(t, { maPpt: 3 })
    const tickets = await makeEvent(t, { maPpt: 1, state: 'TICKET_OPEN' })
    const completed = await makeEvent(t, { maPpt: 1, state: 'COMPLETED' })
    await t.database.db.update(schema.events).set({ isTicketFeatureEnabled: true, ticketCount: 10 }).where(sql`${schema.events.id} = ${tickets}`)
    // A fair opening whose draw has run (issue 36 item 3: its keys have a call of their own).
    const drawn = await makeEvent(t, { maPpt: 1, state: 'TICKET_OPEN' })
    const seed = randomBytes(32).toString('hex')
    const drawnKeys = ['0a'.repeat(32), 'f0'.repeat(32)]
    await t.database.db
      .update(schema.events)
      .set({ isTicketFeatureEnabled: true, ticketCount: 1, fairWindowSeconds: 60, fairSeed: seed, fairDrawnAt: new Date(), fairEntrantCount: 2 })
      .where(sql`${schema.events.id} = ${drawn}`)
    await t.database.db.insert(schema.fairDraws).values({ eventId: drawn, seed, entrants: 2, winners: 1, waitlisted: 1, keys: drawnKeys })
    const [student, member, leader, otherTeam, otherLeader] = [await t.student(), await t.student(), await t.student(), await t.student(), await t.student()]
    const alpha: Team = (await post(t, 'create-team/', { event_id: teamEvent, team_name: 'Alpha' }, leader.auth)).body.team
    await post(t, 'join-team/', { event_id: teamEvent, invite_code: alpha.invite_code }, member.auth)
    const bravo: Team = (await post(t, 'create-team/', { event_id: teamEvent, team_name: 'Bravo' }, otherLeader.auth)).body.team
    await post(t, 'join-team/', { event_id: teamEvent, invite_code: bravo.invite_code }, otherTeam.auth)
    // Everyone but the plain student is registered for the ticketed and the completed events.
    for (const u of [member, leader, otherTeam]) {
      await t.database.db.insert(schema.participants).values([
        { eventId: tickets, userId: u.id },
        { eventId: completed, userId: u.id },
      ])
    }
    const users = { student, member, leader, otherTeam }
    const sessions = Object.fromEntries(
      await Promise.all(
        Object.entries(users).map(async ([role, u]) => [
          role,
          await startSession({ db: t.database.db, tokens: accessTokens(new TextEncoder().encode(t.config.jwtSecret!)) }, u.id),
        ]),
      ),
    ) as Record<Exclude<Role, 'signedOut'>, { refreshToken: string }>
    const auth = (role: Role) => (role === 'signedOut' ? {} : users[role].auth)
    const idOf = (role: Role) => (role === 'signedOut' ? 0 : users[role].id)
    // The mobile number and student ID another signed-in student holds (unique among students, migration 0003).
    const stored = await t.database.db.select({ id: schema.users.id, phone: schema.users.phoneNumber, roll: schema.users.rollNumber }).from(schema.users)
    const heldByAnother = (role: Role) => stored.find((u) => u.id === (role === 'student' ? leader.id : student.id))!
    // A push subscription of a student outside the roles (a browser the roles do not own).
    const heldEndpoint = `https://push.example.com/held-${randomBytes(6).toString('hex')}`
    await t.database.db
      .insert(schema.pushSubscriptions)
      .values({ userId: otherLeader.id, endpoint: heldEndpoint, p256dh: 'BP' + 'A'.repeat(85), auth: 'A'.repeat(22) })
    // Activity points (issue 26): the completed event gives points, the member is its winner, and that entry has a
    // transcript code; every other role's record is empty, and nobody reads another's.
    await t.database.db
      .update(schema.events)
      .set({ activityPoints: { category: 'Technical', points: 10, per_day: false, winner: 20, volunteer: 0, organiser: 0 } })
      .where(sql`${schema.events.id} = ${completed}`)
    await t.database.db.insert(schema.eventWinners).values({ eventId: completed, userId: member.id })
    const pointCode = `P${randomBytes(5)
      .toString('hex')
      .toUpperCase()
      .replace(/[ILOU]/g, '7')}`.slice(0, 10)
    await t.database.db.insert(schema.pointCodes).values({ userId: member.id, eventId: completed, kind: 'WINNER', code: pointCode })
    // The inbox (issue 37 item 2): one message for each role, then one for a student outside the roles (the newest
    // id). None of them holds a push subscription, so no push is queued (the tick would send it mid-row).
    const outsider = await t.student()
    const inboxed = await t.database.db
      .insert(schema.inboxMessages)
      .values([
        ...Object.entries(users).map(([role, u]) => ({ userId: u.id, title: `For ${role}`, body: 'x', url: '/events' })),
        { userId: outsider.id, title: 'For another', body: 'x', url: '/events' },
      ])
      .returning({ id: schema.inboxMessages.id })
    const inboxTop = Math.max(...inboxed.map((m) => m.id))
    return {
      open,
      teamEvent,
      tickets,
      drawn,
      drawnKeys,
      completed,
      alpha,
      bravo,
      users,
      sessions,
      auth,
      idOf,
      heldByAnother,
      heldEndpoint,
      pointCode,
      inboxTop,
    }
  }
  type World = Awaited<ReturnType<typeof world>>

  interface Row {
    method?: 'GET' | 'POST'
    /** The answer is not in the API's `{error, ...}` shape (the OpenAPI document). */
    document?: boolean
    /** The answer is text, not JSON (the Prometheus metrics): `check` gets the text. */
    text?: boolean
    url: (w: World) => string
    body: (w: World, role: Role) => unknown
    /** Status (and message) per role; the signed-in roles not named get `others`. */
    expect: (role: Role) => { status: number; message?: string; writes?: string[] }
    check?: (w: World, role: Role, body: any) => void
  }

  const bearerOnly =
    (ok: Omit<ReturnType<Row['expect']>, 'status'> & { status?: number } = {}) =>
    (role: Role) =>
      role === 'signedOut' ? { status: 401, message: INVALID.message } : { status: 200, ...ok }

  const rows: Record<string, Row> = {
    'POST /user/p/me': {
      url: () => '/api/v1/user/p/me',
      body: () => true,
      expect: bearerOnly(),
      check: (w, role, body) => {
        expect(body.user.id).toBe(w.idOf(role))
        expect(Object.keys(body.user).sort()).toEqual([
          'branch',
          'college',
          'degree',
          'email',
          'gender',
          'id',
          'interests',
          'name',
          'phone_number',
          'photo_url',
          'roles',
          'roll_number',
          'year',
        ])
        expect(body.user.roles).toEqual({ admin: false, councils: [], door_events: [] })
        expect(body.unread).toBe(1)
      },
    },
    // The inbox (issue 37 item 2): any signed-in student, their own messages only.
    'POST /user/p/inbox': {
      url: () => '/api/v1/user/p/inbox',
      body: () => ({}),
      expect: bearerOnly(),
      check: (_w, role, body) => {
        expect(body.messages.map((m: { title: string }) => m.title)).toEqual([`For ${role}`])
        expect(body).toMatchObject({ unread: 1, more: false })
      },
    },
    'POST /user/p/inbox/read (up to another student’s newest id)': {
      url: () => '/api/v1/user/p/inbox/read',
      body: (w) => ({ up_to: w.inboxTop }),
      expect: bearerOnly({ writes: ['inbox_messages'] }),
      check: (_w, _role, body) => expect(body).toEqual({ error: false, unread: 0 }),
    },
    'POST /user/p/update (own profile)': {
      url: () => '/api/v1/user/p/update',
      // A phone and roll number of the caller's own: they are unique among students (migration 0003).
      body: (w, role) => ({
        ...PROFILE,
        phone_number: String(9_100_000_000 + w.idOf(role)),
        roll_number: `R-${w.idOf(role)}`,
        role: 'admin',
        email: 'takeover@example.edu',
      }),
      expect: bearerOnly({ writes: ['users'] }),
      check: (w, role, body) => {
        expect(body.user.id).toBe(w.idOf(role))
        expect(body.user.email).not.toBe('takeover@example.edu')
      },
    },
    'POST /user/p/update (a mobile number another student holds)': {
      url: () => '/api/v1/user/p/update',
      body: (w, role) => ({ ...PROFILE, phone_number: w.heldByAnother(role).phone, roll_number: `R-${w.idOf(role)}` }),
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 409, message: FORM.phoneTaken }),
    },
    'POST /user/p/update (a student ID another student holds, in lower case)': {
      url: () => '/api/v1/user/p/update',
      body: (w, role) => ({ ...PROFILE, phone_number: String(9_100_000_000 + w.idOf(role)), roll_number: w.heldByAnother(role).roll!.toLowerCase() }),
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 409, message: FORM.rollTaken }),
    },
    "POST /user/p/update (another student's id)": {
      url: () => '/api/v1/user/p/update',
      body: (w, role) => ({ ...PROFILE, id: role === 'student' ? w.users.leader.id : w.users.student.id }),
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 403, message: 'You can only update your own profile.' }),
    },
    'POST /event/p/get': {
      url: () => '/api/v1/event/p/get',
      body: () => true,
      expect: bearerOnly(),
      check: (w, role, body) => {
        const all = Object.values(body.events).flat() as any[]
        const teamEvent = all.find((e) => e.id === w.teamEvent)
        const mine =
          role === 'member' || role === 'leader' ? { id: w.alpha.id, name: 'Alpha' } : role === 'otherTeam' ? { id: w.bravo.id, name: 'Bravo' } : null
        if (mine) expect(teamEvent.Participant.team).toEqual(mine)
        else expect(teamEvent.Participant).toBe(false)
      },
    },
    'POST /event/p/get/me': {
      url: () => '/api/v1/event/p/get/me',
      body: () => undefined,
      expect: bearerOnly(),
      check: (w, role, body) => {
        const ids = body.events.map((e: any) => e.event.id).sort((a: number, b: number) => a - b)
        const expected = role === 'student' ? [] : [w.teamEvent, w.tickets, w.completed].sort((a, b) => a - b)
        expect(ids).toEqual(expected)
      },
    },
    'POST /event/p/get/{team event}': {
      url: (w) => `/api/v1/event/p/get/${w.teamEvent}`,
      body: () => undefined,
      expect: bearerOnly(),
      check: (w, role, body) => {
        const p = body.event.Participant
        if (role === 'student') return expect(p).toBe(false)
        const team = role === 'otherTeam' ? w.bravo : w.alpha
        expect(p.team.id).toBe(team.id)
        expect(p.team.invite_code).toBe(team.invite_code)
        // Nobody sees another team's invite code.
        const foreign = role === 'otherTeam' ? w.alpha.invite_code : w.bravo.invite_code
        expect(JSON.stringify(body)).not.toContain(`"${foreign}"`)
      },
    },
    'POST /event/p/get/{unknown id}': {
      url: () => '/api/v1/event/p/get/2147483647',
      body: () => undefined,
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 404, message: E.eventNotFound }),
    },
    'POST /event/p/get/{drawn fair opening} {keys: true}': {
      url: (w) => `/api/v1/event/p/get/${w.drawn}`,
      body: () => ({ keys: true }),
      expect: bearerOnly(),
      check: (w, _role, body) => expect(body.event.fair_start.keys).toEqual(w.drawnKeys),
    },
    'GET /event/p/draw-keys/{drawn fair opening}': {
      method: 'GET',
      url: (w) => `/api/v1/event/p/draw-keys/${w.drawn}`,
      body: () => undefined,
      expect: bearerOnly(),
      check: (w, _role, body) => expect(body).toEqual({ error: false, keys: w.drawnKeys }),
    },
    'GET /event/p/draw-keys/{event without a draw}': {
      method: 'GET',
      url: (w) => `/api/v1/event/p/draw-keys/${w.tickets}`,
      body: () => undefined,
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 404, message: E.notDrawnYet }),
    },
    'GET /event/p/draw-keys/{unknown id}': {
      method: 'GET',
      url: () => '/api/v1/event/p/draw-keys/2147483647',
      body: () => undefined,
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 404, message: E.eventNotFound }),
    },
    'POST /event/p/register-for-event (open individual event)': {
      url: () => '/api/v1/event/p/register-for-event',
      body: (w) => ({ event_id: w.open }),
      expect: bearerOnly({ message: E.registered, writes: ['participants'] }),
    },
    'POST /event/p/register-for-event (team event)': {
      url: () => '/api/v1/event/p/register-for-event',
      body: (w) => ({ event_id: w.teamEvent }),
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 403, message: E.teamEvent }),
    },
    'POST /event/p/claim-ticket': {
      url: () => '/api/v1/event/p/claim-ticket',
      body: (w) => ({ event_id: w.tickets }),
      expect: (role) =>
        role === 'signedOut'
          ? { status: 401 }
          : role === 'student'
            ? { status: 403, message: E.notRegistered }
            : { status: 200, message: E.ticketClaimed, writes: ['events', 'participants'] },
    },
    'POST /event/p/rate': {
      url: () => '/api/v1/event/p/rate',
      body: (w) => ({ event_id: w.completed, rating: 4 }),
      expect: (role) =>
        role === 'signedOut'
          ? { status: 401 }
          : role === 'student'
            ? { status: 403, message: E.notParticipant }
            : { status: 200, message: E.rated, writes: ['participants'] },
    },
    'POST /council/p/get': {
      url: () => '/api/v1/council/p/get',
      body: () => undefined,
      expect: bearerOnly(),
      check: (_w, _role, body) => expect(body.councils.length).toBeGreaterThan(0),
    },
    'POST /auth/refresh-token (own token)': {
      url: () => '/api/v1/auth/refresh-token',
      body: (w, role) => ({ refreshToken: role === 'signedOut' ? randomBytes(32).toString('base64url') : w.sessions[role].refreshToken }),
      // The token is the credential here: the bearer header plays no part, so every holder of a live token may trade it.
      expect: (role) => (role === 'signedOut' ? { status: 401, message: INVALID.message } : { status: 200, writes: ['refresh_families', 'refresh_tokens'] }),
    },
    'GET /health': {
      method: 'GET',
      url: () => '/api/v1/health',
      body: () => undefined,
      // Public: the proxy asks without a token; a bearer header changes nothing.
      expect: () => ({ status: 200 }),
      check: (_w, _role, body) => expect(body).toEqual({ error: false, status: 'ok' }),
    },
    // Operations (issue 27): public, for the orchestrator and the scraper; a bearer header changes nothing, and
    // outside production the metrics are open (METRICS_TOKEN and production: test/server/ops.test.ts).
    'GET /health/live': {
      method: 'GET',
      url: () => '/api/v1/health/live',
      body: () => undefined,
      expect: () => ({ status: 200 }),
      check: (_w, _role, body) => expect(body).toEqual({ error: false, status: 'live' }),
    },
    'GET /health/ready': {
      method: 'GET',
      url: () => '/api/v1/health/ready',
      body: () => undefined,
      expect: () => ({ status: 200 }),
      check: (_w, _role, body) => expect(body).toEqual({ error: false, status: 'ready' }),
    },
    'GET /metrics': {
      method: 'GET',
      text: true,
      url: () => '/api/v1/metrics',
      body: () => undefined,
      expect: () => ({ status: 200 }),
      check: (_w, _role, body) => expect(body).toContain('# TYPE campus_ticket_claims_total counter'),
    },
    'GET /openapi.json': {
      method: 'GET',
      document: true,
      url: () => '/api/v1/openapi.json',
      body: () => undefined,
      expect: () => ({ status: 200 }),
      check: (_w, _role, body) => expect(body.openapi).toBe('3.1.0'),
    },
    // The door (issue 12): none of these roles is on a door team, organises a council or is an admin.
    'POST /door/p/events': {
      url: () => '/api/v1/door/p/events',
      body: () => ({}),
      expect: bearerOnly(),
      check: (_w, _role, body) => expect(body.events).toEqual([]),
    },
    'POST /door/p/tickets': {
      url: () => '/api/v1/door/p/tickets',
      body: (w) => ({ event_id: w.tickets }),
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 403, message: DOOR.notDoor }),
    },
    'POST /door/p/check-in': {
      url: () => '/api/v1/door/p/check-in',
      body: (w) => ({ event_id: w.tickets, ticket_code: '4006381333931234', scan_id: randomUUID(), gate: 'North' }),
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 403, message: DOOR.notDoor }),
    },
    // Re-entry's scan out (issue 25 item 3): the same door roles as check-in.
    'POST /door/p/check-out': {
      url: () => '/api/v1/door/p/check-out',
      body: (w) => ({ event_id: w.tickets, ticket_code: '4006381333931234', scan_id: randomUUID(), gate: 'North' }),
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 403, message: DOOR.notDoor }),
    },
    'POST /door/p/check-in/undo': {
      url: () => '/api/v1/door/p/check-in/undo',
      body: (w) => ({ event_id: w.tickets, ticket_code: '4006381333931234' }),
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 403, message: DOOR.notDoor }),
    },
    'POST /door/p/sync': {
      url: () => '/api/v1/door/p/sync',
      body: (w) => ({
        event_id: w.tickets,
        scans: [{ ticket_code: '4006381333931234', scan_id: randomUUID(), gate: 'North', scanned_at: new Date().toISOString() }],
      }),
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 403, message: DOOR.notDoor }),
    },
    'POST /auth/logout': {
      url: () => '/api/v1/auth/logout',
      body: (w, role) => ({ refreshToken: role === 'signedOut' ? randomBytes(32).toString('base64url') : w.sessions[role].refreshToken }),
      expect: (role) => (role === 'signedOut' ? { status: 200 } : { status: 200, writes: ['refresh_families', 'refresh_tokens'] }),
    },
    // The organiser console (issue 11): none of these roles organises or administers anything, so every call is
    // 403 and writes nothing (test/server/org.test.ts walks admin, organisers and door volunteers through them).
    ...Object.fromEntries(
      (
        [
          ['POST /org/p/events', '/api/v1/org/p/events', () => ({})],
          ['POST /org/p/councils', '/api/v1/org/p/councils', () => ({})],
          ['POST /org/p/event/save (create)', '/api/v1/org/p/event/save', () => ({ name: 'Mine now', organizer_id: 1 })],
          ['POST /org/p/event/save (update)', '/api/v1/org/p/event/save', (w: World) => ({ id: w.open, name: 'Renamed' })],
          ['POST /org/p/event/state', '/api/v1/org/p/event/state', (w: World) => ({ event_id: w.open, state: 'COMPLETED' })],
          ['POST /org/p/event/participants', '/api/v1/org/p/event/participants', (w: World) => ({ event_id: w.open })],
          ['POST /org/p/event/staff', '/api/v1/org/p/event/staff', (w: World) => ({ event_id: w.open, email: 'someone@example.edu' })],
          ['POST /org/p/council/organizers', '/api/v1/org/p/council/organizers', () => ({ council_id: 1, email: 'someone@example.edu' })],
          ['POST /org/p/council/save', '/api/v1/org/p/council/save', () => ({ name: 'Takeover' })],
          ['POST /org/p/audit', '/api/v1/org/p/audit', () => ({})],
          // Activity points (issue 26): an event's points and winners are its organisers'; the rest admins'.
          ['POST /org/p/event/points', '/api/v1/org/p/event/points', (w: World) => ({ event_id: w.completed })],
          ['POST /org/p/event/winners (list)', '/api/v1/org/p/event/winners', (w: World) => ({ event_id: w.completed })],
          ['POST /org/p/event/winners (mark)', '/api/v1/org/p/event/winners', (w: World) => ({ event_id: w.completed, user_id: w.users.leader.id })],
          [
            'POST /org/p/event/winners (unmark)',
            '/api/v1/org/p/event/winners',
            (w: World) => ({ event_id: w.completed, user_id: w.users.member.id, remove: true }),
          ],
          ['POST /org/p/points/settings', '/api/v1/org/p/points/settings', () => ({})],
          ['POST /org/p/points/settings/save', '/api/v1/org/p/points/settings/save', () => ({ target: 1 })],
          ['POST /org/p/points/student', '/api/v1/org/p/points/student', () => ({ email: 'student1@example.edu', lateral_entry: true })],
          ['POST /org/p/points/below-target', '/api/v1/org/p/points/below-target', () => ({})],
          // The console's payments (issue 35): an event's organisers' and admins' (test/server/payments-org.test.ts walks them).
          ['POST /org/p/event/payments', '/api/v1/org/p/event/payments', (w: World) => ({ event_id: w.tickets })],
          ['POST /org/p/event/payment/confirm', '/api/v1/org/p/event/payment/confirm', (w: World) => ({ event_id: w.tickets, payment_id: 1 })],
          ['POST /org/p/event/payment/reject', '/api/v1/org/p/event/payment/reject', (w: World) => ({ event_id: w.tickets, payment_id: 1 })],
          // The organiser's refunds and cancel (issue 35): the event's organisers and admins only (test/server/org.test.ts).
          ['POST /org/p/payment/refunds', '/api/v1/org/p/payment/refunds', (w: World) => ({ event_id: w.tickets })],
          ['POST /org/p/payment/refund', '/api/v1/org/p/payment/refund', () => ({ payment_id: 1 })],
          ['POST /org/p/payment/refunded', '/api/v1/org/p/payment/refunded', () => ({ payment_id: 1 })],
          ['POST /org/p/event/cancel', '/api/v1/org/p/event/cancel', (w: World) => ({ event_id: w.tickets })],
        ] as const
      ).map(([name, url, body]) => [
        name,
        {
          url: () => url,
          body: (w: World) => body(w),
          expect: (role: Role) => (role === 'signedOut' ? { status: 401 } : { status: 403 }),
        } satisfies Row,
      ]),
    ),
    'GET /org/p/points/export.csv': {
      method: 'GET',
      url: () => '/api/v1/org/p/points/export.csv?year=2027',
      body: () => undefined,
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 403, message: 'Only admins can do this.' }),
    },
    // A student reads their own record only: an id in the body is no part of the call.
    'POST /user/p/points (with the winner’s id in the body)': {
      url: () => '/api/v1/user/p/points',
      body: (w) => ({ user_id: w.users.member.id }),
      expect: bearerOnly(),
      check: (_w, role, body) => {
        expect(body.record.total).toBe(role === 'member' ? 20 : 0)
        expect(body.record.entries.length).toBe(role === 'member' ? 1 : 0)
      },
    },
    'GET /user/p/points/transcript.pdf': {
      method: 'GET',
      text: true,
      url: () => '/api/v1/user/p/points/transcript.pdf',
      body: () => undefined,
      // The winner's entry already has its code: the transcript writes nothing new for anyone.
      expect: bearerOnly(),
      check: (_w, _role, body) => expect(body.startsWith('%PDF-')).toBe(true),
    },
    'GET /verify/{a transcript entry’s code}': {
      method: 'GET',
      text: true,
      url: (w) => `/api/v1/verify/${w.pointCode}`,
      body: () => undefined,
      // Public, as the certificates' codes: the code is what it is asked with.
      expect: () => ({ status: 200 }),
      check: (_w, _role, body) => {
        expect(body).toContain('<h1>Activity points verified</h1>')
        expect(body).toContain('<dt>Points</dt><dd>20</dd>')
      },
    },
    'GET /org/p/event/{id}/participants.csv': {
      method: 'GET',
      url: (w) => `/api/v1/org/p/event/${w.open}/participants.csv`,
      body: () => undefined,
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 403 }),
    },
    // Around the event: give back, waitlist, push (issue 13).
    'POST /event/p/release-ticket (no ticket held)': {
      url: () => '/api/v1/event/p/release-ticket',
      body: (w) => ({ event_id: w.tickets }),
      expect: (role) =>
        role === 'signedOut'
          ? { status: 401 }
          : role === 'student'
            ? { status: 403, message: E.notRegistered }
            : { status: 409, message: 'You do not hold a ticket for this event.' },
    },
    // Ticket transfer (issue 25): nobody here holds a ticket; the holder's rules come before the friend's.
    'POST /event/p/transfer-ticket (no ticket held)': {
      url: () => '/api/v1/event/p/transfer-ticket',
      body: (w) => ({ event_id: w.tickets, email: 'friend@example.edu' }),
      expect: (role) =>
        role === 'signedOut'
          ? { status: 401 }
          : role === 'student'
            ? { status: 403, message: E.notRegistered }
            : { status: 409, message: 'You do not hold a ticket for this event.' },
    },
    'POST /event/p/waitlist (join, tickets left)': {
      url: () => '/api/v1/event/p/waitlist',
      body: (w) => ({ event_id: w.tickets, join: true }),
      expect: (role) =>
        role === 'signedOut'
          ? { status: 401 }
          : role === 'student'
            ? { status: 403, message: E.notRegistered }
            : { status: 409, message: 'Tickets are still available: collect yours now.' },
    },
    'POST /event/p/waitlist (leave, not on it)': {
      url: () => '/api/v1/event/p/waitlist',
      body: (w) => ({ event_id: w.tickets, join: false }),
      expect: bearerOnly({ message: 'You are not on the waitlist.' }),
    },
    'GET /push/key': {
      method: 'GET',
      url: () => '/api/v1/push/key',
      body: () => undefined,
      expect: () => ({ status: 200 }),
      check: (_w, _role, body) => expect(body.publicKey).toMatch(/^[A-Za-z0-9_-]{80,}$/),
    },
    'POST /push/p/subscribe': {
      url: () => '/api/v1/push/p/subscribe',
      body: (_w, role) => ({
        subscription: {
          endpoint: `https://push.example.com/${role}-${randomBytes(4).toString('hex')}`,
          keys: { p256dh: 'BP' + 'A'.repeat(85), auth: 'A'.repeat(22) },
        },
      }),
      expect: bearerOnly({ writes: ['push_subscriptions'] }),
    },
    'POST /push/p/subscribe (an endpoint another student holds)': {
      url: () => '/api/v1/push/p/subscribe',
      body: (w) => ({ subscription: { endpoint: w.heldEndpoint, keys: { p256dh: 'BQ' + 'B'.repeat(85), auth: 'B'.repeat(22) } } }),
      // Issue 21 item 4: it stays that student's (it moved to the caller before); nothing is written.
      expect: (role) =>
        role === 'signedOut'
          ? { status: 401 }
          : { status: 409, message: 'These notifications are registered to another account on this browser. Turn notifications off and on again.' },
    },
    'POST /push/p/unsubscribe (unknown endpoint)': {
      url: () => '/api/v1/push/p/unsubscribe',
      body: () => ({ endpoint: 'https://push.example.com/nobody' }),
      expect: bearerOnly(),
    },
    'POST /org/p/event/notify (students are not organisers)': {
      url: () => '/api/v1/org/p/event/notify',
      body: (w) => ({ event_id: w.tickets, title: 'Hello', body: 'Doors open at 6', to: 'PARTICIPANTS' }),
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 403, message: 'Only organisers of this event’s council can do this.' }),
    },
    'POST /org/p/event/notify/status (students are not organisers)': {
      url: () => '/api/v1/org/p/event/notify/status',
      body: (w) => ({ event_id: w.tickets }),
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 403, message: 'Only organisers of this event’s council can do this.' }),
    },
    // ---- The calendar feed and certificates (issue 13) ----
    'POST /user/p/calendar': {
      url: () => '/api/v1/user/p/calendar',
      body: () => ({ rotate: false }),
      expect: bearerOnly({ writes: ['calendar_feeds'] }),
      check: (_w, _role, body) => expect(body.url).toMatch(/^http:\/\/app\.test\/api\/v1\/calendar\/[\w-]{43}\.ics$/),
    },
    'GET /calendar/{unknown secret}.ics': {
      method: 'GET',
      url: () => `/api/v1/calendar/${'x'.repeat(43)}.ics`,
      body: () => undefined,
      // Public: the secret is the credential; a bearer header opens nothing.
      expect: () => ({ status: 404, message: FEED_MESSAGES.unknownFeed }),
    },
    'GET /event/p/certificate/{completed event, nobody checked in}': {
      method: 'GET',
      url: (w) => `/api/v1/event/p/certificate/${w.completed}`,
      body: () => undefined,
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 403, message: NOT_CHECKED_IN }),
    },
    'GET /event/p/certificate/{event not completed}': {
      method: 'GET',
      url: (w) => `/api/v1/event/p/certificate/${w.tickets}`,
      body: () => undefined,
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 403, message: 'Certificates are ready once the event is completed.' }),
    },
    // The desk at the door (issue 35): the door's people only (test/server/payments-org.test.ts walks them).
    ...Object.fromEntries(
      (
        [
          ['POST /door/p/desk/find', '/api/v1/door/p/desk/find', (w: World) => ({ event_id: w.tickets, query: 'student1@example.edu' })],
          [
            'POST /door/p/desk/pay',
            '/api/v1/door/p/desk/pay',
            (w: World) => ({ event_id: w.tickets, user_id: w.users.member.id, method: 'CASH', key: 'matrix-key-1' }),
          ],
          ['POST /door/p/desk/totals', '/api/v1/door/p/desk/totals', (w: World) => ({ event_id: w.tickets })],
        ] as const
      ).map(([name, url, body]) => [
        name,
        {
          url: () => url,
          body: (w: World) => body(w),
          expect: (role: Role) =>
            role === 'signedOut'
              ? { status: 401 }
              : { status: 403, message: 'Only the door team of this event, its council’s organisers and admins can check tickets here.' },
        } satisfies Row,
      ]),
    ),
    'GET /payments/p/receipt/{a receipt of nobody here}': {
      method: 'GET',
      url: () => '/api/v1/payments/p/receipt/R-001001',
      body: () => undefined,
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 404, message: 'Payment not found.' }),
    },
    'GET /org/p/event/{id}/payments.csv (students are not organisers)': {
      method: 'GET',
      url: (w) => `/api/v1/org/p/event/${w.tickets}/payments.csv`,
      body: () => undefined,
      expect: (role) => (role === 'signedOut' ? { status: 401 } : { status: 403, message: 'Only organisers of this event’s council can do this.' }),
    },
    'GET /verify/{unknown code}': {
      method: 'GET',
      url: () => '/api/v1/verify/ZZZZZ-ZZZZZ',
      body: () => undefined,
      expect: () => ({ status: 404, message: FEED_MESSAGES.unknownCertificate }),
    },
  }
  const cases = Object.entries(rows).flatMap(([name, row]) => ROLES.map((role) => [`${name} as ${role}`, name, role] as const))

  // A row that writes for some role gets a fresh world for each role (what one role's call wrote must not decide the
  // next one's answer); a row that only reads or refuses shares one world among its roles (issue 23 item 6: the
  // worlds were most of this file's time). Sharing hides nothing: every call is still hashed before and after, so
  // a refusal or a read that wrote anything fails its own case.
  const writes = (row: Row) => ROLES.some((role) => (row.expect(role).writes ?? []).length > 0)
  const shared = new Map<string, Promise<World>>()
  const worldFor = (name: string) => {
    if (writes(rows[name])) return world()
    let w = shared.get(name)
    if (!w) shared.set(name, (w = world()))
    return w
  }

  it.each(cases)('%s', async (_title, name, role) => {
    const row = rows[name]
    const w = await worldFor(name)
    const before = await hashes()
    const body = row.body(w, role)
    const res = await t.app.inject({
      method: row.method ?? 'POST',
      url: row.url(w),
      headers: { ...w.auth(role), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      payload: body === undefined ? undefined : JSON.stringify(body),
    })
    const want = row.expect(role)
    expect(res.statusCode, res.body).toBe(want.status)
    const json = row.text && res.statusCode === 200 ? res.body : res.json()
    if (!row.document && !row.text) expect(json.error).toBe(want.status !== 200)
    if (want.status === 401) expect(json).toEqual(INVALID)
    if (want.message) expect(json.message).toBe(want.message)
    if (want.status === 200) row.check?.(w, role, json)
    const after = await hashes()
    // Logout keeps refresh rows but revokes them; a refusal or a read changes nothing at all.
    const allowed = want.status === 200 ? (want.writes ?? []) : []
    for (const table of changed(before, after)) expect(allowed, `${table} changed`).toContain(table)
    if (want.writes && want.status === 200) expect(changed(before, after).length).toBeGreaterThan(0)
  })
})
