// The console's activity points (issue 26), one chunk for both of its parts (the staff's bytes are counted):
// - PointsFields, in the editor: whether the event gives points, its category (the college's list, from the
//   server), the points of a check-in (per event day when asked) and of the roles.
// - PointsPanel, on the event's page: what it gives, who has earned what (its organisers and admins only: the
//   server refuses anyone else), and its winners, marked among the students checked in, or removed, once the event
//   is completed (audited by the server).
import { useEffect, useState } from 'preact/hooks'
import type { ActivityPointsInput, EventPointsRow, EventWinner, OrgEvent } from '../../../contract/types.ts'
import { showToast } from '../../components/toast/index.tsx'
import { orgPoints as orgPointsApi } from '../../stores/org-points.ts'

const ROLES = [
  ['winner', 'Winner'],
  ['volunteer', 'Door volunteer'],
  ['organiser', 'Organiser'],
] as const

export function PointsFields({
  value,
  onChange,
  error,
}: {
  value: ActivityPointsInput | null
  onChange: (next: ActivityPointsInput | null) => void
  error?: string
}) {
  const [categories, setCategories] = useState<string[]>([])
  useEffect(() => {
    orgPointsApi.settings().then(
      (s) => setCategories(s.categories),
      () => setCategories([]),
    )
  }, [])
  const v = value
  const put = (change: Partial<ActivityPointsInput>) => v && onChange({ ...v, ...change })
  const num = (key: 'points' | (typeof ROLES)[number][0], label: string) => (
    <div class="m-field">
      <label for={`ap-${key}`}>{label}</label>
      <input
        id={`ap-${key}`}
        type="number"
        inputMode="numeric"
        min={0}
        max={100}
        value={v?.[key] ?? 0}
        onInput={(e) => put({ [key]: e.currentTarget.value === '' ? 0 : Number(e.currentTarget.value) })}
      />
    </div>
  )
  return (
    <fieldset class="m-card">
      <legend>Activity points</legend>
      <label class="m-check">
        <input
          type="checkbox"
          checked={!!v}
          onChange={(e) => onChange(e.currentTarget.checked ? { category: categories[0] ?? '', points: 0, per_day: false } : null)}
        />{' '}
        This event gives activity points
      </label>
      {v && (
        <>
          <div class="m-field">
            <label for="ap-category">Category</label>
            <select id="ap-category" value={v.category} onChange={(e) => put({ category: e.currentTarget.value })}>
              {!categories.includes(v.category) && <option value={v.category}>{v.category || 'Choose a category'}</option>}
              {categories.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </div>
          {num('points', 'Points for attending (checked in at the door)')}
          <label class="m-check">
            <input type="checkbox" checked={v.per_day ?? false} onChange={(e) => put({ per_day: e.currentTarget.checked })} /> For each day attended (multi-day
            events)
          </label>
          <div class="m-row">{ROLES.map(([key, label]) => num(key, `${label}: points`))}</div>
        </>
      )}
      {error && (
        <p class="m-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  )
}

export function PointsPanel({ event }: { event: OrgEvent }) {
  const ap = event.activity_points!
  const [rows, setRows] = useState<EventPointsRow[]>([])
  const [winners, setWinners] = useState<EventWinner[]>([])
  const [pick, setPick] = useState('')
  const [title, setTitle] = useState('')
  const done = event.state === 'COMPLETED'
  const load = () =>
    Promise.all([orgPointsApi.eventPoints(event.id), orgPointsApi.winners({ event_id: event.id })]).then(([p, w]) => {
      setRows(p.points)
      setWinners(w)
    })
  useEffect(() => void load().catch(() => {}), [event.id])
  const change = (user_id: number, remove: boolean) =>
    orgPointsApi
      .winners({ event_id: event.id, user_id, title, remove })
      .then(load)
      .then(
        () => setPick(''),
        (err: Error) => showToast(err.message, 'error'),
      )
  return (
    <section class="m-card" aria-labelledby="points-h">
      <h2 id="points-h">Activity points</h2>
      <p>
        {ap.category}: {ap.points} for attending{ap.per_day ? ' (each day)' : ''}, winner {ap.winner}, door volunteer {ap.volunteer}, organiser {ap.organiser}.
      </p>
      <ul>
        {rows.map((r) => (
          <li key={r.user.id + r.kind}>
            {r.user.name}: {r.kind.toLowerCase()}, {r.points}
          </li>
        ))}
      </ul>
      <h3 class="m-label">Winners</h3>
      <ul>
        {winners.map((w) => (
          <li key={w.user.id}>
            {w.user.name} {w.title}{' '}
            <button type="button" class="m-small" disabled={!done} onClick={() => change(w.user.id, true)}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      {done ? (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            if (pick) change(+pick, false)
          }}
        >
          <label for="w-pick">Checked-in student</label>
          <select id="w-pick" value={pick} onChange={(e) => setPick(e.currentTarget.value)}>
            <option value="">Choose</option>
            {rows
              .filter((r) => r.kind === 'ATTENDED')
              .map((r) => (
                <option key={r.user.id} value={r.user.id}>
                  {r.user.name} ({r.user.email})
                </option>
              ))}
          </select>
          <label for="w-title">Title (optional)</label>
          <input id="w-title" maxLength={60} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
          <button type="submit" class="m-small">
            Mark as winner
          </button>
        </form>
      ) : (
        <p class="m-muted">Winners can be marked once the event is completed.</p>
      )}
    </section>
  )
}
