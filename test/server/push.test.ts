// Web Push (issue 13): a browser's side played by the test. A key pair is generated (ECDH P-256 and a 16-byte
// auth secret) and subscribed with an endpoint on a local HTTP server; what the server sends there is decrypted
// by RFC 8291 (aes128gcm, RFC 8188; test/fixtures/web-push.ts), and must read as the expected title and link.
// A push service answering 410 (or 404) gets the subscription deleted. Also: the VAPID key, subscribe and
// unsubscribe, what queues a notification (an offer, tickets opening, the reminder, an organiser's message with
// its roles and its limit of 5 a day).
import { randomBytes } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { schema } from '../../server/db/index.ts'
import { generateVapidKeys } from '../../server/push/vapid.ts'
import { decryptPush, type LocalService, localService, pushKeys, subscriptionKeys } from '../fixtures/web-push.ts'
import { testApp, type TestApp } from './helpers.ts'
import { makeEvent, post, setState } from './teams-fixtures.ts'

interface Received {
  path: string
  headers: IncomingHttpHeaders
  body: Buffer
}

describe('web push', () => {
  let t: TestApp
  let service: LocalService
  let base: string
  let received: Received[] = []
  let answer = 201
  beforeAll(async () => {
    t = await testApp({ app: { aroundIntervalMs: false } })
    service = await localService((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c) => chunks.push(c))
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) })
        res.statusCode = answer
        res.end()
      })
    })
    base = service.base
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await service.close()
  })
  beforeEach(() => {
    received = []
    answer = 201
  })

  /** A browser: its keys, subscribed for a new student. */
  async function browser(student?: Awaited<ReturnType<TestApp['student']>>) {
    const s = student ?? (await t.student())
    const keys = pushKeys()
    const endpoint = `${base}/push/${randomBytes(6).toString('hex')}`
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/push/p/subscribe',
      headers: { 'content-type': 'application/json', ...s.auth },
      payload: {
        subscription: { endpoint, expirationTime: null, keys: subscriptionKeys(keys) },
      },
    })
    expect(res.json()).toEqual({ error: false })
    return { student: s, endpoint, read: (r: Received) => JSON.parse(decryptPush(r.body, keys)) }
  }
  /** What reached this browser so far, decrypted (the routes also start a send of their own, in the background). */
  async function inbox(b: Awaited<ReturnType<typeof browser>>, n: number) {
    await t.app.pushSender.drain()
    const path = new URL(b.endpoint).pathname
    for (let i = 0; i < 100 && received.filter((r) => r.path === path).length < n; i++) await new Promise((r) => setTimeout(r, 50)) // kept: the step of a poll for the deliveries
    return received.filter((r) => r.path === path).map((r) => b.read(r))
  }
  const subscriptions = (endpoint: string) => t.database.db.select().from(schema.pushSubscriptions).where(eq(schema.pushSubscriptions.endpoint, endpoint))

  it('GET /push/key answers the VAPID public key (an uncompressed P-256 point)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/push/key' })
    const key = Buffer.from(res.json().publicKey, 'base64url')
    expect(key.length).toBe(65)
    expect(key[0]).toBe(4)
  })

  it('sends an encrypted message the browser decrypts to the title and link, signed with VAPID', async () => {
    const b = await browser()
    await t.app.pushRepository.queue([b.student.id], { title: 'Hello', body: 'A test', url: '/event-details/7', tag: 't' })
    expect(await t.app.pushSender.drain()).toEqual({ sent: 1, gone: 0, failed: 0, retrying: 0 })
    expect(received).toHaveLength(1)
    const [r] = received
    expect(r.path).toBe(new URL(b.endpoint).pathname)
    expect(r.headers['content-encoding']).toBe('aes128gcm')
    expect(r.headers.ttl).toBeDefined()
    expect(r.headers.authorization).toMatch(new RegExp(`^vapid t=[^,]+, k=${t.app.vapid.publicKey}$`))
    expect(b.read(r)).toEqual({ title: 'Hello', body: 'A test', url: '/event-details/7', tag: 't' })
    // Sent once: the outbox is empty now.
    expect(await t.app.pushSender.drain()).toEqual({ sent: 0, gone: 0, failed: 0, retrying: 0 })
  })

  it('a subscription the push service answers 410 or 404 for is deleted; a 500 keeps it (and is retried: push-retry.test.ts)', async () => {
    const gone = await browser()
    answer = 410
    await t.app.pushRepository.queue([gone.student.id], { title: 'x', body: 'y', url: '/' })
    expect(await t.app.pushSender.drain()).toEqual({ sent: 0, gone: 1, failed: 0, retrying: 0 })
    expect(await subscriptions(gone.endpoint)).toEqual([])
    const missing = await browser()
    answer = 404
    await t.app.pushRepository.queue([missing.student.id], { title: 'x', body: 'y', url: '/' })
    await t.app.pushSender.drain()
    expect(await subscriptions(missing.endpoint)).toEqual([])
    const flaky = await browser()
    answer = 500
    await t.app.pushRepository.queue([flaky.student.id], { title: 'x', body: 'y', url: '/' })
    expect(await t.app.pushSender.drain()).toEqual({ sent: 0, gone: 0, failed: 1, retrying: 1 })
    expect(await subscriptions(flaky.endpoint)).toHaveLength(1)
  })

  it('unsubscribe forgets only the caller’s endpoint; a student without a subscription gets the message in the inbox and nothing queued for push', async () => {
    const b = await browser()
    const other = await t.student()
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/push/p/unsubscribe',
      headers: { 'content-type': 'application/json', ...other.auth },
      payload: { endpoint: b.endpoint },
    })
    expect(res.json()).toEqual({ error: false })
    expect(await subscriptions(b.endpoint)).toHaveLength(1)
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/push/p/unsubscribe',
      headers: { 'content-type': 'application/json', ...b.student.auth },
      payload: { endpoint: b.endpoint },
    })
    expect(await subscriptions(b.endpoint)).toEqual([])
    // Both inboxes get it (issue 37 item 2); the outbox gets nothing: neither holds a subscription now.
    expect(await t.app.pushRepository.queue([b.student.id, other.id], { title: 'x', body: 'y', url: '/' })).toBe(2)
    const outbox = await t.database.db.select().from(schema.pushOutbox).where(sql`${schema.pushOutbox.userId} IN (${b.student.id}, ${other.id})`)
    expect(outbox).toEqual([])
    const inboxes = await t.database.db
      .select({ userId: schema.inboxMessages.userId, title: schema.inboxMessages.title })
      .from(schema.inboxMessages)
      .where(sql`${schema.inboxMessages.userId} IN (${b.student.id}, ${other.id})`)
    expect(inboxes.sort((x, y) => x.userId - y.userId)).toEqual([b.student.id, other.id].sort((x, y) => x - y).map((userId) => ({ userId, title: 'x' })))
  })

  it('refuses a malformed subscription with 400 naming the field, writing nothing', async () => {
    const s = await t.student()
    const bad = [
      [{}, 'subscription is a required field'],
      [{ subscription: { endpoint: 'not a url', keys: { p256dh: 'A', auth: 'B' } } }, 'endpoint must be an https URL'],
      [{ subscription: { endpoint: 'https://push.example.com/1' } }, 'subscription.keys is a required field'],
      [{ subscription: { endpoint: 'https://push.example.com/1', keys: { p256dh: 'a b', auth: 'B' } } }, 'subscription.keys.p256dh must be base64url text'],
    ] as const
    for (const [payload, message] of bad) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/push/p/subscribe', headers: { 'content-type': 'application/json', ...s.auth }, payload })
      expect(res.statusCode).toBe(400)
      expect(res.json().message).toBe(message)
    }
    expect(await t.database.db.select().from(schema.pushSubscriptions).where(eq(schema.pushSubscriptions.userId, s.id))).toEqual([])
  })

  it('notifies: tickets open for registered students, a waitlist offer with its deadline, the reminder an hour before', async () => {
    const eventId = await makeEvent(t, { maPpt: 1, state: 'REGISTRATION_OPEN' })
    await t.database.db.update(schema.events).set({ isTicketFeatureEnabled: true, ticketCount: 1, name: 'Robo Wars' }).where(eq(schema.events.id, eventId))
    const holder = await browser()
    const waiting = await browser()
    for (const s of [holder, waiting]) expect((await post(t, 'register-for-event', { event_id: eventId }, s.student.auth)).status).toBe(200)
    await setState(t, eventId, 'TICKET_OPEN')
    for (const b of [holder, waiting])
      expect(await inbox(b, 1)).toEqual([expect.objectContaining({ title: 'Tickets are open', url: `/event-details/${eventId}` })])
    received = []
    expect((await post(t, 'claim-ticket', { event_id: eventId }, holder.student.auth)).status).toBe(200)
    expect((await post(t, 'waitlist', { event_id: eventId, join: true }, waiting.student.auth)).status).toBe(200)
    expect((await post(t, 'release-ticket', { event_id: eventId }, holder.student.auth)).status).toBe(200)
    const [offer] = await inbox(waiting, 1)
    expect(received).toHaveLength(1)
    expect(offer).toMatchObject({ title: 'A ticket is held for you', url: `/event-details/${eventId}` })
    expect(offer.body).toMatch(/^Claim your ticket for Robo Wars by \d{1,2}:\d\d [AP]M\.$/)
    received = []
    expect((await post(t, 'claim-ticket', { event_id: eventId }, waiting.student.auth)).status).toBe(200)
    // The give-back kicked a tick that is not awaited: join it, or it may queue the reminder after the move below.
    await t.app.aroundJobs.tick()
    await t.database.db.update(schema.events).set({ startsAt: sql`now() + interval '50 minutes'`, venue: 'Main Hall' }).where(eq(schema.events.id, eventId))
    expect(await t.app.pushRepository.queueReminders()).toBe(1)
    expect(await t.app.pushRepository.queueReminders()).toBe(0) // once
    expect(await inbox(waiting, 1)).toEqual([expect.objectContaining({ title: 'Robo Wars starts soon', url: `/ticket/${eventId}` })])
  })

  it('organiser message: organisers of the council and admins only, to the audience chosen, at most 5 a day, audited', async () => {
    const eventId = await makeEvent(t, { maPpt: 1, state: 'TICKET_OPEN' })
    const [{ councilId }] = await t.database.db.select({ councilId: schema.events.organizerId }).from(schema.events).where(eq(schema.events.id, eventId))
    const organiser = await t.student()
    await t.database.db.insert(schema.councilOrganizers).values({ councilId, userId: organiser.id })
    const admin = await t.student({ isAdmin: true } as never)
    const student = await t.student()
    const attendee = await browser()
    const registered = await browser()
    await t.database.db.update(schema.events).set({ isTicketFeatureEnabled: true, ticketCount: 5 }).where(eq(schema.events.id, eventId))
    await t.database.db.insert(schema.participants).values([
      { eventId, userId: attendee.student.id },
      { eventId, userId: registered.student.id },
    ])
    expect((await post(t, 'claim-ticket', { event_id: eventId }, attendee.student.auth)).status).toBe(200)
    const notify = (who: { auth: { authorization: string } }, body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/org/p/event/notify',
        headers: { 'content-type': 'application/json', ...who.auth },
        payload: { event_id: eventId, title: 'Gate 2', body: 'Use gate 2 tonight.', to: 'TICKET_HOLDERS', ...body },
      })
    expect((await notify(student, {})).statusCode).toBe(403)
    expect((await notify(organiser, { title: '' })).json()).toEqual({ error: true, message: 'title is a required field', code: 'INVALID_INPUT' })
    expect((await notify(organiser, { to: 'ALL' })).statusCode).toBe(400)
    expect((await notify(organiser, { event_id: 2147483647 })).statusCode).toBe(404)
    const first = await notify(organiser, {})
    // One ticket holder, pushed and in the inbox; then both participants.
    expect(first.json()).toEqual({ error: false, sent: 1, in_app: 1 })
    expect(await inbox(attendee, 1)).toEqual([{ title: 'Gate 2', body: 'Use gate 2 tonight.', url: `/event-details/${eventId}`, tag: `message-${eventId}` }])
    expect((await notify(organiser, { to: 'PARTICIPANTS' })).json()).toEqual({ error: false, sent: 2, in_app: 2 })
    const adminOk = await notify(admin, { to: 'WAITLIST' })
    expect(adminOk.statusCode, adminOk.body).toBe(200)
    await notify(organiser, {})
    await notify(organiser, {})
    const sixth = await notify(organiser, {})
    expect(sixth.statusCode).toBe(429)
    // API.md: a 429 comes with Retry-After; here the seconds until the oldest of the five leaves the 24 hours.
    const retryAfter = Number(sixth.headers['retry-after'])
    expect(retryAfter).toBeGreaterThan(23 * 3600)
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600)
    const audited = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(sql`${schema.auditLog.eventId} = ${eventId} AND ${schema.auditLog.action} = 'event.notify'`)
    expect(audited).toHaveLength(5)
    expect(audited[0].actorId).toBe(organiser.id)
  })

  it('notify status: each audience’s students and those with notifications on, the messages left today; organisers and admins only, reads only (issue 22 item 1)', async () => {
    const eventId = await makeEvent(t, { maPpt: 1, state: 'TICKET_OPEN' })
    const [{ councilId }] = await t.database.db.select({ councilId: schema.events.organizerId }).from(schema.events).where(eq(schema.events.id, eventId))
    const organiser = await t.student()
    await t.database.db.insert(schema.councilOrganizers).values({ councilId, userId: organiser.id })
    const admin = await t.student({ isAdmin: true } as never)
    const holder = await browser()
    await browser(holder.student) // a second phone of the same student: still one student
    const registered = await browser()
    const quiet = await t.student() // registered, notifications off
    const waiting = await browser()
    await t.database.db.update(schema.events).set({ isTicketFeatureEnabled: true, ticketCount: 5 }).where(eq(schema.events.id, eventId))
    await t.database.db.insert(schema.participants).values([
      { eventId, userId: holder.student.id },
      { eventId, userId: registered.student.id },
      { eventId, userId: quiet.id },
      { eventId, userId: waiting.student.id },
    ])
    expect((await post(t, 'claim-ticket', { event_id: eventId }, holder.student.auth)).status).toBe(200)
    await t.database.db.insert(schema.waitlist).values({ eventId, userId: waiting.student.id })
    const status = (who: { auth: { authorization: string } }, id = eventId) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/org/p/event/notify/status',
        headers: { 'content-type': 'application/json', ...who.auth },
        payload: { event_id: id },
      })
    const first = await status(organiser)
    expect(first.statusCode, first.body).toBe(200)
    expect(first.json()).toEqual({
      error: false,
      audiences: {
        PARTICIPANTS: { students: 4, notifications_on: 3 },
        TICKET_HOLDERS: { students: 1, notifications_on: 1 },
        WAITLIST: { students: 1, notifications_on: 1 },
      },
      limit: 5,
      remaining: 5,
      frees_at: null,
    })
    expect((await status(admin)).statusCode).toBe(200)
    expect((await status(quiet)).json()).toEqual({ error: true, message: 'Only organisers of this event’s council can do this.', code: 'NOT_ORGANISER' })
    expect((await status(organiser, 2147483647)).statusCode).toBe(404)
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/v1/org/p/event/notify',
      headers: { 'content-type': 'application/json', ...organiser.auth },
      payload: { event_id: eventId, title: 'Gate 2', body: 'Use gate 2.', to: 'PARTICIPANTS' },
    })
    // Pushed to those with notifications on; in the inbox of every participant, the quiet one too.
    expect(sent.json()).toEqual({
      error: false,
      sent: first.json().audiences.PARTICIPANTS.notifications_on,
      in_app: first.json().audiences.PARTICIPANTS.students,
    })
    const after = (await status(organiser)).json()
    expect(after.remaining).toBe(4)
    const freesIn = Date.parse(after.frees_at) - Date.now()
    expect(freesIn).toBeGreaterThan(23 * 3600_000)
    expect(freesIn).toBeLessThanOrEqual(24 * 3600_000)
  })
})

// Issue 15 item 6: the key pair of a first start is made with node:crypto, so web-push is not loaded at start; it
// must be the pair web-push would make (a P-256 key, base64url: 65-byte public, 32-byte private) and one it accepts.
describe('the generated VAPID key pair', () => {
  it('is accepted by web-push and signs a request it can send', async () => {
    const { default: webpush } = await import('web-push')
    for (let i = 0; i < 20; i++) {
      const keys = generateVapidKeys()
      expect(Buffer.from(keys.publicKey, 'base64url')).toHaveLength(65)
      expect(Buffer.from(keys.privateKey, 'base64url')).toHaveLength(32)
      expect(() => webpush.setVapidDetails('mailto:events@example.edu', keys.publicKey, keys.privateKey)).not.toThrow()
    }
    const keys = generateVapidKeys()
    const headers = webpush.getVapidHeaders('https://push.example', 'mailto:events@example.edu', keys.publicKey, keys.privateKey, 'aes128gcm')
    expect(headers.Authorization).toMatch(/^vapid t=.+, k=/)
  })
})
