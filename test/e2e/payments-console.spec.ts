// Issue 35's UPI-direct payment and the desk, walked through the real server and the built app on a phone: a student
// holds a place at the demo's paid event (₹99), pays the council's UPI id and enters the UTR; the council's treasurer
// opens the console's payments, uploads the bank statement's CSV and sees it confirmed; the student's My Events
// offers the receipt. Then a door volunteer opens the payment desk at the door, takes another student's fee in cash
// and the student is checked in at once; the desk's totals say who holds the cash. axe finds no serious violation
// on the payments screen nor on the desk, light and dark.
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'
import { cli, moveEvents, query } from './support/operator.ts'
import { showIn } from './support/colour-scheme.ts'
import { startServer, type RunningServer } from './support/server.ts'
import { mustCall, newStudent, signIn, type Student } from './support/students.ts'

test.describe.configure({ mode: 'serial' })

let server: RunningServer
let asha: Student
let ravi: Student
let treasurer: Student
let volunteer: Student
let eventId: number

test.beforeAll(async () => {
  test.setTimeout(300_000) // two server starts on a shared, loaded machine
  server = await startServer()
  asha = await newStudent(server.url, 'Asha Rao')
  ravi = await newStudent(server.url, 'Ravi Kumar')
  treasurer = await newStudent(server.url, 'Tara Treasurer')
  volunteer = await newStudent(server.url, 'Vee Volunteer')
  server = await moveEvents(server, [], async (dir) => {
    const [row] = await query(dir, `SELECT id, organizer_id FROM events WHERE slug = 'standup-comedy-night'`)
    eventId = Number(row.id)
    for (const s of [asha, ravi]) await query(dir, `INSERT INTO participants (event_id, user_id) VALUES (${eventId}, ${s.id}) ON CONFLICT DO NOTHING`)
    await query(dir, `UPDATE events SET ticket_count = tickets_sold + 5, payment_methods = '["UPI","DESK"]'::jsonb WHERE id = ${eventId}`)
    await query(dir, `UPDATE councils SET upi_vpa = 'treasurer@okaxis', upi_name = 'CSI KJSCE' WHERE id = ${Number(row.organizer_id)}`)
    await cli(dir, ['role:grant', treasurer.email, 'organizer', String(Number(row.organizer_id))])
    await query(dir, `INSERT INTO event_staff (event_id, user_id) VALUES (${eventId}, ${volunteer.id})`)
  })
})

test.afterAll(async () => {
  await server?.stop()
})

test.setTimeout(120_000)

/** axe finds no serious or critical violation, light and dark (as console.spec.ts checks the console's screens). */
async function expectNoSeriousViolations(page: Page, screen: string) {
  await expect(page.locator('#splash')).toHaveCount(0, { timeout: 15_000 })
  for (const colorScheme of ['light', 'dark'] as const) {
    await showIn(page, colorScheme)
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)
    expect(bad, `${screen} (${colorScheme})`).toEqual([])
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

test('a UTR entered by the student is confirmed by the bank statement’s import; My Events offers the receipt', async ({ page }) => {
  await signIn(page, server.url, asha)
  await page.goto(`${server.url}/event-details/${eventId}`)
  await page.getByRole('button', { name: 'RSVP for this event' }).click()
  const pay = page.getByRole('region', { name: /^Pay ₹99 by / })
  await pay.getByRole('button', { name: 'Pay by UPI to the council' }).click()
  await pay.getByLabel('UTR').fill('412345678901')
  await pay.getByRole('button', { name: 'I have paid' }).click()
  await expect(page.getByText(/the council confirms it by its UTR/)).toBeVisible()

  await signIn(page, server.url, treasurer)
  await page.goto(`${server.url}/manage/event/${eventId}/payments`)
  const row = page.getByRole('row', { name: /Asha Rao/ })
  await expect(row).toContainText('AWAITING CONFIRMATION')
  await page.getByLabel(/The statement’s CSV/).setInputFiles({
    name: 'statement.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Statement of account,,\nTxn Date,UPI Ref No,Credit\n27-11-2026,412345678901,99.00\n27-11-2026,499999999999,50\n'),
  })
  await page.getByRole('button', { name: 'Import' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'confirmed' })).toContainText('1 confirmed, 1 not matched')
  await expect(page.getByText('Line 4 (499999999999): no payment with this UTR')).toBeVisible()
  await expect(row).toContainText(/PAID.*R-\d{6}/)
  // The treasurer's copy of the receipt, from the payment's row.
  const treasurerCopy = page.waitForEvent('download')
  await row.getByRole('button', { name: /^Receipt R-\d{6} \(PDF\)$/ }).click()
  expect((await treasurerCopy).suggestedFilename()).toMatch(/^receipt-R-\d{6}\.pdf$/)
  await expect(page.getByText(/The money adds up/)).toBeVisible()
  await expectNoSeriousViolations(page, 'the console’s payments')

  await signIn(page, server.url, asha)
  await page.goto(`${server.url}/profile/myevents`)
  await expect(page.getByRole('button', { name: 'Receipt' })).toBeVisible()
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Receipt' }).click()
  expect((await download).suggestedFilename()).toMatch(/^receipt-R-\d{6}\.pdf$/)
})

