// The inbox (issue 37 item 2), opened by the header's bell: every message the student was sent (an organiser's, the
// draw's result, a waitlist offer, a ticket given to them, a reminder, a payment's news), whether or not a push
// reached this phone. Newest first; those new on this visit marked "New"; each opens the event or ticket it is
// about. Offline it shows the messages last fetched, and fetches again when the phone is back online.
import { useEffect } from 'preact/hooks'
import { RetryMessage } from '../../components/load-or-retry/index.tsx'
import { NotifyMe } from '../../components/notify-me/index.tsx'
import { PageSpinner } from '../../components/spinner/index.tsx'
import { formatIST } from '../../lib/dates.ts'
import { offline } from '../../stores/connection.ts'
import { buildInbox } from '../../stores/inbox.ts'
import { buildPush } from '../../stores/push.ts'
import { room } from '../../models.ts'
import s from './style.module.css'

const inbox = room(buildInbox)
const push = room(buildPush)

export default function Inbox() {
  const isOffline = offline.value
  // On opening, and again as the phone comes back online (what was sent meanwhile arrives, once).
  useEffect(() => void inbox.load(), [isOffline])
  const messages = inbox.messages.value
  const error = inbox.error.value

  if (error && !messages) {
    return (
      <RetryMessage heading="Inbox" retry={() => inbox.load()} busy={inbox.loading.value}>
        Could not load your messages: {error}
      </RetryMessage>
    )
  }
  if (!messages) return <PageSpinner label="Loading your messages" />

  return (
    <>
      <h1>Inbox</h1>
      <div class={s.notify}>
        <NotifyMe push={push} what="when a message arrives" />
      </div>
      {messages.length === 0 ? (
        <p class="page-message">
          No messages yet. Organisers’ messages, draw results, waitlist offers, tickets given to you and reminders arrive here, with notifications on or off.
        </p>
      ) : (
        <ul class={s.list}>
          {messages.map((m) => (
            <li key={m.id}>
              <a href={m.url} class={m.read ? s.message : `${s.message} ${s.new}`}>
                <span class={s.title}>
                  {!m.read && <span class={s.newTag}>New</span>}
                  {m.title}
                </span>
                <span class={s.body}>{m.body}</span>
                <time class={s.time} dateTime={m.created_at}>
                  {formatIST(m.created_at, '{D} {MMM} {YYYY}, {h}:{mm} {A}')}
                </time>
              </a>
            </li>
          ))}
        </ul>
      )}
      {inbox.more.value && (
        <button type="button" class="button button-secondary" onClick={() => inbox.loadOlder()} disabled={inbox.loading.value}>
          Show older messages
        </button>
      )}
      {error && (
        <p class={s.error} role="alert">
          Could not load more messages: {error}
        </p>
      )}
    </>
  )
}
