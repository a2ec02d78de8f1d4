// The desk's calls at the door (issue 35 item 4, contract/payments-org.ts), imported only by the desk's own chunk
// (src/pages/door/desk.tsx), so none of it reaches the door's chunk or a student's load.
import type { Post } from './client.ts'
import { client } from './calls.ts'

const post = client.request as Post

export const deskApi = {
  find: (eventId: number, query: string) => post('/door/p/desk/find', { event_id: eventId, query }).then((d) => d.students),
  /** `key`: made once per payment taken, and sent again with a retry, so a lost answer never takes the fee twice. */
  pay: (eventId: number, userId: number, method: 'CASH' | 'UPI', key: string) => post('/door/p/desk/pay', { event_id: eventId, user_id: userId, method, key }),
  totals: (eventId: number) => post('/door/p/desk/totals', { event_id: eventId }),
}

export type DeskApi = typeof deskApi
