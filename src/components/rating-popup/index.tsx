// The feedback popup of Event details (SPEC §2): five stars as a radio group (arrow keys move between them),
// Submit enabled once a star is chosen, closed by a backdrop click, Escape or Cancel. What it offers is the
// decision of lib/feedback: the stars with the student's earlier rating chosen, or, for a student whose rating
// would be refused, who can rate and a Close button.
import { useRef, useState } from 'preact/hooks'
import { RATING_MAX } from '../../../contract/constants.ts'
import { type Feedback, feedbackFor } from '../../lib/feedback.ts'
import { Backdrop, useDialog } from '../modal/index.tsx'
import { Spinner } from '../spinner/index.tsx'
import s from './style.module.css'

export interface RatingPopupProps {
  feedback: Feedback
  /** Sends the rating; the popup closes itself when this resolves and stays open (Submit again) when it rejects. */
  onSubmit: (rating: number) => Promise<unknown>
  onClose: () => void
}

const STARS = Array.from({ length: RATING_MAX }, (_, i) => i + 1)
export const starLabel = (n: number) => (n === 1 ? '1 star' : `${n} stars`)

export function RatingPopup({ feedback, onSubmit, onClose }: RatingPopupProps) {
  const earlier = feedback.canRate ? feedback.rating : null
  const [rating, setRating] = useState(earlier ?? 0)
  const [sending, setSending] = useState(false)
  const dialog = useRef<HTMLDivElement>(null)

  // Focus moves into the popup (the chosen star, the first, or Close), and back to where it was when it closes.
  // The star's ring follows :focus-visible (style.module.css): shown after a key press, not after a tap.
  useDialog(dialog, 'input:checked', false, onClose)

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
    <Backdrop class={s.backdrop} onClose={onClose}>
      <div ref={dialog} class={s.dialog} role="dialog" aria-modal="true" aria-labelledby="rating-title" aria-describedby="rating-note">
        {feedback.canRate ? (
          <form onSubmit={submit}>
            <h2 id="rating-title" class={s.title}>
              How was the event?
            </h2>
            <p id="rating-note" class={s.note}>
              {earlier ? `You rated it ${starLabel(earlier)}. Choose again to change it.` : 'Choose from 1 to 5 stars.'}
            </p>
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
        ) : (
          <>
            <h2 id="rating-title" class={s.title}>
              Give Feedback
            </h2>
            <p id="rating-note" class={s.note}>
              {feedback.reason}
            </p>
            <div class={s.actions}>
              <button type="button" class="button" onClick={onClose}>
                Close
              </button>
            </div>
          </>
        )}
      </div>
    </Backdrop>
  )
}

/**
 * The popup for an event: the decision of lib/feedback made here, in the popup's lazy chunk, so that the event page
 * (every student's chunk) does not carry the rules and their messages.
 */
export function RatingPopupFor({ event, ...props }: Omit<RatingPopupProps, 'feedback'> & { event: Parameters<typeof feedbackFor>[0] }) {
  return <RatingPopup feedback={feedbackFor(event)} {...props} />
}
