// An event's activity points on its console screen (issue 26), a chunk of its own for events that give points:
// what it gives, who has earned what (the server answers its council's organisers and admins only), and its
// winners: marked among its participants, with a title, or unmarked, once the event is completed (audited).
import { useEffect, useState } from 'preact/hooks'
import type { EventPointsRow, EventWinner, OrgEvent } from '../../../contract/types.ts'
import { showToast } from '../../components/toast/index.tsx'
import { buildOrg } from '../../stores/org.ts'
import { room } from '../../models.ts'
import { buildOrgPoints } from '../../stores/org-points.ts'

const orgPoints = room(buildOrgPoints)
const org = room(buildOrg)

const KIND: Record<EventPointsRow['kind'], string> = { ATTENDED: 'attended', WINNER: 'winner', VOLUNTEER: 'door volunteer', ORGANISER: 'organiser' }

export default function PointsPanel({ event }: { event: OrgEvent }) {
  const ap = event.activity_points!
  const done = event.state === 'COMPLETED'
  const [rows, setRows] = useState<EventPointsRow[] | null>(null)
  const [winners, setWinners] = useState<EventWinner[]>([])
  const [pick, setPick] = useState('')
  const [title, setTitle] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const load = () =>
    Promise.all([orgPoints.eventPoints(event.id), orgPoints.winners({ event_id: event.id })]).then(
      ([p, w]) => {
        setRows(p.points)
        setWinners(w)
      },
      (err: Error) => setError(err.message),
    )
  useEffect(() => {
    load()
    if (done) org.loadParticipants(event.id)
  }, [event.id, done])
  const change = async (user_id: number, remove: boolean) => {
    setBusy(true)
    try {
      setWinners(await orgPoints.winners({ event_id: event.id, user_id, ...(remove ? { remove } : { title }) }))
      setError(null)
      setPick('')
      setTitle('')
      showToast(remove ? 'Winner removed' : 'Winner marked')
      await load()
    } catch (err) {
      setError((err as Error).message)
    } finally {
      setBusy(false)
    }
  }
  const people = org.participants.value?.eventId === event.id ? org.participants.value.rows : []
  return (
    <section class="m-card" aria-labelledby="points-h">
      <h2 id="points-h">Activity points</h2>
      <p>
        {ap.category}: {ap.points} for attending{ap.per_day ? ' (each day)' : ''}, {ap.winner} for a winner, {ap.volunteer} for a door volunteer, {ap.organiser}{' '}
        for an organiser.
      </p>
      <h3>Points given</h3>
      {rows === null ? (
        <p class="m-muted">Loading…</p>
      ) : rows.length === 0 ? (
        <p class="m-muted">No points given yet: students earn them when the door checks them in.</p>
      ) : (
        <ul class="m-people">
          {rows.map((r) => (
            <li key={r.user.id + r.kind}>
              <span>
                {r.user.name} <span class="m-muted">{KIND[r.kind]}</span>
              </span>
              {r.points}
            </li>
          ))}
        </ul>
      )}
      <h3>Winners</h3>
      {winners.length === 0 && <p class="m-muted">No winners marked.</p>}
      <ul class="m-people">
        {winners.map((w) => (
          <li key={w.user.id}>
            <span>
              {w.user.name} <span class="m-muted">{w.title}</span>
            </span>
            {done && (
              <button type="button" class="m-small" disabled={busy} onClick={() => change(w.user.id, true)} aria-label={`Remove ${w.user.name} as winner`}>
                Remove
              </button>
            )}
          </li>
        ))}
      </ul>
      {done ? (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            if (pick) change(+pick, false)
            else setError('Choose a participant')
          }}
        >
          <div class="m-field">
            <label for="w-pick">Participant</label>
            <select id="w-pick" value={pick} onChange={(e) => setPick(e.currentTarget.value)}>
              <option value="">Choose a participant</option>
              {people
                // A winner already marked is not offered again (issue 37 item 7): the list above is where they are changed.
                .filter((p) => p.waitlist_position === null && !winners.some((w) => w.user.id === p.user.id))
                .map((p) => (
                  <option key={p.user.id} value={p.user.id}>
                    {p.user.name} ({p.user.email})
                  </option>
                ))}
            </select>
          </div>
          <div class="m-field">
            <label for="w-title">Title, e.g. First place (optional)</label>
            <input id="w-title" maxLength={60} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
          </div>
          <button type="submit" class="button" disabled={busy}>
            Mark as winner
          </button>
        </form>
      ) : (
        <p class="m-muted">Winners can be marked once the event is completed.</p>
      )}
      {error && (
        <p class="m-error" role="alert">
          {error}
        </p>
      )}
    </section>
  )
}
