// Issue 13: a push reaches the service worker and its notification opens the event, end to end from the real
// server. The test plays the push service and the browser's Web Push layer: the student's subscription names an
// endpoint on a local HTTP server with keys the test holds (test/fixtures/web-push.ts). The event's tickets open
// (the operator CLI), which queues "Tickets are open" in the server's outbox (migration 0006's trigger); the
// server's push tick encrypts and sends it there; the test decrypts it, checks it is what the sender makes of the
// notification (pushPayload of server/push/sender.ts), and hands the very plaintext to the student's service
// worker as the browser does after decryption: DevTools' ServiceWorker.deliverPushMessage (headless Chromium has
// no push service of its own). The notification the worker shows is read back with
// registration.getNotifications(); then the student's tap: headless Chromium has no notification to click and
// the protocol no command for it, so a `notificationclick` is dispatched in the worker with that very
// notification (Playwright's evaluate in the service worker), and the worker's own handler moves the page to the
// event's screen. (Such an event is not a user's tap, so the browser refuses the handler's focus(); the handler
// goes on to navigate, as it must when a real tap's short focus allowance has run out.)
import { expect, test } from '@playwright/test'
import { pushPayload } from '../../server/push/sender.ts'
import { decryptPush, type LocalService, localService, pushKeys, subscriptionKeys } from '../fixtures/web-push.ts'
import { controlledBySW } from './support/offline.ts'
import { moveEvents } from './support/operator.ts'
import { startServer, type RunningServer } from './support/server.ts'
import { eventId, mustCall, newStudent, openAs, type Student } from './support/students.ts'

let server: RunningServer
let pushService: LocalService
let student: Student
const keys = pushKeys()
const delivered: Buffer[] = []

test.beforeAll(async () => {
  test.setTimeout(240_000) // three server starts on a shared, loaded machine
  pushService = await localService((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      delivered.push(Buffer.concat(chunks))
      res.writeHead(201).end()
    })
  })
  server = await startServer()
  student = await newStudent(server.url, 'Meera Pillai')
})

test.afterAll(async () => {
  await server?.stop()
  await pushService?.close()
})

test.setTimeout(240_000)

test('a push from the server reaches the service worker, shows its notification, and a tap on it opens the event', async ({ page, context }) => {
  const id = await eventId(server.url, student, 'Garba Night')
  server = await moveEvents(server, [[id, 'REGISTRATION_OPEN']])
  await mustCall(server.url, student.accessToken, '/event/p/register-for-event', { event_id: id })
  const endpoint = `${pushService.base}/push/meera`
  await mustCall(server.url, student.accessToken, '/push/p/subscribe', { subscription: { endpoint, keys: subscriptionKeys(keys) } })

  // Tickets open: the server sends "Tickets are open" to the student's push service.
  server = await moveEvents(server, [[id, 'TICKET_OPEN']])
  await expect.poll(() => delivered.length, { timeout: 30_000 }).toBe(1)
  const data = decryptPush(delivered[0], keys)
  const payload = pushPayload({ title: 'Tickets are open', body: 'Collect your ticket for Garba Night now.', url: `/event-details/${id}`, tag: `open-${id}` })
  expect(JSON.parse(data)).toEqual(payload)

  await context.grantPermissions(['notifications'], { origin: server.url })
  await openAs(page, server.url, student)
  await controlledBySW(page)
  // The message is in the student's inbox too (issue 37 item 2): the bell counts it.
  await expect(page.getByRole('banner').getByRole('link', { name: 'Inbox, 1 unread' })).toBeVisible()

  // The registration's id, as DevTools knows it; the push delivered to it.
  const cdp = await context.newCDPSession(page)
  const registrations = new Map<string, string>()
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
    for (const r of updated) if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId)
  })
  await cdp.send('ServiceWorker.enable')
  await expect.poll(() => registrations.get(`${server.url}/`)).toBeTruthy()
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId: registrations.get(`${server.url}/`) as string, data })

  // The notification the worker showed, as the page's registration lists it.
  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data })),
    )
  await expect.poll(shown, { timeout: 20_000 }).toEqual([{ title: payload.title, body: payload.body, tag: payload.tag, data: { url: `/event-details/${id}` } }])
  expect(page.url()).toBe(`${server.url}/`)

  // The tap: the worker's notificationclick handler with the notification it showed.
  const worker = context.serviceWorkers().find((w) => w.url() === `${server.url}/sw.js`) ?? (await context.waitForEvent('serviceworker'))
  const clicked = await worker.evaluate(async () => {
    const sw = self as unknown as {
      registration: { getNotifications(): Promise<Notification[]> }
      dispatchEvent(e: Event): boolean
    }
    const [notification] = await sw.registration.getNotifications()
    const NotificationEvent = (globalThis as unknown as { NotificationEvent: new (type: string, init: { notification: Notification }) => Event })
      .NotificationEvent
    sw.dispatchEvent(new NotificationEvent('notificationclick', { notification }))
    return notification.title
  })
  expect(clicked).toBe(payload.title)

  await expect(page).toHaveURL(`${server.url}/event-details/${id}`, { timeout: 20_000 })
  await expect(page.getByRole('heading', { name: 'Garba Night' })).toBeVisible()
  // The event's screen as tickets are open: the student can collect one.
  await expect(page.getByRole('button', { name: 'RSVP for this event' })).toBeVisible()
  // The handler closed the notification it was tapped on.
  await expect.poll(shown).toEqual([])
  expect(delivered).toHaveLength(1) // sent once
})
