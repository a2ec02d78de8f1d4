// Team register (SPEC §2, §4, §5, §8): the Create Team and Join Team forms of a team event. Rules and messages
// are the server's (see rules.ts); a field shows its message once touched.
// A refusal from the server is shown in a 3-second toast; success goes to the team's page.
import { useRef, useState } from 'preact/hooks'
import { useLocation } from 'preact-iso'
import { PageSpinner, Spinner } from '../../components/spinner/index.tsx'
import { showToast } from '../../components/toast/index.tsx'
import { buildEventDetail, type EventDetailStore } from '../../stores/event-detail.ts'
import { room } from '../../models.ts'
import { buildTeam, refusalOf, type TeamStore } from '../../stores/team.ts'
import { RetryMessage } from '../../components/load-or-retry/index.tsx'
import { EventNotFound, TEAMS_CLOSED, teamChangesOpen, useTeamEvent } from '../team-event.tsx'
import { answerError, checkAnswers } from '../../../contract/questions.ts'
import { QuestionFields, questionFieldId } from '../../components/question-fields/index.tsx'
import { inviteCodeError, teamNameError } from './rules.ts'
import styles from './style.module.css'

export interface TeamRegisterProps {
  /** The event id from the address (/team-register/:id). */
  id: string
  /** The stores; tests hand in models built over fake api functions. */
  detail?: EventDetailStore
  teams?: TeamStore
}

type Field = 'name' | 'code'

