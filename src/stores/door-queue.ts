// The door's queue of offline scans, and the ticket list they are checked against (issue 12; out of the door model since
// issue 38): both kept on this phone, in the storage the door is given (lib/kv-storage: IndexedDB 'campus-door' / 'kv'
// on a phone, under the keys the door always used: `tickets:<id>`, `queue:<id>`, and `events` for the picker), and
// their sync with the server: the list downloaded, the queue sent with /door/p/sync, when the door opens, when the
// network returns and every 30 s. A scan goes to the server while it answers, else the list decides and the scan
// waits in the queue. What a scan or an answer does to the list is the list's rule (lib/door-list.ts); the door model
// (./door.ts) shows the answers.
import { createModel, type ReadonlySignal, type Signal, signal } from '@preact/signals'
import type { DoorEvent } from '../../contract/types.ts'
import { ApiError, type doorApi, PASSING } from '../api/door-calls.ts'
import {
  type DoorList,
  type KeptList,
  type QueuedScan,
  type Read,
  type ShownAnswer,
  keptOf,
  listOf,
  settled,
  undone,
  withAnswer,
  withQueue,
  decideOffline,
} from '../lib/door-list.ts'
import type { KvStorage } from '../lib/kv-storage.ts'

/** The offline time-code check and the corrected clock (issue 25), loaded with each list so it is kept for offline use. */
const timeCheck = () => import('../lib/door-time-check.ts')

/** How many queued scans one sync sends (the body limit allows SYNC_MAX, contract/door.ts). */
const SYNC_CHUNK = 50

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))
const passing = (error: unknown) => error instanceof ApiError && PASSING.includes(error.status)

/**
 * The events kept on this phone, with whose they are: another account signed in on it does not see them (while the
 * user is not known yet offline, the tokens on the phone are still the account that kept them: sign-out clears them).
 */
interface KeptEvents {
  userId: number | null
  events: DoorEvent[]
  at: string
}

/**
 * The events the caller may check in at, each answer kept on this phone; when the server is out of reach (a passing
 * failure), the ones kept, if they are `me`'s (undefined: the user is not known yet), and when they were fetched.
 * Rejects with the call's error when there are none to show.
 */
export async function eventsToPick(calls: Pick<typeof doorApi, 'events'>, storage: KvStorage, me: number | undefined) {
  try {
    const events = await calls.events()
    await storage.set('events', { userId: me ?? null, events, at: new Date().toISOString() } satisfies KeptEvents)
    return { events, keptFrom: null }
  } catch (error) {
    const kept = passing(error) ? await storage.get<KeptEvents>('events') : undefined
    if (kept && (me === undefined || kept.userId === null || kept.userId === me)) return { events: kept.events, keptFrom: kept.at }
    throw error
  }
}

/** When each event's list kept on this phone was downloaded (its `as_of`), by event id. */
export async function keptListTimes(storage: KvStorage, events: readonly DoorEvent[]): Promise<Record<number, string>> {
  const times: Record<number, string> = {}
  for (const e of events) {
    const list = await storage.get<Pick<KeptList, 'as_of'>>(`tickets:${e.id}`)
    if (list?.as_of) times[e.id] = list.as_of
  }
  return times
}

/** The phone's word on its network: online now, and its online and offline events. */
export interface Network {
  online(): boolean
  /** Calls `up` or `down` as the network comes and goes; answers the way to stop listening. */
  watch(up: () => void, down: () => void): () => void
}

export interface QueueDeps {
  calls: Pick<typeof doorApi, 'tickets' | 'checkIn' | 'checkOut' | 'undo' | 'sync'>
  storage: KvStorage
  network: Network
  /** The door's error line: a failure that is not the network's is said there. */
  error: Signal<string | null>
}

