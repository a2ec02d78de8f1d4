// Issue 15 item 5, the app's side: a 503 of an idempotent write (claim, register) is retried after the server's
// Retry-After plus jitter, a bounded number of times, while the caller (the button, 'RSVPing') keeps waiting;
// other calls and other statuses are never retried. Issue 27: so are the other passing failures of a fault — a
// 502 or 504 from the proxy when an instance died, and no answer at all — after 1, 2, 4 s plus jitter; and a
// request with no answer is given up after the client's timeout instead of waiting for ever.
import { describe, expect, it, vi } from 'vitest'
import { createCalls, WRITE_RETRIES } from '../../src/api/all-calls.ts'
import { ApiError, createClient } from '../../src/api/client.ts'
import { retryDelay } from '../../src/api/retry.ts'

function memoryStorage() {
  const m = new Map<string, string>([
    ['accessToken', 'A'],
    ['refreshToken', 'R'],
  ])
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) }
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
const busy = (retryAfter?: string) =>
  json(503, { error: true, message: 'The server is busy. Please try again.' }, retryAfter ? { 'retry-after': retryAfter } : {})

function setup(answers: Response[]) {
  const fetch = vi.fn(async () => answers.shift() ?? json(500, { error: true, message: 'no more answers' }))
  const waits: number[] = []
  const sleep = vi.fn(async (ms: number) => {
    waits.push(ms)
  })
  const client = createClient({ storage: memoryStorage(), onLogout: () => {}, fetch: fetch as typeof globalThis.fetch, sleep, lock: (run) => run() })
  return { api: createCalls(client), fetch, waits }
}

describe('retrying a 503 of an idempotent write (issue 15)', () => {
  it('claim: retried after Retry-After with jitter until it is answered', async () => {
    const { api, fetch, waits } = setup([busy('2'), busy('1'), json(200, { error: false, message: 'Ticket claimed!', ticket_code: 'T1' })])
    await expect(api.claimTicket(5)).resolves.toEqual({ error: false, message: 'Ticket claimed!', ticket_code: 'T1' })
    expect(fetch).toHaveBeenCalledTimes(3)
    expect(waits).toHaveLength(2)
    expect(waits[0]).toBeGreaterThanOrEqual(2000)
    expect(waits[0]).toBeLessThanOrEqual(3000)
    expect(waits[1]).toBeGreaterThanOrEqual(1000)
    expect(waits[1]).toBeLessThanOrEqual(1500)
  })

  it('register: retried too, and a 409 after a retry is the answer (never retried)', async () => {
    const { api, fetch } = setup([busy('1'), json(409, { error: true, message: 'You are already registered' })])
    await expect(api.register(5)).rejects.toMatchObject({ status: 409, message: 'You are already registered' })
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it(`gives up after ${WRITE_RETRIES} retries with the server's 503`, async () => {
    const { api, fetch, waits } = setup(Array.from({ length: 10 }, () => busy('1')))
    const err = await api.claimTicket(5).catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ status: 503, message: 'The server is busy. Please try again.' })
    expect(fetch).toHaveBeenCalledTimes(1 + WRITE_RETRIES)
    expect(waits).toHaveLength(WRITE_RETRIES)
  })

  it('never retries other calls, nor other failures of the writes', async () => {
    const one = setup([busy('1')])
    await expect(one.api.rate(5, 4)).rejects.toMatchObject({ status: 503 })
    expect(one.fetch).toHaveBeenCalledTimes(1)
    const two = setup([json(500, { error: true, message: 'Something went wrong' })])
    await expect(two.api.claimTicket(5)).rejects.toMatchObject({ status: 500 })
    expect(two.fetch).toHaveBeenCalledTimes(1)
    const three = setup([busy('1')])
    await expect(three.api.getEvents()).rejects.toMatchObject({ status: 503 })
    expect(three.fetch).toHaveBeenCalledTimes(1)
  })

  it('a 502 or 504 (the proxy found the instance gone) and no answer at all are retried too, waiting 1, 2, 4 s plus jitter', async () => {
    const gone = json(502, { error: true, message: 'Bad Gateway' })
    const { api, fetch, waits } = setup([
      gone,
      json(504, { error: true, message: 'Gateway Timeout' }),
      json(200, { error: false, message: 'Ticket claimed!', ticket_code: 'T2' }),
    ])
    await expect(api.claimTicket(5)).resolves.toMatchObject({ ticket_code: 'T2' })
    expect(fetch).toHaveBeenCalledTimes(3)
    expect(waits[0]).toBeGreaterThanOrEqual(1000)
    expect(waits[0]).toBeLessThanOrEqual(1500)
    expect(waits[1]).toBeGreaterThanOrEqual(2000)
    expect(waits[1]).toBeLessThanOrEqual(3000)

    let calls = 0
    const waited: number[] = []
    const offline = createClient({
      storage: memoryStorage(),
      onLogout: () => {},
      lock: (run) => run(),
      sleep: async (ms) => void waited.push(ms),
      fetch: (async () => {
        calls += 1
        if (calls < 4) throw new TypeError('fetch failed')
        return json(409, { error: true, message: 'You already have a ticket for this event.' })
      }) as typeof globalThis.fetch,
    })
    // The first try may have reached the server: the retry's answer says what happened (here: the ticket is held).
    await expect(createCalls(offline).claimTicket(5)).rejects.toMatchObject({ status: 409, message: 'You already have a ticket for this event.' })
    expect(calls).toBe(4)
    // 1, 2, 4 s, each plus at most half again of jitter.
    expect(waited).toHaveLength(3)
    waited.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(1000 * 2 ** i)
      expect(ms).toBeLessThanOrEqual(1500 * 2 ** i)
    })
  })

  it('gives up a request with no answer after the timeout, as no connection (status 0)', async () => {
    const hanging = vi.fn(
      (_url: unknown, init?: RequestInit) => new Promise<Response>((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    )
    const client = createClient({
      storage: memoryStorage(),
      onLogout: () => {},
      lock: (run) => run(),
      fetch: hanging as typeof globalThis.fetch,
      timeoutMs: 50,
    })
    await expect(client.request('/event/p/rate', { event_id: 1, rating: 5 })).rejects.toMatchObject({ status: 0 })
    expect(hanging).toHaveBeenCalledTimes(1)
  })

  it('the delay: Retry-After (1 s when absent or unreadable, at most 10 s) plus up to half of it at random', () => {
    expect(retryDelay('2', 0)).toBe(2000)
    expect(retryDelay('2', 1)).toBe(3000)
    expect(retryDelay(null, 0)).toBe(1000)
    expect(retryDelay('soon', 0)).toBe(1000)
    expect(retryDelay('3600', 0)).toBe(10_000)
    expect(retryDelay('0', 0)).toBe(1000)
    // Without a Retry-After, each retry waits twice the one before, up to 4 s.
    expect([0, 1, 2, 3].map((retry) => retryDelay(null, 0, retry))).toEqual([1000, 2000, 4000, 4000])
    expect(retryDelay('3', 0, 2)).toBe(3000)
  })
})
