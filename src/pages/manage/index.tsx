// The organiser console (issue 11): one lazy route for everything under /manage that picks its screen from the
// rest of the address; each screen is a lazy chunk of its own, so no console code or CSS is in a student's first
// load and no screen's chunk carries the others'. Reached from Profile by users with a role; the server checks
// every call again (403), this only spares a student screens they cannot use.
import { ErrorBoundary, lazy, useRoute } from 'preact-iso'
import { session } from '../../stores/session.ts'
import './console.css'

const Events = lazy(() => import('./events.tsx'))
const EventPage = lazy(() => import('./event.tsx'))
const Editor = lazy(() => import('./editor.tsx'))
const Participants = lazy(() => import('./participants.tsx'))
const Payments = lazy(() => import('./payments.tsx'))
const Admin = lazy(() => import('./admin.tsx'))
const Audit = lazy(() => import('./audit.tsx'))
const PointsAdmin = lazy(() => import('./points-admin.tsx'))

/** Which screen an address under /manage shows: '' the events, 'event/new', 'event/7', 'event/7/edit'… */
export function screenFor(rest: string): { screen: 'events' | 'event' | 'editor' | 'participants' | 'payments' | 'admin' | 'audit' | 'points'; id?: number } {
  const [first, id, sub] = rest.split('/').filter(Boolean)
  if (first === 'admin') return { screen: 'admin' }
  if (first === 'audit') return { screen: 'audit' }
  if (first === 'points') return { screen: 'points' }
  if (first === 'event' && id === 'new') return { screen: 'editor' }
  if (first === 'event' && /^\d{1,9}$/.test(id ?? '')) {
    const n = Number(id)
    if (sub === 'edit') return { screen: 'editor', id: n }
    if (sub === 'participants') return { screen: 'participants', id: n }
    if (sub === 'payments') return { screen: 'payments', id: n }
    return { screen: 'event', id: n }
  }
  return { screen: 'events' }
}

export default function Manage() {
  const { params, path } = useRoute()
  const roles = session.user.value?.roles
  if (!roles || !(roles.admin || roles.councils.length)) {
    return (
      <div class="page-message">
        <h1>Organiser console</h1>
        <p>The console is for council organisers. Ask your council's organiser or an admin to add you.</p>
      </div>
    )
  }
  const { screen, id } = screenFor(params.rest ?? '')
  return (
    <div class="m-console">
      <nav class="m-tabs" aria-label="Console">
        <a href="/manage" aria-current={path === '/manage' ? 'page' : undefined}>
          My events
        </a>
        <a href="/manage/event/new" aria-current={path === '/manage/event/new' ? 'page' : undefined}>
          New event
        </a>
        {roles.admin && (
          <a href="/manage/admin" aria-current={path === '/manage/admin' ? 'page' : undefined}>
            Councils
          </a>
        )}
        {roles.admin && (
          <a href="/manage/audit" aria-current={path === '/manage/audit' ? 'page' : undefined}>
            Audit log
          </a>
        )}
        {roles.admin && (
          <a href="/manage/points" aria-current={path === '/manage/points' ? 'page' : undefined}>
            Activity points
          </a>
        )}
      </nav>
      {/* Renders the screen again once its chunk is in (the app's Router only waits for its own routes). */}
      <ErrorBoundary>
        {screen === 'events' && <Events />}
        {screen === 'event' && <EventPage id={id!} />}
        {screen === 'editor' && <Editor key={id ?? 'new'} id={id} />}
        {screen === 'participants' && <Participants id={id!} />}
        {screen === 'payments' && <Payments id={id!} />}
        {screen === 'admin' && <Admin />}
        {screen === 'audit' && (roles.admin ? <Audit /> : <p class="page-message">The audit log is for admins.</p>)}
        {screen === 'points' && (roles.admin ? <PointsAdmin /> : <p class="page-message">Activity points settings are for admins.</p>)}
      </ErrorBoundary>
    </div>
  )
}