export default function TeamRegister({ id, detail = room(buildEventDetail), teams = room(buildTeam) }: TeamRegisterProps) {
  const { route } = useLocation()
  const { loaded, event, redirect } = useTeamEvent(id, detail, 'team-register')
  const [name, setName] = useState('')
  const [code, setCode] = useState('')
  const [touched, setTouched] = useState<Record<Field, boolean>>({ name: false, code: false })
  // The event's registration questions (API.md Part 2): answered once, sent with whichever form is submitted.
  const [answers, setAnswers] = useState<Record<string, string>>({})
  const [answered, setAnswered] = useState<Record<string, boolean>>({})
  const questionsBox = useRef<HTMLFieldSetElement>(null)
  const nameInput = useRef<HTMLInputElement>(null)
  const codeInput = useRef<HTMLInputElement>(null)

  if (!loaded || redirect || (detail.loading.value && !event)) return <PageSpinner />
  if (detail.notFound.value) return <EventNotFound />
  if (!event) {
    return (
      <RetryMessage heading="Could not load the event" retry={() => detail.refresh()}>
        {detail.error.value}
      </RetryMessage>
    )
  }

  // Spaces around a pasted code or a typed name are not part of it.
  const nameError = teamNameError(name.trim())
  const codeError = inviteCodeError(code.trim())
  const shown = { name: touched.name ? nameError : undefined, code: touched.code ? codeError : undefined }
  const touch = (field: Field) => setTouched((prev) => (prev[field] ? prev : { ...prev, [field]: true }))
  const pending = teams.pending.value

  const questions = event.questions ?? []
  const checked = checkAnswers(questions, answers)

  const submit = async (field: Field) => {
    touch(field)
    const input = field === 'name' ? nameInput.current : codeInput.current
    if (field === 'name' ? nameError : codeError) return input?.focus()
    if ('error' in checked) {
      setAnswered(Object.fromEntries(questions.map((q) => [q.id, true])))
      const wrong = questions.find((q) => answerError(q, answers[q.id]))
      return wrong && questionsBox.current?.querySelector<HTMLElement>(`#${questionFieldId(wrong.id)}`)?.focus()
    }
    const sent = questions.length > 0 ? checked.answers : undefined
    try {
      const joined = field === 'name' ? await teams.create(event.id, name.trim(), sent) : await teams.join(event.id, code.trim(), sent)
      // undefined: another team action was still running and this press was ignored.
      if (joined) route(`/team-details/${id}`, true)
    } catch (err) {
      // SPEC §8: an answer carrying the error flag shows the server's words and the student stays here...
      const refusal = refusalOf(err)
      if (refusal !== null) {
        showToast(refusal, 'error')
        input?.focus()
        return
      }
      // ...any other failure (no answer at all) still goes to team-details, which shows what the server holds
      // once it can be reached, and sends the student back here if there is no team.
      console.error('team call failed', err)
      route(`/team-details/${id}`, true)
    }
  }

  const onSubmit = (field: Field) => (e: Event) => {
    e.preventDefault()
    void submit(field)
  }

  // Props wiring an input to its label, message and touch state.
  const control = (field: Field) => ({
    id: `team-${field}`,
    'aria-invalid': shown[field] ? true : undefined,
    'aria-describedby': shown[field] ? `team-${field}-error team-${field}-hint` : `team-${field}-hint`,
    onBlur: () => touch(field),
  })
  const message = (field: Field) =>
    shown[field] && (
      <p id={`team-${field}-error`} class={styles.error}>
        {shown[field]}
      </p>
    )

  const heading = (
    <>
      <h1 class={styles.title}>Team Registration</h1>
      <p class={styles.event}>
        <a href={`/event-details/${id}`}>{event.name}</a> · {event.min_ppt > 1 ? `Teams of ${event.min_ppt}–${event.ma_ppt}` : `Teams of up to ${event.ma_ppt}`}
      </p>
    </>
  )
  // Forms that could only be refused are not offered once registration has closed.
  if (!teamChangesOpen(event)) {
    return (
      <>
        {heading}
        <p class={styles.card}>{TEAMS_CLOSED}</p>
      </>
    )
  }

  return (
    <>
      {heading}

      {questions.length > 0 && (
        <fieldset ref={questionsBox} class={styles.card}>
          <legend>The organisers ask</legend>
          <QuestionFields
            questions={questions}
            answers={answers}
            touched={answered}
            onAnswer={(qid, value) => setAnswers((prev) => ({ ...prev, [qid]: value }))}
            onTouch={(qid) => setAnswered((prev) => (prev[qid] ? prev : { ...prev, [qid]: true }))}
            classes={styles}
          />
        </fieldset>
      )}

      <section class={styles.card} aria-labelledby="team-create-title">
        <h2 id="team-create-title">Create Team</h2>
        <form onSubmit={onSubmit('name')} noValidate>
          <label for="team-name">Team name</label>
          <input
            ref={nameInput}
            {...control('name')}
            type="text"
            autoComplete="off"
            maxLength={60}
            value={name}
            onInput={(e) => {
              setName(e.currentTarget.value)
              touch('name')
            }}
          />
          <p id="team-name-hint" class={styles.hint}>
            You will lead the team and get a code to share.
          </p>
          {message('name')}
          <button type="submit" class="button" disabled={!!pending} aria-busy={pending === 'create' || undefined}>
            {pending === 'create' && <Spinner size="sm" label="Creating team" />}
            Create Team
          </button>
        </form>
      </section>

      <section class={styles.card} aria-labelledby="team-join-title">
        <h2 id="team-join-title">Join Team</h2>
        <form onSubmit={onSubmit('code')} noValidate>
          <label for="team-code">Invite code</label>
          <input
            ref={codeInput}
            {...control('code')}
            class={styles.code}
            type="text"
            autoComplete="off"
            autoCapitalize="none"
            autoCorrect="off"
            spellcheck={false}
            value={code}
            onInput={(e) => {
              setCode(e.currentTarget.value)
              touch('code')
            }}
          />
          <p id="team-code-hint" class={styles.hint}>
            The 5-character code from your team leader (capitals matter).
          </p>
          {message('code')}
          <button type="submit" class="button" disabled={!!pending} aria-busy={pending === 'join' || undefined}>
            {pending === 'join' && <Spinner size="sm" label="Joining team" />}
            Join Team
          </button>
        </form>
      </section>
    </>
  )
}
