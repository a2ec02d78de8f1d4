// The inbox (issue 37 item 2, contract/inbox.ts) through the real routes, on every database kind: every message
// reaches the inbox of every recipient, push or not, and the push outbox only of those with a subscription (the
// trigger inbox_messages_push); the organiser's notify answers both counts; the draw's result, a waitlist offer, a
// ticket received, tickets opening and the reminder each land in the inbox, once; the pages (`before`, `more`); read
// marks (`up_to`), only the caller's, idempotent, seen by another session of the same student in /user/p/me; bad
// input refused with 400 and nothing changed; messages older than 180 days deleted by the tick.
import { createHash, randomBytes } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INBOX_PAGE } from '../../contract/inbox.ts'
import { accessTokens } from '../../server/auth/tokens.ts'
import { schema } from '../../server/db/index.ts'
import { rowsOf } from '../../server/db/outcomes.ts'
import { inboxRepository } from '../../server/db/people/inbox.ts'
import { startSession } from '../../server/db/people/sessions.ts'
import { decryptPush, type LocalService, localService, pushKeys, subscriptionKeys } from '../fixtures/web-push.ts'
import { doorWorld } from './door-fixtures.ts'
import { DB_KINDS, testApp, type TestApp } from './helpers.ts'
import { makeEvent, post, setState } from './teams-fixtures.ts'

type Student = Awaited<ReturnType<TestApp['student']>>
type Auth = { authorization: string }

