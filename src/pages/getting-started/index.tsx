// Onboarding (SPEC §2, §4, §5): Personal Details → Educational Details → Career Interest → All Done.
// Rules and messages are those of contract/schemas.ts, which the server applies (rules.ts: the same without zod). A control shows its
// message once touched (changed or left); Continue touches every control of the step.
import { useEffect, useRef, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { COLLEGE, DEGREE, PHONE_DIGITS, type Gender } from '../../../contract/constants.ts'
import { BRANCHES_BY_YEAR, GRADUATION_YEARS, INTEREST_OPTIONS, branchToWire } from '../../../contract/profile-options.ts'
import { MESSAGES } from '../../../contract/messages.ts'
import { educationalErrors, interestErrors, personalErrors, phoneDigits } from './rules.ts'
import { session } from '../../stores/session.ts'
import { saveProfile } from '../../stores/session-flows.ts'
import { showToast } from '../../components/toast/index.tsx'
import { PageSpinner, Spinner } from '../../components/spinner/index.tsx'
import styles from './style.module.css'

type Step = 'personal' | 'educational' | 'interest' | 'done'
const FORM_STEPS = ['personal', 'educational', 'interest'] as const

export const STEP_TITLES: Record<Step, string> = {
  personal: 'Personal Details',
  educational: 'Educational Details',
  interest: 'Career Interest',
  done: 'All Done',
}

export const USER_ID_MISSING = 'User ID not found.'

interface Form {
  phone_number: string
  roll_number: string
  gender: string
  year: string
  branch: string
  interests: string[]
}
type Field = keyof Form

/** A value the server refused because another student holds it (409), and its message. */
interface Taken {
  field: 'phone_number' | 'roll_number'
  value: string
  message: string
}
const TAKEN_FIELD: Record<string, Taken['field']> = { [MESSAGES.phoneTaken]: 'phone_number', [MESSAGES.rollTaken]: 'roll_number' }

const STEP_FIELDS: Record<(typeof FORM_STEPS)[number], Field[]> = {
  personal: ['phone_number', 'roll_number', 'gender'],
  educational: ['year', 'branch'],
  interest: ['interests'],
}

/** The messages of one step for the current values (empty selects count as missing). */
function stepErrors(step: Step, form: Form, taken: Taken | null): Partial<Record<Field, string>> {
  if (step === 'personal') {
    const errors: Partial<Record<Field, string>> = personalErrors({
      phone_number: form.phone_number,
      roll_number: form.roll_number,
      gender: form.gender || undefined,
    })
    // Still the value another student holds: the server's words stay under the field until it changes.
    if (taken && !errors[taken.field] && form[taken.field].trim() === taken.value) errors[taken.field] = taken.message
    return errors
  }
  if (step === 'educational') {
    return educationalErrors({ year: form.year ? Number(form.year) : undefined, branch: form.branch })
  }
  if (step === 'interest') return interestErrors({ interests: form.interests })
  return {}
}

const EMPTY: Form = { phone_number: '', roll_number: '', gender: '', year: '', branch: '', interests: [] }

export default function GettingStarted() {
  const { route } = useLocation()
  const [step, setStep] = useState<Step>('personal')
  const [form, setForm] = useState<Form>(EMPTY)
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set())
  const [saving, setSaving] = useState(false)
  const [taken, setTaken] = useState<Taken | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const firstRender = useRef(true)

  const user = session.user.value
  const status = session.status.value

  useEffect(() => {
    session.load()
  }, [])

  // SPEC §2 says a user with a phone number or a roll number leaves for /; the layout sends a user missing
  // either back here (SPEC §1). Leaving only when BOTH are on file keeps a half-filled profile from bouncing
  // between the two forever. Not once the wizard has saved: All Done must stay on screen.
  const complete = !!user && !session.needsOnboarding.value
  useEffect(() => {
    if (complete && step !== 'done') route('/', true)
  }, [complete])

  // Moving between steps: put focus (and the screen reader) on the new step's heading.
  useEffect(() => {
    if (firstRender.current) firstRender.current = false
    else heading.current?.focus()
  }, [step])

  if (status === 'idle' || status === 'loading' || status === 'signed-out' || (complete && step !== 'done')) {
    return <PageSpinner />
  }

  const errors = stepErrors(step, form, taken)
  const shown = (field: Field) => (touched.has(field) ? errors[field] : undefined)
  const touch = (...fields: Field[]) => setTouched((prev) => new Set([...prev, ...fields]))
  const set = <K extends Field>(field: K, value: Form[K]) => {
    setForm((prev) => ({ ...prev, [field]: value }))
    touch(field)
  }
  // Digits only: a refused character is taken out of the field itself (the state may not change, so no render).
  const enterPhone = (input: HTMLInputElement, text: string) => {
    const value = phoneDigits(text)
    input.value = value
    set('phone_number', value)
  }

  /** Touches the whole step; true when it has no message left. */
  const validateStep = () => {
    if (step === 'done') return true
    const fields = STEP_FIELDS[step]
    touch(...fields)
    const invalid = fields.find((field) => errors[field])
    if (invalid) document.getElementById(`gs-${invalid}`)?.focus()
    return !invalid
  }

  const save = async () => {
    const id = user?.id
    if (!id) {
      showToast(USER_ID_MISSING, 'error')
      return
    }
    setSaving(true)
    try {
      const saved = await saveProfile({
        phone_number: form.phone_number,
        roll_number: form.roll_number.trim(),
        gender: form.gender as Gender,
        year: Number(form.year),
        branch: branchToWire(form.branch),
        interests: form.interests,
        degree: DEGREE,
        college: COLLEGE,
        id,
      })
      setStep('done')
      if (saved) session.setUser(saved)
    } catch (err) {
      const message = (err as Error).message
      showToast(message, 'error')
      // 409: another student holds this number or ID; back to the field to change, with the message under it.
      const field = TAKEN_FIELD[message]
      if (field) {
        setTaken({ field, value: form[field].trim(), message })
        touch(field)
        setStep('personal')
      }
    } finally {
      setSaving(false)
    }
  }

  const onSubmit = (event: Event) => {
    event.preventDefault()
    if (saving || !validateStep()) return
    if (step === 'personal') setStep('educational')
    else if (step === 'educational') setStep('interest')
    else if (step === 'interest') void save()
  }
  const back = () => setStep(step === 'interest' ? 'educational' : 'personal')

  const stepIndex = FORM_STEPS.indexOf(step as (typeof FORM_STEPS)[number])
  const branches = form.year ? (BRANCHES_BY_YEAR[Number(form.year)] ?? []) : []

  // Props wiring a control to its label, message and touch state.
  const control = (field: Field) => ({
    id: `gs-${field}`,
    'aria-invalid': shown(field) ? true : undefined,
    'aria-describedby': shown(field) ? `gs-${field}-error` : undefined,
    onBlur: () => touch(field),
  })
  const message = (field: Field) =>
    shown(field) && (
      <p id={`gs-${field}-error`} class={styles.error}>
        {shown(field)}
      </p>
    )

  if (step === 'done') {
    return (
      <main class={styles.page}>
        <h1 ref={heading} tabIndex={-1}>
          {STEP_TITLES.done}
        </h1>
        <p class={styles.done}>You are all done</p>
        <button type="button" class="button" onClick={() => route('/')}>
          Start Exploring
        </button>
      </main>
    )
  }

  return (
    <main class={styles.page}>
      <p class={styles.progress}>
        Step {stepIndex + 1} of {FORM_STEPS.length}
      </p>
      <h1 ref={heading} tabIndex={-1}>
        {STEP_TITLES[step]}
      </h1>
      <form onSubmit={onSubmit} noValidate>
        {step === 'personal' && (
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
              <input
                {...control('roll_number')}
                type="text"
                autoComplete="off"
                value={form.roll_number}
                onInput={(e) => set('roll_number', e.currentTarget.value)}
              />
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
        )}

        {step === 'educational' && (
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
        )}

        {step === 'interest' && (
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
        )}

        <div class={styles.actions}>
          {step !== 'personal' && (
            <button type="button" class="button button-secondary" onClick={back} disabled={saving}>
              Back
            </button>
          )}
          <button type="submit" class="button" disabled={saving} aria-busy={saving || undefined}>
            {saving && <Spinner size="sm" label="Saving" />}
            Continue
          </button>
        </div>
      </form>
      {/* Signed in with the wrong account: the way out, since every other screen sends the student back here. */}
      <p class={styles.account}>
        {user && (
          <>
            Signed in as <strong>{user.email}</strong>. Not you?{' '}
          </>
        )}
        <a href="/logout">Logout</a>
      </p>
    </main>
  )
}
