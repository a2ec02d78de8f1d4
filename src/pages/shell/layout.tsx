// The main layout of SPEC §1/§2: it loads the user and the events before rendering the screen, sends a user
// without phone or roll number to /getting-started, and frames the screen with the 'Namaste' header (its bell
// leads to the inbox) and the bottom navigation. Routes marked `layout: false` (login, logout, getting-started) render bare.
import type { ComponentChildren } from 'preact'
import { useEffect } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { session } from '../../models.ts'
import { PageSpinner } from '../../components/spinner/index.tsx'
import { Problem } from '../../components/problem/index.tsx'

const icon = (d: string) => (
  <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
    <path d={d} fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" />
  </svg>
)

export const TABS = [
  { href: '/', label: 'Home', icon: icon('M3 11 12 3l9 8M5 9.5V21h5v-6h4v6h5V9.5') },
  { href: '/calendar', label: 'Calendar', icon: icon('M4 6h16v15H4zM4 10h16M8 3v5M16 3v5') },
  { href: '/councils', label: 'Councils', icon: icon('M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM2 21a7 7 0 0 1 14 0M16 3.5a4 4 0 0 1 0 7.5M22 21a7 7 0 0 0-4-6.3') },
  { href: '/profile', label: 'Profile', icon: icon('M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zM3.5 21a8.5 8.5 0 0 1 17 0') },
]

/** Which tab a path belongs to: Home only for '/', the others for their path and everything under it. */
export const isActiveTab = (tab: string, path: string) => (tab === '/' ? path === '/' : path === tab || path.startsWith(tab + '/'))

function Header() {
  const { name, photo_url } = session.userData.value
  const unread = session.unread.value
  return (
    <header class="app-header">
      <div class="greeting">
        <span class="greeting-word">Namaste</span>
        <span class="greeting-name">{name}</span>
      </div>
      {/* The inbox (issue 37 item 2): every message the student was sent, with the unread ones counted. */}
      <a href="/inbox" class="avatar-link bell" aria-label={`Inbox${unread ? `, ${unread} unread` : ''}`}>
        {icon('M6 17v-6a6 6 0 0 1 12 0v6l2 2H4zM10 21h4')}
        {unread > 0 && (
          <span class="badge" aria-hidden="true">
            {unread}
          </span>
        )}
      </a>
      <a href="/profile" class="avatar-link" aria-label={photo_url ? undefined : 'My Profile'}>
        {photo_url ? (
          // Google's photo host refuses some requests that carry a referrer.
          <img class="avatar" src={photo_url} alt="My Profile" width={40} height={40} referrerpolicy="no-referrer" />
        ) : (
          <span class="avatar avatar-initial" aria-hidden="true">
            {name.trim().charAt(0).toUpperCase() || '?'}
          </span>
        )}
      </a>
    </header>
  )
}

function BottomNav({ path }: { path: string }) {
  return (
    <nav class="bottom-nav" aria-label="Main">
      {TABS.map((tab) => {
        const active = isActiveTab(tab.href, path)
        return (
          <a key={tab.href} href={tab.href} class={active ? 'tab tab-active' : 'tab'} aria-current={active ? 'page' : undefined}>
            {tab.icon}
            <span>{tab.label}</span>
          </a>
        )
      })}
    </nav>
  )
}

interface LayoutProps {
  /** Whether a path renders without the layout (the route table knows; the layout does not import it). */
  isBare: (path: string) => boolean
  children?: ComponentChildren
}

export function Layout({ isBare, children }: LayoutProps) {
  const { path, route } = useLocation()
  const bare = isBare(path)
  // The console and the door may be used in landscape (src/styles/critical.css); student screens may not.
  document.documentElement.classList.toggle('wide', /^\/(manage|door)(\/|$)/.test(path))
  const status = session.status.value
  const needsOnboarding = session.needsOnboarding.value

  useEffect(() => {
    if (!bare) session.load()
  }, [bare])
  useEffect(() => {
    if (!bare && status === 'ready' && needsOnboarding) route('/getting-started', true)
  }, [bare, status, needsOnboarding])

  if (bare) return <>{children}</>

  if (status === 'error') {
    return <Problem title="Could not load your account" text={session.error.value} onRetry={() => session.load()} />
  }
  // Until the user and events are in (and while a redirect is under way) the screen would only flash.
  if (status !== 'ready' || needsOnboarding) return <PageSpinner />

  return (
    <div class="app-shell">
      <Header />
      <main id="main" class="app-main">
        {children}
      </main>
      <BottomNav path={path} />
    </div>
  )
}
