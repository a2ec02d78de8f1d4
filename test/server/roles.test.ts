// API.md Part 2 "Roles": `role:grant`/`role:revoke` in the operator CLI, `roles` in /user/p/me, the checks the
// organiser and door calls are built on (read fresh from the database on every call), and the audit log of the
// operator's grants.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CliError, runCommand } from '../../server/cli/commands.ts'
import { accessTokens } from '../../server/auth/tokens.ts'
import { auditRepository } from '../../server/db/audit.ts'
import { rolesRepository } from '../../server/db/people/roles.ts'
import { schema } from '../../server/db/index.ts'
import { testApp, type TestApp } from './helpers.ts'
import { makeEvent } from './teams-fixtures.ts'

describe('roles', () => {
  let t: TestApp
  let run: (...argv: string[]) => Promise<string>
  beforeAll(async () => {
    t = await testApp()
    const tokens = accessTokens(new TextEncoder().encode(t.config.jwtSecret!))
    run = (...argv) => runCommand(argv, { db: t.database.db, tokens })
  }, 60_000)
  afterAll(() => t.close())

  const me = async (auth: { authorization: string }) =>
    (await t.app.inject({ method: 'POST', url: '/api/v1/user/p/me', headers: { 'content-type': 'application/json', ...auth }, payload: 'true' })).json()

  async function councilOf(eventId: number) {
    return (await rolesRepository(t.database.db).eventAccess(0, eventId))!.councilId
  }

  it('a student has no roles; /user/p/me says so', async () => {
    const s = await t.student()
    expect((await me(s.auth)).user.roles).toEqual({ admin: false, councils: [], door_events: [] })
  })

  it('role:grant admin, organizer <council_id>; role:revoke takes them back; /user/p/me follows at once', async () => {
    const s = await t.student({ email: 'Asha.Organiser@Example.edu' })
    const eventId = await makeEvent(t)
    const councilId = await councilOf(eventId)

    const granted = JSON.parse(await run('role:grant', 'asha.organiser@example.edu', 'organizer', String(councilId)))
    expect(granted).toEqual({ email: 'asha.organiser@example.edu', users: [s.id], roles: { admin: false, councils: [councilId], door_events: [] } })
    expect((await me(s.auth)).user.roles).toEqual({ admin: false, councils: [councilId], door_events: [] })
    expect(await rolesRepository(t.database.db).eventAccess(s.id, eventId)).toEqual({ councilId, manage: true, door: true })

    JSON.parse(await run('role:grant', 'ASHA.ORGANISER@EXAMPLE.EDU', 'admin'))
    expect((await me(s.auth)).user.roles.admin).toBe(true)

    await run('role:revoke', 'asha.organiser@example.edu', 'organizer', String(councilId))
    await run('role:revoke', 'asha.organiser@example.edu', 'admin')
    expect((await me(s.auth)).user.roles).toEqual({ admin: false, councils: [], door_events: [] })
    expect(await rolesRepository(t.database.db).eventAccess(s.id, eventId)).toEqual({ councilId, manage: false, door: false })

    const log = await auditRepository(t.database.db).list()
    expect(log.slice(0, 4).map((e) => [e.actor_kind, e.action])).toEqual([
      ['cli', 'role.revoke'],
      ['cli', 'role.revoke'],
      ['cli', 'role.grant'],
      ['cli', 'role.grant'],
    ])
    expect(log[3].after).toEqual({ email: 'asha.organiser@example.edu', role: 'organizer', council_id: councilId, users: [s.id] })
  })

  it('councils lists each council’s id, slug, name and organisers; organizer takes a council’s slug as well as its id (issue 22 item 4)', async () => {
    const s = await t.student({ email: 'slug.organiser@example.edu' })
    const eventId = await makeEvent(t)
    const councilId = await councilOf(eventId)
    const listed = JSON.parse(await run('councils')) as { id: number; slug: string; name: string; organizers: string[] }[]
    const council = listed.find((c) => c.id === councilId)!
    expect(council).toEqual({ id: councilId, slug: expect.any(String), name: expect.any(String), organizers: expect.any(Array) })
    expect(council.organizers).not.toContain('slug.organiser@example.edu')
    const granted = JSON.parse(await run('role:grant', 'slug.organiser@example.edu', 'organizer', council.slug.toUpperCase()))
    expect(granted.roles.councils).toEqual([councilId])
    expect((await me(s.auth)).user.roles.councils).toEqual([councilId])
    expect(JSON.parse(await run('councils')).find((c: { id: number }) => c.id === councilId).organizers).toContain('slug.organiser@example.edu')
    await run('role:revoke', 'slug.organiser@example.edu', 'organizer', council.slug)
    expect((await me(s.auth)).user.roles.councils).toEqual([])
    await expect(run('councils', 'extra')).rejects.toThrow('Usage: npm run cli -- councils')
  })

  it('every account with the e-mail gets the role (a Google sign-in and a support account)', async () => {
    const google = await t.student({ email: 'two@example.edu', issuer: 'https://accounts.google.com' })
    const support = await t.student({ email: 'two@example.edu', issuer: 'cli' })
    const out = JSON.parse(await run('role:grant', 'two@example.edu', 'admin'))
    expect(out.users).toEqual([google.id, support.id])
    expect((await me(support.auth)).user.roles.admin).toBe(true)
  })

  it('door volunteers: door access at their event only, listed in door_events', async () => {
    const s = await t.student({ email: 'door@example.edu' })
    const [a, b] = [await makeEvent(t), await makeEvent(t)]
    await rolesRepository(t.database.db).setStaff('door@example.edu', a, true)
    expect((await me(s.auth)).user.roles).toEqual({ admin: false, councils: [], door_events: [a] })
    expect(await rolesRepository(t.database.db).eventAccess(s.id, a)).toMatchObject({ manage: false, door: true })
    expect(await rolesRepository(t.database.db).eventAccess(s.id, b)).toMatchObject({ manage: false, door: false })
    expect(await rolesRepository(t.database.db).staffOf(a)).toEqual([{ id: s.id, name: expect.any(String), email: 'door@example.edu' }])
  })

  it('refuses what it cannot do with a message that says what to do, changing nothing', async () => {
    const before = await t.database.db.select().from(schema.councilOrganizers)
    await expect(run('role:grant', 'nobody@example.edu', 'admin')).rejects.toThrow(/has signed in yet: ask them to sign in once/)
    await expect(run('role:grant', 'x@example.edu', 'organizer', '999999')).rejects.toThrow(/No council with id 999999 \(councils: /)
    await expect(run('role:grant', 'x@example.edu', 'organizer')).rejects.toThrow(/council id must be a positive whole number/)
    await expect(run('role:grant', 'x@example.edu', 'organizer', 'no-such-council')).rejects.toThrow(
      /No council with slug "no-such-council" \(councils: \d+ [a-z0-9-]+ \(/,
    )
    await expect(run('role:grant', 'x@example.edu', 'king')).rejects.toThrow(/Unknown role "king"/)
    await expect(run('role:grant', 'not-an-email', 'admin')).rejects.toThrow(/is not an e-mail address/)
    await expect(run('role:grant')).rejects.toBeInstanceOf(CliError)
    expect(await t.database.db.select().from(schema.councilOrganizers)).toEqual(before)
  })
})
