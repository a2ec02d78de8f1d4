// Issue 14, item 8: a mobile number and a student ID belong to one student. /user/p/update answers 409 with a
// message naming the field when another student holds the value; the unique indexes of migration 0003 decide,
// so simultaneous updates to one number leave exactly one holder (PostgreSQL too when TEST_DATABASE_URL is
// set). And a database that already holds duplicates upgrades: the earliest account keeps the number.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { asc, eq, sql } from 'drizzle-orm'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MESSAGES } from '../../contract/messages.ts'
import { schema } from '../../server/db/index.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

const profile = (phone: string, roll: string) => ({
  phone_number: phone,
  roll_number: roll,
  gender: 'MALE',
  year: 2026,
  branch: 'Computer_Engineering',
  interests: ['WEB3'],
})

describe.each(DB_KINDS)('unique mobile numbers and student IDs on %s', (kind) => {
  let t: TestApp
  beforeAll(async () => {
    t = await testApp({ kind })
  })
  afterAll(() => t.close())

  const update = (auth: Record<string, string>, body: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/v1/user/p/update', headers: { 'content-type': 'application/json', ...auth }, payload: JSON.stringify(body) })
  const rowOf = async (id: number) => (await t.database.db.select().from(schema.users).where(eq(schema.users.id, id)))[0]
  const holders = async (column: 'phone_number' | 'roll_number', value: string) => {
    const rows = (await t.database.db.execute(sql`SELECT id FROM users WHERE lower(${sql.identifier(column)}) = lower(${value})`)) as any
    return (rows.rows ?? rows).map((r: { id: number }) => Number(r.id))
  }

  it('a mobile number another student holds answers 409 naming the field, and writes nothing', async () => {
    const [first, second] = [await t.student({ phoneNumber: null, rollNumber: null }), await t.student({ phoneNumber: null, rollNumber: null })]
    expect((await update(first.auth, profile('9811100001', 'P-1'))).statusCode).toBe(200)
    const before = await rowOf(second.id)
    const res = await update(second.auth, profile('9811100001', 'P-2'))
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({ error: true, message: MESSAGES.phoneTaken, code: 'PHONE_TAKEN' })
    expect(await rowOf(second.id)).toEqual(before)
  })

  it('a student ID another student holds, in any case, answers 409 naming the field, and writes nothing', async () => {
    const [first, second] = [await t.student({ phoneNumber: null, rollNumber: null }), await t.student({ phoneNumber: null, rollNumber: null })]
    expect((await update(first.auth, profile('9811100011', 'KJ-2027-42'))).statusCode).toBe(200)
    const before = await rowOf(second.id)
    const res = await update(second.auth, profile('9811100012', ' kj-2027-42 '))
    expect(res.statusCode).toBe(409)
    expect(res.json()).toEqual({ error: true, message: MESSAGES.rollTaken, code: 'ROLL_TAKEN' })
    expect(await rowOf(second.id)).toEqual(before)
  })

  it('a student sending their own number and ID again is not refused', async () => {
    const s = await t.student({ phoneNumber: null, rollNumber: null })
    expect((await update(s.auth, profile('9811100021', 'P-21'))).statusCode).toBe(200)
    const again = await update(s.auth, { ...profile('9811100021', 'P-21'), interests: ['AI/ML'] })
    expect(again.statusCode).toBe(200)
    expect(again.json().user.interests).toEqual(['AI/ML'])
  })

  it('20 students updating to one mobile number at once: exactly one holds it, 19 get 409', async () => {
    for (let round = 0; round < 3; round++) {
      const phone = `98222${String(round).padStart(5, '0')}`
      const students = await Promise.all(Array.from({ length: 20 }, () => t.student({ phoneNumber: null, rollNumber: null })))
      const answers = await Promise.all(students.map((s, i) => update(s.auth, profile(phone, `RACE-P-${round}-${i}`))))
      const statuses = answers.map((a) => a.statusCode).sort()
      expect(statuses).toEqual([200, ...Array(19).fill(409)])
      for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json().message).toBe(MESSAGES.phoneTaken)
      const winner = students[answers.findIndex((a) => a.statusCode === 200)]
      expect(await holders('phone_number', phone)).toEqual([winner.id])
    }
  })

  it('20 students updating to one student ID at once (mixed case): exactly one holds it, 19 get 409', async () => {
    for (let round = 0; round < 3; round++) {
      const roll = `Race-R-${round}`
      const students = await Promise.all(Array.from({ length: 20 }, () => t.student({ phoneNumber: null, rollNumber: null })))
      const answers = await Promise.all(
        students.map((s, i) => update(s.auth, profile(`9833${String(round * 100 + i).padStart(6, '0')}`, i % 2 ? roll.toUpperCase() : roll))),
      )
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, ...Array(19).fill(409)])
      for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json().message).toBe(MESSAGES.rollTaken)
      const winner = students[answers.findIndex((a) => a.statusCode === 200)]
      expect(await holders('roll_number', roll)).toEqual([winner.id])
    }
  })
})

