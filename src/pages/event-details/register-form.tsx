// Register on an individual event that asks registration questions (API.md Part 2 "Registration questions"): a
// dialog with the questions, checked on touch with contract/questions.ts (the server's rules and words), whose
// Register sends the answers with register-for-event. A chunk of its own, fetched only when such an event's
// Register is tapped; an event without questions keeps its one-tap Register.
import { useEffect, useRef, useState } from 'preact/hooks'
import { answerError, checkAnswers } from '../../../contract/questions.ts'
import type { EventDetail } from '../../../contract/types.ts'
import { Backdrop, modalStyles as m, useDialog } from '../../components/modal/index.tsx'
import { QuestionFields, questionFieldId } from '../../components/question-fields/index.tsx'
import { Spinner } from '../../components/spinner/index.tsx'
import { showToast } from '../../components/toast/index.tsx'
import { buildRegisterAnswers } from '../../stores/register-answers.ts'
import { room } from '../../models.ts'
import s from './register-form.module.css'

const registerAnswers = room(buildRegisterAnswers)

export function RegisterForm({ event, onClose }: { event: EventDetail; onClose: () => void }) {
  const questions = event.questions ?? []
  const [answers, setAnswers] = useState<Record<string, string>>({})
  const [touched, setTouched] = useState<Record<string, boolean>>({})
  const [refusal, setRefusal] = useState<string | null>(null)
  const box = useRef<HTMLFormElement>(null)
  const busy = registerAnswers.pending.value
  // The first question takes focus; Escape cancels; Tab stays inside; focus goes back to Register when it closes.
  useDialog(box, 'input, select, textarea', busy, onClose)

  // The event no longer takes this registration (registered meanwhile on another device, registration closed):
  // the form goes, the reason the server gave (if any) as a toast, and the page shows what the server holds.
  const open = event.state === 'REGISTRATION_OPEN' && event.Participant === false
  useEffect(() => {
    if (open) return
    if (refusal) showToast(refusal, 'error')
    onClose()
  }, [open])

  const submit = async (e: Event) => {
    e.preventDefault()
    if (busy) return
    setRefusal(null)
    const checked = checkAnswers(questions, answers)
    if ('error' in checked) {
      setTouched(Object.fromEntries(questions.map((q) => [q.id, true])))
      const wrong = questions.find((q) => answerError(q, answers[q.id]))
      if (wrong) document.getElementById(questionFieldId(wrong.id))?.focus()
      return
    }
    const outcome = await registerAnswers.submit(event.id, checked.answers)
    if (!outcome) return
    // A refusal (or no network) keeps the answers here, with the reason, to correct or try again.
    if ('refusal' in outcome) return setRefusal(outcome.refusal)
    showToast(outcome.toast)
    onClose()
  }

  return (
    <Backdrop busy={busy} onClose={onClose}>
      <form ref={box} class={`${m.dialog} ${s.long}`} role="dialog" aria-modal="true" aria-labelledby="register-title" onSubmit={submit} noValidate>
        <h2 id="register-title" class={m.title}>
          Register for {event.name}
        </h2>
        <p class={s.intro}>The organisers ask:</p>
        <QuestionFields
          questions={questions}
          answers={answers}
          touched={touched}
          onAnswer={(id, value) => setAnswers((prev) => ({ ...prev, [id]: value }))}
          onTouch={(id) => setTouched((prev) => (prev[id] ? prev : { ...prev, [id]: true }))}
          classes={s}
        />
        {refusal && (
          <p class={s.refusal} role="alert">
            {refusal}
          </p>
        )}
        <div class={m.actions}>
          <button type="button" class="button button-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" class="button" disabled={busy} aria-busy={busy || undefined}>
            {busy && <Spinner size="sm" label="Registering" />}
            Register
          </button>
        </div>
      </form>
    </Backdrop>
  )
}
