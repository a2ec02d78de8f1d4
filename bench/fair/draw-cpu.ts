// `npx tsx bench/fair/draw-cpu.ts` (issue 24): the draw alone, on PostgreSQL, without the HTTP server. A fresh
// database with DRAW_ENTRANTS (20,000) registered students, DRAW_EVENTS (4) ticketed events in TICKET_OPEN with
// every student in the draw, DRAW_TICKETS (2,000) tickets each, and a push subscription for DRAW_PUSH_SHARE (0.1) of
// the students (entrants written with their keys, as claims write them since migration 0013; DRAW_KEYS_AT_ENTRY=0
// without); then each event's draw through the server's own code (server/db/tickets/fair.ts drawNow: one transaction,
// fair_draw()), timed as wall time and as the CPU time of the PostgreSQL backend that ran it (read from
// /proc/<pid>/stat, so only where the database runs on this machine), with `uptime` beside each. Checked after each
// draw: tickets_sold = holders = tickets, waitlist = entrants - tickets. To compare with an older fair_draw(), run
// it on a checkout of that commit.
//
// Environment: DATABASE_URL or TEST_DATABASE_URL (an admin URL; a fresh database is made beside it and dropped).
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { sql as q } from 'drizzle-orm'
import postgres from 'postgres'
import { fairRepository } from '../../server/db/tickets/fair.ts'
import { openDatabase } from '../../server/db/index.ts'
import { rowsOf } from '../../server/db/outcomes.ts'
import { databases, median, uptime } from '../support.ts'

const ADMIN_URL = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://root@127.0.0.1:5432/test'
const ENTRANTS = Number(process.env.DRAW_ENTRANTS ?? 20_000)
const EVENTS = Number(process.env.DRAW_EVENTS ?? 4)
const TICKETS = Number(process.env.DRAW_TICKETS ?? 2_000)
const PUSH_SHARE = Number(process.env.DRAW_PUSH_SHARE ?? 0.1)
const KEYS_AT_ENTRY = process.env.DRAW_KEYS_AT_ENTRY !== '0'

/** CPU milliseconds a local process has used (utime + stime, in clock ticks of 10 ms), or null when unreadable. */
function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return null
  }
}

async function main() {
  const dbs = databases(ADMIN_URL, 'draw')
  const url = await dbs.fresh()
  // One connection: the draw's transaction runs on the backend whose CPU is read.
  const database = await openDatabase({ url, max: 1 })
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  await sql`INSERT INTO councils (slug, name) VALUES ('bench', 'Bench')`
  await sql`INSERT INTO users (issuer, subject, email, name) SELECT 'bench', 's' || g, 's' || g || '@x.edu', 'S' FROM generate_series(1, ${ENTRANTS}) g`
  await sql`INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth)
    SELECT id, 'https://push.test/' || id, 'k', 'a' FROM users WHERE random() < ${PUSH_SHARE}`
  const ids: number[] = []
  for (let i = 0; i < EVENTS; i++) {
    const [row] = await sql`
      INSERT INTO events (slug, name, organizer_id, state, is_ticket_feature_enabled, ticket_count, fair_window_seconds, fair_seed)
      VALUES (${`draw-${i}`}, 'Bench', (SELECT id FROM councils LIMIT 1), 'REGISTRATION_CLOSED', true, ${TICKETS}, 3600, ${randomBytes(32).toString('hex')})
      RETURNING id`
    await sql`INSERT INTO participants (event_id, user_id) SELECT ${row.id}, id FROM users`
    await sql`UPDATE events SET state = 'TICKET_OPEN' WHERE id = ${row.id}`
    // As claims write them (migration 0013: the key computed at entry), or keyless (DRAW_KEYS_AT_ENTRY=0: the draw computes them).
    if (KEYS_AT_ENTRY)
      await sql`INSERT INTO fair_entrants (event_id, user_id, key)
        SELECT ${row.id}, u.id, encode(sha256(p.pads[2] || sha256(p.pads[1] || convert_to(u.id::text, 'UTF8'))), 'hex')
          FROM users u, (SELECT fair_pads(fair_seed) AS pads FROM events WHERE id = ${row.id}) p`
    else await sql`INSERT INTO fair_entrants (event_id, user_id) SELECT ${row.id}, id FROM users`
    await sql`UPDATE events SET fair_draw_at = now() - interval '1 second' WHERE id = ${row.id}`
    ids.push(Number(row.id))
  }
  await sql`VACUUM ANALYZE`
  const [{ pid }] = rowsOf(await database.db.execute(q`SELECT pg_backend_pid() AS pid`)) as { pid: number }[]
  const fair = fairRepository(database.db)
  const walls: number[] = []
  const cpus: number[] = []
  console.log(`draws of ${ENTRANTS} entrants for ${TICKETS} tickets, ${Math.round(PUSH_SHARE * 100)}% with a push subscription; ${uptime()}`)
  for (const id of ids) {
    const cpu0 = cpuMs(Number(pid))
    const started = performance.now()
    const done = await fair.drawNow(id)
    const wall = performance.now() - started
    const cpu1 = cpuMs(Number(pid))
    const [c] = await sql`
      SELECT e.tickets_sold, (SELECT count(*)::int FROM participants p WHERE p.event_id = e.id AND p.ticket_collected) AS holders,
             (SELECT count(*)::int FROM waitlist w WHERE w.event_id = e.id) AS waitlist
        FROM events e WHERE e.id = ${id}`
    const ok = c.tickets_sold === TICKETS && c.holders === TICKETS && c.waitlist === ENTRANTS - TICKETS && done?.entrants === ENTRANTS
    walls.push(wall)
    if (cpu0 !== null && cpu1 !== null) cpus.push(cpu1 - cpu0)
    console.log(
      `draw: ${Math.round(wall)} ms wall, ${cpu0 === null || cpu1 === null ? '?' : cpu1 - cpu0} ms backend CPU; ${JSON.stringify(c)} ${ok ? 'ok' : 'WRONG'}; ${uptime()}`,
    )
  }
  console.log(`draw of ${ENTRANTS}: median ${Math.round(median(walls))} ms wall, ${cpus.length ? `${median(cpus)} ms backend CPU` : 'backend CPU unreadable'}`)
  await sql.end()
  await database.close()
  await dbs.dropAll()
}

await main()
