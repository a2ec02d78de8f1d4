// Register with the answers to an event's registration questions (API.md Part 2 "Registration questions"), kept
// out of calls.ts so that it loads with the Register form that uses it, never on the start path.
import { client } from './calls.ts'
import { retrying } from './retry.ts'
import type { Post } from './client.ts'

export const answerApi = {
  // Safe to repeat like the one-tap Register (a second one is refused, never doubled): a 503 is retried.
  register: (eventId: number, answers: Record<string, string>) =>
    retrying(client, () => (client.request as Post)('/event/p/register-for-event', { event_id: eventId, answers })),
}

export type AnswerApi = typeof answerApi
