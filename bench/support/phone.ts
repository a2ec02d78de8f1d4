// The phone of the benchmarks that open the built app in Chromium (bench:load, bench:scale, bench:lighthouse):
// the browser, a signed-in student with a complete profile, a Pixel 7 context holding that student's tokens,
// and one measured start of `/` on a throttled profile of test/e2e/support/network.ts — when code and data were
// both ready (the app's performance mark 'app:code-data-ready'), when the home content became visible (its
// first section heading rendered AND the splash fading out: the 1.5 s splash is the floor) and the bytes the
// page received over the network until then (service worker and HTTP-cache answers are not network bytes).
import { chromium, devices, type Browser, type BrowserContext } from '@playwright/test'
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../../test/e2e/support/chromium.ts'
import { PROFILES, throttle } from '../../test/e2e/support/network.ts'

export type Profile = keyof typeof PROFILES
export { PROFILES }

export interface Run {
  codeDataReady: number | null
  homeVisible: number
  /** When the home content rendered, splash or not (diagnostic: homeVisible is what a student sees). */
  contentRendered: number
  bytes: number
  /** Cumulative layout shift of the start (images have explicit dimensions: expected 0). */
  layoutShift: number
}

export const SPLASH_MS = 1500

export { CHROMIUM_FLAGS, CHROMIUM_PATH }

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, ...extraArgs] })
}

// Runs before any script of the page: records when the home content first rendered and when the splash began
// to go (index.html's splash, retired by src/main.tsx).
const OBSERVER = `(() => {
  const w = window
  const check = () => {
    if (w.__content === undefined && document.querySelector('#main h2')) w.__content = performance.now()
    const splash = document.getElementById('splash')
    if (splash) w.__sawSplash = true
    // Only a splash that was there and is going: before the parser reaches it, it is not there either.
    if (w.__splashOut === undefined && w.__sawSplash && (!splash || splash.classList.contains('splash-out'))) w.__splashOut = performance.now()
  }
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] })
  w.__cls = 0
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) w.__cls += e.value
  }).observe({ type: 'layout-shift', buffered: true })
})()`

/** The bench's student: one address per process, signed in afresh for each browser context. */
const EMAIL = `bench.student.${process.pid}@example.edu`

/** The development sign-in form's POST; the tokens are in the redirect's fragment. */
export async function signIn(url: string, email = EMAIL) {
  const res = await fetch(`${url}/api/v1/auth/dev`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ name: 'Bench Student', email }).toString(),
    redirect: 'manual',
  })
  const location = res.headers.get('location') ?? ''
  const fragment = new URLSearchParams(location.slice(location.indexOf('#') + 1))
  const accessToken = fragment.get('accessToken')
  const refreshToken = fragment.get('refreshToken')
  if (!accessToken || !refreshToken) throw new Error(`development sign-in failed: ${res.status} ${location}`)
  return { accessToken, refreshToken }
}

async function post(url: string, token: string, path: string, body: unknown) {
  const res = await fetch(`${url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`)
  return res.json()
}

/** Signs the bench's student in and completes the profile, so `/` is Home rather than getting-started. */
export async function onboard(url: string) {
  const { accessToken } = await signIn(url)
  const { user } = await post(url, accessToken, '/user/p/me', true)
  await post(url, accessToken, '/user/p/update', {
    phone_number: '9876501234',
    roll_number: '16010199001',
    gender: 'MALE',
    year: 2027,
    branch: 'Computer_Engineering',
    interests: ['AI/ML'],
    degree: 'B.tech',
    college: 'KJSCE',
    id: user.id,
  })
}

