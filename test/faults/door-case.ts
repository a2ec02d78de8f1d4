// Fault (d): a door device (the door's own model, src/stores/door.ts, run in Node against the real deployment) has
// scanned 200 tickets with no network; another gate meanwhile checks 20 of them in online. The device comes back
// and syncs its queue (chunks of 50) through the proxy; the first chunk is held in the database by a row lock, and
// the instance serving it is killed with SIGKILL. The device's sync retries (bounded, with jitter: SYNC_RETRIES)
// through the proxy to the other instance. Then: the queue is empty, every ticket scanned is checked in exactly once,
// every scan is recorded once under its scan_id, and the device reports as conflicts exactly the tickets the other
// gate let in (a chunk sent again is answered as the first time, never as a conflict with itself).
import { randomUUID } from 'node:crypto'
import { signal } from '@preact/signals'
import postgres from 'postgres'
import { expect } from 'vitest'
import { accessTokens } from '../../server/auth/tokens.ts'
import { openDatabase, schema } from '../../server/db/index.ts'
import { client } from '../../src/api/calls.ts'
import { doorApi } from '../../src/api/door-calls.ts'
import { memoryStorage } from '../../src/lib/kv-storage.ts'
import { DoorModel } from '../../src/stores/door.ts'
import { switchedNetwork } from '../fixtures/network.ts'
import { TIMEOUT_MS } from './rush.ts'
import { type Instance, until } from './support.ts'

const HOLDERS = 300
const OFFLINE_SCANS = 200
const OTHER_GATE = 20

interface Deployment {
  url: string
  instances: Instance[]
  stop(): Promise<void>
}

