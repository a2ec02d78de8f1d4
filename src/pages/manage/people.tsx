// The console's people added and removed by e-mail: a council's organisers (admin.tsx) and an event's door
// volunteers (event.tsx). The list with a Remove button per person, the add form, the server's refusal under it.
import type { ComponentChildren } from 'preact'
import { useState } from 'preact/hooks'
import type { OrgPerson } from '../../../contract/types.ts'
import { showToast } from '../../components/toast/index.tsx'

export interface PeopleByEmailProps {
  /** The input's id (its error is `${id}-error`). */
  id: string
  /** null while they load. */
  people: OrgPerson[] | null
  /** Shown instead of the list while it loads, or when nobody is on it. */
  placeholder?: ComponentChildren
  /** The input's label, e.g. 'E-mail of a volunteer'. */
  label: string
  removeLabel: (person: OrgPerson) => string
  /** Adds or removes by e-mail; resolves with what the toast says, rejects with the server's words. */
  change: (email: string, remove: boolean) => Promise<string>
}

export function PeopleByEmail({ id, people, placeholder, label, removeLabel, change }: PeopleByEmailProps) {
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const run = async (address: string, remove: boolean) => {
    setBusy(true)
    try {
      showToast(await change(address, remove))
      setError(null)
      if (!remove) setEmail('')
    } catch (err) {
      setError((err as Error).message)
    } finally {
      setBusy(false)
    }
  }
  const errorId = `${id}-error`
  return (
    <>
      {!people?.length ? (
        placeholder
      ) : (
        <ul class="m-people">
          {people.map((p) => (
            <li key={p.id}>
              <span>
                {p.name} <span class="m-muted">{p.email}</span>
              </span>
              <button type="button" class="m-small" disabled={busy} onClick={() => run(p.email, true)} aria-label={removeLabel(p)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        class="m-row"
        onSubmit={(e) => {
          e.preventDefault()
          if (email.trim()) run(email.trim(), false)
          else setError('E-mail is required')
        }}
      >
        <div class="m-field">
          <label for={id}>{label}</label>
          <input
            id={id}
            type="email"
            autocomplete="off"
            value={email}
            aria-invalid={!!error}
            aria-describedby={error ? errorId : undefined}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="button" disabled={busy}>
          Add
        </button>
      </form>
      {error && (
        <p id={errorId} class="m-error" role="alert">
          {error}
        </p>
      )}
    </>
  )
}
