// The organiser console (issue 11): one lazy route for everything under /manage, whose nested preact-iso Router
// picks the screen from the rest of the address; each screen is a lazy chunk of its own, so no console code or CSS
// is in a student's first load and no screen's chunk carries the others'. Reached from Profile by users with a role; the server checks
// every call again (403), this only spares a student screens they cannot use.
import type { ComponentType } from 'preact'
import { ErrorBoundary, lazy, Route, Router, useRoute } from 'preact-iso'
import { session } from '../../models.ts'
import './console.css'

const Events = lazy(() => import('./events.tsx'))
const EventPage = lazy(() => import('./event.tsx'))
const Editor = lazy(() => import('./editor.tsx'))
const Participants = lazy(() => import('./participants.tsx'))
const Admin = lazy(() => import('./admin.tsx'))
const Payments = lazy(() => import('./payments.tsx'))
const Audit = lazy(() => import('./audit.tsx'))
const PointsAdmin = lazy(() => import('./points-admin.tsx'))

/** A screen of one event: its id checked (up to 9 digits, else the events list), keyed so that another event's
 * address gives a fresh screen. */
const ofEvent =
  (Screen: ComponentType<{ id: number }>) =>
  ({ id }: { id: string }) =>
    /^\d{1,9}$/.test(id) ? <Screen key={id} id={Number(id)} /> : <Events />
const EventRoute = ofEvent(EventPage)
const EditRoute = ofEvent(Editor)
const ParticipantsRoute = ofEvent(Participants)
const PaymentsRoute = ofEvent(Payments)

const AdminsOnly = ({ message }: { message: string }) => <p class="page-message">{message}</p>

export default function Manage() {
  const { path } = useRoute()
  const roles = session.user.value?.roles
  if (!roles || !(roles.admin || roles.councils.length)) {
    return (
      <div class="page-message">
        <h1>Organiser console</h1>
        <p>The console is for council organisers. Ask your council's organiser or an admin to add you.</p>
      </div>
    )
  }
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
      {/* The console's own routes, under /manage (routes.ts gives this component /manage and /manage/*). */}
      <ErrorBoundary>
        <Router>
          <Route path="/" component={Events} />
          <Route path="/event/new" component={Editor} />
          <Route path="/event/:id" component={EventRoute} />
          <Route path="/event/:id/edit" component={EditRoute} />
          <Route path="/event/:id/participants" component={ParticipantsRoute} />
          <Route path="/event/:id/payments" component={PaymentsRoute} />
          <Route path="/admin" component={Admin} />
          <Route path="/audit" component={roles.admin ? Audit : AdminsOnly} message="The audit log is for admins." />
          <Route path="/points" component={roles.admin ? PointsAdmin : AdminsOnly} message="Activity points settings are for admins." />
          <Route default component={Events} />
        </Router>
      </ErrorBoundary>
    </div>
  )
}
