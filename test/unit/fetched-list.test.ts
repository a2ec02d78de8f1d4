// fetchedList, the fetch loop the councils and my-events models share: one fetch at a time, failures kept in
// `error` with the list left as it was, and dropFirst emptying the list as a fetch starts.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fetchedList } from '../../src/stores/fetched-list.ts'

function deferred<T>() {
  let resolve!: (value: T) => void
  let reject!: (err: Error) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

afterEach(() => vi.restoreAllMocks())

describe('fetchedList', () => {
  it('callers arriving while a fetch runs share it; loading is true only meanwhile', async () => {
    const answer = deferred<number[]>()
    const get = vi.fn(() => answer.promise)
    const list = fetchedList(get, 'numbers')
    const first = list.load()
    const second = list.load()
    expect(second).toBe(first)
    expect(get).toHaveBeenCalledTimes(1)
    expect(list.loading.value).toBe(true)
    answer.resolve([1, 2])
    await first
    expect(list.items.value).toEqual([1, 2])
    expect(list.loading.value).toBe(false)
    // Once settled, the next load fetches again.
    void list.load()
    expect(get).toHaveBeenCalledTimes(2)
  })

  it('a missing answer becomes an empty list, not null', async () => {
    const list = fetchedList<number>(async () => undefined, 'numbers')
    await list.load()
    expect(list.items.value).toEqual([])
  })

  it('a failure is logged and its message kept; the list stays; a later success clears the error', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    let fail = false
    const list = fetchedList(async () => {
      if (fail) throw new Error('Network down')
      return [7]
    }, 'numbers')
    await list.load()
    fail = true
    await list.load()
    expect(list.items.value).toEqual([7])
    expect(list.error.value).toBe('Network down')
    expect(log).toHaveBeenCalledWith('numbers fetch failed', expect.any(Error))
    fail = false
    await list.load()
    expect(list.error.value).toBeNull()
  })

  it('dropFirst empties the list as a fetch starts; without it the old list stays until the answer', async () => {
    for (const dropFirst of [true, false]) {
      let answer = deferred<number[]>()
      const list = fetchedList(() => answer.promise, 'numbers', dropFirst)
      const first = list.load()
      answer.resolve([1])
      await first
      answer = deferred<number[]>()
      const second = list.load()
      expect(list.items.value).toEqual(dropFirst ? null : [1])
      answer.resolve([2])
      await second
      expect(list.items.value).toEqual([2])
    }
  })
})
