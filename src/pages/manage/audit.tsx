// Admins (issue 11): the audit log (POST /org/p/audit), newest first: when, who (a user, the scheduler or the
// command line), what, on which event, and the change (before → after). Narrowed to one event by its number;
// "Load older entries" reads on, 100 at a time.
import { useEffect, useState } from 'preact/hooks'
import type { AuditEntry } from '../../../contract/types.ts'
import { LoadOrRetry } from '../../components/load-or-retry/index.tsx'
import { formatMoment } from '../../lib/org-event.ts'
import { buildOrg } from '../../stores/org.ts'
import { room } from '../../models.ts'

const org = room(buildOrg)

const ACTORS: Record<AuditEntry['actor_kind'], string> = { user: 'A user', scheduler: 'Scheduler', cli: 'Command line' }

/** A before or after value as one short line (long ones cut, with an ellipsis). */
export function changeText(value: unknown): string {
  if (value === null || value === undefined) return '–'
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.length > 160 ? `${text.slice(0, 159)}…` : text
}

export default function Audit() {
  const [typed, setTyped] = useState('')
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    org.loadAudit(null)
  }, [])
  const log = org.audit.value
  const show = (e: Event) => {
    e.preventDefault()
    const value = typed.trim()
    if (value && !/^[1-9]\d{0,9}$/.test(value)) return setError('event_id must be a positive whole number')
    setError(null)
    org.loadAudit(value ? Number(value) : null)
  }
  return (
    <>
      <h1>Audit log</h1>
      <form class="m-row" onSubmit={show} noValidate>
        <div class="m-field">
          <label for="audit-event">Event number (empty: every event)</label>
          <input
            id="audit-event"
            inputMode="numeric"
            value={typed}
            aria-invalid={!!error}
            aria-describedby={error ? 'audit-event-error' : undefined}
            onInput={(e) => setTyped(e.currentTarget.value)}
          />
          {error && (
            <p id="audit-event-error" class="m-error">
              {error}
            </p>
          )}
        </div>
        <button type="submit" class="m-small">
          Show
        </button>
      </form>
      {!log ? (
        <LoadOrRetry loading="Loading the audit log" what="the audit log" error={org.auditError.value} retry={() => org.loadAudit(null)} />
      ) : (
        <>
          <p class="m-muted" role="status">
            {log.entries.length} {log.entries.length === 1 ? 'entry' : 'entries'}
            {log.eventId ? ` of event ${log.eventId}` : ''}
            {log.more ? ' (more below)' : ''}
          </p>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable by keyboard (axe scrollable-region-focusable) */}
          <div class="m-scroll" role="region" aria-label="Audit entries" tabIndex={0}>
            <table class="m-table">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">Event</th>
                  <th scope="col">Before</th>
                  <th scope="col">After</th>
                </tr>
              </thead>
              <tbody>
                {log.entries.map((a) => (
                  <tr key={a.id}>
                    <th scope="row">{formatMoment(a.at)}</th>
                    <td>{a.actor_name ?? ACTORS[a.actor_kind]}</td>
                    <td>{a.action}</td>
                    <td>{a.event_id ? <a href={`/manage/event/${a.event_id}`}>{a.event_id}</a> : '–'}</td>
                    <td>
                      <code>{changeText(a.before)}</code>
                    </td>
                    <td>
                      <code>{changeText(a.after)}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {org.auditError.value && (
            <p class="m-error" role="alert">
              {org.auditError.value}
            </p>
          )}
          {log.more && (
            <button type="button" class="m-small" onClick={() => org.loadAudit(log.eventId, true)}>
              Load older entries
            </button>
          )}
        </>
      )}
    </>
  )
}
