// The event editor (issue 11): every field of an event, its schedule, its registration questions and its image
// (uploaded, with a preview), checked on touch with the contract's words (rules.ts), the server's message under
// the field it names otherwise, and a preview of the card and the details as students will see them.
import { cloneElement, type JSX } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { ErrorBoundary, lazy, useLocation } from 'preact-iso'
import { REGISTRATION_TYPES } from '../../../contract/constants.ts'
import { LoadOrRetry } from '../../components/load-or-retry/index.tsx'
import { showToast } from '../../components/toast/index.tsx'
import { SCHEDULE_STEPS } from '../../lib/org-event.ts'
import { org } from '../../stores/org.ts'
import { FairField } from './fair-field.tsx'
import { TicketFields } from './ticket-fields.tsx'
import { fieldOfMessage, formErrors, plain, toForm, toInput, type EventForm, type FormErrors } from './rules.ts'

const Questions = lazy(() => import('./questions.tsx'))
const Preview = lazy(() => import('./preview.tsx'))
const PointsFields = lazy(() => import('./points-fields.tsx'))

type Key = keyof EventForm

export default function Editor({ id }: { id?: number }) {
  const { route } = useLocation()
  useEffect(() => {
    org.load()
    org.loadCouncils()
  }, [])
  const events = org.events.value
  const councils = org.councils.value
  const event = id ? events?.find((e) => e.id === id) : null
  if (id && !event) {
    if (events) return <p class="page-message">No event {id} among the events you manage.</p>
    return <LoadOrRetry loading="Loading the event" what="the event" error={org.error.value} retry={org.load} />
  }
  if (!councils) return <LoadOrRetry loading="Loading your councils" what="your councils" error={org.councilsError.value} retry={org.loadCouncils} />
  return (
    <EditorForm
      id={id}
      initial={toForm(event, councils.length === 1 ? councils[0].id : undefined)}
      onSaved={(saved) => !id && route(`/manage/event/${saved}`)}
    />
  )
}

