// The door model (src/stores/door.ts) over the storage it is given (issue 23 item 1): what one model keeps (the events,
// the ticket list, the queue of offline scans) under the keys the door always used ('events', 'tickets:<id>',
// 'queue:<id>', in IndexedDB 'campus-door' / 'kv' on a phone) is what the next model on the same storage opens with,
// as a reload with no network does; a model on another storage starts from nothing.
import { signal } from '@preact/signals'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { doorApi } from '../../src/api/door.ts'
import { type KvStorage, memoryStorage } from '../../src/lib/kv-storage.ts'
import { type Door, DoorModel } from '../../src/stores/door.ts'
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