/** A Pixel 7 context whose pages start signed in (tokens stored before the app's first script) and observed. */
export async function newContext(browser: Browser, url: string, signInUrl = url): Promise<BrowserContext> {
  const { defaultBrowserType: _ignored, ...phone } = devices['Pixel 7']
  const context = await browser.newContext({ ...phone })
  // A fresh session per context (each sign-in is its own refresh-token family), stored before the app starts.
  const tokens = await signIn(signInUrl)
  await context.addInitScript((t) => {
    if (!localStorage.getItem('accessToken')) {
      localStorage.setItem('accessToken', t.accessToken)
      localStorage.setItem('refreshToken', t.refreshToken)
    }
  }, tokens)
  await context.addInitScript(OBSERVER)
  return context
}

/** One start of `/`: throttled, measured. */
export async function measure(context: BrowserContext, url: string, profile: Profile, offline: boolean): Promise<Run> {
  const page = await context.newPage()
  const cdp = await throttle(page, profile)
  if (offline) await cdp.send('Network.emulateNetworkConditions', { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
  let bytes = 0
  let lastActivity = Date.now()
  const inflight = new Set<string>()
  const fromCache = new Set<string>()
  cdp.on('Network.requestWillBeSent', (e) => {
    inflight.add(e.requestId)
    lastActivity = Date.now()
  })
  cdp.on('Network.responseReceived', (e) => {
    if (e.response.fromServiceWorker || e.response.fromDiskCache || e.response.fromPrefetchCache) fromCache.add(e.requestId)
  })
  cdp.on('Network.loadingFinished', (e) => {
    inflight.delete(e.requestId)
    lastActivity = Date.now()
    if (!fromCache.has(e.requestId)) bytes += e.encodedDataLength
  })
  cdp.on('Network.loadingFailed', (e) => {
    inflight.delete(e.requestId)
    lastActivity = Date.now()
  })
  await page.goto(url + '/', { waitUntil: 'commit' })
  await page.waitForFunction(() => (window as any).__content !== undefined && (window as any).__splashOut !== undefined, undefined, {
    timeout: 60_000,
    polling: 50,
  })
  // Bytes of the start: everything the page fetched until its network went quiet for 500 ms (pictures in view
  // included). What the service worker fetches for itself (its install) runs in another target, not counted.
  const quietBy = Date.now() + 15_000
  while (Date.now() < quietBy && (inflight.size > 0 || Date.now() - lastActivity < 500)) await new Promise((r) => setTimeout(r, 50))
  const bytesAtHome = bytes
  // Let the app's mark land if data came after the content (it cannot, but a missing mark must not hang).
  await page.waitForFunction(() => performance.getEntriesByName('app:code-data-ready').length > 0, undefined, { timeout: 10_000 }).catch(() => {})
  const timing = await page.evaluate(() => ({
    ready: performance.getEntriesByName('app:code-data-ready')[0]?.startTime ?? null,
    content: (window as any).__content as number,
    splashOut: (window as any).__splashOut as number,
    cls: (window as any).__cls as number,
  }))
  await page.close()
  return {
    codeDataReady: timing.ready === null ? null : Math.round(timing.ready),
    homeVisible: Math.round(Math.max(timing.content, timing.splashOut)),
    contentRendered: Math.round(timing.content),
    bytes: bytesAtHome,
    layoutShift: Math.round(timing.cls * 1000) / 1000,
  }
}

/** A cold start: a fresh context (empty HTTP cache, no service worker) for one measured start, then closed. */
export async function measureCold(browser: Browser, url: string, profile: Profile): Promise<Run> {
  const context = await newContext(browser, url)
  try {
    return await measure(context, url, profile, false)
  } finally {
    await context.close()
  }
}

/** A visit without throttling that leaves the service worker installed and in control, all of the shell cached. */
export async function prime(context: BrowserContext, url: string) {
  const page = await context.newPage()
  await page.goto(url + '/')
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined))
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, { timeout: 30_000 })
  await page.waitForSelector('#main h2', { timeout: 30_000 })
  await page.close()
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : Math.round((s[s.length / 2 - 1]! + s[s.length / 2]!) / 2)
}
export const summary = (xs: number[]) => (xs.length ? { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) } : null)
