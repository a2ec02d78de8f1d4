// Onboarding (SPEC §2, §4, §5): Personal Details → Educational Details → Career Interest → All Done.
// Rules and messages are those of contract/schemas.ts, which the server applies (rules.ts: the same without zod). A control shows its
// message once touched (changed or left); Continue touches every control of the step.
import { useEffect, useRef, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { COLLEGE, DEGREE, type Gender } from '../../../contract/constants.ts'
import type { RefusalCode } from '../../../contract/refusal-codes.ts'
import type { ApiError } from '../../api/client.ts'
import { branchToWire } from '../../../contract/profile-options.ts'
import { educationalErrors, interestErrors, personalErrors, phoneDigits } from './rules.ts'
import { session } from '../../models.ts'
import { saveProfile } from '../../stores/session-flows.ts'
import { showToast } from '../../components/toast/index.tsx'
import { PageSpinner, Spinner } from '../../components/spinner/index.tsx'
import { EducationalStep, type Field, type Form, InterestStep, PersonalStep, type StepFields } from './steps.tsx'
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

/** A value the server refused because another student holds it (409), and the server's words for it. */
interface Taken {
  field: 'phone_number' | 'roll_number'
  value: string
  message: string
}
/** The field each refusal names, by its code (the words may change). */
const TAKEN_FIELD: Partial<Record<RefusalCode, Taken['field']>> = { PHONE_TAKEN: 'phone_number', ROLL_TAKEN: 'roll_number' }

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
      const code = (err as Partial<ApiError>).data?.code
      const field = code && TAKEN_FIELD[code]
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

  const fields: StepFields = { form, set, touch, shown, control, message }

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
        {step === 'personal' && <PersonalStep {...fields} enterPhone={enterPhone} />}
        {step === 'educational' && <EducationalStep {...fields} setForm={setForm} />}
        {step === 'interest' && <InterestStep {...fields} />}

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
