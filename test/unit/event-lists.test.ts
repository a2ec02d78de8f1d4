// The narrow event reads of the app (issue 15): each query fetched afresh, shared while in flight, kept per query.
import { describe, expect, it, vi } from 'vitest'
import { createEventLists, monthQuery } from '../../src/stores/event-lists.ts'

const summary = (id: number, state: string) => ({ id, state }) as never

describe('event lists store', () => {
  it('keeps each query’s answer flattened in state order; callers during a fetch share it', async () => {
    const getEvents = vi.fn(async (query?: unknown) =>
      (query as { month?: string }).month === '2026-11'
        ? { COMPLETED: [summary(3, 'COMPLETED')], UPCOMING: [summary(1, 'UPCOMING')] }
        : { ONGOING: [summary(7, 'ONGOING')] },
    )
    const lists = createEventLists(getEvents as never)
    expect(lists.list(monthQuery({ year: 2026, month: 11 }))).toBeNull()
    await Promise.all([lists.load({ month: '2026-11' }), lists.load({ month: '2026-11' })])
    expect(getEvents).toHaveBeenCalledTimes(1)
    expect(getEvents).toHaveBeenCalledWith({ month: '2026-11' })
    expect(lists.list({ month: '2026-11' })!.map((e: { id: number }) => e.id)).toEqual([1, 3])
    await lists.load({ parent_id: 4 })
    expect(lists.list({ parent_id: 4 })!.map((e: { id: number }) => e.id)).toEqual([7])
    expect(lists.list({ month: '2026-11' })).toHaveLength(2)
  })

  it('a failed fetch keeps the last answer and sets the error', async () => {
    let fail = false
    const lists = createEventLists((async () => {
      if (fail) throw new Error('offline')
      return { UPCOMING: [summary(1, 'UPCOMING')] }
    }) as never)
    await lists.load({ month: '2026-01' })
    fail = true
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await lists.load({ month: '2026-01' })
    expect(lists.error.value).toBe('offline')
    expect(lists.list({ month: '2026-01' })).toHaveLength(1)
  })

  it('monthQuery writes the month as YYYY-MM', () => {
    expect(monthQuery({ year: 2027, month: 3 })).toEqual({ month: '2027-03' })
  })
})
