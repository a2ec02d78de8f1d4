// Each call of SPEC §7 / API.md goes to its path with its body, and resolves with what the screens use.
import { describe, expect, it, vi } from 'vitest'
import { createClient } from '../../src/api/client.ts'
import { createCalls } from '../../src/api/all-calls.ts'

function recorder(answer: Record<string, unknown>) {
  const data = new Map([
    ['accessToken', 'A'],
    ['refreshToken', 'R'],
  ])
  const fetch = vi.fn(async (_url: string | URL | Request, _init?: RequestInit) => new Response(JSON.stringify({ error: false, ...answer }), { status: 200 }))
  const client = createClient({
    fetch: fetch as typeof globalThis.fetch,
    storage: { getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) },
    onLogout: vi.fn(),
  })
  const last = () => {
    const [url, init] = fetch.mock.calls.at(-1)!
    return { path: String(url).replace('/api/v1', ''), body: JSON.parse(String(init!.body)), auth: new Headers(init!.headers).get('authorization') }
  }
  return { api: createCalls(client), last }
}

describe('api calls', () => {
  const table: [string, (api: ReturnType<typeof createCalls>) => Promise<unknown>, string, unknown][] = [
    ['me', (a) => a.me(), '/user/p/me', true],
    ['getEvents', (a) => a.getEvents(), '/event/p/get', true],
    ['getEvents (home)', (a) => a.getEvents({ scope: 'home' }), '/event/p/get', { scope: 'home' }],
    ['getMyEvents', (a) => a.getMyEvents(), '/event/p/get/me', true],
    ['getEvent', (a) => a.getEvent(42), '/event/p/get/42', true],
    ['register', (a) => a.register(5), '/event/p/register-for-event', { event_id: 5 }],
    // The draw nonce the app makes for the claim (API.md Part 3), given here so the body can be compared whole.
    ['claimTicket', (a) => a.claimTicket(5, 'ab'.repeat(16)), '/event/p/claim-ticket', { event_id: 5, draw_nonce: 'ab'.repeat(16) }],
    ['rate', (a) => a.rate(5, 4), '/event/p/rate', { event_id: 5, rating: 4 }],
    ['createTeam', (a) => a.createTeam(5, 'Rockets'), '/event/p/create-team/', { event_id: 5, team_name: 'Rockets' }],
    ['joinTeam', (a) => a.joinTeam(5, 'aB3dE'), '/event/p/join-team/', { event_id: 5, invite_code: 'aB3dE' }],
    ['removeFromTeam', (a) => a.removeFromTeam(9, 12), '/event/p/remove-from-team/', { team_id: 9, user_id: 12 }],
    ['deleteTeam', (a) => a.deleteTeam(5, 9), '/event/p/delete-team/', { event_id: 5, team_id: 9 }],
    ['getCouncils', (a) => a.getCouncils(), '/council/p/get', true],
  ]
  it('claimTicket makes its own draw nonce: 32 lowercase hex digits, new for each claim (API.md Part 3)', async () => {
    const { api, last } = recorder({})
    await api.claimTicket(5)
    const first = (last().body as { draw_nonce: string }).draw_nonce
    await api.claimTicket(5)
    expect(first).toMatch(/^[0-9a-f]{32}$/)
    expect((last().body as { draw_nonce: string }).draw_nonce).not.toBe(first)
  })
  for (const [name, call, path, body] of table) {
    it(`${name} → POST ${path} with the bearer token`, async () => {
      const { api, last } = recorder({})
      await call(api)
      expect(last()).toEqual({ path, body, auth: 'Bearer A' })
    })
  }

  it('reads resolve with the entity itself', async () => {
    // The user's read carries the unread count beside the user (the header's bell, contract/inbox.ts).
    expect(await recorder({ user: { id: 1 }, unread: 2 }).api.me()).toMatchObject({ user: { id: 1 }, unread: 2 })
    expect(await recorder({ events: { UPCOMING: [] } }).api.getEvents()).toEqual({ UPCOMING: [] })
    expect(await recorder({ event: { id: 3 } }).api.getEvent(3)).toEqual({ id: 3 })
    expect(await recorder({ councils: [{ id: 2 }] }).api.getCouncils()).toEqual([{ id: 2 }])
  })

  it('writes resolve with the whole answer, message included', async () => {
    const team = { id: 9, name: 'Rockets', invite_code: 'aB3dE', leader_id: 1, Participant: [] }
    expect(await recorder({ message: 'Team created', team }).api.createTeam(5, 'Rockets')).toEqual({ error: false, message: 'Team created', team })
  })

  it('updateProfile sends the SPEC §3 payload as given', async () => {
    const { api, last } = recorder({ user: {} })
    const payload = {
      phone_number: '9876543210',
      roll_number: '16010122001',
      gender: 'FEMALE' as const,
      year: 2027,
      branch: 'Computer_Engineering',
      interests: ['AI/ML'],
      degree: 'B.tech',
      college: 'KJSCE',
      id: 3,
    }
    await api.updateProfile(payload)
    expect(last()).toEqual({ path: '/user/p/update', body: payload, auth: 'Bearer A' })
  })

  it('logout sends the refresh token without a bearer header', async () => {
    const { api, last } = recorder({})
    await api.logout('R')
    expect(last()).toEqual({ path: '/auth/logout', body: { refreshToken: 'R' }, auth: null })
  })
})