/** The open event's list and queue on this phone, and their sync. */
export const DoorQueue = createModel(({ calls, storage, network, error }: QueueDeps) => {
  const list = signal(listOf())
  const scans = signal<QueuedScan[]>([])
  const online = signal(network.online())
  /** Offline scans the server settled differently (another gate had let the ticket in first). */
  const conflicts = signal<ShownAnswer[]>([])
  let eventId: number | null = null
  let syncing: Promise<void> | null = null
  let stopSyncing: (() => void) | null = null

  /** The list on screen, kept on the phone. */
  function keep(next: DoorList) {
    if (next === list.value) return
    list.value = next
    if (eventId !== null) void storage.set(`tickets:${eventId}`, keptOf(next))
  }

  async function saveScans(next: QueuedScan[]) {
    scans.value = next
    if (eventId !== null) await storage.set(`queue:${eventId}`, next)
  }

  /** A failed call: a passing failure (no answer, 502-504) takes the door offline (answers true); any other is said. */
  function failed(e: unknown): boolean {
    const outOfReach = passing(e)
    if (outOfReach) online.value = false
    else error.value = messageOf(e)
    return outOfReach
  }

  /** Downloads the event's ticket list; the scans still queued here stay applied to it until the server has them. */
  async function refresh(): Promise<void> {
    const id = eventId
    if (id === null) return
    try {
      const fresh = await calls.tickets(id)
      if (eventId !== id) return
      keep(withQueue(listOf(fresh), scans.value))
      void timeCheck().then((m) => m.noteServerTime(fresh.as_of)) // this phone's clock, corrected for the time codes
      online.value = true
    } catch (e) {
      failed(e)
    }
  }

  /** Sends one chunk of the queue and applies its answers; false when the event changed meanwhile (the chunk stays queued). */
  async function sendChunk(id: number): Promise<boolean> {
    const chunk = scans.value.slice(0, SYNC_CHUNK)
    const results = await calls.sync({ event_id: id, scans: chunk })
    if (eventId !== id) return false
    const after = settled(list.value, chunk, results)
    keep(after.list)
    if (after.conflicts.length) conflicts.value = [...conflicts.value, ...after.conflicts]
    const sent = new Set(chunk.map((s) => s.scan_id))
    await saveScans(scans.value.filter((s) => !sent.has(s.scan_id)))
    return true
  }

  /**
   * Sends the queue chunk by chunk (each sent again a few times already on a passing failure: SYNC_RETRIES); one sync at
   * a time, a second call joins it. On a failure the queue stays, and goes when the server answers.
   */
  function sync(): Promise<void> {
    syncing ??= (async () => {
      const id = eventId
      while (id !== null && eventId === id && scans.value.length > 0) if (!(await sendChunk(id))) return
    })()
      .catch((e) => void failed(e))
      .finally(() => (syncing = null))
    return syncing
  }

  const catchUp = () => sync().then(refresh)

  /** Opens an event's kept list and queue, then syncs both while the door is open (the network's events, and every 30 s). */
  async function open(id: number) {
    close()
    eventId = id
    conflicts.value = []
    const keptList = await storage.get<KeptList>(`tickets:${id}`)
    const keptScans = await storage.get<QueuedScan[]>(`queue:${id}`)
    if (eventId !== id) return // another event opened meanwhile
    list.value = listOf(keptList)
    scans.value = keptScans ?? []
    const unwatch = network.watch(
      () => {
        online.value = true
        void catchUp()
      },
      () => {
        online.value = false
      },
    )
    // Tickets collected after the door opened become known. Offline, the same call finds out when the server answers
    // again (issue 27: an instance that died leaves the browser online, so no 'online' event comes), then the queue goes.
    const timer = setInterval(() => void catchUp().then(sync), 30_000)
    stopSyncing = () => {
      unwatch()
      clearInterval(timer)
    }
    online.value = network.online()
    if (online.value) await catchUp()
  }

  function close() {
    stopSyncing?.()
    stopSyncing = null
    eventId = null
  }

  /**
   * A scan (`scan.ticket_code` the text read) of the ticket `read.code`: the server's answer while it answers, applied to
   * the list; else the list's, the scan queued when it changed something. Null: a failure, said on the error line.
   */
  async function check(read: Read, scan: QueuedScan): Promise<ShownAnswer | null> {
    if (online.value && eventId !== null) {
      try {
        const { scanned_at, direction, ...sent } = scan
        const body = { event_id: eventId, ...sent }
        const r = await (direction === 'OUT' ? calls.checkOut(body) : calls.checkIn(body))
        keep(withAnswer(list.value, read.code, r, scan))
        return { ...r, code: read.code }
      } catch (e) {
        // Out of reach (no answer, 502-504): the list decides, and the scan_id makes it safe if the first try did arrive.
        if (!failed(e)) return null
      }
    }
    // The time code first (issue 25; a ticket of a rotating event has its secret in the list): refused, or the corrected
    // time to queue the scan at. The check never loaded (no list yet online): the list decides, the sync checks.
    const checked = await timeCheck().then(
      (m) => m.offlineCheck(read, list.value.tickets.get(read.code)?.secret),
      () => undefined,
    )
    if (typeof checked === 'object') return checked
    const queued = { ...scan, scanned_at: checked ?? scan.scanned_at }
    const decided = decideOffline(list.value, read.code, queued)
    if (decided.list) {
      keep(decided.list)
      void saveScans([...scans.value, queued])
    }
    return decided.answer
  }

  /** Undoes a check-in of this device (the day `day`'s): out of the queue when it never left the device, else on the server. */
  async function undo(code: string, scanId: string, day: string): Promise<boolean> {
    const id = eventId
    if (id === null) return false
    try {
      if (scans.value.some((s) => s.scan_id === scanId)) await saveScans(scans.value.filter((s) => s.scan_id !== scanId))
      else await calls.undo(id, code)
    } catch (e) {
      error.value = messageOf(e)
      return false
    }
    keep(undone(list.value, code, day))
    return true
  }

  return {
    list: list as ReadonlySignal<DoorList>,
    scans: scans as ReadonlySignal<QueuedScan[]>,
    online: online as ReadonlySignal<boolean>,
    conflicts: conflicts as ReadonlySignal<ShownAnswer[]>,
    open,
    close,
    refresh,
    sync,
    check,
    undo,
    clearConflicts: () => void (conflicts.value = []),
  }
})
