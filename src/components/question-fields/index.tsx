// The event's registration questions as form fields (API.md Part 2 "Registration questions"): a labelled control
// per kind (short text, long text, a link, one choice), "(optional)" on the ones that may stay empty, a "*" on the
// others, and once a field is touched the message of contract/questions.ts, the same rules and words the server answers 400 with.
// Team register and the event page's Register form hold the answers and style them (class names from their own
// CSS: a stylesheet here would add a file to the start path's list of what each route needs); this renders them.
import { answerError, type AskedQuestion } from '../../../contract/questions.ts'

export interface QuestionFieldsProps {
  questions: readonly AskedQuestion[]
  answers: Record<string, string>
  /** The questions whose message shows: touched ones, or all of them after a submit. */
  touched: Record<string, boolean>
  onAnswer: (id: string, value: string) => void
  onTouch: (id: string) => void
  /** The caller's classes: a question's box, its control, its message. */
  classes: { field?: string; control?: string; error?: string }
}

/** The id of a question's control, for focusing the first wrong one. */
export const questionFieldId = (id: string) => `q-${id}`

export function QuestionFields({ questions, answers, touched, onAnswer, onTouch, classes }: QuestionFieldsProps) {
  return (
    <>
      {questions.map((q) => {
        const id = questionFieldId(q.id)
        const error = touched[q.id] ? answerError(q, answers[q.id]) : null
        const props = {
          id,
          class: classes.control,
          value: answers[q.id] ?? '',
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${id}-error` : undefined,
          'aria-required': q.required || undefined,
          onBlur: () => onTouch(q.id),
          onInput: (e: { currentTarget: { value: string } }) => {
            onAnswer(q.id, e.currentTarget.value)
            onTouch(q.id)
          },
        }
        return (
          <div key={q.id} class={classes.field}>
            <label for={id}>
              {/* The organiser may have written "(optional)" already: said once (issue 22 item 9). A required one
                  is marked; screen readers hear aria-required instead of the mark. */}
              {q.label.replace(/\s*\((optional|required)\)\s*$/i, '')}
              {q.required ? <span aria-hidden="true"> *</span> : ' (optional)'}
            </label>
            {q.kind === 'LONG_TEXT' ? (
              <textarea {...props} rows={4} maxLength={2000} />
            ) : q.kind === 'CHOICE' ? (
              <select {...props} onChange={props.onInput}>
                <option value="">Choose…</option>
                {q.options.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </select>
            ) : (
              <input {...props} type={q.kind === 'URL' ? 'url' : 'text'} maxLength={q.kind === 'URL' ? 2000 : 200} autoComplete="off" />
            )}
            {error && (
              <p id={`${id}-error`} class={classes.error}>
                {error}
              </p>
            )}
          </div>
        )
      })}
    </>
  )
}
