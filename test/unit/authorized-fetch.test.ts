// The file and form calls (src/api/authorized-fetch.ts) go through the client's one 401 path: the bearer from the
// client's storage, one refresh shared with the JSON calls, the server's message on a refusal, logout when a
// fresh token is refused too. Against a fake server with one valid access token at a time.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { authorizedFetcher } from '../../src/api/authorized-fetch.ts'
import { ApiError, INVALID_TOKEN, NETWORK_MESSAGE, createClient } from '../../src/api/client.ts'
import { memoryStorage } from '../fixtures/storage.ts'

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

function fakeServer({ refreshOk = true, refusesEverything = false } = {}) {
  let valid = 'A2'
  const seen: { url: string; method: string; auth: string | null; body: unknown }[] = []
  const fetch = vi.fn(async (url: string | URL | Request, init: RequestInit = {}) => {
    const auth = new Headers(init.headers).get('authorization')
    seen.push({ url: String(url), method: init.method ?? 'GET', auth, body: init.body })
    if (String(url).endsWith('/auth/refresh-token')) {
      if (!refreshOk) return json(401, { error: true, message: 'Invalid Token' })
      valid = 'A3'
      return json(200, { error: false, accessToken: 'A3', refreshToken: 'R2' })
    }
    if (refusesEverything || auth !== `Bearer ${valid}`) return json(401, { error: true, message: 'Invalid Token' })
    if (String(url).endsWith('/missing.csv')) return json(404, { error: true, message: 'No such event' })
    return new Response('name,email\nAsha,asha@college.edu\n', { status: 200, headers: { 'content-type': 'text/csv' } })
  })
  return { fetch, seen }
}

function setup(server: ReturnType<typeof fakeServer>, tokens = { accessToken: 'A2', refreshToken: 'R1' }) {
  vi.stubGlobal('fetch', server.fetch)
  const onLogout = vi.fn()
  const storage = memoryStorage(tokens)
  const client = createClient({ baseUrl: 'https://api.example', fetch: server.fetch as typeof fetch, storage, onLogout })
  return { file: authorizedFetcher(client, 'https://api.example'), client, storage, onLogout }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the file and form calls share the client’s bearer and 401 path', () => {
  it('sends the stored bearer and resolves with the Response (a file, not JSON)', async () => {
    const server = fakeServer()
    const { file } = setup(server)
    const res = await file('/org/p/event/7/participants.csv')
    expect(await res.text()).toBe('name,email\nAsha,asha@college.edu\n')
    expect(server.seen).toEqual([{ url: 'https://api.example/api/v1/org/p/event/7/participants.csv', method: 'GET', auth: 'Bearer A2', body: undefined }])
  })

  it('a form body goes as given, beside the bearer', async () => {
    const server = fakeServer()
    const { file } = setup(server)
    const form = new FormData()
    form.set('file', new Blob(['x']), 'poster.png')
    await file('/org/p/upload', { method: 'POST', body: form })
    expect(server.seen[0]).toMatchObject({ method: 'POST', auth: 'Bearer A2', body: form })
  })

  it('a 401 refreshes once, shared with a JSON call waiting at the same moment, and tries again with the new token', async () => {
    const server = fakeServer()
    const { file, client, storage } = setup(server, { accessToken: 'A1', refreshToken: 'R1' })
    const [res] = await Promise.all([file('/event/p/certificate/7'), client.request('/user/p/me').catch(() => null)])
    expect(res.status).toBe(200)
    expect(server.seen.filter((s) => s.url.endsWith('/auth/refresh-token'))).toHaveLength(1)
    expect(server.seen.filter((s) => s.url.endsWith('/certificate/7')).map((s) => s.auth)).toEqual(['Bearer A1', 'Bearer A3'])
    expect(storage.getItem('accessToken')).toBe('A3')
  })

  it('a refusal rejects with the server’s message and status', async () => {
    const { file } = setup(fakeServer())
    const error = await file('/org/p/event/9/missing.csv').catch((e) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 404, message: 'No such event' })
  })

  it('a fresh token refused too logs out (as every JSON call does) with the spec’s 401 message', async () => {
    const { file, onLogout } = setup(fakeServer({ refusesEverything: true }))
    const error = await file('/event/p/certificate/7').catch((e) => e)
    expect(error).toMatchObject({ status: 401, message: INVALID_TOKEN })
    expect(onLogout).toHaveBeenCalledTimes(1)
  })

  it('no answer at all rejects as offline (status 0), without logging out', async () => {
    const server = fakeServer()
    const { file, onLogout } = setup(server)
    server.fetch.mockRejectedValueOnce(new TypeError('Failed to fetch'))
    const error = await file('/event/p/certificate/7').catch((e) => e)
    expect(error).toMatchObject({ status: 0, message: NETWORK_MESSAGE })
    expect(onLogout).not.toHaveBeenCalled()
  })
})
