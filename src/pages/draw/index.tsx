// How a fair opening's draw can be checked (issue 24 item 3, issue 37 item 6): linked from the event page. Two plain
// sentences first; after the draw the phone checks it for the student with what it already knows (their id and their
// entry's nonce: the seed's hash, their key, its place among the published keys), the technical detail folded away.
// A lazy route: nothing of it is in the first load.
import { useEffect, useState } from 'preact/hooks'
import { useRoute } from 'preact-iso'
import { EventNotFound, LoadOrRetry } from '../../components/load-or-retry/index.tsx'
import { formatIST } from '../../lib/dates.ts'
import { drawKeyOf, placeOf, seedHashOf } from '../../lib/draw-key.ts'
import { drawKeysOf } from '../../stores/draw-keys.ts'
import { buildEventDetail } from '../../stores/event-detail.ts'
import { room, session } from '../../models.ts'
import s from './style.module.css'

const eventDetail = room(buildEventDetail)

interface Check {
  hashMatches: boolean
  key: string
  place: number | null
}

export default function DrawCheck() {
  const { id } = useRoute().params
  const me = session.user.value?.id
  const [check, setCheck] = useState<Check | null>(null)
  useEffect(() => {
    eventDetail.load(id)
  }, [id])

  const held = eventDetail.event.value
  const event = held && String(held.id) === id ? held : null
  const fair = event?.fair_start ?? null
  const seed = fair?.seed ?? null
  const entry = (event?.Participant && event.Participant.draw) || null
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

  // The student's own check, with what the app already knows: their id and their entry's nonce (issue 36 item 4:
  // nobody else's key can be recomputed, so the published keys name nobody).
  const nonce = entry ? entry.nonce : null
  useEffect(() => {
    setCheck(null)
    if (!seed || !fair || !keys || !me || !entry) return
    let live = true
    Promise.all([seedHashOf(seed), drawKeyOf(seed, me, nonce)]).then(
      ([hash, key]) => live && setCheck({ hashMatches: hash === fair.seed_hash, key, place: placeOf(keys, key) }),
      (err) => console.error('draw check failed', err),
    )
    return () => {
      live = false
    }
  }, [seed, me, nonce, keys])

  if (eventDetail.notFound.value) {
    return <EventNotFound />
  }
  if (!event) return <LoadOrRetry loading="Loading the draw" what="the draw" error={eventDetail.error.value} retry={() => eventDetail.refresh()} />

  return (
    <article class={s.page}>
      <h1 class={s.title}>The draw for {event.name}</h1>
      <p>Everyone who taps RSVP in the first minutes after tickets open gets the same chance: the order is drawn by lot, not by who was fastest.</p>
      <p>The lot comes from a secret locked in before tickets opened and shown after the draw, so nobody, not even the organisers, could choose the winners.</p>
      {!fair ? (
        <p role="status">This event has no draw: tickets go first come, first served.</p>
      ) : !entry ? (
        <p role="status">You did not enter this draw.</p>
      ) : !seed ? (
        <p role="status">{fair.draw_at ? `You are in the draw. Results at ${formatIST(fair.draw_at, '{h}:{mm} {A}')}.` : 'You are in the draw.'}</p>
      ) : (
        check && (
          <div role="status" aria-live="polite">
            <p>{RESULTS[entry.result]}</p>
            <p>{check.place ? `Position ${check.place} of ${keys!.length}` : 'Your key is not in the published list.'}</p>
            <p>{check.hashMatches ? 'The seed matches the hash published before the opening.' : 'The seed does NOT match the published hash.'}</p>
          </div>
        )
      )}
      {fair && (
        <details>
          <summary>The technical detail</summary>
          <p>
            Before tickets opened we published the SHA-256 hash of a secret seed. Your draw key is HMAC-SHA256 with the seed as key and your user id, a colon
            and your entry's nonce as message; everyone who entered is ordered by key, lowest first, and the first get the tickets. The nonce, made by your
            phone when you entered and known only to you, keeps anyone from telling whose key is whose.
          </p>
          <dl class={s.facts}>
            <dt>Seed hash</dt>
            <dd class={s.hex}>{fair.seed_hash}</dd>
            <dt>Seed</dt>
            <dd class={s.hex}>{seed ?? 'Revealed after the draw'}</dd>
            {fair.entrants !== null && (
              <>
                <dt>Entrants</dt>
                <dd>{fair.entrants}</dd>
              </>
            )}
            {entry && me && (
              <>
                <dt>Your user id and nonce</dt>
                <dd class={s.hex}>{nonce === null ? me : `${me}:${nonce}`}</dd>
              </>
            )}
            {check && (
              <>
                <dt>Your key</dt>
                <dd class={s.hex}>{check.key}</dd>
              </>
            )}
          </dl>
        </details>
      )}
      <p>
        <a href={`/event-details/${event.id}`}>Back to the event</a>
      </p>
    </article>
  )
}

const RESULTS = {
  PENDING: 'The draw has not run yet.',
  WON: 'The draw gave you a place.',
  WAITLISTED: 'The draw put you on the waitlist.',
  NOT_ELIGIBLE: 'At the draw you could no longer take a ticket (a ticket already, or a team below its size), so the draw passed over you.',
} as const
