// Migration 0017 (issue 25 item 3): the check-ins made before it become one admission each, on the event day
// contract/admission.ts dayOf would give them: the check-in's IST day when it is an event day, else the next event
// day, else the last; '' for an event with no dates.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { expect, it } from 'vitest'

const MIGRATIONS = fileURLToPath(new URL('../../server/db/migrations', import.meta.url))
const FILE = '0017_admission_days.sql'

it('turns each check-in made before it into an admission on its event day', async () => {
  // The migrations before 0017, then data, then 0017 itself.
  const dir = mkdtempSync(join(tmpdir(), 'admissions-migration-'))
  const pg = new PGlite()
  try {
    cpSync(MIGRATIONS, dir, { recursive: true })
    rmSync(join(dir, FILE))
    const journal = JSON.parse(readFileSync(join(dir, 'meta/_journal.json'), 'utf8'))
    journal.entries = journal.entries.filter((e: { tag: string }) => `${e.tag}.sql` !== FILE)
    writeFileSync(join(dir, 'meta/_journal.json'), JSON.stringify(journal))
    await migrate(drizzle(pg), { migrationsFolder: dir })
    await pg.exec(`
      INSERT INTO councils (id, slug, name) VALUES (1, 'c', 'C');
      INSERT INTO users (id, name, email, issuer, subject) VALUES (1, 'A', 'a@x', 'i', '1'), (2, 'B', 'b@x', 'i', '2'), (3, 'C', 'c@x', 'i', '3');
      INSERT INTO events (id, slug, name, organizer_id, dates, is_ticket_feature_enabled, ticket_count) VALUES
        (1, 'one', 'One', 1, '["2026-11-25T18:00:00+05:30"]', true, 10),
        (2, 'three', 'Three', 1, '["2026-11-25T10:00:00+05:30","2026-11-26T10:00:00+05:30","2026-11-27T10:00:00+05:30"]', true, 10),
        (3, 'none', 'None', 1, '[]', true, 10);
      INSERT INTO participants (id, event_id, user_id, ticket_collected, ticket_code, checked_in_at, checked_in_gate) VALUES
        (1, 1, 1, true, 'A', '2026-11-26T20:00:00+05:30', 'N'),
        (2, 2, 1, true, 'B', '2026-11-26T23:59:59+05:30', 'S'),
        (3, 2, 2, true, 'C', '2026-11-28T10:00:00+05:30', 'E'),
        (4, 2, 3, true, 'D', null, null),
        (5, 3, 1, true, 'E', '2026-11-26T10:00:00+05:30', 'W');`)
    for (const statement of readFileSync(join(MIGRATIONS, FILE), 'utf8').split('--> statement-breakpoint')) await pg.exec(statement)
    const { rows } = await pg.query('SELECT participant_id, day, gate, inside FROM admissions ORDER BY participant_id')
    expect(rows).toEqual([
      { participant_id: 1, day: '2026-11-25', gate: 'N', inside: true }, // a single-day event's one day
      { participant_id: 2, day: '2026-11-26', gate: 'S', inside: true }, // 23:59:59 IST on the 26th
      { participant_id: 3, day: '2026-11-27', gate: 'E', inside: true }, // after the last day: the last
      { participant_id: 5, day: '', gate: 'W', inside: true }, // no dates
    ])
    expect((await pg.query(`SELECT reentry FROM events WHERE id = 1`)).rows).toEqual([{ reentry: false }])
  } finally {
    await pg.close()
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
