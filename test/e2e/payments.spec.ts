// Issue 35 walked on a phone: a paid event's RSVP holds the place ("Pay ₹99 by 6:15 PM" with the time left), the
// student pays through Razorpay's checkout (a stand-in speaking its wire: test/support/razorpay-standin.ts, its
// script loaded by the page only when Pay is tapped), the server checks the signature and the ticket shows; the
// held place survives a reload. Real server, real database, the built app.
import { expect, test } from '@playwright/test'
import { type RazorpayStandin, startRazorpayStandin } from '../support/razorpay-standin.ts'
import { moveEvents, query } from './support/operator.ts'
import { startServer, type RunningServer } from './support/server.ts'
import { newStudent, signIn, type Student } from './support/students.ts'

test.describe.configure({ mode: 'serial' })

let server: RunningServer
let standin: RazorpayStandin
let asha: Student
let eventId: number

test.beforeAll(async () => {
  test.setTimeout(300_000) // two server starts on a shared, loaded machine
  standin = await startRazorpayStandin()
  server = await startServer({
    RAZORPAY_KEY_ID: standin.keyId,
    RAZORPAY_KEY_SECRET: standin.keySecret,
    RAZORPAY_WEBHOOK_SECRET: standin.webhookSecret,
    RAZORPAY_API_URL: standin.url,
    RAZORPAY_CHECKOUT_URL: standin.checkoutUrl,
  })
  standin.webhookUrl = `${server.url}/api/v1/payments/razorpay/webhook`
  asha = await newStudent(server.url, 'Asha Rao')
  // The demo's paid event with tickets open (₹99): Asha registered, places left, its council taking UPI too.
  server = await moveEvents(server, [], async (dir) => {
    const [row] = await query(dir, `SELECT id, organizer_id FROM events WHERE slug = 'standup-comedy-night'`)
    eventId = Number(row.id)
    await query(dir, `INSERT INTO participants (event_id, user_id) VALUES (${eventId}, ${asha.id}) ON CONFLICT DO NOTHING`)
    // The demo sells it out: a few places more.
    await query(dir, `UPDATE events SET ticket_count = tickets_sold + 5 WHERE id = ${eventId}`)
    await query(dir, `UPDATE councils SET upi_vpa = 'treasurer@okaxis', upi_name = 'CSI KJSCE' WHERE id = ${Number(row.organizer_id)}`)
  })
  standin.webhookUrl = `${server.url}/api/v1/payments/razorpay/webhook`
})

test.afterAll(async () => {
  await server?.stop()
  await standin?.close()
})

test.setTimeout(120_000)

test('RSVP holds the place; the student pays through the checkout and the ticket shows', async ({ page }) => {
  await signIn(page, server.url, asha)
  await page.goto(`${server.url}/event-details/${eventId}`)
  await page.getByRole('button', { name: 'RSVP for this event' }).click()
  const pay = page.getByRole('region', { name: /^Pay ₹99 by \d{1,2}:\d{2} [AP]M$/ })
  await expect(pay).toBeVisible()
  await expect(pay.getByText(/^1[45]:\d{2} left, then the place goes to the next student\.$/)).toBeVisible()
  // The checkout's script is not loaded until the student taps Pay.
  expect(standin.calls.filter((c) => c.startsWith('POST /v1/orders'))).toHaveLength(0)

  // A reload keeps the held place: it is the server's.
  await page.reload()
  await expect(pay).toBeVisible()

  await pay.getByRole('button', { name: 'Pay ₹99: UPI, card or net banking' }).click()
  const sheet = page.getByRole('dialog', { name: 'Razorpay Checkout (stand-in)' })
  await sheet.getByRole('button', { name: 'Pay ₹99.00 (stand-in)' }).click()
  await expect(page.getByRole('link', { name: 'View Ticket' })).toBeVisible()
  await expect(page.getByText(/^Paid ₹99 · receipt R-\d{6}$/)).toBeVisible()
  expect(standin.calls.filter((c) => c.startsWith('POST /v1/orders'))).toHaveLength(1)

  await page.getByRole('link', { name: 'View Ticket' }).click()
  await expect(page).toHaveURL(new RegExp(`/ticket/${eventId}$`))
})
