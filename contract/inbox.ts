// The inbox (issue 37 item 2), declared the way contract/api.ts declares Part 1. Beyond API.md, which names push
// notifications only:
// - Every message a student is sent is kept in their inbox, whether or not a push reached a phone: an organiser's
//   message, "Tickets are open", the draw's result, a waitlist offer with its deadline, a ticket a friend gave them,
//   the reminder an hour before an event, a payment's news (a refund, a place that could not be kept). A push goes
//   out besides, to the phones of those who allowed notifications.
// - Read marks live on the server, so a student's phones and laptop agree on the unread count; `POST /user/p/me`
//   answers it beside the user (`unread`), so the header's bell needs no call of its own.
// - POST /org/p/event/notify answers `in_app` (students whose inbox got the message) beside `sent` (students
//   reached by push: those with notifications on).
import * as z from 'zod/mini'
import { bearer, type CallSpec, fields, ok, positiveId } from './define.ts'

/** Messages per page of the inbox, newest first. */
export const INBOX_PAGE = 50

export const inboxMessage = z.object({
  id: z.int(),
  title: z.string(),
  body: z.string(),
  /** The app's path the message opens (an event, a ticket). */
  url: z.string(),
  created_at: z.string(),
  read: z.boolean(),
})

/** The caller's unread messages. */
export const unread = z.int()

export const INBOX_CALLS = {
  inbox: {
    method: 'POST',
    path: '/user/p/inbox',
    auth: 'bearer',
    tag: 'user',
    summary: `The caller’s messages, newest first, ${INBOX_PAGE} at a time (\`before\`: an id, for the page of older ones; \`more\`: whether there is one), and the unread count. Changes nothing.`,
    body: fields({ before: z.optional(z.nullable(positiveId('before'))) }),
    answers: { 200: ok({ messages: z.array(inboxMessage), unread, more: z.boolean() }), ...bearer() },
  },
  inboxRead: {
    method: 'POST',
    path: '/user/p/inbox/read',
    auth: 'bearer',
    tag: 'user',
    summary:
      'Marks read every message of the caller’s with an id up to `up_to` (the newest the app has shown); answers the unread count left. Another student’s id, or one already read, changes nothing.',
    body: fields({ up_to: positiveId('up_to') }),
    answers: { 200: ok({ unread }), ...bearer() },
  },
} as const satisfies Record<string, CallSpec>
