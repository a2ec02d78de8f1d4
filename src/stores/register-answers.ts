// The Register of an event that asks registration questions (API.md Part 2 "Registration questions"): one call
// with the answers, then the event is fetched again (the Registered button, the answers) and the events list
// told. A store of its own, loaded with the Register form's chunk, so the event page's one-tap flow
// (event-detail.ts) and the start path carry none of it.
import { action, createModel, signal, type ReadonlySignal } from '@preact/signals'
import { answerApi, type AnswerApi } from '../api/answer-calls.ts'
import { ApiError } from '../api/client.ts'
import { REGISTER_TOAST } from '../lib/action-button.ts'
import type { Builder } from './session.ts'
import { buildEventDetail, buildSetParticipant } from './event-detail.ts'

export interface RegisterAnswersDeps {
  register: AnswerApi['register']
  /** After a registration (or a refusal saying the page was stale): fetch the event again. */
  refresh: () => Promise<void>
  /** Tells the events list the student is registered. */
  onRegistered?: (eventId: number) => unknown
}

/** What Register ended with: the toast to show, or the message to show in the form (the server's words). */
export type RegisterOutcome = { toast: string } | { refusal: string }

export const RegisterAnswersModel = createModel(({ register, refresh, onRegistered }: RegisterAnswersDeps) => {
  const pending = signal(false)

  const submit = async (eventId: number, answers: Record<string, string>): Promise<RegisterOutcome | null> => {
    if (pending.value) return null
    pending.value = true
    try {
      await register(eventId, answers)
      onRegistered?.(eventId)
      await refresh()
      return { toast: REGISTER_TOAST } // SPEC §4 names this toast word for word
    } catch (err) {
      console.error('register failed', err)
      // Already registered, or registration closed meanwhile: the page shows what the server holds.
      if (err instanceof ApiError && err.status === 409) void refresh()
      return { refusal: (err as Error).message }
    } finally {
      pending.value = false
    }
  }

  return {
    /** A Register with answers is on its way. */
    pending: pending as ReadonlySignal<boolean>,
    submit: action(submit),
  }
})

export type RegisterAnswersStore = InstanceType<typeof RegisterAnswersModel>

/** The Register form's model, in the event screens' room (`room(buildRegisterAnswers)`). */
export const buildRegisterAnswers: Builder<RegisterAnswersStore> = (_, room) => {
  const eventDetail = room(buildEventDetail)
  const setParticipant = room(buildSetParticipant)
  return new RegisterAnswersModel({
    register: answerApi.register,
    refresh: () => eventDetail.refresh(),
    onRegistered: (id) => setParticipant(id, { ticket_collected: false, team: null }),
  })
}