describe('migration 0003 on a database that already holds duplicates', () => {
  const migrations = fileURLToPath(new URL('../../server/db/migrations', import.meta.url))

  /** The migrations folder as it was before 0003 (the journal cut after 0002). */
  function foldersBefore0003(): string {
    const dir = mkdtempSync(join(tmpdir(), 'migrations-0002-'))
    cpSync(migrations, dir, { recursive: true })
    const journal = JSON.parse(readFileSync(join(dir, 'meta/_journal.json'), 'utf8'))
    journal.entries = journal.entries.filter((e: { tag: string }) => e.tag < '0003')
    writeFileSync(join(dir, 'meta/_journal.json'), JSON.stringify(journal))
    return dir
  }

  it('keeps each number on the earliest account, clears it on the others (sent to onboarding again), then enforces it', async () => {
    const client = new PGlite()
    const db = drizzle(client, { schema })
    try {
      await migrate(db, { migrationsFolder: foldersBefore0003() })
      const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute))
      const user = (n: number, phone: string | null, roll: string | null, created: Date) => ({
        issuer: 'test',
        subject: `u${n}`,
        email: `u${n}@example.edu`,
        name: `U${n}`,
        phoneNumber: phone,
        rollNumber: roll,
        createdAt: created,
      })
      // Written in SQL with only the columns users had before 0003: later migrations add others to the schema.
      for (const r of [
        user(1, '9800000001', 'R-1', at(5)),
        user(2, '9800000001', 'R-2', at(1)), // the earliest holder of the phone
        user(3, '9800000001', 'r-1', at(9)), // the phone taken twice before, and R-1 in another case
        user(4, '9800000004', 'R-4', at(2)),
        user(5, null, null, at(3)), // nulls are never duplicates
        user(6, null, null, at(4)),
      ]) {
        await db.execute(sql`INSERT INTO users (issuer, subject, email, name, phone_number, roll_number, created_at)
          VALUES (${r.issuer}, ${r.subject}, ${r.email}, ${r.name}, ${r.phoneNumber}, ${r.rollNumber}, ${r.createdAt.toISOString()})`)
      }
      await migrate(db, { migrationsFolder: migrations })

      const rows = await db.select().from(schema.users).orderBy(asc(schema.users.id))
      expect(rows.map((r) => [r.subject, r.phoneNumber, r.rollNumber])).toEqual([
        ['u1', null, 'R-1'],
        ['u2', '9800000001', 'R-2'],
        ['u3', null, null],
        ['u4', '9800000004', 'R-4'],
        ['u5', null, null],
        ['u6', null, null],
      ])
      // From now on the index refuses a duplicate, whatever the case of a student ID.
      await expect(db.update(schema.users).set({ rollNumber: 'r-4' }).where(eq(schema.users.subject, 'u1'))).rejects.toThrow()
      await expect(db.update(schema.users).set({ phoneNumber: '9800000004' }).where(eq(schema.users.subject, 'u1'))).rejects.toThrow()
    } finally {
      await client.close()
    }
  })
})
