// Issue 21 item 1, "one slow caller sheds everyone": the load shedder took the fastest answer of each 100 ms window
// as the queue delay, so when only slow requests finished in a window every new arrival got 503. Three slow callers,
// each within its limits, made a student's polling of /event/p/get answer 503 again and again:
// - slow handlers: a door volunteer's 30 parallel /door/p/sync calls of 100 unknown codes each, and an organiser's
//   uploads of a 4 MB photo sent at a phone's pace;
// - slow readers: a client opening GET /uploads/<large image> every 50 ms and reading nothing (a tiny receive
//   window), giving up after a while.
// Shedding now goes by how long requests wait before their handler starts, never by how long answers take to
// finish, so none of them sheds the student. On loopback, through a listening server with the production overload
// settings, on PGlite and on PostgreSQL.
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OVERLOAD } from '../../server/plugins/overload.ts'
import { uploadsDirOf } from '../../server/plugins/uploads.ts'
import { doorWorld, type DoorWorld } from './door-fixtures.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'

const DOOR_CALLS = 30
const UNKNOWN_CODES = 100
const UPLOADERS = 2
const POLLS = 30

/** A multipart body with one image, as the console's upload sends it. */
function multipart(file: Buffer) {
  const boundary = `----b${randomBytes(8).toString('hex')}`
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`)
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
  return { body: Buffer.concat([head, file, tail]), contentType: `multipart/form-data; boundary=${boundary}` }
}

describe.each(DB_KINDS)('slow callers beside a student (%s)', (kind) => {
  let t: TestApp
  let port: number
  let world: DoorWorld
  let photo: Buffer
  const bigImage = `${randomBytes(16).toString('hex')}.webp`
  const shedReasons: string[] = []

  beforeAll(async () => {
    // Production's shedding by queue delay, which is what the slow callers fooled (issue 21 item 1). The event-loop
    // check is off here: it sheds when the whole process is starved of CPU, which a shared test machine does by
    // itself (one 503 at load 17 in a run beside other work), slow callers or not.
    t = await testApp({ kind, app: { overload: { ...OVERLOAD, maxEventLoopDelayMs: 0, onShed: (reason) => shedReasons.push(reason) } } })
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    port = (t.app.server.address() as { port: number }).port
    world = await doorWorld(t, { state: 'TICKET_OPEN' })
    // A large stored image (12 MB: more than loopback's socket buffers hold, so a reader that reads nothing keeps
    // its answer unfinished, as a phone with a tiny receive window does on a real network).
    const dir = uploadsDirOf(t.config)
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, bigImage), randomBytes(12 * 1024 * 1024))
    photo = await sharp({ create: { width: 2400, height: 1800, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
      .jpeg({ quality: 90 })
      .toBuffer()
  }, 180_000)
  afterAll(() => t.close())

  it('door syncs of unknown codes, slow uploads and slow readers running: the student polling /event/p/get gets no 503', async () => {
    let running = true
    const base = `http://127.0.0.1:${port}/api/v1`
    const attackers: Promise<unknown>[] = []
    const attackerStatuses: number[] = []

    // 30 door syncs at a time, each of 100 codes of no ticket.
    const sync = async () => {
      while (running) {
        const scans = Array.from({ length: UNKNOWN_CODES }, () => ({
          ticket_code: `X${randomBytes(6).toString('hex')}`,
          scan_id: randomUUID(),
          gate: 'North',
          scanned_at: new Date().toISOString(),
        }))
        const res = await fetch(`${base}/door/p/sync`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...world.users.door.auth },
          body: JSON.stringify({ event_id: world.eventId, scans }),
        }).catch(() => null)
        if (res) {
          attackerStatuses.push(res.status)
          await res.arrayBuffer()
        }
      }
    }
    for (let i = 0; i < DOOR_CALLS; i++) attackers.push(sync())

    // An organiser's uploads, each body sent in 64 KB pieces every 20 ms (a phone's upload pace).
    const upload = () =>
      new Promise<void>((resolve) => {
        const { body, contentType } = multipart(photo)
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/v1/org/p/upload',
            headers: { 'content-type': contentType, 'content-length': body.length, ...world.users.organiser.auth },
          },
          (res) => {
            attackerStatuses.push(res.statusCode ?? 0)
            res.resume()
            res.on('end', resolve)
          },
        )
        req.on('error', () => resolve())
        let at = 0
        const next = () => {
          if (at >= body.length) return req.end()
          req.write(body.subarray(at, at + 64 * 1024))
          at += 64 * 1024
          setTimeout(next, 20)
        }
        next()
      })
    for (let i = 0; i < UPLOADERS; i++)
      attackers.push(
        (async () => {
          while (running) await upload()
        })(),
      )

    // A reader of the large image every 50 ms that reads nothing, and gives up after 1.5 s.
    const readers = new Set<Socket>()
    const opener = setInterval(() => {
      const socket = connect({ port, host: '127.0.0.1' })
      socket.on('error', () => {})
      socket.pause()
      readers.add(socket)
      socket.write(`GET /uploads/${bigImage} HTTP/1.1\r\nHost: x\r\n\r\n`)
      setTimeout(() => {
        socket.destroy()
        readers.delete(socket)
      }, 1500)
    }, 50)

    try {
      // Let every kind of slow caller finish some requests first.
      await new Promise((r) => setTimeout(r, 2000)) // kept: the slow callers under way, the window the test is about
      const statuses: number[] = []
      for (let i = 0; i < POLLS; i++) {
        const res = await fetch(`${base}/event/p/get`, { method: 'POST', headers: world.users.student.auth, signal: AbortSignal.timeout(30_000) }).catch(
          () => null,
        )
        statuses.push(res?.status ?? 0)
        await res?.arrayBuffer()
        await new Promise((r) => setTimeout(r, 150)) // kept: spreads the polls over the attack
      }
      const count = (s: number) => statuses.filter((x) => x === s).length
      expect({ 200: count(200), 503: count(503), other: statuses.length - count(200) - count(503) }, `shed: ${shedReasons.join(', ')}`).toEqual({
        200: POLLS,
        503: 0,
        other: 0,
      })
      // The slow callers were real: their calls were answered (not refused) while the student polled.
      expect(attackerStatuses.filter((s) => s === 200).length).toBeGreaterThan(0)
    } finally {
      running = false
      clearInterval(opener)
      for (const s of readers) s.destroy()
      await Promise.all(attackers)
    }
  }, 120_000)
})
