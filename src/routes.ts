// The route table of SPEC §2 as data. Every screen is a lazy chunk; its code is fetched when a link to it is
// touched (see preloadRoute) or, for the first screen, as soon as the app starts.
import { h, type ComponentType } from 'preact'
import { lazy } from 'preact-iso'
// The router's own path matching, so a route matches here exactly as <Router> matches it (not re-exported by the
// package's index).
import { exec } from 'preact-iso/router'

export interface RouteEntry {
  path: string
  component: ComponentType<any> & { preload: () => Promise<unknown> }
  /** false: rendered bare; otherwise inside the main layout (header, bottom navigation, user and events loaded first). */
  layout?: false
}

// A chunk that fails to load (offline, or an old chunk gone after a deploy) shows a way out instead of a blank page.
const ChunkFailed = () =>
  h(
    'div',
    { class: 'page-message', role: 'alert' },
    h('p', null, 'This screen could not be loaded. Check your connection and try again.'),
    h('button', { type: 'button', class: 'button', onClick: () => location.reload() }, 'Try again'),
  )

const page = (load: () => Promise<{ default: ComponentType<any> }>) =>
  lazy(() =>
    load().catch((err) => {
      console.error('route chunk failed', err)
      return { default: ChunkFailed }
    }),
  )

const manage = page(() => import('./pages/manage/index.tsx'))

export const routes: RouteEntry[] = [
  { path: '/', component: page(() => import('./pages/home/index.tsx')) },
  { path: '/calendar', component: page(() => import('./pages/calendar/index.tsx')) },
  { path: '/councils', component: page(() => import('./pages/councils/index.tsx')) },
  { path: '/profile', component: page(() => import('./pages/profile/index.tsx')) },
  { path: '/profile/myevents', component: page(() => import('./pages/my-events/index.tsx')) },
  // The header's bell (issue 37 item 2).
  { path: '/inbox', component: page(() => import('./pages/inbox/index.tsx')) },
  { path: '/event-details/:id', component: page(() => import('./pages/event-details/index.tsx')) },
  // How a fair opening's draw is checked (issue 24): linked from an event with a draw.
  { path: '/event-details/:id/draw', component: page(() => import('./pages/draw/index.tsx')) },
  { path: '/child-events/:id', component: page(() => import('./pages/child-events/index.tsx')) },
  { path: '/ticket/:id', component: page(() => import('./pages/ticket/index.tsx')) },
  { path: '/team-register/:id', component: page(() => import('./pages/team-register/index.tsx')) },
  { path: '/team-details/:id', component: page(() => import('./pages/team-details/index.tsx')) },
  { path: '/getting-started', layout: false, component: page(() => import('./pages/getting-started/index.tsx')) },
  { path: '/login', layout: false, component: page(() => import('./pages/login/index.tsx')) },
  { path: '/logout', layout: false, component: page(() => import('./pages/logout/index.tsx')) },
  // The organiser console: /manage and everything under it, whose own Router picks the lazy screen (pages/manage).
  { path: '/manage/*', component: manage },
  { path: '/manage', component: manage },
  // The door's frame (its way back to the app, issue 37 item 5) loads the door's own chunk behind it.
  { path: '/door', layout: false, component: page(() => import('./pages/door/frame.tsx')) },
]

/** The route an address belongs to (path only; query and fragment ignored), or undefined. */
export function matchRoute(url: string): RouteEntry | undefined {
  const path = url.replace(/[?#].*$/, '')
  return routes.find((route) => exec(path, route.path))
}

/** Starts fetching the code of the screen at `url` (same-origin paths only); safe to call repeatedly. */
export function preloadRoute(url: string | null | undefined) {
  if (!url || !url.startsWith('/') || url.startsWith('//')) return
  matchRoute(url)
    ?.component.preload()
    .catch(() => {})
}
