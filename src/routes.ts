// The route table of SPEC §2 as data. Every screen is a lazy chunk; its code is fetched when a link to it is
// touched (see preloadRoute) or, for the first screen, as soon as the app starts.
import { h, type ComponentType } from 'preact'
import { lazy } from 'preact-iso'

export interface RouteEntry {
  path: string
  component: ComponentType<any> & { preload: () => Promise<unknown> }
  /** Rendered inside the main layout (header, bottom navigation, user and events loaded first). */
  layout: boolean
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

export const routes: RouteEntry[] = [
  { path: '/', layout: true, component: page(() => import('./pages/home/index.tsx')) },
  { path: '/calendar', layout: true, component: page(() => import('./pages/calendar/index.tsx')) },
  { path: '/councils', layout: true, component: page(() => import('./pages/councils/index.tsx')) },
  { path: '/profile', layout: true, component: page(() => import('./pages/profile/index.tsx')) },
  { path: '/profile/myevents', layout: true, component: page(() => import('./pages/my-events/index.tsx')) },
  { path: '/event-details/:id', layout: true, component: page(() => import('./pages/event-details/index.tsx')) },
  { path: '/child-events/:id', layout: true, component: page(() => import('./pages/child-events/index.tsx')) },
  { path: '/ticket/:id', layout: true, component: page(() => import('./pages/ticket/index.tsx')) },
  { path: '/team-register/:id', layout: true, component: page(() => import('./pages/team-register/index.tsx')) },
  { path: '/team-details/:id', layout: true, component: page(() => import('./pages/team-details/index.tsx')) },
  { path: '/getting-started', layout: false, component: page(() => import('./pages/getting-started/index.tsx')) },
  { path: '/login', layout: false, component: page(() => import('./pages/login/index.tsx')) },
  { path: '/logout', layout: false, component: page(() => import('./pages/logout/index.tsx')) },
  // The organiser console: one route for all of /manage, which picks its lazy screen itself (pages/manage).
  { path: '/manage/:rest*', layout: true, component: page(() => import('./pages/manage/index.tsx')) },
  { path: '/door', layout: false, component: page(() => import('./pages/door/index.tsx')) },
]

// The route patterns above only use literal segments and `:param` (preact-iso's `exec` is not exported).
const fits = (path: string, pattern: string) => {
  const have = path.split('/').filter(Boolean)
  const want = pattern.split('/').filter(Boolean)
  return have.length === want.length && want.every((seg, i) => seg.startsWith(':') || seg === have[i])
}

/** The route an address belongs to (path only; query and fragment ignored), or undefined. */
export function matchRoute(url: string): RouteEntry | undefined {
  const path = url.replace(/[?#].*$/, '')
  return routes.find((route) => fits(path, route.path))
}

/** Starts fetching the code of the screen at `url` (same-origin paths only); safe to call repeatedly. */
export function preloadRoute(url: string | null | undefined) {
  if (!url || !url.startsWith('/') || url.startsWith('//')) return
  matchRoute(url)
    ?.component.preload()
    .catch(() => {})
}
