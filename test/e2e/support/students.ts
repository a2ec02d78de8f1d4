// Students for the walks: signed in through the server's development sign-in form (the same POST the form in
// the browser makes) and onboarded through POST /user/p/update, so a walk starts on Home rather than on the
// getting-started wizard, which foundation.spec.ts walks already.
import type { Page } from '@playwright/test'

export interface Student {
  id: number
  name: string
  email: string
  accessToken: string
  refreshToken: string
}

export interface ApiAnswer<T = any> {
  status: number
  body: T
}

/** A call to the real API as the student's phone would make it: JSON body, bearer header. */
export async function callApi<T = any>(baseUrl: string, token: string | null, path: string, body: unknown = true): Promise<ApiAnswer<T>> {
  const res = await fetch(`${baseUrl}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  let parsed: any
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = text
  }
  return { status: res.status, body: parsed }
}

/** Like callApi, but a non-200 answer throws with the server's message (for set-up steps that must work). */
export async function mustCall<T = any>(baseUrl: string, token: string, path: string, body: unknown = true): Promise<T> {
  const answer = await callApi<T>(baseUrl, token, path, body)
  if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
  return answer.body
}

/**
 * mustCall for a set-up step sent while the server may shed (a 503 with Retry-After while the walk's browser or a
 * door list keeps it busy): tried again each second, up to 20 times, as the app's own retry would.
 */
export async function callRetrying<T = any>(baseUrl: string, token: string, path: string, body: unknown = true): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await mustCall<T>(baseUrl, token, path, body)
    } catch (error) {
      if (attempt >= 20 || !String(error).includes('answered 503')) throw error
      await new Promise((resolve) => setTimeout(resolve, 1000)) // kept: the backoff against a real server's 503
    }
  }
}

/**
 * Posts the development sign-in form and reads the tokens from the redirect to /login#accessToken=…&refreshToken=…
 * (not followed: the fragment is the answer).
 */
export async function devSignIn(baseUrl: string, name: string, email: string): Promise<{ accessToken: string; refreshToken: string }> {
  const res = await fetch(`${baseUrl}/api/v1/auth/dev`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name, email }).toString(),
    redirect: 'manual',
  })
  const location = res.headers.get('location') ?? ''
  const fragment = new URLSearchParams(location.slice(location.indexOf('#') + 1))
  const accessToken = fragment.get('accessToken')
  const refreshToken = fragment.get('refreshToken')
  if (res.status !== 302 || !location.includes('/login#') || !accessToken || !refreshToken) {
    throw new Error(`development sign-in for ${email} failed: ${res.status} ${location || (await res.text()).slice(0, 300)}`)
  }
  return { accessToken, refreshToken }
}

let counter = 0

/** A distinct address per student of this process, made from the name. */
const addressFor = (name: string, n: number) => `${name.toLowerCase().replace(/[^a-z]+/g, '.')}.${process.pid}.${n}@example.edu`

/** A signed-in student who has not completed onboarding yet (the app sends them to getting-started). */
export async function newcomer(baseUrl: string, name = 'Kabir Shah'): Promise<{ accessToken: string; refreshToken: string }> {
  return devSignIn(baseUrl, name, addressFor(name, ++counter))
}

/**
 * A signed-in student with a complete profile (phone and roll number on file), ready for Home.
 * `phone` defaults to a distinct 10-digit number per student.
 */
export async function newStudent(baseUrl: string, name: string, email?: string): Promise<Student> {
  const n = ++counter
  const address = email ?? addressFor(name, n)
  const tokens = await devSignIn(baseUrl, name, address)
  const { user } = await mustCall(baseUrl, tokens.accessToken, '/user/p/update', {
    phone_number: `98${String(10_000_000 + n * 7919).slice(-8)}`,
    roll_number: `1601012${String(1000 + n)}`,
    gender: 'FEMALE',
    year: 2027,
    branch: 'Computer_Engineering',
    interests: ['Web Development', 'AI/ML'],
    degree: 'B.tech',
    college: 'KJSCE',
  })
  if (!user?.phone_number || !user?.roll_number) throw new Error(`onboarding of ${address} did not stick: ${JSON.stringify(user)}`)
  return { id: Number(user.id), name: user.name, email: address, ...tokens }
}

/** The key and a value of the app's one-time sign-in state (src/stores/session-flows.ts). */
export const SIGN_IN_STATE_KEY = 'signInState'
export const TEST_SIGN_IN_STATE = 'e2e-sign-in-state-0123456789abcdefghijkl'

/**
 * Opens the app as `student` the way a sign-in it started returns to it: the tab keeps the sign-in's one-time
 * state (as Continue with Google does), then /login#accessToken=…&refreshToken=…&state=…, which the app stores,
 * strips from the address and follows to Home. Resolves once Home's layout greets the student.
 */
export async function openAs(page: Page, baseUrl: string, student: Student) {
  // Any page of the app's origin in this tab holds its sessionStorage; a static file loads no app at all.
  await page.goto(`${baseUrl}/manifest.webmanifest`)
  await page.evaluate(([key, value]) => sessionStorage.setItem(key, value), [SIGN_IN_STATE_KEY, TEST_SIGN_IN_STATE])
  const fragment = new URLSearchParams({ accessToken: student.accessToken, refreshToken: student.refreshToken, state: TEST_SIGN_IN_STATE })
  await page.goto(`${baseUrl}/login#${fragment}`)
  await page.waitForURL(`${baseUrl}/`, { timeout: 20_000 })
  await page.getByText('Namaste').waitFor({ timeout: 20_000 })
}

/**
 * Puts the tokens where the app keeps them (SPEC §3), from a page of the app's origin, and stays on /login: for
 * walks that go on to a screen of their own (or must not wait for Home, as openAs does).
 */
export async function signIn(page: Page, baseUrl: string, tokens: { accessToken: string; refreshToken: string }) {
  await page.goto(baseUrl + '/login')
  await page.evaluate((t) => {
    localStorage.setItem('accessToken', t.accessToken)
    localStorage.setItem('refreshToken', t.refreshToken)
  }, tokens)
}

/** The event list as the student's app receives it, flattened ({STATE: [...]} → [...]). */
export async function eventsOf(baseUrl: string, student: Student): Promise<any[]> {
  const { events } = await mustCall(baseUrl, student.accessToken, '/event/p/get')
  return Object.values(events as Record<string, any[]>).flat()
}

/** The id of the demo event named `name` (demo.json), as the server numbered it. */
export async function eventId(baseUrl: string, student: Student, name: string): Promise<number> {
  const found = (await eventsOf(baseUrl, student)).find((e) => e.name === name)
  if (!found) throw new Error(`no event named "${name}" in the list`)
  return found.id
}