test('the desk at the door: a volunteer takes a registered student’s fee in cash, the student is checked in; its totals name who holds the cash', async ({
  page,
}) => {
  await signIn(page, server.url, volunteer)
  await page.goto(`${server.url}/door`)
  await page.getByRole('button', { name: /Stand-up Comedy Night/ }).click()
  await page.getByRole('button', { name: 'Payment desk' }).click()
  const desk = page.getByRole('region', { name: 'Payment desk (₹99)' })
  await desk.getByLabel('Ticket code, e-mail or student ID').fill(ravi.email)
  await desk.getByRole('button', { name: 'Find' }).click()
  await expect(desk.getByText('Owes ₹99')).toBeVisible()
  await expectNoSeriousViolations(page, 'the payment desk')
  // Nothing is taken on the first tap: the volunteer confirms the money is in hand.
  await desk.getByRole('button', { name: 'Cash ₹99' }).click()
  await desk.getByRole('button', { name: 'Confirm ₹99 received in cash' }).click()
  await expect(desk.getByRole('status')).toHaveText('Ravi Kumar: ₹99 taken: ticket issued and checked in.')
  await expect(desk.getByText('Paid', { exact: true })).toBeVisible()
  await expect(desk.getByText('Taken at the desk: ₹99 cash, ₹0 UPI (1)')).toBeVisible()
  await expect(desk.getByText('Vee Volunteer: ₹99 cash, ₹0 UPI')).toBeVisible()

  // The server holds it: one desk payment, Ravi's ticket checked in.
  const totals = await mustCall(server.url, treasurer.accessToken, '/door/p/desk/totals', { event_id: eventId })
  expect(totals.total).toEqual({ CASH: 9_900, UPI: 0, count: 1 })
  expect(totals.volunteers).toEqual([{ user_id: volunteer.id, name: 'Vee Volunteer', CASH: 9_900, UPI: 0, count: 1 }])
  const { event } = await mustCall(server.url, ravi.accessToken, `/event/p/get/${eventId}`)
  expect(event.Participant).toMatchObject({ ticket_collected: true, payment: { status: 'PAID', method: 'DESK', amount: 9_900 } })
  expect(event.Participant.checked_in_at).toEqual(expect.any(String))
})

test('the treasurer cancels the paid event: every payment is refunded, a desk refund marked as paid back by hand', async ({ page }) => {
  await signIn(page, server.url, treasurer)
  await page.goto(`${server.url}/manage/event/${eventId}/payments`)
  await page.getByRole('button', { name: 'Cancel the event and refund everyone' }).click()
  const dialog = page.getByRole('dialog', { name: 'Cancel the event and refund every payment?' })
  await dialog.getByRole('button', { name: 'Confirm' }).click()
  await expect(page.getByText('The event is cancelled: its payments are being refunded.')).toBeVisible()
  // The cancel job (the server's payments tick, every 2 s) moves each paid payment to its refund.
  const ravisRow = page.getByRole('row', { name: /Ravi Kumar/ })
  await expect(async () => {
    await page.reload()
    await expect(ravisRow).toContainText('REFUND PENDING', { timeout: 1_000 })
  }).toPass({ timeout: 30_000 })
  await expect(page.getByRole('row', { name: /Asha Rao/ })).toContainText('REFUND PENDING')
  // Cash taken at the desk goes back by hand: marked once paid back.
  await ravisRow.getByRole('button', { name: 'Paid back' }).click()
  await expect(ravisRow).toContainText('REFUNDED')
  await expect(page.getByText(/The money adds up/)).toBeVisible()
  // The student's event page says so.
  await signIn(page, server.url, ravi)
  await page.goto(`${server.url}/event-details/${eventId}`)
  await expect(page.getByText('₹99 was refunded to you.')).toBeVisible()
})
