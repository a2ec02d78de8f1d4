// The payment desk at the door (issue 35 item 4), built by the desk's chunk when a volunteer opens it: a student
// found by ticket code, e-mail or student ID; the fee taken in cash or by UPI once the volunteer confirms it was
// received (the server issues the ticket and admits the student); the desk's totals. One key per student's payment
// until it is recorded: a retry after a lost answer sends it again, so the fee is never taken twice.
import { action, createModel, type ReadonlySignal, signal } from '@preact/signals'
import type { Answer } from '../../contract/api.ts'
import { type DeskApi, deskApi } from '../api/desk-calls.ts'

export type DeskStudent = Answer<'deskFind'>['students'][number]
export type DeskTotals = Omit<Answer<'deskTotals'>, 'error'>
export type DeskMode = 'CASH' | 'UPI'

const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('')
const messageOf = (err: unknown) => (err instanceof Error ? err.message : 'Something went wrong. Try again.')

export const DeskModel = createModel(({ api, eventId }: { api: DeskApi; eventId: number }) => {
  const students = signal<DeskStudent[] | null>(null)
  /** The student and the way of paying the volunteer is asked to confirm. */
  const asking = signal<{ userId: number; mode: DeskMode } | null>(null)
  const busy = signal(false)
  const done = signal('')
  const error = signal('')
  const totals = signal<DeskTotals | null>(null)
  const keys = new Map<number, string>()
  let lastQuery = ''

  const loadTotals = () =>
    api.totals(eventId).then(
      ({ error: _, ...t }) => void (totals.value = t),
      () => {},
    )

  async function work(task: () => Promise<void>) {
    busy.value = true
    error.value = ''
    try {
      await task()
    } catch (err) {
      error.value = messageOf(err)
    } finally {
      busy.value = false
    }
  }

  const find = action((text: string) => {
    lastQuery = text.trim()
    if (!lastQuery) return Promise.resolve()
    return work(async () => {
      students.value = await api.find(eventId, lastQuery)
    })
  })

  const take = action((student: DeskStudent, mode: DeskMode) => {
    const key = keys.get(student.user_id) ?? newKey()
    keys.set(student.user_id, key)
    return work(async () => {
      const paid = await api.pay(eventId, student.user_id, mode, key)
      keys.delete(student.user_id)
      asking.value = null
      done.value = `${student.name}: ${paid.message}`
      students.value = await api.find(eventId, lastQuery)
      await loadTotals()
    })
  })

  return {
    students: students as ReadonlySignal<DeskStudent[] | null>,
    asking: asking as ReadonlySignal<{ userId: number; mode: DeskMode } | null>,
    busy: busy as ReadonlySignal<boolean>,
    done: done as ReadonlySignal<string>,
    error: error as ReadonlySignal<string>,
    totals: totals as ReadonlySignal<DeskTotals | null>,
    loadTotals,
    find,
    take,
    ask: action((userId: number, mode: DeskMode) => void (asking.value = { userId, mode })),
    cancel: action(() => void (asking.value = null)),
  }
})

export type Desk = InstanceType<typeof DeskModel>

export const buildDesk = (eventId: number, api: DeskApi = deskApi) => new DeskModel({ api, eventId })
