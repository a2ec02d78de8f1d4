// How a fair opening's draw can be checked (issue 24 item 3): linked from the event page. Before the draw it shows
// the seed's commitment; after it, the phone recomputes the seed's hash and the student's key (Web Crypto) and
// finds the key's place among the published keys. A lazy route: nothing of it is in the first load.
import { useEffect, useState } from 'preact/hooks'
import { useRoute } from 'preact-iso'
import { EventNotFound, LoadOrRetry } from '../../components/load-or-retry/index.tsx'
import { formatIST } from '../../lib/dates.ts'
import { drawKeyOf, placeOf, seedHashOf } from '../../lib/draw-key.ts'
import { drawKeysOf } from '../../stores/draw-keys.ts'
import { eventDetail } from '../../stores/event-detail.ts'
import { session } from '../../stores/session.ts'
import s from './style.module.css'

interface Check {
  hashMatches: boolean
  key: string
  place: number | null
}

export default function DrawCheck() {
  const { id } = useRoute().params
  const me = session.user.value?.id
  const [userId, setUserId] = useState(me ? String(me) : '')
  const [check, setCheck] = useState<Check | null>(null)
  useEffect(() => {
    eventDetail.load(id)
  }, [id])
  useEffect(() => {
    if (me && !userId) setUserId(String(me))
  }, [me])

  const held = eventDetail.event.value
  const event = held && String(held.id) === id ? held : null
  const fair = event?.fair_start ?? null
  const seed = fair?.seed ?? null
  // The sorted keys come with their own fetch ({keys: true}): the event page's fetch leaves them out.
  const [keys, setKeys] = useState<string[] | null>(null)
  useEffect(() => {
    if (!seed) return
    let live = true
    drawKeysOf(id).then(
      (k) => live && setKeys(k),
      (err) => console.error('draw keys failed', err),
    )
    return () => {
      live = false
    }
  }, [id, seed])

  useEffect(() => {
    setCheck(null)
    const n = Number(userId)
    if (!seed || !fair || !keys || !Number.isInteger(n) || n < 1) return
    let live = true
    Promise.all([seedHashOf(seed), drawKeyOf(seed, n)]).then(
      ([hash, key]) => live && setCheck({ hashMatches: hash === fair.seed_hash, key, place: placeOf(keys, key) }),
      (err) => console.error('draw check failed', err),
    )
    return () => {
      live = false
    }
  }, [seed, userId, keys])

  if (eventDetail.notFound.value) {
    return <EventNotFound />
  }
  if (!event) return <LoadOrRetry loading="Loading the draw" what="the draw" error={eventDetail.error.value} retry={() => eventDetail.refresh()} />

  return (
    <article class={s.page}>
      <h1 class={s.title}>The draw for {event.name}</h1>
      <p>
        Before tickets opened we published the SHA-256 hash of a secret seed; after the draw we reveal the seed, and your draw key is HMAC-SHA256 of your user
        id with the seed as key. Everyone who entered is ordered by key, lowest first, and the first get the tickets: check below that the seed matches its hash
        and where your key falls.
      </p>
      {!fair ? (
        <p role="status">This event has no draw: tickets go first come, first served.</p>
      ) : (
        <dl class={s.facts}>
          <dt>Seed hash</dt>
          <dd class={s.hex}>{fair.seed_hash}</dd>
          <dt>Seed</dt>
          <dd class={s.hex}>{seed ?? (fair.draw_at ? `Revealed after the draw at ${formatIST(fair.draw_at, '{h}:{mm} {A}')}` : 'Revealed after the draw')}</dd>
          {fair.entrants !== null && (
            <>
              <dt>Entrants</dt>
              <dd>{fair.entrants}</dd>
            </>
          )}
        </dl>
      )}
      {seed && fair && (
        <section aria-labelledby="check">
          <h2 id="check" class={s.h2}>
            Check a key
          </h2>
          <label class={s.label} for="draw-user">
            User id
          </label>
          <input id="draw-user" class={s.input} inputMode="numeric" value={userId} onInput={(e) => setUserId(e.currentTarget.value.trim())} />
          {check && (
            <div role="status" aria-live="polite">
              <p>{check.hashMatches ? 'The seed matches the hash published before the opening.' : 'The seed does NOT match the published hash.'}</p>
              <p>
                Key: <span class={s.hex}>{check.key}</span>
              </p>
              <p>{check.place ? `Position ${check.place} of ${keys!.length}` : 'This key is not in the draw.'}</p>
            </div>
          )}
        </section>
      )}
      <p>
        <a href={`/event-details/${event.id}`}>Back to the event</a>
      </p>
    </article>
  )
}
