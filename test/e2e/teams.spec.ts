// Issue 4 walked by two students on two phones (two browser contexts) over a throttled network, through the
// real server on a fresh embedded database with the demo data: the leader creates a team on a team event and
// copies its invite code through the clipboard, a second student joins with it, the leader removes them and
// then deletes the team; and every redirect of SPEC §4 between event details, team-register and team-details.
import { rmSync } from 'node:fs'
import { devices, expect, test, type Browser, type Page } from '@playwright/test'
import { startServer, type RunningServer } from './support/server.ts'
import { throttle } from './support/network.ts'
import { eventId, mustCall, newStudent, openAs, type Student } from './support/students.ts'

let server: RunningServer
let asha: Student
let ravi: Student
let ideathon: number
let garba: number

test.beforeAll(async () => {
  server = await startServer()
  asha = await newStudent(server.url, 'Asha Rao')
  ravi = await newStudent(server.url, 'Ravi Kumar')
  ideathon = await eventId(server.url, asha, 'Ideathon 2026') // teams of up to 3, registration open
  garba = await eventId(server.url, asha, 'Garba Night') // individual (ma_ppt 1)
})
test.afterAll(async () => {
  await server?.stop()
  // Each run's embedded database is ~40 MB of temporary files.
  if (server) rmSync(server.dataDir, { recursive: true, force: true })
})

/** A phone of its own (storage, clipboard) for a second student. */
async function phone(browser: Browser, student: Student): Promise<Page> {
  const context = await browser.newContext({ ...devices['Pixel 7'] })
  const page = await context.newPage()
  await throttle(page, '4G', { cpu: false })
  await openAs(page, server.url, student)
  return page
}

const participantOf = async (student: Student, id: number) => (await mustCall(server.url, student.accessToken, `/event/p/get/${id}`)).event.Participant

