// Entry: starts the first screen's code and data at once
// (src/boot.ts has already sent the first calls), renders the app, retires the splash of index.html and
// installs the service worker.
import { render } from 'preact'
import { SPLASH_MS } from '../contract/shell.ts'
import { App } from './app.tsx'
import { matchRoute, preloadRoute } from './routes.ts'
import { session } from './models.ts'
import './stores/connection.ts'

// The sign-in callback lands on /login#accessToken=…&refreshToken=…&state=… : the login screen checks it is the
// answer to a sign-in this browser started (stores/session-flows.ts) and takes it out of the address.

// Code and data of the first screen, side by side with the first render. The mark is what `npm run bench:load`
// reads as "code and data ready".
const first = matchRoute(location.pathname)
preloadRoute(location.pathname)
if (first?.layout !== false) {
  Promise.all([session.load(), first?.component.preload()]).then(
    () => performance.mark('app:code-data-ready'),
    () => {},
  )
}

// A finger on a link is ~100 ms ahead of its click: fetch that screen's code now.
const preloadFromLink = (event: Event) => preloadRoute((event.target as Element | null)?.closest?.('a[href]')?.getAttribute('href'))
// pointerdown covers fingers, mice and pens alike (every phone browser has Pointer Events).
addEventListener('pointerdown', preloadFromLink, { passive: true, capture: true })

// The offline tickets (stores/offline-tickets.ts), fetched ahead in the background once the first screen has had
// the network to itself; the same chunk shows 'Mobile Required''s links to staff (stores/staff-links.ts).
const offlineTickets = () => setTimeout(() => import('./stores/offline-tickets.ts').catch(() => {}), 2000)
if (document.readyState === 'complete') offlineTickets()
else addEventListener('load', offlineTickets, { once: true })

// test/e2e/update.spec.ts builds two versions told apart by VITE_BUILD_ID; unset (every real build), the
// minifier drops this line.
if (import.meta.env.VITE_BUILD_ID) document.documentElement.dataset.build = import.meta.env.VITE_BUILD_ID

// In a task of its own (issue 15 item 7): the evaluation of the start chunk and the first render are two shorter
// tasks rather than one long one (Lighthouse's Total Blocking Time); the splash covers the screen meanwhile.
setTimeout(() => render(<App />, document.getElementById('app')!), 0)

// SPEC §1: the splash stays 1.5 s from navigation start (performance.now() counts from there), then fades.
const splash = document.getElementById('splash')
if (splash) {
  setTimeout(
    () => {
      splash.classList.add('splash-out')
      setTimeout(() => splash.remove(), 250)
    },
    Math.max(0, SPLASH_MS - performance.now()),
  )
}

// The service worker (src/sw.ts): installed once the first screen has had the network to itself. A new version
// loads the pages of the older one again itself (its activate).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const sw = navigator.serviceWorker
  const register = () => sw.register('/sw.js').catch((err) => console.error('service worker registration failed', err))
  if (document.readyState === 'complete') register()
  else addEventListener('load', register, { once: true })
}
