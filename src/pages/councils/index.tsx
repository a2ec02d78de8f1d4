// Councils (SPEC §2): each council's photo, name, phone with the +91 prefix as a tel: link, e-mail as mailto:.
import { useEffect } from 'preact/hooks'
import type { Council } from '../../../contract/types.ts'
import { PageSpinner } from '../../components/spinner/index.tsx'
import { buildCouncils } from '../../stores/councils.ts'
import { room } from '../../models.ts'
import s from './style.module.css'

const councils = room(buildCouncils)

/** The ten national digits of a stored number, whether it was kept as '98…', '+91 98…' or '091-98…'. */
export function nationalDigits(phone: string): string {
  const digits = phone.replace(/\D/g, '')
  return digits.length > 10 && /^0?91/.test(digits) ? digits.slice(-10) : digits
}

function CouncilCard({ council }: { council: Council }) {
  const phone = council.phone_number ? nationalDigits(council.phone_number) : ''
  return (
    <li class={s.card}>
      {council.photo_url ? (
        <img src={council.photo_url} alt="" width={56} height={56} loading="lazy" decoding="async" />
      ) : (
        <span class={s.noPhoto} aria-hidden="true" />
      )}
      <div class={s.text}>
        <h2 class={s.name}>{council.name}</h2>
        {phone && (
          <a href={`tel:+91${phone}`} aria-label={`Call ${council.name} on +91 ${phone}`}>
            +91 {phone}
          </a>
        )}
        {council.email && <a href={`mailto:${council.email}`}>{council.email}</a>}
      </div>
    </li>
  )
}

export default function Councils() {
  useEffect(() => {
    councils.load()
  }, [])
  const list = councils.councils.value
  const error = councils.error.value

  return (
    <>
      <h1>Councils</h1>
      {error && (
        <div class="page-message" role="alert">
          <p>Could not load the councils: {error}</p>
          <button type="button" class="button" onClick={() => councils.load()} disabled={councils.loading.value}>
            Try again
          </button>
        </div>
      )}
      {!list && !error && <PageSpinner label="Loading the councils" />}
      {list && list.length === 0 && <p class="page-message">No councils to show yet.</p>}
      {list && list.length > 0 && (
        <ul class={s.list}>
          {list.map((c) => (
            <CouncilCard key={c.id} council={c} />
          ))}
        </ul>
      )}
    </>
  )
}