test('create a team, copy the code, a second student joins, the leader removes them and deletes the team', async ({ page, context, browser }) => {
  test.setTimeout(120_000)
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
  await throttle(page, '4G', { cpu: false })
  await openAs(page, server.url, asha)
  const url = (path: string) => `${server.url}${path}`

  // Event details of a team event: Register leads to team-register.
  await page.goto(url(`/event-details/${ideathon}`))
  await expect(page.getByRole('link', { name: 'Register', exact: true })).toHaveAttribute('href', `/team-register/${ideathon}`)
  await page.getByRole('link', { name: 'Register', exact: true }).click()
  await expect(page).toHaveURL(url(`/team-register/${ideathon}`))

  // Create Team: the SPEC §5 message on touch, then a valid name.
  const name = page.getByLabel('Team name')
  await name.fill('ab')
  await expect(page.getByText('Team name must be at least 3 characters', { exact: true })).toBeVisible()
  await name.fill('Night Owls')
  await expect(page.getByText('Team name must be at least 3 characters', { exact: true })).toBeHidden()
  await page.getByRole('button', { name: 'Create Team' }).click()

  // Team details: name, invite code, Asha as '(Leader)' with no remove button on her own row, Delete Team.
  await expect(page).toHaveURL(url(`/team-details/${ideathon}`), { timeout: 15_000 })
  await expect(page.getByRole('heading', { level: 1, name: 'Night Owls' })).toBeVisible()
  const team = (await participantOf(asha, ideathon)).team
  expect(team).toMatchObject({ name: 'Night Owls', leader_id: asha.id })
  expect(team.invite_code).toMatch(/^[A-Za-z0-9]{5}$/)
  await expect(page.getByText(team.invite_code, { exact: true })).toBeVisible()
  await expect(page.getByRole('listitem').filter({ hasText: 'Asha Rao' })).toHaveText(/Asha Rao\s*\(Leader\)/)
  await expect(page.getByRole('button', { name: 'Remove Asha Rao' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Delete Team' })).toBeVisible()

  // Copy: the clipboard holds the code, and the screen says so.
  await page.getByRole('button', { name: 'Copy invite code' }).click()
  await expect(page.getByText('Copied!')).toBeVisible()
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toBe(team.invite_code)

  // SPEC §4: team-register sends a student who has a team to team-details; the event's button reads View Team.
  await page.goto(url(`/team-register/${ideathon}`))
  await expect(page).toHaveURL(url(`/team-details/${ideathon}`), { timeout: 15_000 })
  await page.goto(url(`/event-details/${ideathon}`))
  await expect(page.getByRole('link', { name: 'View Team' })).toHaveAttribute('href', `/team-details/${ideathon}`)

  // Ravi, on his own phone, joins with the code: a wrong length is caught on the phone, a wrong code by the
  // server (its message in a toast), the right one takes him to the team.
  const raviPage = await phone(browser, ravi)
  await raviPage.goto(url(`/team-register/${ideathon}`))
  const code = raviPage.getByLabel('Invite code')
  await code.fill(copied.slice(0, 4))
  await expect(raviPage.getByText('Invite code must be exactly 5 characters', { exact: true })).toBeVisible()
  const wrong = copied === '00000' ? '11111' : '00000'
  await code.fill(wrong)
  await raviPage.getByRole('button', { name: 'Join Team' }).click()
  await expect(raviPage.getByRole('alert').getByText('No team with this invite code.')).toBeVisible()
  await expect(raviPage).toHaveURL(url(`/team-register/${ideathon}`))
  await code.fill(copied)
  await raviPage.getByRole('button', { name: 'Join Team' }).click()
  await expect(raviPage).toHaveURL(url(`/team-details/${ideathon}`), { timeout: 15_000 })
  await expect(raviPage.getByRole('heading', { level: 1, name: 'Night Owls' })).toBeVisible()
  await expect(raviPage.getByRole('heading', { name: 'Members (2 of 3)' })).toBeVisible()
  // A member may remove only themself and never deletes the team.
  await expect(raviPage.getByRole('button', { name: 'Remove Ravi Kumar' })).toBeVisible()
  await expect(raviPage.getByRole('button', { name: 'Remove Asha Rao' })).toHaveCount(0)
  await expect(raviPage.getByRole('button', { name: 'Delete Team' })).toHaveCount(0)

  // The leader sees Ravi, cancels once, then removes him.
  await page.goto(url(`/team-details/${ideathon}`))
  await expect(page.getByRole('heading', { name: 'Members (2 of 3)' })).toBeVisible()
  await expect(page.getByRole('listitem').filter({ hasText: 'Ravi Kumar' })).not.toContainText('(Leader)')
  await page.getByRole('button', { name: 'Remove Ravi Kumar' }).click()
  const removeDialog = page.getByRole('dialog', { name: 'Remove Ravi Kumar?' })
  await expect(removeDialog).toBeVisible()
  await removeDialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(removeDialog).toBeHidden()
  expect((await participantOf(ravi, ideathon)).team.id).toBe(team.id)
  await page.getByRole('button', { name: 'Remove Ravi Kumar' }).click()
  await removeDialog.getByRole('button', { name: 'Confirm' }).click()
  await expect(removeDialog).toBeHidden({ timeout: 15_000 })
  await expect(page.getByText('Ravi Kumar was removed from the team.')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Members (1 of 3)' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Remove Ravi Kumar' })).toHaveCount(0)
  expect(await participantOf(ravi, ideathon)).toBe(false)

  // SPEC §4: team-details sends a student without a team to team-register.
  await raviPage.reload()
  await expect(raviPage).toHaveURL(url(`/team-register/${ideathon}`), { timeout: 15_000 })
  await expect(raviPage.getByRole('heading', { name: 'Join Team' })).toBeVisible()
  await raviPage.context().close()

  // The leader deletes the team and lands on team-register; nobody is registered any more.
  await page.getByRole('button', { name: 'Delete Team' }).click()
  const deleteDialog = page.getByRole('dialog', { name: 'Delete Night Owls?' })
  await expect(deleteDialog).toBeVisible()
  await deleteDialog.getByRole('button', { name: 'Confirm' }).click()
  await expect(page).toHaveURL(url(`/team-register/${ideathon}`), { timeout: 15_000 })
  await expect(page.getByRole('heading', { name: 'Create Team' })).toBeVisible()
  expect(await participantOf(asha, ideathon)).toBe(false)
})

test('SPEC §4 redirects: an individual event has no team pages; no team means team-register', async ({ page }) => {
  await throttle(page, '4G', { cpu: false })
  const mira = await newStudent(server.url, 'Mira Iyer')
  await openAs(page, server.url, mira)
  for (const screen of ['team-register', 'team-details']) {
    await page.goto(`${server.url}/${screen}/${garba}`)
    await expect(page).toHaveURL(`${server.url}/event-details/${garba}`, { timeout: 15_000 })
    await expect(page.getByRole('heading', { level: 1, name: 'Garba Night' })).toBeVisible()
  }
  await page.goto(`${server.url}/team-details/${ideathon}`)
  await expect(page).toHaveURL(`${server.url}/team-register/${ideathon}`, { timeout: 15_000 })
  await expect(page.getByRole('heading', { name: 'Create Team' })).toBeVisible()
})
