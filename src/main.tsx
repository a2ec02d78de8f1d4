// Entry: takes the tokens of a sign-in out of the address, starts the first screen's code and data at once,
// renders the app and retires the splash of index.html.
import { render } from 'preact'
import { SPLASH_MS } from '../contract/constants.ts'
import { App } from './app.tsx'
import { matchRoute, preloadRoute } from './routes.ts'
import { parseAuthReturn, session } from './stores/session.ts'

// The sign-in callback lands on /login#accessToken=…&refreshToken=… : store them and take them out of the
// address (and so out of history) before anything renders, then start at /.
const back = location.pathname === '/login' ? parseAuthReturn(location.hash, location.search) : null
if (back && 'accessToken' in back) {
  session.signIn(back.accessToken, back.refreshToken)
  history.replaceState(null, '', '/')
}

// Code and data of the first screen, side by side with the first render.
preloadRoute(location.pathname)
if (matchRoute(location.pathname)?.layout !== false) session.load()

// A finger on a link is ~100 ms ahead of its click: fetch that screen's code now.
const preloadFromLink = (event: Event) =>
  preloadRoute((event.target as Element | null)?.closest?.('a[href]')?.getAttribute('href'))
addEventListener('pointerdown', preloadFromLink, { passive: true, capture: true })
addEventListener('touchstart', preloadFromLink, { passive: true, capture: true })

render(<App />, document.getElementById('app')!)

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
