// The inbox's calls (issue 37 item 2, contract/inbox.ts), loaded with the inbox screen. The newest page is kept
// as the last good copy, so the inbox reads offline; older pages are fetched only online.
import { client, lastKnown } from './calls.ts'
import type { Post } from './client.ts'

const post = client.request as Post

export const inboxApi = {
  list: (before?: number) => (before ? post('/user/p/inbox', { before }) : lastKnown.remember('inbox', () => post('/user/p/inbox'))),
  read: (upTo: number) => post('/user/p/inbox/read', { up_to: upTo }),
}

export type InboxApi = typeof inboxApi
