// The feedback popup of Event details (SPEC §2): five stars as a radio group (arrow keys move between them),
// Submit enabled once a star is chosen, closed by a backdrop click, Escape or Cancel.
import { useEffect, useRef, useState } from 'preact/hooks'
import { RATING_MAX } from '../../../contract/constants.ts'
import { Spinner } from '../spinner/index.tsx'
import s from './style.module.css'

export interface RatingPopupProps {
  /** Sends the rating; the popup closes itself when this resolves and stays open (Submit again) when it rejects. */
  onSubmit: (rating: number) => Promise<unknown>
  onClose: () => void
}

const STARS = Array.from({ length: RATING_MAX }, (_, i) => i + 1)
export const starLabel = (n: number) => (n === 1 ? '1 star' : `${n} stars`)

export function RatingPopup({ onSubmit, onClose }: RatingPopupProps) {
  const [rating, setRating] = useState(0)
  const [sending, setSending] = useState(false)
  const dialog = useRef<HTMLDivElement>(null)

  useEffect(() => {
    // Focus moves into the popup, and back to where it was when it closes.
    const before = document.activeElement as HTMLElement | null
    dialog.current?.querySelector<HTMLElement>('input')?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose()
    }
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('keydown', onKey)
      before?.focus?.()
    }
  }, [])

  const submit = async (e: Event) => {
    e.preventDefault()
    if (!rating || sending) return
    setSending(true)
    try {
      await onSubmit(rating)
      onClose()
    } catch {
      setSending(false)
    }
  }

  return (
    <div class={s.backdrop} onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={dialog} class={s.dialog} role="dialog" aria-modal="true" aria-labelledby="rating-title">
        <form onSubmit={submit}>
          <h2 id="rating-title" class={s.title}>
            How was the event?
          </h2>
          <fieldset class={s.stars}>
            <legend class="visually-hidden">Your rating</legend>
            {STARS.map((n) => (
              <label key={n} class={n <= rating ? s.on : undefined}>
                <input
                  type="radio"
                  name="rating"
                  value={n}
                  class="visually-hidden"
                  aria-label={starLabel(n)}
                  checked={rating === n}
                  onChange={() => setRating(n)}
                />
                <span aria-hidden="true">★</span>
              </label>
            ))}
          </fieldset>
          <div class={s.actions}>
            <button type="button" class="button button-secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" class="button" disabled={!rating || sending}>
              {sending && <Spinner size="sm" label="Sending" />}
              Submit
            </button>
          </div>
        </form>
      </div>
    </div>
  )
}