export async function doorCase(databaseUrl: string, jwtSecret: string, deploy: () => Promise<Deployment>) {
  const sign = accessTokens(new TextEncoder().encode(jwtSecret)).sign
  const database = await openDatabase({ url: databaseUrl, max: 2 })
  let eventId: number
  const codes: string[] = []
  let volunteer: string
  let otherVolunteer: string
  try {
    const db = database.db
    const [council] = await db.insert(schema.councils).values({ slug: 'door-faults', name: 'Door Council' }).returning({ id: schema.councils.id })
    const [event] = await db
      .insert(schema.events)
      .values({
        slug: 'door-gala',
        name: 'Door Gala',
        organizerId: council.id,
        state: 'ONGOING',
        isTicketFeatureEnabled: true,
        ticketCount: HOLDERS,
        dates: ['2026-12-01T19:00:00+05:30'],
        // Printed tickets: the device scans plain codes (the changing code, issue 25: test/server/rotating-codes.test.ts).
        rotatingCodes: false,
      })
      .returning({ id: schema.events.id })
    eventId = event.id
    const holders = await db
      .insert(schema.users)
      .values(Array.from({ length: HOLDERS }, (_, i) => ({ issuer: 'faults', subject: `h${i}`, email: `h${i}@example.edu`, name: `Holder ${i}` })))
      .returning({ id: schema.users.id })
    holders.forEach((_, i) => codes.push(String(4_000_000_000_000_000 + i)))
    await db
      .insert(schema.participants)
      .values(holders.map((u, i) => ({ eventId: event.id, userId: u.id, ticketCollected: true, ticketCode: codes[i], ticketCollectedAt: new Date() })))
    const staff = await db
      .insert(schema.users)
      .values([
        { issuer: 'faults', subject: 'gate-a', email: 'gate-a@example.edu', name: 'Gate A' },
        { issuer: 'faults', subject: 'gate-b', email: 'gate-b@example.edu', name: 'Gate B' },
      ])
      .returning({ id: schema.users.id })
    await db.insert(schema.eventStaff).values(staff.map((u) => ({ eventId: event.id, userId: u.id })))
    volunteer = await sign(staff[0].id, randomUUID())
    otherVolunteer = await sign(staff[1].id, randomUUID())
  } finally {
    await database.close()
  }

  const d = await deploy()
  const sql = postgres(databaseUrl, { max: 2, onnotice: () => {} })
  // The door store calls the app's client, which fetches '/api/v1/...' as a page on the app's origin would: here
  // the proxy's origin stands for it. Every request is counted and bounded as the client bounds it.
  const realFetch = globalThis.fetch
  let syncRequests = 0
  // The device's door model, as the door route builds it, but its network switched by the test and nothing kept.
  const network = switchedNetwork(true)
  const door = new DoorModel({ calls: doorApi, session: { user: signal(null) }, storage: memoryStorage(), network })
  let timedOut = 0
  let longestMs = 0
  globalThis.fetch = async (input, init) => {
    const url = new URL(String(input), d.url)
    if (url.pathname.endsWith('/door/p/sync')) syncRequests += 1
    const started = performance.now()
    try {
      return await realFetch(url, init)
    } catch (err) {
      if (init?.signal?.aborted) timedOut += 1
      throw err
    } finally {
      longestMs = Math.max(longestMs, performance.now() - started)
    }
  }
  try {
    client.setTokens(volunteer, 'not-used')
    await door.openDoor(eventId, 'Gate A')
    expect(door.tickets.value.size).toBe(HOLDERS)

    // The network goes: 200 scans are checked against the device's list and queued.
    network.set(false)
    const scanned = codes.slice(0, OFFLINE_SCANS)
    for (const code of scanned) expect((await door.scan(code))?.result).toBe('CHECKED_IN')
    expect(door.queue.value).toHaveLength(OFFLINE_SCANS)
    const scanIds = door.queue.value.map((s) => s.scan_id)

    // Meanwhile another gate, online, lets 20 of the same people in.
    const letInByB = scanned.slice(-OTHER_GATE)
    for (const code of letInByB) {
      const res = await realFetch(`${d.url}/api/v1/door/p/check-in`, {
        method: 'POST',
        headers: { authorization: `Bearer ${otherVolunteer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ event_id: eventId, ticket_code: code, scan_id: randomUUID(), gate: 'Gate B' }),
      })
      expect(res.status).toBe(200)
    }

    // The device is back and syncs; its first chunk waits on a row lock, and the instance serving it dies.
    let killed: Instance | undefined
    let killedAt = 0
    let synced: Promise<void> | undefined
    let syncedAt = 0
    await sql.begin(async (tx) => {
      await tx`SELECT id FROM participants WHERE event_id = ${eventId} FOR UPDATE`
      // The phone's 'online' event: the model sends its queue (and then fetches the list); this sync joins it.
      network.set(true)
      synced = door.syncNow().then(() => {
        syncedAt = performance.now()
      })
      let waiting = ''
      await until(
        'the sync waiting in the database',
        async () => {
          const rows =
            await sql`SELECT application_name FROM pg_stat_activity WHERE application_name LIKE 'campus-events %' AND wait_event_type = 'Lock' AND datname = current_database()`
          waiting = rows[0]?.application_name ?? ''
          return waiting !== ''
        },
        10_000,
      )
      const pid = Number(waiting.split(' ').pop())
      killed = d.instances.find((i) => i.child.pid === pid)
      expect(killed, `the instance with pid ${pid}`).toBeDefined()
      killed!.child.kill('SIGKILL')
      await new Promise((r) => killed!.child.once('exit', r))
      killedAt = performance.now()
    })
    const survivor = d.instances.find((i) => i !== killed)!
    const recovery = await until('the proxy serving from the survivor', async () => {
      for (let i = 0; i < 5; i++) if (!(await realFetch(`${d.url}/api/v1/health/ready`)).ok) return false
      return true
    })
    await synced
    const syncSeconds = (syncedAt - killedAt) / 1000

    // The device: nothing left to send, no error, and as conflicts exactly the tickets gate B let in.
    expect(door.error.value).toBeNull()
    expect(door.queue.value).toEqual([])
    expect(door.online.value).toBe(true)
    const rows = await sql`
      SELECT ticket_code, checked_in_at, checked_in_gate FROM participants WHERE event_id = ${eventId} AND ticket_code IN ${sql(scanned)}`
    expect(rows.filter((r) => r.checked_in_at === null)).toEqual([])
    const notByA = new Set(rows.filter((r) => r.checked_in_gate !== 'Gate A').map((r) => String(r.ticket_code)))
    expect(new Set(door.conflicts.value.map((c) => c.code))).toEqual(notByA)
    expect([...notByA].every((code) => letInByB.includes(code))).toBe(true)
    // Every scan of the device recorded once under its own scan_id; gate B's twenty beside them.
    const recorded = await sql`SELECT scan_id::text AS id FROM door_scans WHERE event_id = ${eventId}`
    const ids = recorded.map((r) => String(r.id))
    expect(new Set(ids).size).toBe(ids.length)
    expect(ids.filter((id) => scanIds.includes(id)).sort()).toEqual([...scanIds].sort())
    expect(ids).toHaveLength(OFFLINE_SCANS + OTHER_GATE)
    expect(timedOut).toBe(0)
    expect(longestMs).toBeLessThan(TIMEOUT_MS)
    expect(survivor.child.exitCode).toBeNull()

    const chunks = Math.ceil(OFFLINE_SCANS / 50)
    return {
      scans: OFFLINE_SCANS,
      checkedIn: rows.length,
      conflicts: door.conflicts.value.length,
      requests: syncRequests,
      retries: syncRequests - chunks,
      answers: { CHECKED_IN: OFFLINE_SCANS - door.conflicts.value.length, ALREADY_CHECKED_IN: door.conflicts.value.length },
      recovery,
      syncSecondsAfterKill: Math.round(syncSeconds * 100) / 100,
      timedOut,
      notes: `instance ${killed!.name} (pid ${killed!.child.pid}) killed while a sync chunk waited in the database; the device's sync was sent ${syncRequests} times for ${chunks} chunks and finished ${syncSeconds.toFixed(2)} s after the kill; ${door.conflicts.value.length} conflicts = the ${OTHER_GATE} tickets gate B let in`,
    }
  } finally {
    door.closeDoor()
    globalThis.fetch = realFetch
    await sql.end({ timeout: 5 })
    await d.stop()
  }
}
