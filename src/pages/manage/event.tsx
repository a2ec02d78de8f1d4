// One event in the console: its counts, the state control (current state, the next scheduled move and its time,
// a manual move confirmed with what students will see), its door volunteers (add by e-mail, remove) and a
// notification to its students (notify.tsx).
import { useEffect, useState } from 'preact/hooks'
import { ErrorBoundary, lazy } from 'preact-iso'
import { ALL_EVENT_STATES, type AnyEventState } from '../../../contract/shell.ts'
import type { OrgEvent } from '../../../contract/types.ts'
import { ConfirmModal } from '../../components/modal/index.tsx'
import { LoadOrRetry } from '../../components/load-or-retry/index.tsx'
import { showToast } from '../../components/toast/index.tsx'
import { formatMoment, nextMove, nextMoveText, SCHEDULE_STEPS, STATE_NAMES } from '../../lib/org-event.ts'
import { STUDENTS_SEE } from '../../lib/state-moves.ts'
import { buildOrg } from '../../stores/org.ts'
import { room } from '../../models.ts'
import { Counts } from './counts.tsx'
import { DrawStatus } from './draw-status.tsx'
import { NotifyForm } from './notify.tsx'
import { PeopleByEmail } from './people.tsx'

const org = room(buildOrg)

const PointsPanel = lazy(() => import('./points-panel.tsx'))

function StateControl({ event }: { event: OrgEvent }) {
  const [target, setTarget] = useState<AnyEventState>(event.state)
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const next = nextMove(event.schedule, event.state)
  const move = async () => {
    setBusy(true)
    try {
      await org.move(event.id, target)
      showToast(`${event.name} is now: ${STATE_NAMES[target]}`)
      setConfirming(false)
    } catch (err) {
      showToast((err as Error).message, 'error')
    } finally {
      setBusy(false)
    }
  }
  return (
    <section class="m-card" aria-labelledby="state-h">
      <h2 id="state-h">State</h2>
      <p>
        Now: <strong>{STATE_NAMES[event.state]}</strong>
      </p>
      <p>
        {next
          ? nextMoveText(next)
          : event.state === 'DRAFT'
            ? 'A draft never moves by itself: publish it (Upcoming or later) for the schedule to run.'
            : 'No scheduled move ahead.'}
      </p>
      <ul class="m-muted">
        {SCHEDULE_STEPS.filter((step) => event.schedule[step.key]).map((step) => (
          <li key={step.key}>
            {step.label}: {formatMoment(event.schedule[step.key]!)}
          </li>
        ))}
      </ul>
      <div class="m-row">
        <div class="m-field">
          <label for="move-to">Move to</label>
          <select id="move-to" value={target} onChange={(e) => setTarget(e.currentTarget.value as AnyEventState)}>
            {ALL_EVENT_STATES.map((state) => (
              <option key={state} value={state}>
                {STATE_NAMES[state]}
              </option>
            ))}
          </select>
        </div>
        <button type="button" class="button" disabled={target === event.state} onClick={() => setConfirming(true)}>
          Move
        </button>
      </div>
      {confirming && (
        <ConfirmModal title={`Move ${event.name} to ${STATE_NAMES[target]}?`} busy={busy} onConfirm={move} onCancel={() => setConfirming(false)}>
          <p>{STUDENTS_SEE[target]}</p>
          <p>A move by hand wins over the schedule: the scheduled times already passed are not replayed.</p>
        </ConfirmModal>
      )}
    </section>
  )
}

function DoorVolunteers({ eventId }: { eventId: number }) {
  useEffect(() => {
    org.loadStaff(eventId)
  }, [eventId])
  const staff = org.staff.value
  return (
    <section class="m-card" aria-labelledby="staff-h">
      <h2 id="staff-h">Door volunteers</h2>
      <PeopleByEmail
        id="staff-email"
        people={staff}
        placeholder={
          <p class="m-muted">
            {staff === null ? (org.staffError.value ?? 'Loading…') : 'No door volunteers yet. Organisers of the council can check tickets in too.'}
          </p>
        }
        label="E-mail of a volunteer"
        removeLabel={(p) => `Remove ${p.name}`}
        change={async (address, remove) => {
          await org.changeStaff(eventId, address, remove)
          return remove ? `${address} removed` : `${address} can now check tickets in`
        }}
      />
      <p class="m-muted">They must have signed in to the app once.</p>
    </section>
  )
}

/**
 * Student screens refuse a wide window ('Mobile Required'), so on a laptop the student view opens in a window of a
 * phone's size (issue 22 item 8); a blocked pop-up says why it did not. On a phone it is a plain link.
 */
function StudentView({ id }: { id: number }) {
  const [blocked, setBlocked] = useState(false)
  const href = `/event-details/${id}`
  return (
    <>
      <a
        href={href}
        onClick={(e) => {
          if (!matchMedia('(orientation: landscape)').matches) return
          // Not the router's navigation either (it listens above the link and does not look at preventDefault).
          e.preventDefault()
          e.stopPropagation()
          setBlocked(!open(href, 'student-view', 'popup,width=400,height=820'))
        }}
      >
        Student view
      </a>
      {blocked && <span role="status">Pop-ups are blocked. Allow them for a phone-sized student view: student screens need a tall window.</span>}
    </>
  )
}

export default function EventPage({ id }: { id: number }) {
  useEffect(() => {
    org.load()
  }, [id])
  const event = org.events.value?.find((e) => e.id === id)
  if (!event) {
    if (org.events.value) return <p class="page-message">No event {id} among the events you manage.</p>
    return <LoadOrRetry loading="Loading the event" what="the event" error={org.error.value} retry={org.load} />
  }
  return (
    <>
      <div class="m-head">
        <h1>{event.name}</h1>
        <p class="m-actions">
          <a href={`/manage/event/${id}/edit`}>Edit</a>
          <a href={`/manage/event/${id}/participants`}>Participants</a>
          {event.fee > 0 && <a href={`/manage/event/${id}/payments`}>Payments</a>}
          {event.state !== 'DRAFT' && <StudentView id={id} />}
        </p>
      </div>
      <Counts event={event} />
      <div class="m-cards">
        <DrawStatus event={event} />
        <StateControl key={event.state} event={event} />
        <DoorVolunteers eventId={id} />
        {event.state !== 'DRAFT' && <NotifyForm eventId={id} />}
        <ErrorBoundary>{event.activity_points && event.state !== 'DRAFT' && <PointsPanel event={event} />}</ErrorBoundary>
      </div>
    </>
  )
}
