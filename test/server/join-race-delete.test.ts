// Issue 10, item 7: a join that loses a race with delete-team is not counted as a wrong invite code. On
// PostgreSQL the join really waits for the team's row lock while the leader's delete commits; on PGlite
// (one connection: transactions never interleave) the sequential cases are checked.
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Team } from '../../contract/types.ts'
import { schema } from '../../server/db/index.ts'
import { rowsOf } from '../../server/db/outcomes.ts'
import { TEAM_MESSAGES as M } from '../../server/routes/outcomes.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'
import { makeEvent, post } from './teams-fixtures.ts'

describe.each(DB_KINDS)('join racing delete-team on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind })
  })
  afterAll(() => t.close())

  async function teamOf(eventId: number) {
    const leader = await t.student()
    const res = await post(t, 'create-team/', { event_id: eventId, team_name: `Team ${Math.random()}` }, leader.auth)
    expect(res.status).toBe(200)
    return { leader, team: res.body.team as Team }
  }
  const attempts = async (userId: number) => (await t.app.joinAttempts.peek(`join:${userId}`)).remaining

  it('a wrong code is still counted as one', async () => {
    const eventId = await makeEvent(t)
    const joiner = await t.student()
    const before = await attempts(joiner.id)
    const res = await post(t, 'join-team/', { event_id: eventId, invite_code: 'ZZZZZ' }, joiner.auth)
    expect(res).toMatchObject({ status: 404, body: { message: M.unknownCode } })
    expect(await attempts(joiner.id)).toBe(before - 1)
  })

  it.runIf(kind === 'postgres')('a join waiting on the team while the leader deletes it is refused as team-not-found, and not counted', async () => {
    const eventId = await makeEvent(t)
    const { team } = await teamOf(eventId)
    const joiner = await t.student()
    const before = await attempts(joiner.id)
    let join: Promise<Awaited<ReturnType<typeof post>>> | undefined
    await t.database.db.transaction(async (tx) => {
      // The leader's delete-team, as the repository does it: the team locked, then its members and the team deleted.
      await tx.select({ id: schema.teams.id }).from(schema.teams).where(sql`${schema.teams.id} = ${team.id}`).for('update')
      join = post(t, 'join-team/', { event_id: eventId, invite_code: team.invite_code }, joiner.auth)
      // Until the join is blocked on the team's lock (seen in pg_locks), then commit the delete.
      for (let i = 0; i < 600; i++) {
        const waiting = rowsOf(await t.database.db.execute(sql`select 1 from pg_locks where not granted and locktype in ('transactionid', 'tuple')`))
        if (waiting.length > 0) break
        await new Promise((r) => setTimeout(r, 50)) // kept: the step of a poll for the lock wait
      }
      await tx.delete(schema.participants).where(sql`${schema.participants.teamId} = ${team.id}`)
      await tx.delete(schema.teams).where(sql`${schema.teams.id} = ${team.id}`)
    })
    const res = await join!
    expect(res).toMatchObject({ status: 404, body: { error: true, message: M.teamNotFound } })
    expect(await attempts(joiner.id)).toBe(before)
  })

  it('a join after the team was deleted is a wrong code (the code names no team)', async () => {
    const eventId = await makeEvent(t)
    const { leader, team } = await teamOf(eventId)
    expect((await post(t, 'delete-team/', { event_id: eventId, team_id: team.id }, leader.auth)).status).toBe(200)
    const joiner = await t.student()
    const res = await post(t, 'join-team/', { event_id: eventId, invite_code: team.invite_code }, joiner.auth)
    expect(res).toMatchObject({ status: 404, body: { message: M.unknownCode } })
  })
})
