// The editor's activity points (issue 26), a chunk of its own: whether the event gives points, its category (the
// college's list, from the server), the points of a check-in (per event day when asked) and of the roles.
// An event's points and its winners have their calls (contract/points.ts) but no console screen yet: the staff's
// bytes (budget.json staffTotal) had no room for one (see /work/notes/issue-26.md).
import { useEffect, useState } from 'preact/hooks'
import type { ActivityPointsInput } from '../../../contract/types.ts'
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