function EditorForm({ id, initial, onSaved }: { id?: number; initial: EventForm; onSaved: (id: number) => void }) {
  const [form, setForm] = useState(initial)
  const [touched, setTouched] = useState<Partial<Record<Key, boolean>>>({})
  const [server, setServer] = useState<FormErrors>({})
  const [general, setGeneral] = useState<string | null>(null)
  const [busy, setBusy] = useState<'save' | 'upload' | null>(null)
  const [submitted, setSubmitted] = useState(false)
  const errors = formErrors(form, !id)
  // In the editor's words (issue 22 item 7): the contract's and the server's messages name the wire's fields.
  const raw = (k: Key) => server[k] ?? (submitted || touched[k] ? errors[k] : undefined)
  const shown = (k: Key) => {
    const message = raw(k)
    return message && plain(message)
  }
  const count = Object.keys({ ...errors, ...server }).filter((k) => shown(k as Key)).length

  const set = <K extends Key>(k: K, value: EventForm[K]) => {
    setForm((f) => ({ ...f, [k]: value }))
    setServer((s) => ({ ...s, [k]: undefined }))
  }
  const touch = (k: Key) => setTouched((t) => ({ ...t, [k]: true }))

  /** Label, control and message, tied together for screen readers. */
  const field = (k: Key, label: string, control: JSX.Element, hint?: string) => {
    const message = shown(k)
    return (
      <div class="m-field">
        <label for={`f-${k}`}>{label}</label>
        {hint && <p class="m-muted">{hint}</p>}
        {cloneElement(control, { id: `f-${k}`, 'aria-invalid': !!message, 'aria-describedby': message ? `e-${k}` : undefined, onBlur: () => touch(k) })}
        {message && (
          <p id={`e-${k}`} class="m-error">
            {message}
          </p>
        )}
      </div>
    )
  }
  const text = (
    k: 'name' | 'venue' | 'tags' | 'external_registration_link' | 'in_event_activity' | 'event_page_image_url' | 'banner_url',
    label: string,
    hint?: string,
  ) => field(k, label, <input value={form[k]} onInput={(e) => set(k, e.currentTarget.value)} />, hint)
  const area = (k: 'description' | 'long_description', label: string) =>
    field(k, label, <textarea value={form[k]} onInput={(e) => set(k, e.currentTarget.value)} />)
  const num = (k: 'fee' | 'min_ppt' | 'ma_ppt' | 'ticket_count', label: string) =>
    field(k, label, <input type="number" inputMode="numeric" min={0} value={form[k]} onInput={(e) => set(k, e.currentTarget.value)} />)
  const check = (k: 'start_in_event_activity' | 'is_ticket_feature_enabled' | 'reentry', label: string) => (
    <label class="m-check">
      <input type="checkbox" checked={form[k]} onChange={(e) => set(k, e.currentTarget.checked)} /> {label}
    </label>
  )

  const upload = async (file: File | undefined) => {
    if (!file) return
    setBusy('upload')
    try {
      const url = await org.upload(file, file.name)
      // The server keeps two widths: the details one it answers, and the card one beside it.
      setForm((f) => ({ ...f, event_page_image_url: url, banner_url: url.replace(/\.webp$/, '-card.webp') }))
    } catch (err) {
      showToast((err as Error).message, 'error')
    } finally {
      setBusy(null)
    }
  }

  const save = async (e: Event) => {
    e.preventDefault()
    setSubmitted(true)
    setGeneral(null)
    if (Object.keys(errors).length) {
      // After the render that marks the fields (issue 22 item 7: the page stayed where it was, the error out of sight).
      setTimeout(() => {
        const first = document.querySelector<HTMLElement>('form [aria-invalid="true"],form .m-error')
        first?.scrollIntoView({ block: 'center' })
        first?.focus()
      })
      return
    }
    setBusy('save')
    try {
      const saved = await org.save(toInput(form, id, initial))
      showToast(id ? 'Saved' : 'Draft created')
      onSaved(saved.id)
    } catch (err) {
      const message = (err as Error).message
      const k = fieldOfMessage(message)
      if (k) setServer({ [k]: message })
      else setGeneral(plain(message))
    } finally {
      setBusy(null)
    }
  }

  const councils = org.councils.value ?? []
  const parents = (org.events.value ?? []).filter((e) => e.id !== id && !e.parent_id)
  const image = form.event_page_image_url || form.banner_url
  return (
    <div class="m-editor">
      <form onSubmit={save} noValidate>
        <h1>{id ? `Edit ${initial.name}` : 'New event'}</h1>
        <fieldset class="m-card">
          <legend>About</legend>
          {text('name', 'Name')}
          {area('description', 'Short description')}
          {area('long_description', 'About the event (long description)')}
          {field(
            'organizer_id',
            'Council',
            <select value={form.organizer_id} onChange={(e) => set('organizer_id', e.currentTarget.value)}>
              <option value="">Choose a council</option>
              {councils.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>,
          )}
          {field(
            'parent_id',
            'Parent event',
            <select value={form.parent_id} onChange={(e) => set('parent_id', e.currentTarget.value)}>
              <option value="">None (a top-level event)</option>
              {parents.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>,
          )}
          {text('venue', 'Venue', 'Room, then building, separated by a comma')}
          {text('tags', 'Tags', 'Separated by commas, e.g. Tech, Workshop')}
        </fieldset>

        <fieldset class="m-card">
          <legend>Dates</legend>
          {form.dates.map((d, i) => (
            <div class="m-row" key={i}>
              <div class="m-field">
                <label for={`f-date-${i}`}>Date {i + 1} (IST)</label>
                <input
                  id={`f-date-${i}`}
                  type="datetime-local"
                  value={d}
                  onInput={(e) =>
                    set(
                      'dates',
                      form.dates.map((x, j) => (j === i ? e.currentTarget.value : x)),
                    )
                  }
                />
              </div>
              {/* Issue 22 item 7: each date's end, for the calendar (else it shows one hour). */}
              <div class="m-field">
                <label for={`f-end-${i}`}>Date {i + 1} ends</label>
                <input
                  id={`f-end-${i}`}
                  type="time"
                  value={form.date_ends[i] ?? ''}
                  onInput={(e) =>
                    set(
                      'date_ends',
                      form.dates.map((_, j) => (j === i ? e.currentTarget.value : (form.date_ends[j] ?? ''))),
                    )
                  }
                />
              </div>
              <button
                type="button"
                class="m-small"
                onClick={() => {
                  set(
                    'dates',
                    form.dates.filter((_, j) => j !== i),
                  )
                  set(
                    'date_ends',
                    form.date_ends.filter((_, j) => j !== i),
                  )
                }}
                aria-label={`Remove date ${i + 1}`}
              >
                Remove
              </button>
            </div>
          ))}
          {(shown('dates') || shown('date_ends')) && <p class="m-error">{shown('dates') || shown('date_ends')}</p>}
          <button type="button" class="m-small" onClick={() => set('dates', [...form.dates, ''])}>
            Add a date
          </button>
        </fieldset>

        <fieldset class="m-card">
          <legend>Image</legend>
          <div class="m-field">
            <label for="f-upload">Upload an image (JPEG, PNG or WebP, at most 5 MB)</label>
            <input
              id="f-upload"
              type="file"
              accept="image/jpeg,image/png,image/webp"
              disabled={busy === 'upload'}
              onChange={(e) => upload(e.currentTarget.files?.[0])}
            />
            {busy === 'upload' && <p class="m-muted">Uploading…</p>}
          </div>
          {image && <img class="m-thumb" src={image} alt={`Uploaded for ${form.name || 'the event'}`} width={320} height={160} />}
          {text('event_page_image_url', 'Image address (details)')}
          {text('banner_url', 'Image address (cards)')}
        </fieldset>

        <fieldset class="m-card">
          <legend>Registration</legend>
          {field(
            'registration_type',
            'Registration type',
            <select value={form.registration_type} onChange={(e) => set('registration_type', e.currentTarget.value as EventForm['registration_type'])}>
              {REGISTRATION_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t === 'EXTERNAL' ? 'External (a link)' : 'In the app'}
                </option>
              ))}
            </select>,
          )}
          {text('external_registration_link', 'External registration link')}
          <div class="m-row">
            {num('fee', 'Fee (₹, 0 = free)')}
            {num('min_ppt', 'Smallest team')}
            {num('ma_ppt', 'Largest team (1 = individual)')}
          </div>
          <ErrorBoundary>
            <Questions questions={form.questions} onChange={(qs) => set('questions', qs)} error={shown('questions')} />
          </ErrorBoundary>
        </fieldset>

        <fieldset class="m-card">
          <legend>Tickets and activity</legend>
          {check('is_ticket_feature_enabled', 'Tickets (RSVP) for this event')}
          {num('ticket_count', 'Number of tickets')}
          <FairField id={id} form={form} set={set} field={field} />
          {check('reentry', 'Re-entry: the door scans people out and back in (without it, each ticket gets in once a day)')}
          <TicketFields form={form} set={set} field={field} />
          {check('start_in_event_activity', 'Show the activity link while ongoing')}
          {text('in_event_activity', 'Activity link')}
        </fieldset>

        <ErrorBoundary>
          <PointsFields
            value={form.activity_points}
            had={!!initial.activity_points}
            onChange={(v) => set('activity_points', v)}
            onBlur={() => touch('activity_points')}
            error={shown('activity_points')}
            invalid={/^activity_points\.([a-z_]+)/.exec(raw('activity_points') ?? '')?.[1]}
          />
        </ErrorBoundary>

        <fieldset class="m-card">
          <legend>Schedule (IST)</legend>
          <p class="m-muted">At each time the event moves on by itself. Leave a step empty to move it by hand.</p>
          {SCHEDULE_STEPS.map((step) => (
            <div class="m-field" key={step.key}>
              <label for={`f-${step.key}`}>{step.label}</label>
              <input
                id={`f-${step.key}`}
                type="datetime-local"
                value={form.schedule[step.key]}
                onInput={(e) => set('schedule', { ...form.schedule, [step.key]: e.currentTarget.value })}
                onBlur={() => touch('schedule')}
              />
            </div>
          ))}
          {shown('schedule') && (
            <p class="m-error" role="alert">
              {shown('schedule')}
            </p>
          )}
        </fieldset>

        {general && (
          <p class="m-error" role="alert">
            {general}
          </p>
        )}
        <button type="submit" class="button" disabled={busy !== null}>
          {busy === 'save' ? 'Saving…' : id ? 'Save' : 'Create draft'}
        </button>
        {submitted && count > 0 && <span class="m-error"> {count === 1 ? '1 field' : `${count} fields`} to fix</span>}
      </form>
      <aside aria-label="Preview">
        <ErrorBoundary>
          <Preview form={form} councilName={councils.find((c) => String(c.id) === form.organizer_id)?.name ?? ''} />
        </ErrorBoundary>
      </aside>
    </div>
  )
}
