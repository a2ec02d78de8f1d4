// Admins' activity points (issue 26), /manage/points, a chunk of its own: the college's categories and targets,
// the CSV of every student's points by graduation year and branch, and who is below target in their final year.
// The server checks every call again (admins only).
import { useEffect, useState } from 'preact/hooks'
import type { Answer } from '../../../contract/api.ts'
import { LoadOrRetry } from '../../components/load-or-retry/index.tsx'
import { showToast } from '../../components/toast/index.tsx'
import { saveFile } from '../../lib/save-file.ts'
import { room } from '../../models.ts'
import { buildOrgPoints } from '../../stores/org-points.ts'

const orgPoints = room(buildOrgPoints)

type Below = Answer<'pointsBelowTarget'>

function Settings() {
  const [form, setForm] = useState<{ categories: string; target: string; lateral_entry_target: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = () =>
    orgPoints.loadSettings().then(
      (s) => setForm({ categories: s.categories.join('\n'), target: `${s.target}`, lateral_entry_target: `${s.lateral_entry_target}` }),
      (err: Error) => setError(err.message),
    )
  useEffect(() => void load(), [])
  if (!form) return <LoadOrRetry loading="Loading the settings" what="the settings" error={error} retry={load} />
  const save = async (e: Event) => {
    e.preventDefault()
    try {
      await orgPoints.saveSettings({
        categories: form.categories
          .split('\n')
          .map((c) => c.trim())
          .filter(Boolean),
        target: Number(form.target),
        lateral_entry_target: Number(form.lateral_entry_target),
      })
      setError(null)
      showToast('Settings saved')
    } catch (err) {
      setError((err as Error).message)
    }
  }
  const input = (k: 'target' | 'lateral_entry_target', label: string) => (
    <div class="m-field">
      <label for={`p-${k}`}>{label}</label>
      <input id={`p-${k}`} type="number" inputMode="numeric" min={1} value={form[k]} onInput={(e) => setForm({ ...form, [k]: e.currentTarget.value })} />
    </div>
  )
  return (
    <form class="m-card" onSubmit={save} noValidate>
      <h2>Categories and targets</h2>
      <div class="m-field">
        <label for="p-categories">Categories, one a line</label>
        <textarea id="p-categories" value={form.categories} onInput={(e) => setForm({ ...form, categories: e.currentTarget.value })} />
      </div>
      <div class="m-row">
        {input('target', 'Points a student needs')}
        {input('lateral_entry_target', 'Points a lateral-entry student needs')}
      </div>
      {error && (
        <p class="m-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="button">
        Save
      </button>
    </form>
  )
}

export default function PointsAdmin() {
  const [year, setYear] = useState('')
  const [branch, setBranch] = useState('')
  const [below, setBelow] = useState<Below | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const run = async (task: () => Promise<unknown>) => {
    setBusy(true)
    try {
      await task()
      setError(null)
    } catch (err) {
      setError((err as Error).message)
    } finally {
      setBusy(false)
    }
  }
  const query = () => ({ ...(year.trim() ? { year: year.trim() } : {}), ...(branch.trim() ? { branch: branch.trim() } : {}) })
  const show = () => run(async () => setBelow(await orgPoints.belowTarget(query())))
  const download = () =>
    run(async () => {
      saveFile(await orgPoints.exportCsv(query()), `activity-points${year.trim() ? `-${year.trim()}` : ''}.csv`)
    })
  useEffect(() => void show(), [])
  return (
    <>
      <h1>Activity points</h1>
      <div class="m-cards">
        <Settings />
        <section class="m-card" aria-labelledby="pb-h">
          <h2 id="pb-h">Students</h2>
          <form
            onSubmit={(e) => {
              e.preventDefault()
              show()
            }}
          >
            <div class="m-row">
              <div class="m-field">
                <label for="p-year">Graduation year</label>
                <input id="p-year" inputMode="numeric" placeholder="e.g. 2027" value={year} onInput={(e) => setYear(e.currentTarget.value)} />
              </div>
              <div class="m-field">
                <label for="p-branch">Branch (empty: every branch)</label>
                <input id="p-branch" value={branch} onInput={(e) => setBranch(e.currentTarget.value)} />
              </div>
            </div>
            <p class="m-muted">With no year, the list shows the students in their final year and the CSV every year.</p>
            <div class="m-row">
              <button type="submit" class="button" disabled={busy}>
                Show who is below target
              </button>
              <button type="button" class="m-small" disabled={busy} onClick={download}>
                Download CSV
              </button>
            </div>
          </form>
          {error && (
            <p class="m-error" role="alert">
              {error}
            </p>
          )}
          {below && (
            <>
              <h3>
                Below target, graduating in {below.year}: {below.students.length}
              </h3>
              <ul class="m-people">
                {below.students.slice(0, 100).map((s) => (
                  <li key={s.user.id}>
                    <span>
                      {s.user.name}{' '}
                      <span class="m-muted">
                        {s.user.roll_number} {s.user.branch?.replace(/_/g, ' ')}
                      </span>
                    </span>
                    {s.points} of {s.target}
                  </li>
                ))}
              </ul>
              {below.students.length > 100 && <p class="m-muted">The 100 with the fewest points; the CSV has everyone.</p>}
            </>
          )}
        </section>
      </div>
    </>
  )
}
