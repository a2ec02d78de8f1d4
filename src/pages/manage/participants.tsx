// An event's participants (issue 11): a searchable list (name, roll number, branch, year, team, answers, ticket,
// checked in, rating), the teams with their members and whether they meet min_ppt, the CSV export (fetched with
// the bearer, then saved as a file) and the ratings' distribution.
import { useEffect, useState } from 'preact/hooks'
import { LoadOrRetry } from '../../components/load-or-retry/index.tsx'
import { showToast } from '../../components/toast/index.tsx'
import { formatMoment } from '../../lib/org-event.ts'
import { saveFile } from '../../lib/save-file.ts'
import { csvFileName, matchesSearch, ratingBars, teamsOf } from '../../lib/participants.ts'
import { buildOrg } from '../../stores/org.ts'
import { room } from '../../models.ts'

const org = room(buildOrg)

export default function Participants({ id }: { id: number }) {
  const [query, setQuery] = useState('')
  const [exporting, setExporting] = useState(false)
  useEffect(() => {
    org.load()
    org.loadParticipants(id)
  }, [id])
  const event = org.events.value?.find((e) => e.id === id)
  const data = org.participants.value
  if (!data || data.eventId !== id) {
    return <LoadOrRetry loading="Loading the participants" what="the participants" error={org.participantsError.value} retry={() => org.loadParticipants(id)} />
  }
  const name = event?.name ?? `Event ${id}`
  const rows = data.rows.filter((p) => matchesSearch(p, query))
  const teams = teamsOf(data.rows, event?.min_ppt ?? 1)
  const exportCsv = async () => {
    setExporting(true)
    try {
      saveFile(await org.participantsCsv(id), csvFileName(name, id))
    } catch (err) {
      showToast((err as Error).message, 'error')
    } finally {
      setExporting(false)
    }
  }
  return (
    <>
      <div class="m-head">
        <h1>Participants of {name}</h1>
        <p class="m-actions">
          <button type="button" class="m-small" onClick={exportCsv} disabled={exporting}>
            {exporting ? 'Exporting…' : 'Export CSV'}
          </button>
          <a href={`/manage/event/${id}`}>Back to the event</a>
        </p>
      </div>
      <div class="m-field">
        <label for="p-search">Search by name, roll number, branch, team or answer</label>
        <input id="p-search" type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
      </div>
      <p class="m-muted" role="status">
        {rows.length} of {data.rows.length} registered
      </p>
      {/* Said before the table (issue 37 item 7): on a phone its columns run past the screen's edge. */}
      <p class="m-muted" id="p-scroll">
        The table scrolls sideways: swipe it to see every column.
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls sideways must be reachable by keyboard (axe scrollable-region-focusable) */}
      <div class="m-scroll" role="region" aria-label="Participants table" aria-describedby="p-scroll" tabIndex={0}>
        <table class="m-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Roll number</th>
              <th scope="col">Branch, year</th>
              <th scope="col">Team</th>
              {data.questions.map((q) => (
                <th scope="col" key={q.id}>
                  {q.label}
                </th>
              ))}
              <th scope="col">Ticket</th>
              <th scope="col">Checked in</th>
              <th scope="col">Rating</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.user.id}>
                <th scope="row">
                  {p.user.name}
                  <span class="m-muted">{p.user.email}</span>
                </th>
                <td>{p.user.roll_number ?? '–'}</td>
                <td>{[p.user.branch?.replace(/_/g, ' '), p.user.year].filter(Boolean).join(', ') || '–'}</td>
                <td>{p.team?.name ?? '–'}</td>
                {data.questions.map((q) => (
                  <td key={q.id}>{p.answers[q.id] ?? ''}</td>
                ))}
                <td>{p.ticket_collected ? 'Yes' : p.waitlist_position ? `Waitlist ${p.waitlist_position}` : 'No'}</td>
                <td>{p.checked_in_at ? formatMoment(p.checked_in_at) : 'No'}</td>
                <td>{p.rating ? `${p.rating} ★` : '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {teams.length > 0 && (
        <section aria-labelledby="teams-h">
          <h2 id="teams-h">Teams ({teams.length})</h2>
          <ul class="m-cards">
            {teams.map((t) => (
              <li class="m-card" key={t.id}>
                <h3>{t.name}</h3>
                <p class={t.complete ? 'm-live' : 'm-error'}>
                  {t.complete ? 'Complete' : `Incomplete: ${t.members.length} of at least ${event?.min_ppt ?? 1}`}
                </p>
                <ul>
                  {t.members.map((m) => (
                    <li key={m.user.id}>{m.user.name}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </section>
      )}

      {event && (
        <section aria-labelledby="ratings-h">
          <h2 id="ratings-h">Ratings</h2>
          <p>
            {event.counts.ratings.count} ratings
            {event.counts.ratings.average != null && `, ${event.counts.ratings.average.toFixed(1)} ★ on average`}
          </p>
          <ul class="m-people">
            {ratingBars(event.counts.ratings.by_star).map((b) => (
              <li key={b.stars}>
                <span>{b.stars} ★</span>
                <span class="m-bar" aria-hidden="true">
                  <span style={{ width: `${b.percent}%` }} />
                </span>
                <span>{b.count}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  )
}
