// The event editor's labelled controls (editor.tsx): each field's label, control and message tied together for
// screen readers, over the form's state. Every section of the form (editor-sections.tsx) is given one Fields.
import { cloneElement, type JSX } from 'preact'
import type { EventForm } from './rules.ts'
import './checks.css'

export type Key = keyof EventForm

/** The form, its setter, and its controls, as a section of the editor uses them. */
export interface Fields {
  form: EventForm
  set: <K extends Key>(k: K, value: EventForm[K]) => void
  touch: (k: Key) => void
  /** The message to show under a field, in the editor's words (or nothing). */
  shown: (k: Key) => string | undefined
  /** Label, control and message, tied together for screen readers. */
  field: (k: Key, label: string, control: JSX.Element, hint?: string) => JSX.Element
  text: (
    k: 'name' | 'venue' | 'tags' | 'external_registration_link' | 'in_event_activity' | 'event_page_image_url' | 'banner_url',
    label: string,
    hint?: string,
  ) => JSX.Element
  area: (k: 'description' | 'long_description', label: string) => JSX.Element
  num: (k: 'fee' | 'min_ppt' | 'ma_ppt' | 'ticket_count', label: string) => JSX.Element
  check: (k: 'start_in_event_activity' | 'is_ticket_feature_enabled' | 'reentry', label: string) => JSX.Element
}

export function fieldsOf(form: EventForm, set: Fields['set'], touch: Fields['touch'], shown: Fields['shown']): Fields {
  const field: Fields['field'] = (k, label, control, hint) => {
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
  return {
    form,
    set,
    touch,
    shown,
    field,
    text: (k, label, hint) => field(k, label, <input value={form[k]} onInput={(e) => set(k, e.currentTarget.value)} />, hint),
    area: (k, label) => field(k, label, <textarea value={form[k]} onInput={(e) => set(k, e.currentTarget.value)} />),
    num: (k, label) => field(k, label, <input type="number" inputMode="numeric" min={0} value={form[k]} onInput={(e) => set(k, e.currentTarget.value)} />),
    check: (k, label) => (
      <label class="m-check">
        <input type="checkbox" checked={form[k]} onChange={(e) => set(k, e.currentTarget.checked)} /> {label}
      </label>
    ),
  }
}
