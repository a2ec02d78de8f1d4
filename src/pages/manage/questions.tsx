// The registration questions editor (API.md Part 2 "Registration questions"): label, kind, options of a choice,
// required or optional, shown at the door or not (issue 25); added, removed and reordered. A chunk of its own, loaded with the editor.
import type { QuestionInput } from '../../../contract/types.ts'

// Written out (not imported from contract/entities.ts, which would bring zod into this chunk).
const KIND_NAMES: Record<QuestionInput['kind'], string> = {
  TEXT: 'Short text (200 characters)',
  LONG_TEXT: 'Long text (2,000 characters)',
  URL: 'Link (http or https)',
  CHOICE: 'One choice',
}

export default function Questions({ questions, onChange, error }: { questions: QuestionInput[]; onChange: (next: QuestionInput[]) => void; error?: string }) {
  const put = (i: number, change: Partial<QuestionInput>) => onChange(questions.map((q, j) => (j === i ? { ...q, ...change } : q)))
  const swap = (i: number, j: number) => {
    const next = [...questions]
    ;[next[i], next[j]] = [next[j], next[i]]
    onChange(next)
  }
  return (
    <div>
      <h3 class="m-label">Registration questions</h3>
      {questions.length === 0 && <p class="m-muted">No questions: students register with one tap.</p>}
      {questions.map((q, i) => (
        <fieldset class="m-card" key={q.id ?? i}>
          <legend>Question {i + 1}</legend>
          <div class="m-field">
            <label for={`q-label-${i}`}>Question</label>
            <input id={`q-label-${i}`} value={q.label} onInput={(e) => put(i, { label: e.currentTarget.value })} />
          </div>
          <div class="m-field">
            <label for={`q-kind-${i}`}>Answer</label>
            <select id={`q-kind-${i}`} value={q.kind} onChange={(e) => put(i, { kind: e.currentTarget.value as QuestionInput['kind'] })}>
              {(Object.keys(KIND_NAMES) as QuestionInput['kind'][]).map((k) => (
                <option key={k} value={k}>
                  {KIND_NAMES[k]}
                </option>
              ))}
            </select>
          </div>
          {q.kind === 'CHOICE' && (
            <div class="m-field">
              <label for={`q-options-${i}`}>Options, one a line</label>
              <textarea
                id={`q-options-${i}`}
                value={(q.options ?? []).join('\n')}
                onInput={(e) => put(i, { options: e.currentTarget.value.split('\n').filter((o, j, all) => o.trim() || j < all.length - 1) })}
              />
            </div>
          )}
          <label class="m-check">
            <input type="checkbox" checked={q.required ?? false} onChange={(e) => put(i, { required: e.currentTarget.checked })} /> Required
          </label>
          <label class="m-check">
            <input type="checkbox" checked={q.show_at_door ?? false} onChange={(e) => put(i, { show_at_door: e.currentTarget.checked })} /> Show at the door
            (the volunteer sees the answer when the ticket is scanned)
          </label>
          <p class="m-actions">
            <button type="button" class="m-small" disabled={i === 0} onClick={() => swap(i, i - 1)} aria-label={`Move question ${i + 1} up`}>
              Up
            </button>
            <button
              type="button"
              class="m-small"
              disabled={i === questions.length - 1}
              onClick={() => swap(i, i + 1)}
              aria-label={`Move question ${i + 1} down`}
            >
              Down
            </button>
            <button type="button" class="m-small" onClick={() => onChange(questions.filter((_, j) => j !== i))} aria-label={`Remove question ${i + 1}`}>
              Remove
            </button>
          </p>
        </fieldset>
      ))}
      {error && (
        <p class="m-error" role="alert">
          {error}
        </p>
      )}
      <button type="button" class="m-small" onClick={() => onChange([...questions, { label: '', kind: 'TEXT', options: [], required: false }])}>
        Add a question
      </button>
    </div>
  )
}
