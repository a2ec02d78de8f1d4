// What the offline, update and accessibility walks need beyond a student and the operator CLI: a ticket
// already collected, and a page the service worker controls.
import type { Page } from '@playwright/test'
import { moveEvents } from './operator.ts'
import type { RunningServer } from './server.ts'
import { eventId, mustCall, type Student } from './students.ts'

/**
 * Garba Night (demo data, tickets enabled) opened for registration, the student registered, tickets opened and
 * the student's ticket collected. Returns the restarted server, the event id and the ticket code.
 */
export async function collectedTicket(server: RunningServer, student: Student) {
  const id = await eventId(server.url, student, 'Garba Night')
  server = await moveEvents(server, [[id, 'REGISTRATION_OPEN']])
  await mustCall(server.url, student.accessToken, '/event/p/register-for-event', { event_id: id })
  server = await moveEvents(server, [[id, 'TICKET_OPEN']])
  const { ticket_code } = await mustCall(server.url, student.accessToken, '/event/p/claim-ticket', { event_id: id })
  return { server, id, code: ticket_code as string }
}

/** Resolves once a service worker controls the page (installed, activated and claimed it). */
export async function controlledBySW(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, { timeout: 30_000 })
}
