// Give a ticket to a friend (issue 25 item 2), under the barcode: the friend's e-mail, a confirmation (the code on
// this phone stops working at once, which cannot be undone), then the event page with the server's message. The
// server checks every rule (signed in once, registered, in the team, no ticket, at most two moves, the
// organiser's cut-off) and its refusal is shown under the field.
import { useLocation } from 'preact-iso'
import { useEffect, useRef, useState } from 'preact/hooks'
import { ConfirmModal } from '../../components/modal/index.tsx'
import { showToast } from '../../components/toast/index.tsx'
import { buildTransfer } from '../../stores/transfer.ts'
import { room } from '../../models.ts'
import s from './transfer.module.css'

const transferTicket = room(buildTransfer)

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The form, loaded when the holder taps 'Give to a friend' (ticket/index.tsx): the ticket itself stays small. */
export default function TransferForm({ eventId }: { eventId: number }) {
  const { route } = useLocation()
  const [email, setEmail] = useState('')
  const [error, setError] = useState('')
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const field = useRef<HTMLInputElement>(null)
  // Opened by the holder's tap on 'Give to a friend': the field is what comes next.
  useEffect(() => field.current?.focus(), [])

  const submit = (e: Event) => {
    e.preventDefault()
    const value = email.trim()
    setError(EMAIL.test(value) ? '' : 'Enter your friend’s e-mail address.')
    if (EMAIL.test(value)) setConfirming(true)
  }
  const give = async () => {
    setBusy(true)
    try {
      const message = await transferTicket(eventId, email.trim())
      showToast(message)
      route(`/event-details/${eventId}`, true)
    } catch (err) {
      setError((err as Error).message)
      setConfirming(false)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form class={s.transfer} onSubmit={submit} noValidate>
      <label for="transfer-email">Friend’s e-mail</label>
      <input
        ref={field}
        id="transfer-email"
        type="email"
        autocomplete="email"
        value={email}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby="transfer-hint"
        onInput={(e) => setEmail(e.currentTarget.value)}
      />
      <p id="transfer-hint" class={error ? s.error : s.hint} role={error ? 'alert' : undefined}>
        {error || 'Your friend must have signed in once and be registered for this event (in your team for a team event).'}
      </p>
      <button type="submit" class="button" disabled={busy}>
        Give ticket
      </button>
      {confirming && (
        <ConfirmModal title={`Give your ticket to ${email.trim()}?`} busy={busy} onCancel={() => setConfirming(false)} onConfirm={give}>
          <p>Your friend gets the ticket with a new code, and the code on this phone stops working at once. You cannot undo this.</p>
        </ConfirmModal>
      )}
    </form>
  )
}
