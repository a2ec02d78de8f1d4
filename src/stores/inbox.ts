// The inbox (issue 37 item 2): the student's messages, newest first, fetched each time the inbox opens and again
// when the phone is back online; offline, the last page fetched. Opening it marks what it shows read on the server,
// so the student's other phones agree; the page still shows which ones were new on this visit.
import { action, createModel, signal, type ReadonlySignal } from '@preact/signals'
import type { InboxMessage } from '../../contract/types.ts'
import { inboxApi, type InboxApi } from '../api/inbox-calls.ts'
import type { Builder, Session } from './session.ts'

interface InboxDeps {
  calls: InboxApi
  session: Pick<Session, 'unread'>
}

export const InboxModel = createModel(({ calls, session }: InboxDeps) => {
  /** null until a fetch (or the kept copy) has answered. */
  const messages = signal<InboxMessage[] | null>(null)
  /** Whether older messages are on the server. */
  const more = signal(false)
  const loading = signal(false)
  const error = signal<string | null>(null)
  let inFlight: Promise<void> | null = null

  /** Reads the messages up to the newest shown on the server; offline, they are marked on the next visit. */
  async function markRead(shown: InboxMessage[]) {
    if (!shown.some((m) => !m.read)) return
    try {
      session.unread.value = (await calls.read(shown[0].id)).unread
    } catch (err) {
      console.error('inbox read mark failed', err)
    }
  }

  async function fetchPage(before?: number) {
    // The newest page replaces what was shown, which is dropped as it is asked for: after a sign-out and another
    // student's sign-in on this phone, the last student's messages must never show.
    if (!before) messages.value = null
    loading.value = true
    try {
      const page = await calls.list(before)
      messages.value = before ? [...(messages.value ?? []), ...page.messages] : page.messages
      more.value = page.more
      error.value = null
      if (!before) session.unread.value = page.unread
      await markRead(page.messages)
    } catch (err) {
      console.error('inbox fetch failed', err) // SPEC §8: errors are logged
      error.value = (err as Error).message
    } finally {
      loading.value = false
    }
  }

  return {
    messages: messages as ReadonlySignal<InboxMessage[] | null>,
    more: more as ReadonlySignal<boolean>,
    loading: loading as ReadonlySignal<boolean>,
    error: error as ReadonlySignal<string | null>,
    /** The newest page afresh; callers arriving while it runs share the fetch. */
    load: action(
      (): Promise<void> =>
        (inFlight ??= fetchPage().finally(() => {
          inFlight = null
        })),
    ),
    /** The page before the oldest shown. */
    loadOlder: action(async () => {
      const list = messages.value
      if (list?.length && !loading.value) await fetchPage(list[list.length - 1].id)
    }),
  }
})

export type Inbox = InstanceType<typeof InboxModel>

/** The inbox (`room(buildInbox)`): it writes the session's unread count. */
export const buildInbox: Builder<Inbox> = ({ session }) => new InboxModel({ calls: inboxApi, session })
