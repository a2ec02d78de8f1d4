// The three steps of onboarding's form (index.tsx holds the wizard: its state, checks, moves and save): each step's
// controls, wired to their label, message and touch state by the props the wizard gives.
import type { ComponentChildren } from 'preact'
import { PHONE_DIGITS } from '../../../contract/constants.ts'
import { BRANCHES_BY_YEAR, GRADUATION_YEARS, INTEREST_OPTIONS } from '../../../contract/profile-options.ts'
import styles from './style.module.css'

export interface Form {
  phone_number: string
  roll_number: string
  gender: string
  year: string
  branch: string
  interests: string[]
}
export type Field = keyof Form

/** What every step is given by the wizard. */
export interface StepFields {
  form: Form
  /** Sets a field and touches it. */
  set: <K extends Field>(field: K, value: Form[K]) => void
  touch: (...fields: Field[]) => void
  /** The field's message once it is touched. */
  shown: (field: Field) => string | undefined
  /** Props wiring a control to its label, message and touch state. */
  control: (field: Field) => { id: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string; onBlur: () => void }
  /** The field's message under it, once touched. */
  message: (field: Field) => ComponentChildren
}

export function PersonalStep({ form, set, control, message, enterPhone }: StepFields & { enterPhone: (input: HTMLInputElement, text: string) => void }) {
  return (
    <>
      <div class={styles.field}>
        <label for="gs-phone_number">Mobile number</label>
        <input
          {...control('phone_number')}
          type="tel"
          inputMode="numeric"
          maxLength={PHONE_DIGITS}
          autoComplete="tel-national"
          value={form.phone_number}
          onInput={(e) => enterPhone(e.currentTarget, e.currentTarget.value)}
          // A pasted '+91 98765 43210' is longer than the field allows: read it whole.
          onPaste={(e) => {
            e.preventDefault()
            enterPhone(e.currentTarget, e.clipboardData?.getData('text') ?? '')
          }}
        />
        {message('phone_number')}
      </div>
      <div class={styles.field}>
        <label for="gs-roll_number">Student ID</label>
        <input {...control('roll_number')} type="text" autoComplete="off" value={form.roll_number} onInput={(e) => set('roll_number', e.currentTarget.value)} />
        {message('roll_number')}
      </div>
      <div class={styles.field}>
        <label for="gs-gender">Gender</label>
        <select {...control('gender')} value={form.gender} onChange={(e) => set('gender', e.currentTarget.value)}>
          <option value="">Select gender</option>
          <option value="MALE">Male</option>
          <option value="FEMALE">Female</option>
        </select>
        {message('gender')}
      </div>
    </>
  )
}

export function EducationalStep({ form, set, touch, control, message, setForm }: StepFields & { setForm: (update: (prev: Form) => Form) => void }) {
  const branches = form.year ? (BRANCHES_BY_YEAR[Number(form.year)] ?? []) : []
  return (
    <>
      <div class={styles.field}>
        <label for="gs-year">Graduation year</label>
        <select
          {...control('year')}
          value={form.year}
          onChange={(e) => {
            // A branch chosen for another year may not exist in this one's list.
            const year = e.currentTarget.value
            setForm((prev) => ({ ...prev, year, branch: '' }))
            touch('year')
          }}
        >
          <option value="">Select year</option>
          {GRADUATION_YEARS.map((year) => (
            <option key={year} value={String(year)}>
              {year}
            </option>
          ))}
        </select>
        {message('year')}
      </div>
      <div class={styles.field}>
        <label for="gs-branch">Branch</label>
        <select {...control('branch')} value={form.branch} disabled={!form.year} onChange={(e) => set('branch', e.currentTarget.value)}>
          <option value="">{form.year ? 'Select branch' : 'Choose a graduation year first'}</option>
          {branches.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        {message('branch')}
      </div>
    </>
  )
}

export function InterestStep({ form, set, shown, message }: StepFields) {
  return (
    <div class={styles.field} role="group" aria-labelledby="gs-interests-label" id="gs-interests" tabIndex={-1}>
      <p id="gs-interests-label" class={styles.label}>
        Choose what interests you
      </p>
      <div class={styles.chips}>
        {INTEREST_OPTIONS.map((option) => {
          const on = form.interests.includes(option)
          return (
            <button
              key={option}
              type="button"
              class={styles.chip}
              aria-pressed={on}
              aria-describedby={shown('interests') ? 'gs-interests-error' : undefined}
              onClick={() => set('interests', on ? form.interests.filter((i) => i !== option) : [...form.interests, option])}
            >
              {option}
            </button>
          )
        })}
      </div>
      {message('interests')}
    </div>
  )
}
