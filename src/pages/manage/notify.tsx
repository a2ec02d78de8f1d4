// "Send a notification" on an event's console screen (issue 22 item 1): a push message to its participants, ticket
// holders or waitlist. It says, before sending, how many students each audience has and how many of them have
// notifications on (a message reaches only those), how many of the 5 messages a day are left, and, once sent,
// how many phones it went to. The server checks the limits again (400 naming the field, 429 past five a day).
import { useEffect, useRef, useState } from 'preact/hooks'
import { NOTIFY_LIMITS } from '../../../contract/limits.ts'
import { ConfirmModal } from '../../components/confirm-modal/index.tsx'
import { formatMoment } from '../../lib/org-event.ts'
import { org } from '../../stores/org.ts'

type Audience = 'PARTICIPANTS' | 'TICKET_HOLDERS' | 'WAITLIST'

const AUDIENCES: { value: Audience; label: string; who: string }[] = [
  { value: 'PARTICIPANTS', label: 'Participants', who: 'registered students' },
  { value: 'TICKET_HOLDERS', label: 'Ticket holders', who: 'ticket holders' },
  { value: 'WAITLIST', label: 'Waitlist', who: 'students on the waitlist' },
]

const phones = (n: number) => (n === 1 ? '1 phone' : `${n} phones`)

/** What a message sent now would reach, in words. */
export function reachLine(students: number, on: number, who: string): string {
  if (students === 0) return `No ${who} yet: nobody would get it.`
  return `Reaches ${on} of ${students} ${who}: those who turned notifications on.`
}

export function NotifyForm({ eventId }: { eventId: number }) {
  const [to, setTo] = useState<Audience>('PARTICIPANTS')
  const [title, setTitle] = useState('')
  const [body, setBody] = useState('')
  const [errors, setErrors] = useState<{ title?: string; body?: string }>({})
  const [failure, setFailure] = useState<string | null>(null)
  const [result, setResult] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const titleRef = useRef<HTMLInputElement>(null)
  const bodyRef = useRef<HTMLTextAreaElement>(null)
  useEffect(() => {
    org.loadNotifyStatus(eventId)
  }, [eventId])

  const status = org.notifyStatus.value
  const audience = AUDIENCES.find((a) => a.value === to)!
  const reach = status?.audiences[to]
  const left = status?.remaining ?? null

  const check = () => {
    const found: typeof errors = {}
    if (!title.trim()) found.title = 'Write a title.'
    if (!body.trim()) found.body = 'Write the message.'
    setErrors(found)
    if (found.title) titleRef.current?.focus()
    else if (found.body) bodyRef.current?.focus()
    return !found.title && !found.body
  }

  const send = async () => {
    setBusy(true)
    setFailure(null)
    try {
      const sent = await org.notify({ event_id: eventId, title: title.trim(), body: body.trim(), to })
      setResult(`Sent to ${phones(sent)}`)
      setTitle('')
      setBody('')
    } catch (err) {
      setFailure((err as Error).message)
    } finally {
      setBusy(false)
      setConfirming(false)
    }
  }

  return (
    <section class="m-card" aria-labelledby="notify-h">
      <h2 id="notify-h">Send a notification</h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          setResult(null)
          if (check()) setConfirming(true)
        }}
      >
        <fieldset class="m-plain">
          <legend class="m-label">To</legend>
          {AUDIENCES.map((a) => {
            const counts = status?.audiences[a.value]
            return (
              <label key={a.value} class="m-check">
                <input type="radio" name="notify-to" value={a.value} checked={to === a.value} onChange={() => setTo(a.value)} />
                <span>
                  {a.label}
                  {counts && <span class="m-muted"> ({counts.students})</span>}
                </span>
              </label>
            )
          })}
        </fieldset>
        <div class="m-field">
          <label for="notify-title">Title</label>
          <input
            id="notify-title"
            ref={titleRef}
            value={title}
            maxLength={NOTIFY_LIMITS.title}
            autocomplete="off"
            aria-invalid={!!errors.title}
            aria-describedby="notify-title-hint"
            onInput={(e) => setTitle(e.currentTarget.value)}
          />
          <span id="notify-title-hint" class={errors.title ? 'm-error' : 'm-muted'}>
            {errors.title ? `${errors.title} ` : ''}
            {title.length} of {NOTIFY_LIMITS.title} characters
          </span>
        </div>
        <div class="m-field">
          <label for="notify-body">Message</label>
          <textarea
            id="notify-body"
            ref={bodyRef}
            value={body}
            maxLength={NOTIFY_LIMITS.body}
            aria-invalid={!!errors.body}
            aria-describedby="notify-body-hint"
            onInput={(e) => setBody(e.currentTarget.value)}
          />
          <span id="notify-body-hint" class={errors.body ? 'm-error' : 'm-muted'}>
            {errors.body ? `${errors.body} ` : ''}
            {body.length} of {NOTIFY_LIMITS.body} characters
          </span>
        </div>
        <p data-testid="notify-reach">
          {reach ? reachLine(reach.students, reach.notifications_on, audience.who) : (org.notifyStatusError.value ?? 'Counting who it reaches…')}
        </p>
        {status && (
          <p class="m-muted" data-testid="notify-left">
            {left === 0
              ? `No messages left today (${status.limit} a day)${status.frees_at ? `: the next can go on ${formatMoment(status.frees_at)}` : ''}.`
              : `${left} of ${status.limit} messages left today.`}
          </p>
        )}
        <button type="submit" class="button" disabled={busy || left === 0}>
          Send notification
        </button>
      </form>
      {failure && (
        <p class="m-error" role="alert">
          {failure}
        </p>
      )}
      <p role="status" class="m-live">
        {result}
      </p>
      {confirming && (
        <ConfirmModal
          title={`Send to ${reach ? phones(reach.notifications_on) : audience.who}?`}
          busy={busy}
          onConfirm={send}
          onCancel={() => setConfirming(false)}
        >
          <p>
            <strong>{title.trim()}</strong>
          </p>
          <p>{body.trim()}</p>
          <p>A notification cannot be taken back.</p>
        </ConfirmModal>
      )}
    </section>
  )
}