describe.each(DB_KINDS)('the inbox on %s', (kind) => {
  let t: TestApp
  /** A push service on this machine: what the sender delivered, per endpoint path. */
  let service: LocalService
  const received: { path: string; headers: IncomingHttpHeaders; body: Buffer }[] = []
  beforeAll(async () => {
    t = await testApp({ kind, app: { scheduler: false, aroundIntervalMs: false } })
    service = await localService((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c) => chunks.push(c))
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) })
        res.statusCode = 201
        res.end()
      })
    })
  }, 60_000)
  afterAll(async () => {
    await t.close()
    await service.close()
  })

  const call = async (path: string, body: unknown, auth?: Auth) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1${path}`,
      headers: { 'content-type': 'application/json', ...auth },
      payload: JSON.stringify(body),
    })
    return { status: res.statusCode, body: res.json() }
  }
  const inbox = (s: { auth: Auth }, before?: number | null) => call('/user/p/inbox', before === undefined ? {} : { before }, s.auth)
  const read = (s: { auth: Auth }, upTo: unknown) => call('/user/p/inbox/read', { up_to: upTo }, s.auth)
  const messagesOf = async (s: { auth: Auth }) => {
    const res = await inbox(s)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    return res.body.messages as { id: number; title: string; body: string; url: string; created_at: string; read: boolean }[]
  }
  const outboxOf = async (userId: number) =>
    rowsOf(await t.database.db.execute(sql`SELECT title, url, tag FROM push_outbox WHERE user_id = ${userId} ORDER BY id`)) as {
      title: string
      url: string
      tag: string | null
    }[]
  /** A browser of this student's, subscribed through the call, whose pushes the local service receives. */
  const browser = async (s: Student) => {
    const keys = pushKeys()
    const endpoint = `${service.base}/push/${randomBytes(6).toString('hex')}`
    const res = await call('/push/p/subscribe', { subscription: { endpoint, expirationTime: null, keys: subscriptionKeys(keys) } }, s.auth)
    expect(res.body).toEqual({ error: false })
    const path = new URL(endpoint).pathname
    /** The pushes this browser got, decrypted, once the outbox is sent. */
    return async () => {
      await t.app.aroundJobs.tick()
      await t.app.pushSender.drain()
      return received.filter((r) => r.path === path).map((r) => JSON.parse(decryptPush(r.body, keys)))
    }
  }
  /** Every inbox row of the database, to show that a refusal changed nothing. */
  const allRows = async () => rowsOf(await t.database.db.execute(sql`SELECT id, user_id, read_at FROM inbox_messages ORDER BY id`))

  it('an organiser’s message reaches the inbox of a student without push and the push outbox only of one with; notify answers sent and in_app, audited', async () => {
    const eventId = await makeEvent(t, { maPpt: 1, state: 'TICKET_OPEN' })
    const [{ councilId }] = await t.database.db.select({ councilId: schema.events.organizerId }).from(schema.events).where(eq(schema.events.id, eventId))
    const organiser = await t.student()
    await t.database.db.insert(schema.councilOrganizers).values({ councilId, userId: organiser.id })
    const withPush = await t.student()
    const phone = await browser(withPush)
    const laptop = await browser(withPush) // a second browser: still one student (sent counts students)
    const without = await t.student()
    const outsider = await t.student()
    await t.database.db.insert(schema.participants).values([
      { eventId, userId: withPush.id },
      { eventId, userId: without.id },
    ])
    const res = await call('/org/p/event/notify', { event_id: eventId, title: 'Gate 2', body: 'Use gate 2 tonight.', to: 'PARTICIPANTS' }, organiser.auth)
    expect(res).toEqual({ status: 200, body: { error: false, sent: 1, in_app: 2 } })
    for (const s of [withPush, without]) {
      const [m, ...rest] = await messagesOf(s)
      expect(rest).toEqual([])
      expect(m).toEqual({
        id: expect.any(Number),
        title: 'Gate 2',
        body: 'Use gate 2 tonight.',
        url: `/event-details/${eventId}`,
        created_at: m.created_at,
        read: false,
      })
      expect(Date.parse(m.created_at)).toBeGreaterThan(Date.now() - 60_000)
      expect((await inbox(s)).body.unread).toBe(1)
    }
    // The route sends the outbox at once: the pushes reached both browsers of the student with push, once each;
    // nothing was queued for the one without.
    const pushed = { title: 'Gate 2', body: 'Use gate 2 tonight.', url: `/event-details/${eventId}`, tag: `message-${eventId}` }
    expect(await phone()).toEqual([pushed])
    expect(await laptop()).toEqual([pushed])
    expect(received).toHaveLength(2)
    expect(await outboxOf(without.id)).toEqual([])
    expect(await messagesOf(outsider)).toEqual([])
    const [audit] = await t.database.db
      .select()
      .from(schema.auditLog)
      .where(sql`${schema.auditLog.eventId} = ${eventId} AND ${schema.auditLog.action} = 'event.notify'`)
    expect(audit.after).toEqual({ title: 'Gate 2', body: 'Use gate 2 tonight.', to: 'PARTICIPANTS', sent: 1, in_app: 2 })
    // An audience nobody is in: nothing anywhere, and both counts 0.
    const empty = await call('/org/p/event/notify', { event_id: eventId, title: 'Hi', body: 'Anyone?', to: 'WAITLIST' }, organiser.auth)
    expect(empty).toEqual({ status: 200, body: { error: false, sent: 0, in_app: 0 } })
  })

  it('tickets opening, a waitlist offer and the reminder land in the inbox of students without push, each once', async () => {
    const eventId = await makeEvent(t, { maPpt: 1, state: 'REGISTRATION_OPEN' })
    await t.database.db.update(schema.events).set({ isTicketFeatureEnabled: true, ticketCount: 1, name: 'Robo Wars' }).where(eq(schema.events.id, eventId))
    const holder = await t.student()
    const waiting = await t.student()
    for (const s of [holder, waiting]) expect((await post(t, 'register-for-event', { event_id: eventId }, s.auth)).status).toBe(200)
    await setState(t, eventId, 'TICKET_OPEN')
    for (const s of [holder, waiting])
      expect(await messagesOf(s)).toEqual([expect.objectContaining({ title: 'Tickets are open', url: `/event-details/${eventId}`, read: false })])
    expect((await post(t, 'claim-ticket', { event_id: eventId }, holder.auth)).status).toBe(200)
    expect((await post(t, 'waitlist', { event_id: eventId, join: true }, waiting.auth)).status).toBe(200)
    expect((await post(t, 'release-ticket', { event_id: eventId }, holder.auth)).status).toBe(200)
    const [offer] = await messagesOf(waiting)
    expect(offer).toMatchObject({ title: 'A ticket is held for you', url: `/event-details/${eventId}` })
    expect(offer.body).toMatch(/^Claim your ticket for Robo Wars by \d{1,2}:\d\d [AP]M\.$/)
    expect((await post(t, 'claim-ticket', { event_id: eventId }, waiting.auth)).status).toBe(200)
    // The give-back kicked a tick that is not awaited: join it, or it may queue the reminder after the move below.
    await t.app.aroundJobs.tick()
    await t.database.db.update(schema.events).set({ startsAt: sql`now() + interval '50 minutes'`, venue: 'Main Hall' }).where(eq(schema.events.id, eventId))
    expect(await t.app.pushRepository.queueReminders()).toBe(1)
    expect(await t.app.pushRepository.queueReminders()).toBe(0) // once per event (event_reminders)
    const titles = (await messagesOf(waiting)).map((m) => m.title)
    expect(titles).toEqual(['Robo Wars starts soon', 'A ticket is held for you', 'Tickets are open'])
    expect((await messagesOf(holder)).map((m) => m.title)).toEqual(['Tickets are open'])
    for (const s of [holder, waiting]) expect(await outboxOf(s.id)).toEqual([])
  })

  it('the draw’s result lands in every entrant’s inbox; the push outbox gets it only for the one with a subscription', async () => {
    const [council] = await t.database.db
      .insert(schema.councils)
      .values({ slug: `inbox-fair-${randomBytes(4).toString('hex')}`, name: 'Inbox fair council' })
      .returning({ id: schema.councils.id })
    const [event] = await t.database.db
      .insert(schema.events)
      .values({
        slug: `inbox-fair-${randomBytes(4).toString('hex')}`,
        name: 'Fair gig',
        organizerId: council.id,
        state: 'REGISTRATION_OPEN',
        isTicketFeatureEnabled: true,
        ticketCount: 1,
        fairWindowSeconds: 60,
        fairSeed: randomBytes(32).toString('hex'),
        dates: ['2026-12-01T18:00:00+05:30'],
      })
      .returning({ id: schema.events.id })
    const eventId = event.id
    const students = [await t.student(), await t.student()]
    await t.database.db.insert(schema.participants).values(students.map((s) => ({ eventId, userId: s.id })))
    const pushesOf0 = await browser(students[0])
    await setState(t, eventId, 'TICKET_OPEN')
    for (const s of students) {
      const nonce = createHash('sha256').update(`nonce ${s.id}`).digest('hex').slice(0, 32)
      expect((await post(t, 'claim-ticket', { event_id: eventId, draw_nonce: nonce }, s.auth)).body.result).toBe('IN_DRAW')
    }
    await t.database.db.execute(sql`UPDATE events SET fair_draw_at = now() - interval '1 second' WHERE id = ${eventId}`)
    await t.app.schedulerTick()
    const results = await Promise.all(
      students.map(async (s) => (await messagesOf(s)).filter((m) => m.url === `/event-details/${eventId}` && m.title !== 'Tickets are open')),
    )
    expect(results.map((r) => r.length)).toEqual([1, 1])
    expect(results.map((r) => r[0].title).sort()).toEqual(['You are on the waitlist', 'You got a ticket'])
    expect(results.flat().find((m) => m.title === 'You are on the waitlist')!.body).toContain('number 1 on the waitlist')
    // In the outbox for the student with push only, and sent to their browser.
    expect((await outboxOf(students[0].id)).filter((r) => r.tag === `draw-${eventId}`).map((r) => r.title)).toEqual([results[0][0].title])
    expect((await outboxOf(students[1].id)).filter((r) => r.tag === `draw-${eventId}`)).toEqual([])
    expect((await pushesOf0()).filter((p) => p.tag === `draw-${eventId}`).map((p) => p.title)).toEqual([results[0][0].title])
  })

  it('a ticket received from a friend lands in the friend’s inbox', async () => {
    const w = await doorWorld(t, { state: 'TICKET_OPEN' })
    const [holder] = w.people
    const friend = w.registered
    const [u] = await t.database.db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, friend.id))
    const res = await post(t, 'transfer-ticket', { event_id: w.eventId, email: u.email }, holder.auth)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const [got] = await messagesOf(friend)
    expect(got).toMatchObject({ title: 'You got a ticket', url: `/ticket/${w.eventId}`, read: false })
    expect(got.body).toContain('gave you their ticket')
    expect(await outboxOf(friend.id)).toEqual([])
    expect((await messagesOf(holder)).filter((m) => m.title === 'You got a ticket')).toEqual([])
  })

  it(`pages of ${INBOX_PAGE}, newest first: before and more; unread counts them all`, async () => {
    const s = await t.student()
    const other = await t.student()
    const n = INBOX_PAGE * 2 + 20
    // Interleaved with another student's messages: a page never shows them, nor counts them.
    await t.database.db.execute(sql`
      INSERT INTO inbox_messages (user_id, title, body, url)
      SELECT CASE WHEN i % 2 = 0 THEN ${s.id}::int ELSE ${other.id}::int END, 'Message ' || (i / 2), 'Body', '/events' FROM generate_series(0, ${2 * n - 1}) i`)
    const first = await inbox(s)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ error: false, unread: n, more: true })
    expect(first.body.messages).toHaveLength(INBOX_PAGE)
    expect(first.body.messages[0].title).toBe(`Message ${n - 1}`)
    const ids: number[] = first.body.messages.map((m: { id: number }) => m.id)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    const second = await inbox(s, ids.at(-1))
    expect(second.body).toMatchObject({ unread: n, more: true })
    expect(second.body.messages).toHaveLength(INBOX_PAGE)
    expect(second.body.messages[0].id).toBeLessThan(ids.at(-1)!)
    const third = await inbox(s, second.body.messages.at(-1).id)
    expect(third.body.more).toBe(false)
    expect(third.body.messages).toHaveLength(20)
    expect(third.body.messages.at(-1).title).toBe('Message 0')
    const all = [...first.body.messages, ...second.body.messages, ...third.body.messages]
    expect(new Set(all.map((m: { id: number }) => m.id)).size).toBe(n)
    expect(all.every((m: { title: string }) => m.title.startsWith('Message '))).toBe(true)
    expect((await inbox(s, third.body.messages.at(-1).id)).body).toEqual({ error: false, messages: [], unread: n, more: false })
    // `before: null` is the first page, as no `before` is.
    expect((await inbox(s, null)).body).toEqual(first.body)
  })

  it('read up_to marks only the caller’s messages up to that id, is idempotent, and /user/p/me in another session agrees', async () => {
    const a = await t.student()
    const b = await t.student()
    const note = (to: Student, title: string) => t.app.pushRepository.queue([to.id], { title, body: 'x', url: '/events' })
    for (const [to, title] of [
      [a, 'a1'],
      [b, 'b1'],
      [a, 'a2'],
      [b, 'b2'],
      [a, 'a3'],
    ] as const)
      expect(await note(to, title)).toBe(1)
    const idsOf = async (s: Student) => Object.fromEntries((await messagesOf(s)).map((m) => [m.title, m.id]))
    const ida = await idsOf(a)
    const idb = await idsOf(b)
    // A second session of a, with its own tokens (another phone).
    const tokens = accessTokens(new TextEncoder().encode(t.config.jwtSecret!))
    const phone = { auth: { authorization: `Bearer ${(await startSession({ db: t.database.db, tokens }, a.id)).accessToken}` } }
    const me = async (s: { auth: Auth }) => (await call('/user/p/me', true, s.auth)).body
    expect((await me(phone)).unread).toBe(3)
    expect((await me(a)).user.id).toBe(a.id)

    expect(await read(a, ida.a2)).toEqual({ status: 200, body: { error: false, unread: 1 } })
    expect((await me(phone)).unread).toBe(1)
    expect((await messagesOf(phone)).map((m) => [m.title, m.read])).toEqual([
      ['a3', false],
      ['a2', true],
      ['a1', true],
    ])
    const readAt = async () => rowsOf(await t.database.db.execute(sql`SELECT id, read_at FROM inbox_messages WHERE user_id = ${a.id} ORDER BY id`))
    const marked = await readAt()
    // Again: nothing changes, not even the time of the first read.
    expect(await read(phone, ida.a2)).toEqual({ status: 200, body: { error: false, unread: 1 } })
    expect(await readAt()).toEqual(marked)
    // An id of b's (above a2, below a3): a's own up to it are read, b's stay unread.
    expect(await read(a, idb.b2)).toEqual({ status: 200, body: { error: false, unread: 1 } })
    expect(await me(b)).toMatchObject({ unread: 2 })
    expect((await messagesOf(b)).every((m) => !m.read)).toBe(true)
    // b reads with a's newest id: b's own are read, a's are not.
    expect(await read(b, ida.a3)).toEqual({ status: 200, body: { error: false, unread: 0 } })
    expect((await me(a)).unread).toBe(1)
    expect(await read(a, ida.a3)).toEqual({ status: 200, body: { error: false, unread: 0 } })
    expect((await me(phone)).unread).toBe(0)
    // Far beyond every id: nothing to do, no error.
    expect(await read(a, 999_999_999)).toEqual({ status: 200, body: { error: false, unread: 0 } })
  })

  it('refuses bad input with 400 naming the field, changing nothing; signed out is 401', async () => {
    const s = await t.student()
    await t.app.pushRepository.queue([s.id], { title: 'Kept', body: 'x', url: '/events' })
    const before = await allRows()
    for (const [body, message] of [
      [{ before: 0 }, 'before must be a positive whole number'],
      [{ before: -3 }, 'before must be a positive whole number'],
      [{ before: 'abc' }, 'before must be a positive whole number'],
      [{ before: 1.5 }, 'before must be a positive whole number'],
      [{ before: 1e300 }, 'before must be a positive whole number'],
      [{ before: [1] }, 'before must be a positive whole number'],
    ] as const) {
      const res = await call('/user/p/inbox', body, s.auth)
      expect(res, JSON.stringify(body)).toEqual({ status: 400, body: { error: true, message, code: 'INVALID_INPUT' } })
    }
    for (const [body, message] of [
      [{}, 'up_to is a required field'],
      [{ up_to: null }, 'up_to is a required field'],
      [{ up_to: 0 }, 'up_to must be a positive whole number'],
      [{ up_to: 'all' }, 'up_to must be a positive whole number'],
      [{ up_to: { $gt: 0 } }, 'up_to must be a positive whole number'],
      [{ up_to: 1e20 }, 'up_to must be a positive whole number'],
    ] as const) {
      const res = await call('/user/p/inbox/read', body, s.auth)
      expect(res, JSON.stringify(body)).toEqual({ status: 400, body: { error: true, message, code: 'INVALID_INPUT' } })
    }
    for (const path of ['/user/p/inbox', '/user/p/inbox/read']) expect((await call(path, { up_to: 1 })).status).toBe(401)
    expect(await allRows()).toEqual(before)
    expect((await inbox(s)).body.unread).toBe(1)
  })

  it('the tick deletes messages older than 180 days, in batches, and keeps the rest', async () => {
    const s = await t.student()
    await t.database.db.execute(sql`
      INSERT INTO inbox_messages (user_id, title, body, url, created_at)
      SELECT ${s.id}::int, 'Old ' || i, 'x', '/events', now() - interval '181 days' FROM generate_series(1, 1500) i`)
    await t.database.db.execute(sql`
      INSERT INTO inbox_messages (user_id, title, body, url, created_at) VALUES (${s.id}, 'Recent', 'x', '/events', now() - interval '179 days')`)
    await t.app.aroundJobs.tick()
    const left = await messagesOf(s)
    expect(left.map((m) => m.title)).toEqual(['Recent'])
    expect((await inbox(s)).body.unread).toBe(1)
    // In batches: a call deletes what is due and answers how many, again nothing.
    await t.database.db.execute(sql`
      INSERT INTO inbox_messages (user_id, title, body, url, created_at)
      SELECT ${s.id}::int, 'Old', 'x', '/events', now() - interval '200 days' FROM generate_series(1, 2500) i`)
    expect(await inboxRepository(t.database.db).purgeOld()).toBeGreaterThanOrEqual(2500)
    expect(await inboxRepository(t.database.db).purgeOld()).toBe(0)
    expect((await messagesOf(s)).map((m) => m.title)).toEqual(['Recent'])
  })

  it('a student deleted takes their inbox along', async () => {
    const s = await t.student()
    await t.app.pushRepository.queue([s.id], { title: 'Bye', body: 'x', url: '/events' })
    await t.database.db.delete(schema.users).where(eq(schema.users.id, s.id))
    expect(rowsOf(await t.database.db.execute(sql`SELECT id FROM inbox_messages WHERE user_id = ${s.id}`))).toEqual([])
    // And a message to a student deleted meanwhile is written for nobody, without an error.
    expect(await t.app.pushRepository.queue([s.id], { title: 'Late', body: 'x', url: '/events' })).toBe(0)
  })
})
