// Admins (issue 11): the councils (create, edit) and their organisers (add or remove by e-mail).
import { useEffect, useState } from 'preact/hooks'
import type { ManagedCouncil } from '../../../contract/types.ts'
import { LoadOrRetry } from '../../components/load-or-retry/index.tsx'
import { showToast } from '../../components/toast/index.tsx'
import { buildOrg } from '../../stores/org.ts'
import { room } from '../../models.ts'
import { PeopleByEmail } from './people.tsx'

const org = room(buildOrg)

type CouncilForm = { name: string; photo_url: string; phone_number: string; email: string; upi_vpa: string; upi_name: string }
const FIELDS: [keyof CouncilForm, string, string][] = [
  ['name', 'Name', 'text'],
  ['photo_url', 'Logo address', 'url'],
  ['phone_number', 'Phone number', 'tel'],
  ['email', 'E-mail', 'email'],
  // UPI straight to the council (issue 35): both, or neither.
  ['upi_vpa', 'UPI id (name@bank)', 'text'],
  ['upi_name', 'UPI payee name', 'text'],
]

/** Runs a write; its failure (the server's words) goes where the form shows it. */
async function attempt(run: () => Promise<unknown>, setError: (m: string | null) => void, done?: string) {
  try {
    await run()
    setError(null)
    if (done) showToast(done)
    return true
  } catch (err) {
    setError((err as Error).message)
    return false
  }
}

function CouncilEditor({ council, onDone }: { council?: ManagedCouncil; onDone?: () => void }) {
  const key = council ? `c${council.id}` : 'new'
  const [form, setForm] = useState<CouncilForm>({
    name: council?.name ?? '',
    photo_url: council?.photo_url ?? '',
    phone_number: council?.phone_number ?? '',
    email: council?.email ?? '',
    upi_vpa: council?.upi_vpa ?? '',
    upi_name: council?.upi_name ?? '',
  })
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (e: Event) => {
    e.preventDefault()
    if (!form.name.trim()) return setError('name is a required field')
    setBusy(true)
    const body = {
      ...(council ? { id: council.id } : {}),
      name: form.name.trim(),
      photo_url: form.photo_url.trim() || null,
      phone_number: form.phone_number.trim() || null,
      email: form.email.trim() || null,
      upi_vpa: form.upi_vpa.trim() || null,
      upi_name: form.upi_name.trim() || null,
    }
    if (await attempt(() => org.saveCouncil(body), setError, council ? 'Council saved' : 'Council created')) onDone?.()
    setBusy(false)
  }
  return (
    <form onSubmit={submit} noValidate>
      {FIELDS.map(([k, label, type]) => (
        <div class="m-field" key={k}>
          <label for={`${key}-${k}`}>{label}</label>
          <input id={`${key}-${k}`} type={type} value={form[k]} onInput={(e) => setForm({ ...form, [k]: e.currentTarget.value })} />
        </div>
      ))}
      {error && (
        <p class="m-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="button" disabled={busy}>
        {council ? 'Save council' : 'Create council'}
      </button>
    </form>
  )
}

function Organizers({ council }: { council: ManagedCouncil }) {
  return (
    <>
      <h3>Organisers</h3>
      <PeopleByEmail
        id={`org-${council.id}`}
        people={council.organizers}
        label="E-mail of an organiser"
        removeLabel={(p) => `Remove ${p.name} from ${council.name}`}
        change={async (address, remove) => {
          await org.changeOrganizer(council.id, address, remove)
          return remove ? `${address} removed` : `${address} now organises ${council.name}`
        }}
      />
    </>
  )
}

export default function Admin() {
  const [editing, setEditing] = useState<number | null>(null)
  useEffect(() => {
    org.loadCouncils()
  }, [])
  const councils = org.councils.value
  return (
    <>
      <h1>Councils</h1>
      {!councils ? (
        <LoadOrRetry loading="Loading the councils" what="the councils" error={org.councilsError.value} retry={org.loadCouncils} />
      ) : (
        <ul class="m-cards">
          {councils.map((c) => (
            <li class="m-card" key={c.id}>
              <h2>{c.name}</h2>
              {/* The id the operator's `role:grant <email> organizer <council>` takes (issue 22 item 4). */}
              <p class="m-muted">{[`Council ${c.id}`, c.email, c.phone_number].filter(Boolean).join(' · ')}</p>
              {editing === c.id ? (
                <CouncilEditor council={c} onDone={() => setEditing(null)} />
              ) : (
                <button type="button" class="m-small" onClick={() => setEditing(c.id)} aria-label={`Edit ${c.name}`}>
                  Edit
                </button>
              )}
              <Organizers council={c} />
            </li>
          ))}
        </ul>
      )}
      <section class="m-card" aria-labelledby="new-council">
        <h2 id="new-council">New council</h2>
        <CouncilEditor key={councils?.length} />
      </section>
    </>
  )
}
