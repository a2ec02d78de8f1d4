// The door model (src/stores/door.ts) over the storage it is given (issue 23 item 1): what one model keeps (the events,
// the ticket list, the queue of offline scans) under the keys the door always used ('events', 'tickets:<id>',
// 'queue:<id>', in IndexedDB 'campus-door' / 'kv' on a phone) is what the next model on the same storage opens with,
// as a reload with no network does; a model on another storage starts from nothing. And express mode's flow, which
// the model owns since issue 38: a read waits for the check-in on its way, and an undo lets the same ticket in again.
import { signal } from '@preact/signals'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { doorApi } from '../../src/api/door-calls.ts'
import { type KvStorage, memoryStorage } from '../../src/lib/kv-storage.ts'
import { type Door, DoorModel, express } from '../../src/stores/door.ts'
import { switchedNetwork } from '../fixtures/network.ts'
import { fakeServer } from './session-fakes.ts'

const CODES = ['2000000000000001', '2000000000000002']
const AS_OF = '2026-11-27T10:00:00.000Z'
const built: Door[] = []

function model(storage: KvStorage, up: boolean) {
  const network = switchedNetwork(up)
  const door = new DoorModel({ calls: doorApi, session: { user: signal(null) }, storage, network })
  built.push(door)
  return { door, network }
}

beforeEach(() => {
  localStorage.setItem('accessToken', 'A')
  localStorage.setItem('refreshToken', 'R')
  fakeServer({
    '/door/p/events': () => [200, { error: false, events: [{ id: 5, name: 'Gala', dates: [], venue: 'Hall', tickets_sold: 2, checked_in: 0 }] }],
    '/door/p/tickets': () => [
      200,
      {
        error: false,
        as_of: AS_OF,
        released: [],
        tickets: CODES.map((code, i) => ({ ticket_code: code, name: `Holder ${i}`, photo_url: null, team: null, checked_in_at: null, gate: null })),
      },
    ],
    '/door/p/sync': () => [200, { error: false, results: [] }],
  })
})
afterEach(() => {
  for (const door of built.splice(0)) door.closeDoor()
  express.value = false
  localStorage.clear()
})

describe('the door model keeps its lists in the storage it is given', () => {
  it('a scan made offline is in the next model on the same storage, offline: the list, the queue and the count', async () => {
    const storage = memoryStorage()
    const first = model(storage, true)
    await first.door.loadEvents()
    await first.door.openDoor(5, 'North')
    expect(first.door.ticketTotal.value).toBe(2)
    first.network.set(false)
    expect((await first.door.scan(CODES[0]))?.result).toBe('CHECKED_IN')
    expect(first.door.queue.value.map((s) => s.ticket_code)).toEqual([CODES[0]])
    // Under the door's keys, as the IndexedDB of a phone updated from an earlier version holds them.
    expect(await storage.get('queue:5')).toHaveLength(1)
    expect(await storage.get<{ as_of: string }>('tickets:5')).toMatchObject({ as_of: AS_OF })
    expect(await storage.get<{ events: unknown[] }>('events')).toMatchObject({ events: [{ id: 5 }] })

    const second = model(storage, false)
    await second.door.openDoor(5, 'North')
    expect(second.door.ticketTotal.value).toBe(2)
    expect(second.door.totalCheckedIn.value).toBe(1)
    expect(second.door.listAsOf.value).toBe(AS_OF)
    expect(second.door.queue.value.map((s) => s.ticket_code)).toEqual([CODES[0]])
    expect((await second.door.scan(CODES[0]))?.result).toBe('ALREADY_CHECKED_IN')
  })

  it('a model on another storage starts with no list and no queue', async () => {
    const first = model(memoryStorage(), true)
    await first.door.openDoor(5, 'North')
    first.network.set(false)
    await first.door.scan(CODES[1])
    const other = model(memoryStorage(), false)
    await other.door.openDoor(5, 'North')
    expect(other.door.ticketTotal.value).toBe(0)
    expect(other.door.queue.value).toEqual([])
    expect((await other.door.scan(CODES[1]))?.result).toBe('UNKNOWN_TICKET')
  })
})

describe('express mode’s flow, in the model', () => {
  /** The door open online in express mode, over a server whose check-ins wait until `answer()` is called. */
  async function expressDoor() {
    const waiting: (() => void)[] = []
    const checkIns: string[] = []
    fakeServer({
      '/door/p/events': () => [200, { error: false, events: [] }],
      '/door/p/tickets': () => [200, { error: false, as_of: AS_OF, released: [], tickets: [] }],
      '/door/p/sync': () => [200, { error: false, results: [] }],
      '/door/p/check-in': async (body) => {
        checkIns.push(body.ticket_code)
        await new Promise<void>((answer) => waiting.push(answer))
        const attendee = { name: 'Holder', photo_url: null, team: null }
        return [200, { error: false, result: 'CHECKED_IN', attendee, checked_in_at: new Date().toISOString() }]
      },
      '/door/p/check-in/undo': () => [200, { error: false, message: 'Check-in undone.' }],
    })
    const { door } = model(memoryStorage(), true)
    await door.openDoor(5, 'North')
    door.setExpress(true)
    const answerNext = async () => {
      await vi.waitFor(() => expect(waiting).toHaveLength(1))
      waiting.shift()!()
    }
    return { door, checkIns, answerNext }
  }

  it('a read while a check-in is on its way is sent after it, not beside it', async () => {
    const { door, checkIns, answerNext } = await expressDoor()
    const reading = door.read(CODES[0])
    await vi.waitFor(() => expect(checkIns).toEqual([CODES[0]]))
    await door.read(CODES[1])
    expect(checkIns).toEqual([CODES[0]])
    await answerNext()
    await answerNext()
    await reading
    expect(checkIns).toEqual([CODES[0], CODES[1]])
    expect(door.answer.value?.code).toBe(CODES[1])
  })

  it('after an undo the same ticket is sent again at once, within the repeat window', async () => {
    const { door, checkIns, answerNext } = await expressDoor()
    const reading = door.read(CODES[0])
    await answerNext()
    await reading
    await door.read(CODES[0])
    expect(checkIns).toEqual([CODES[0]])
    expect(await door.undoLast()).toBe(true)
    const again = door.read(CODES[0])
    await answerNext()
    await again
    expect(checkIns).toEqual([CODES[0], CODES[0]])
  })
})
