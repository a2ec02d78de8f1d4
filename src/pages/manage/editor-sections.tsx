// The event editor's sections (editor.tsx), one fieldset each: about the event, its dates, its image, registration,
// tickets and activity, and its schedule. Each is given the form's Fields (editor-fields.tsx).
import { ErrorBoundary, lazy } from 'preact-iso'
import { REGISTRATION_TYPES } from '../../../contract/shell.ts'
import { SCHEDULE_STEPS } from '../../lib/org-event.ts'
import { buildOrg } from '../../stores/org.ts'
import { room } from '../../models.ts'
import type { Fields } from './editor-fields.tsx'
import { FairField } from './fair-field.tsx'
import { PaymentFields } from './payment-fields.tsx'
import type { EventForm } from './rules.ts'
import { TicketFields } from './ticket-fields.tsx'

const org = room(buildOrg)

const Questions = lazy(() => import('./questions.tsx'))

/** Name, descriptions, council, parent event, venue and tags. */
export function AboutSection({ fields, id }: { fields: Fields; id?: number }) {
  const { form, set, field, text, area } = fields
  const councils = org.councils.value ?? []
  const parents = (org.events.value ?? []).filter((e) => e.id !== id && !e.parent_id)
  return (
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
  )
}

/** Each date with its end time (issue 22 item 7). */
export function DatesSection({ fields }: { fields: Fields }) {
  const { form, set, shown } = fields
  return (
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
  )
}

/** The image: uploaded (two widths kept by the server) or by address. */
export function ImageSection({ fields, uploading, upload }: { fields: Fields; uploading: boolean; upload: (file: File | undefined) => void }) {
  const { form, text } = fields
  const image = form.event_page_image_url || form.banner_url
  return (
    <fieldset class="m-card">
      <legend>Image</legend>
      <div class="m-field">
        <label for="f-upload">Upload an image (JPEG, PNG or WebP, at most 5 MB)</label>
        <input id="f-upload" type="file" accept="image/jpeg,image/png,image/webp" disabled={uploading} onChange={(e) => upload(e.currentTarget.files?.[0])} />
        {uploading && <p class="m-muted">Uploading…</p>}
      </div>
      {image && <img class="m-thumb" src={image} alt={`Uploaded for ${form.name || 'the event'}`} width={320} height={160} />}
      {text('event_page_image_url', 'Image address (details)')}
      {text('banner_url', 'Image address (cards)')}
    </fieldset>
  )
}

/** How students register: in the app or by a link, the fee, team sizes and the registration questions. */
export function RegistrationSection({ fields }: { fields: Fields }) {
  const { form, set, shown, field, text, num } = fields
  return (
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
      <PaymentFields fields={fields} />
      <ErrorBoundary>
        <Questions questions={form.questions} onChange={(qs) => set('questions', qs)} error={shown('questions')} />
      </ErrorBoundary>
    </fieldset>
  )
}

/** Tickets (the draw window, re-entry, transfers, rotating codes) and the in-event activity link. */
export function TicketsSection({ fields, id }: { fields: Fields; id?: number }) {
  const { form, set, field, text, num, check } = fields
  return (
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
  )
}

/** The schedule: at each time the event moves on by itself. */
export function ScheduleSection({ fields }: { fields: Fields }) {
  const { form, set, touch, shown } = fields
  return (
    <fieldset class="m-card">
      <legend>Schedule (IST)</legend>
      {/* The rule said before it is broken (issue 37 item 7): the error came first. */}
      <p class="m-muted" id="schedule-hint">
        At each time the event moves on by itself. Each step must be at least a minute after the one above it (Tickets open after Registration closes). Leave a
        step empty to move it by hand.
      </p>
      {SCHEDULE_STEPS.map((step) => (
        <div class="m-field" key={step.key}>
          <label for={`f-${step.key}`}>{step.label}</label>
          <input
            id={`f-${step.key}`}
            type="datetime-local"
            aria-describedby="schedule-hint"
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
  )
}
