// The editor's activity points (issue 26), a chunk of its own: whether the event gives points, its category (the
// college's list, from the server), the points for attending (per event day when asked) and for the roles.
// Untouched, the editor sends none of it (rules.ts toInput); taking the points away is a choice the form says aloud.
import { useEffect, useState } from 'preact/hooks'
import { room } from '../../models.ts'
import { buildOrgPoints } from '../../stores/org-points.ts'
import type { POINT_FIELDS, PointsForm } from './points-rules.ts'

const orgPoints = room(buildOrgPoints)

const LABELS: Record<(typeof POINT_FIELDS)[number], string> = {
  points: 'Points for attending (checked in at the door)',
  winner: 'Points for a winner',
  volunteer: 'Points for a door volunteer',
  organiser: 'Points for an organiser of the council',
}

export default function PointsFields(props: {
  value: PointsForm | null
  /** The event as saved gives points (so clearing them takes them away from students). */
  had: boolean
  onChange: (next: PointsForm | null) => void
  onBlur: () => void
  /** The message, in the editor's words. */
  error?: string
  /** The field it is about ('points', 'category'...), from the contract's message. */
  invalid?: string
}) {
  const { value: v, onChange, error } = props
  const [categories, setCategories] = useState<string[]>([])
  const [last, setLast] = useState(v)
  useEffect(() => {
    orgPoints.loadSettings().then(
      (s) => setCategories(s.categories),
      () => {},
    )
  }, [])
  const put = (change: Partial<PointsForm>) => v && onChange({ ...v, ...change })
  const bad = (k: string) => props.invalid === k
  const described = (k: string) => ({ id: `ap-${k}`, 'aria-invalid': bad(k), 'aria-describedby': bad(k) ? 'e-ap' : undefined, onBlur: props.onBlur })
  return (
    <fieldset class="m-card">
      <legend>Activity points</legend>
      <label class="m-check">
        <input
          type="checkbox"
          checked={!!v}
          onChange={(e) => {
            if (v) setLast(v)
            onChange(e.currentTarget.checked ? (last ?? { category: '', per_day: false, points: '', winner: '0', volunteer: '0', organiser: '0' }) : null)
          }}
        />
        This event gives activity points
      </label>
      {!v && props.had && <p class="m-error">Saving takes these points away from every student who earned them here.</p>}
      {v && (
        <>
          <div class="m-field">
            <label for="ap-category">Category</label>
            <select {...described('category')} value={v.category} onChange={(e) => put({ category: e.currentTarget.value })}>
              {!categories.includes(v.category) && <option value={v.category}>{v.category || 'Choose a category'}</option>}
              {categories.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </div>
          <label class="m-check">
            <input type="checkbox" checked={v.per_day} onChange={(e) => put({ per_day: e.currentTarget.checked })} /> For each day attended (events over several
            days)
          </label>
          <div class="m-row">
            {(Object.keys(LABELS) as (keyof typeof LABELS)[]).map((k) => (
              <div class="m-field" key={k}>
                <label for={`ap-${k}`}>{LABELS[k]}</label>
                <input
                  {...described(k)}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={100}
                  value={v[k]}
                  onInput={(e) => put({ [k]: e.currentTarget.value })}
                />
              </div>
            ))}
          </div>
        </>
      )}
      {error && (
        <p id="e-ap" class="m-error">
          {error}
        </p>
      )}
    </fieldset>
  )
}
