// The service worker, written in-house (Workbox would cost more bytes than this whole file). vite.config.ts
// compiles it to /sw.js at build time and puts the build's file list and version in front of it, so every
// build is a new service worker and the browser notices a new version on the next start.
//
//   app shell   every file of the build but the console's and the door's, fetched at install (those are kept
//               the first time a staff phone loads them); navigations answer with the cached index.html and
//               hashed assets come from the cache, so the app starts from the phone with or without a network
//   images      same-origin pictures: cache first, refreshed in the background (the event pictures of tickets)
//   /api/       never touched: API answers are personal and are kept by the app itself (src/api/last-known.ts)
//
// New version: install the new shell, take over at once (skipWaiting + clients.claim), delete the old shell and
// load every open page again onto the new version, so no student stays on code whose chunks are gone.

// The Service Worker types live in TypeScript's "webworker" lib, which cannot share a program with "DOM": the
// few members used here are declared instead.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void
}
interface FetchEvent extends ExtendableEvent {
  request: Request
  respondWith(response: Response | Promise<Response>): void
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown; text(): string } | null
}
interface NotificationEvent extends ExtendableEvent {
  notification: { data: unknown; close(): void }
}
interface WindowClient {
  url: string
  focus(): Promise<WindowClient>
  navigate(url: string): Promise<WindowClient | null>
}
declare const self: {
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void
  skipWaiting(): Promise<void>
  clients: {
    claim(): Promise<void>
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>
    openWindow(url: string): Promise<WindowClient | null>
  }
  registration: { showNotification(title: string, options: { body?: string; tag?: string; data?: unknown; icon?: string }): Promise<void> }
  location: Location
}
export {} // a module, so `self` above is this file's own declaration, not the DOM one (vite.config.ts strips it)

/** Set by vite.config.ts: the build's files (paths from the site root) and a hash of them. */
declare const BUILD: { version: string; files: string[]; staff?: string[] }

const SHELL = `shell-${BUILD.version}`
/** Also named in src/pages/logout (logout deletes it: pictures of the student and their tickets). */
const IMAGES = 'images'
const IMAGE_LIMIT = 80

/**
 * Hashed build files: everything under /assets/ has a content hash in its name (vite.config.ts), a new version has
 * new names, and the server sends them `immutable` (server/plugins/static.ts), so the copy in the HTTP cache is this
 * build's. Issue 15: each byte fetched once.
 */
const isHashed = (url: string) => url.startsWith('/assets/')

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      // Hashed files from the HTTP cache when it has them (the first visit has just downloaded those of the first
      // screen): fetching them again would download the first load twice. What is not hashed ('/', the manifest,
      // the icons) with `reload`: the shell must be this build's, not an HTTP-cached index.html of the previous one.
      .then((cache) => cache.addAll(['/', ...BUILD.files].map((url) => new Request(url, { cache: isHashed(url) ? 'default' : 'reload' }))))
      .then(() => self.skipWaiting()),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys().then(async (keys) => {
      const older = keys.filter((key) => key.startsWith('shell-') && key !== SHELL)
      await Promise.all(older.map((key) => caches.delete(key)))
      await self.clients.claim()
      // A new version over an older one: the pages the older one served run code whose chunks are gone; each is
      // loaded again onto this version. Done here, not in the page: a page's own listener missed a takeover that
      // came before its script ran, and stayed on the old code (a flaky update.spec). Not awaited: the navigation
      // is answered by this worker, which answers nothing until its activation is over.
      if (older.length) for (const page of await self.clients.matchAll({ type: 'window', includeUncontrolled: false })) page.navigate(page.url).catch(() => {})
    }),
  )
})

self.addEventListener('fetch', (event) => {
  const request = event.request
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  const sameOrigin = url.origin === self.location.origin
  // Sign-in pages and API answers, and the server's public verify page (issue 37 item 1): network only.
  if (sameOrigin && (url.pathname.startsWith('/api/') || url.pathname.startsWith('/verify/'))) return

  // Paths with a file extension are files (the server answers 404 for a missing one), never a route of the app.
  if (request.mode === 'navigate' && sameOrigin && !/\.[a-z0-9]+$/i.test(url.pathname)) {
    // Every route of the SPA is index.html; the cached one matches the cached assets of the same build.
    event.respondWith(caches.match('/', { cacheName: SHELL }).then((hit) => hit ?? fetch(request)))
    return
  }
  if (sameOrigin) {
    const shellHit = caches.match(request, { cacheName: SHELL })
    event.respondWith(
      shellHit.then((hit) => hit ?? (request.destination === 'image' ? fromImages(request) : STAFF.has(url.pathname) ? keptInShell(request) : fetch(request))),
    )
  }
  // Pictures on other hosts (Google profile photos, event images elsewhere) are left to the browser: this
  // worker runs under the server's CSP, whose connect-src is 'self', so its own fetch of them would be refused
  // and the picture lost even online. Offline they come from the HTTP cache when their host allows it.
})

/**
 * The console's and the door's files (scripts/staff-assets.ts) are not precached, so a student's phone never
 * downloads them; an organiser's or volunteer's phone keeps each in the shell the first time it loads it, so the
 * door opens again without a network.
 */
const STAFF = new Set(BUILD.staff ?? [])
async function keptInShell(request: Request): Promise<Response> {
  const response = await fetch(request)
  if (response.ok) {
    const copy = response.clone()
    caches
      .open(SHELL)
      .then((cache) => cache.put(request, copy))
      .catch(() => {})
  }
  return response
}

/** Cache first, then refresh in the background; the network's answer when the picture is not cached yet. */
async function fromImages(request: Request): Promise<Response> {
  const cache = await caches.open(IMAGES)
  const hit = await cache.match(request)
  const fresh = fetch(request).then(async (response) => {
    if (response.ok) {
      await cache.put(request, response.clone())
      const keys = await cache.keys()
      for (const old of keys.slice(0, Math.max(0, keys.length - IMAGE_LIMIT))) await cache.delete(old)
    }
    return response
  })
  if (hit) {
    fresh.catch(() => {})
    return hit
  }
  return fresh
}

// ---- Push notifications (issue 13): {title, body, url, tag} from the server (server/push/sender.ts) ----

self.addEventListener('push', (event) => {
  let message: { title?: unknown; body?: unknown; url?: unknown; tag?: unknown } = {}
  try {
    message = (event.data?.json() ?? {}) as typeof message
  } catch {
    message = { body: event.data?.text() }
  }
  const title = typeof message.title === 'string' && message.title ? message.title : 'Campus events'
  // Only paths of this app are opened on a tap.
  const url = typeof message.url === 'string' && message.url.startsWith('/') && !message.url.startsWith('//') ? message.url : '/'
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === 'string' ? message.body : undefined,
      tag: typeof message.tag === 'string' ? message.tag : undefined,
      icon: '/icons/icon-192.png',
      data: { url },
    }),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const path = (event.notification.data as { url?: string } | null)?.url ?? '/'
  const target = new URL(path, self.location.origin).href
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (windows) => {
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin)
      if (open) {
        // The browser allows focus() only for a moment after the tap (and not at all to a worker it did not
        // wake for a tap): a refused focus must not lose the navigation to the event.
        await open.focus().catch(() => undefined)
        if (open.url !== target) await open.navigate(target)
        return
      }
      await self.clients.openWindow(target)
    }),
  )
})
