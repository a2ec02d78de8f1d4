// The event editor (issue 11): every field of an event, its schedule, its registration questions and its image
// (uploaded, with a preview), checked on touch with the contract's words (rules.ts), the server's message under
// the field it names otherwise, and a preview of the card and the details as students will see them. The form's
// state, its save and its upload are here; its sections are editor-sections.tsx's, its controls editor-fields.tsx's.
import { useEffect, useState } from 'preact/hooks'
import { ErrorBoundary, lazy, useLocation } from 'preact-iso'
import { LoadOrRetry } from '../../components/load-or-retry/index.tsx'
import { showToast } from '../../components/toast/index.tsx'
import { buildOrg } from '../../stores/org.ts'
import { room } from '../../models.ts'
import { fieldsOf, type Key } from './editor-fields.tsx'
import { AboutSection, DatesSection, ImageSection, RegistrationSection, ScheduleSection, TicketsSection } from './editor-sections.tsx'
import { fieldOfMessage, formErrors, plain, toForm, toInput, type EventForm, type FormErrors } from './rules.ts'

const org = room(buildOrg)

const Preview = lazy(() => import('./preview.tsx'))
const PointsFields = lazy(() => import('./points-fields.tsx'))

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

  const fields = fieldsOf(form, set, touch, shown)

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
  return (
    <div class="m-editor">
      <form onSubmit={save} noValidate>
        <h1>{id ? `Edit ${initial.name}` : 'New event'}</h1>
        <AboutSection fields={fields} id={id} />
        <DatesSection fields={fields} />
        <ImageSection fields={fields} uploading={busy === 'upload'} upload={upload} />
        <RegistrationSection fields={fields} />
        <TicketsSection fields={fields} id={id} />
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

        <ScheduleSection fields={fields} />

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
