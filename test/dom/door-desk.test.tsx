// The payment desk at the door (issue 35 item 4) with a fake desk API: a student found by what the volunteer types,
// what they owe in words, the fee taken only after "Confirm ... received", the server's words shown, and a retry after
// a lost answer sending the same key (so the fee is never taken twice); the desk's totals.
import { afterEach, describe, expect, it } from 'vitest'
import type { DeskApi } from '../../src/api/desk-calls.ts'
import Desk from '../../src/pages/door/desk.tsx'
import { buildDesk } from '../../src/stores/desk.ts'
import { cleanup, click, find, getByText, mount, typeInto, waitFor } from './session-fakes.ts'

afterEach(cleanup)

type Student = Awaited<ReturnType<DeskApi['find']>>[number]
const owing = (over: Partial<Student> = {}): Student => ({
  user_id: 7,
  name: 'Asha Rao',
  email: 'asha@college.edu',
  roll_number: '21CE1007',
  registered: true,
  ticket_collected: false,
  payment: { id: 3, status: 'PENDING', amount: 30_000, method: null },
  owes: 30_000,
  ...over,
})

function fakeDesk(answers: { failFirstPay?: boolean } = {}) {
  const calls: { pay: { userId: number; method: string; key: string }[]; find: string[] } = { pay: [], find: [] }
  let paid = false
  let failed = false
  const api: DeskApi = {
    find: async (_eventId, query) => {
      calls.find.push(query)
      return [paid ? owing({ ticket_collected: true, payment: { id: 3, status: 'PAID', amount: 30_000, method: 'DESK' }, owes: 0 }) : owing()]
    },
    pay: async (_eventId, userId, method, key) => {
      calls.pay.push({ userId, method, key })
      if (answers.failFirstPay && !failed) {
        failed = true
        throw new Error('No connection to the server. Check your network and try again.')
      }
      paid = true
      return {
        error: false,
        message: '₹300 taken: ticket issued and checked in.',
        amount: 30_000,
        ticket_code: '1234567890123456',
        receipt: 'R-000001',
        admitted: true,
      }
    },
    totals: async () => ({
      error: false,
      volunteers: paid ? [{ user_id: 9, name: 'Vee Volunteer', CASH: 30_000, UPI: 0, count: 1 }] : [],
      total: { CASH: paid ? 30_000 : 0, UPI: 0, count: paid ? 1 : 0 },
    }),
  }
  return { api, calls }
}

describe('the payment desk', () => {
  it('finds a student, says what they owe, takes the fee only once confirmed, and shows the totals', async () => {
    const { api, calls } = fakeDesk()
    const root = mount(<Desk eventId={5} fee={30_000} onClose={() => {}} desk={buildDesk(5, api)} />)
    expect(getByText(root, 'Payment desk (₹300)')).toBeTruthy()
    await typeInto(find<HTMLInputElement>(root, 'input[name="desk_query"]'), ' 21CE1007 ')
    await click(getByText(root, 'Find', 'button'))
    await waitFor(() => getByText(root, 'Owes ₹300'))
    expect(calls.find).toEqual(['21CE1007'])
    await click(getByText(root, 'Cash ₹300', 'button'))
    expect(calls.pay).toEqual([])
    await click(getByText(root, 'Confirm ₹300 received in cash', 'button'))
    await waitFor(() => getByText(root, 'Asha Rao: ₹300 taken: ticket issued and checked in.'))
    expect(calls.pay).toEqual([{ userId: 7, method: 'CASH', key: expect.stringMatching(/^[0-9a-f]{24}$/) }])
    await waitFor(() => getByText(root, 'Paid'))
    await waitFor(() => getByText(root, 'Taken at the desk: ₹300 cash, ₹0 UPI (1)'))
    expect(root.querySelector('button[disabled]')).toBeNull()
  })

  it('a lost answer: the retry sends the same key, so the server records one payment', async () => {
    const { api, calls } = fakeDesk({ failFirstPay: true })
    const root = mount(<Desk eventId={5} fee={30_000} onClose={() => {}} desk={buildDesk(5, api)} />)
    await typeInto(find<HTMLInputElement>(root, 'input[name="desk_query"]'), 'asha@college.edu')
    await click(getByText(root, 'Find', 'button'))
    await waitFor(() => getByText(root, 'UPI ₹300', 'button'))
    await click(getByText(root, 'UPI ₹300', 'button'))
    await click(getByText(root, 'Confirm ₹300 received by UPI', 'button'))
    await waitFor(() => getByText(root, 'No connection to the server. Check your network and try again.'))
    await click(getByText(root, 'Confirm ₹300 received by UPI', 'button'))
    await waitFor(() => getByText(root, 'Paid'))
    expect(calls.pay).toHaveLength(2)
    expect(calls.pay[1].key).toBe(calls.pay[0].key)
  })
})
