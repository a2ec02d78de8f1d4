// "Send a notification" on an event's console screen (issue 22 item 1): a message to its participants, ticket
// holders or waitlist, kept in each one's inbox in the app and pushed to those with notifications on (issue 37
// item 2). It says, before sending, how many students each audience has and how many of them have notifications
// on, how many of the 5 messages a day are left, and, once sent, how many got it in the app and how many by push.
// The server checks the limits again (400 naming the field, 429 past five a day).
import { useEffect, useState } from 'preact/hooks'
import { NOTIFY_LIMITS } from '../../../contract/notify-limits.ts'
import { ConfirmModal } from '../../components/modal/index.tsx'
import { formatMoment } from '../../lib/org-event.ts'
import { buildOrg } from '../../stores/org.ts'
import { room } from '../../models.ts'

const org = room(buildOrg)

type Audience = 'PARTICIPANTS' | 'TICKET_HOLDERS' | 'WAITLIST'

/** Each audience: its value, its name, and who it is in a sentence. */
const AUDIENCES: [Audience, string, string][] = [
  ['PARTICIPANTS', 'Participants', 'registered students'],
  ['TICKET_HOLDERS', 'Ticket holders', 'ticket holders'],
  ['WAITLIST', 'Waitlist', 'students on the waitlist'],
]

const students = (n: number) => `${n} student${n === 1 ? '' : 's'}`

/** A text field with its limit counted as one types, and its error (focused on a failed send). */
function Text(props: { id: 'title' | 'body'; label: string; value: string; error?: string; set: (v: string) => void }) {
  const Tag = props.id === 'body' ? 'textarea' : 'input'
  const hint = `notify-${props.id}-hint`
  return (
    <div class="m-field">
      <label for={`notify-${props.id}`}>{props.label}</label>
      <Tag
        id={`notify-${props.id}`}
        value={props.value}
        maxLength={NOTIFY_LIMITS[props.id]}
        aria-invalid={!!props.error}
        aria-describedby={hint}
        onInput={(e) => props.set(e.currentTarget.value)}
      />
      <span id={hint} class={props.error ? 'm-error' : 'm-muted'}>
        {props.error} {props.value.length} of {NOTIFY_LIMITS[props.id]} characters
      </span>
    </div>
  )
}

export function NotifyForm({ eventId }: { eventId: number }) {
  const [to, setTo] = useState<Audience>('PARTICIPANTS')
  const [title, setTitle] = useState('')
  const [body, setBody] = useState('')
  const [errors, setErrors] = useState<{ title?: string; body?: string }>({})
  const [note, setNote] = useState<[string, boolean] | null>(null)
  const [step, setStep] = useState<'' | 'confirm' | 'busy'>('')
  useEffect(() => {
    org.loadNotifyStatus(eventId)
  }, [eventId])

  const status = org.notifyStatus.value
  const [, , who] = AUDIENCES.find((a) => a[0] === to)!
  const reach = status?.audiences[to]
  const left = status?.remaining

  const send = async () => {
    setStep('busy')
    try {
      const { in_app, sent } = await org.notify({ event_id: eventId, title: title.trim(), body: body.trim(), to })
      setNote([`Sent to ${students(in_app)} in the app, ${sent} of them by push too.`, false])
      setTitle('')
      setBody('')
    } catch (err) {
      setNote([(err as Error).message, true])
    }
    setStep('')
  }

  return (
    <section class="m-card" aria-labelledby="notify-h">
      <h2 id="notify-h">Send a notification</h2>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          const found = { title: title.trim() ? undefined : 'Write a title.', body: body.trim() ? undefined : 'Write the message.' }
          setErrors(found)
          setNote(null)
          const first = found.title ? 'title' : found.body ? 'body' : null
          if (first) document.getElementById(`notify-${first}`)?.focus()
          else setStep('confirm')
        }}
      >
        <fieldset class="m-plain">
          <legend class="m-label">To</legend>
          {AUDIENCES.map(([value, label]) => (
            <label key={value} class="m-check">
              <input type="radio" name="notify-to" checked={to === value} onChange={() => setTo(value)} />
              {label}
              {status && ` (${status.audiences[value].students})`}
            </label>
          ))}
        </fieldset>
        <Text id="title" label="Title" value={title} error={errors.title} set={setTitle} />
        <Text id="body" label="Message" value={body} error={errors.body} set={setBody} />
        <p data-testid="notify-reach">
          {!reach
            ? (org.notifyStatusError.value ?? '…')
            : reach.students
              ? `In the app: ${students(reach.students)}. By push too: ${reach.notifications_on} with notifications on.`
              : `No ${who} yet: nobody would get it.`}
        </p>
        {status && (
          <p class="m-muted" data-testid="notify-left">
            {left
              ? `${left} of ${status.limit} messages left today.`
              : `No messages left today (${status.limit} a day)${status.frees_at ? `: the next can go on ${formatMoment(status.frees_at)}` : ''}.`}
          </p>
        )}
        <button type="submit" class="button" disabled={!!step || left === 0}>
          Send notification
        </button>
      </form>
      <p role="status" class={note?.[1] ? 'm-error' : 'm-live'}>
        {note?.[0]}
      </p>
      {step && (
        <ConfirmModal title={`Send to ${reach ? students(reach.students) : who}?`} busy={step === 'busy'} onConfirm={send} onCancel={() => setStep('')}>
          <p>
            <strong>{title.trim()}</strong>
          </p>
          <p>{body.trim()}</p>
        </ConfirmModal>
      )}
    </section>
  )
}
