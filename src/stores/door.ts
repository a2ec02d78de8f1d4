// The door screen's model (issue 12): the event and gate chosen, the answer on screen, the counts, and express mode's
// flow (issue 25 item 4). It wires the door's two other parts (issue 38): the ticket list and its rules
// (src/lib/door-list.ts: pure) and what the phone keeps with the queue of offline scans and its sync (./door-queue.ts).
// Loaded only with the door route; built as its room (`room(buildDoor)`, src/models.ts) from the start path's session.
// Its calls, the device's storage and network are passed in, so a test builds its own.
import { computed, createModel, effect, type ReadonlySignal, signal } from '@preact/signals'
import type { Direction } from '../../contract/admission.ts'
import type { DoorEvent, User } from '../../contract/types.ts'
import { doorApi } from '../api/door-calls.ts'
import { countsOn, dayAt, isYes, type Read, readOf, repeatGuard, type ShownAnswer } from '../lib/door-list.ts'
import { indexedDbStorage, type KvStorage } from '../lib/kv-storage.ts'
import { DoorQueue, eventsToPick, keptListTimes, type Network } from './door-queue.ts'

export type { ShownAnswer } from '../lib/door-list.ts'
export type { Network } from './door-queue.ts'

function uuid(): string {
  // randomUUID needs a secure context; a door phone on plain http still needs unique ids.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const b = crypto.getRandomValues(new Uint8Array(16))
  b[6] = (b[6] & 0x0f) | 0x40
  b[8] = (b[8] & 0x3f) | 0x80
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** The browser's network (navigator.onLine and the window's events); always online where there is no window. */
export const browserNetwork: Network = {
  online: () => typeof navigator === 'undefined' || navigator.onLine !== false,
  watch(up, down) {
    if (typeof window === 'undefined') return () => {}
    window.addEventListener('online', up)
    window.addEventListener('offline', down)
    return () => {
      window.removeEventListener('online', up)
      window.removeEventListener('offline', down)
    }
  },
}

/** How long a verdict stays on screen in express mode: a yes briefly, a no long enough to be read. */
export const VERDICT_MS = { yes: 1500, no: 3000 } as const
const EXPRESS_KEY = 'door-express'

function expressKept(): boolean {
  try {
    return localStorage.getItem(EXPRESS_KEY) === '1'
  } catch {
    return false // no localStorage here (Node), or blocked
  }
}

/** Whether express mode is on: this device's setting (off until the volunteer turns it on here), whichever model reads it. */
export const express = signal(expressKept())

function setExpress(on: boolean) {
  express.value = on
  try {
    if (on) localStorage.setItem(EXPRESS_KEY, '1')
    else localStorage.removeItem(EXPRESS_KEY)
  } catch {
    // Private mode: on for this visit only.
  }
}

export interface DoorDeps {
  /** The door's calls (src/api/door-calls.ts). */
  calls: Pick<typeof doorApi, 'events' | 'tickets' | 'checkIn' | 'checkOut' | 'undo' | 'sync'>
  /** Whose events are kept on this phone. */
  session: { user: ReadonlySignal<User | null> }
  /** Where the events, ticket lists and offline queues are kept (./door-queue.ts). */
  storage: KvStorage
  network: Network
}

export const DoorModel = createModel(({ calls, session, storage, network }: DoorDeps) => {
  const events = signal<DoorEvent[] | null>(null) // those the volunteer may check in at; null until the first answer
  const eventsKeptFrom = signal<string | null>(null) // the events are the ones kept here, fetched then (issue 22 item 2)
  const keptLists = signal<Record<number, string>>({}) // when each event's list kept here was downloaded, by event id
  const error = signal<string | null>(null)
  const eventId = signal<number | null>(null) // the event the door is open for; null while one is picked
  const gate = signal('')
  const direction = signal<Direction>('IN') // set by the volunteer (re-entry), so a double read never checks anyone out
  const today = signal('') // the event day a scan counts for: moved on with each list and scan (open past midnight)
  const answer = signal<ShownAnswer | null>(null)
  const notice = signal<string | null>(null) // said once after an undo, until the next scan
  const lastCheckIn = signal<{ code: string; offline: boolean; scanId: string } | null>(null) // this device's, for undo
  const held = signal(false) // an undo is being confirmed: express mode holds the verdict and checks no one else in
  // Express mode (issue 25 item 4): the guard against the same ticket twice in a row, the read waiting while a
  // check-in is on its way (the camera reports a held ticket once).
  const guard = repeatGuard()
  let busy = false
  let waiting: Read | null = null
  const queue = new DoorQueue({ calls, storage, network, error })
  const list = queue.list
  const counts = computed(() => countsOn(list.value, today.value, gate.value))
  const moveToday = () => (today.value = dayAt(list.value, Date.now()))
  effect(() => void moveToday())
  effect(() => {
    if (!list.value.reentry) direction.value = 'IN'
  })

  async function loadEvents() {
    error.value = null
    try {
      const picked = await eventsToPick(calls, storage, session.user.value?.id)
      events.value = picked.events
      eventsKeptFrom.value = picked.keptFrom
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e)
    }
    keptLists.value = await keptListTimes(storage, events.value ?? [])
  }

  /** Opens the door for an event at a gate: the kept list and queue first, then a sync and the fresh list. */
  async function openDoor(id: number, gateName: string) {
    eventId.value = id
    gate.value = gateName.trim() || 'Gate 1'
    answer.value = lastCheckIn.value = null
    direction.value = 'IN'
    guard.reset()
    await queue.open(id)
  }

  function closeDoor() {
    queue.close()
    eventId.value = answer.value = null
  }

  /** One read checked and shown: the server's answer online, the list's offline. */
  async function check(read: Read): Promise<ShownAnswer | null> {
    if (!read.code || eventId.value === null) return null
    const scan = { ticket_code: read.text, scan_id: uuid(), gate: gate.value, scanned_at: new Date().toISOString(), direction: direction.value }
    moveToday()
    const shown = await queue.check(read, scan)
    if (!shown) return null
    shown.read = read.text
    if (shown.result === 'CHECKED_IN' && !shown.reentry) lastCheckIn.value = { code: read.code, offline: !!shown.offline, scanId: scan.scan_id }
    notice.value = null
    answer.value = shown
    return shown
  }

  /** Undoes this device's last check-in. */
  async function undoLast(): Promise<boolean> {
    const last = lastCheckIn.value
    if (!last || !(await queue.undo(last.code, last.scanId, today.value))) return false
    lastCheckIn.value = answer.value = null
    notice.value = 'Check-in undone'
    guard.reset() // the same ticket may be scanned in again straight away
    return true
  }

  /**
   * A read from the camera, a hardware scanner or the code field. In express mode it is sent with no tap (after the
   * check-in on its way), the same ticket twice in a row once; without, only while no answer is up.
   */
  async function take(read: Read): Promise<void> {
    if (express.value) {
      if (held.value || !read.code || !guard.fresh(read.code)) return
      if (busy) return void (waiting = read)
    } else if (busy || answer.value) return
    busy = true
    try {
      await check(read)
    } finally {
      busy = false
    }
    const next = waiting
    waiting = null
    if (next && express.value) {
      guard.reset() // it passed the guard when read
      await take(next)
    }
  }
  // Express mode: the verdict clears itself (unless an undo is being confirmed); a different code replaces it sooner.
  effect(() => {
    const shown = answer.value
    if (!express.value || !shown || held.value) return
    const timer = setTimeout(() => answer.value === shown && (answer.value = null), isYes(shown) ? VERDICT_MS.yes : VERDICT_MS.no)
    return () => clearTimeout(timer)
  })

  return {
    events: events as ReadonlySignal<DoorEvent[] | null>,
    eventsKeptFrom: eventsKeptFrom as ReadonlySignal<string | null>,
    keptLists: keptLists as ReadonlySignal<Record<number, string>>,
    error: error as ReadonlySignal<string | null>,
    eventId: eventId as ReadonlySignal<number | null>,
    gate: gate as ReadonlySignal<string>,
    /** The ticket list by code, as last downloaded and updated by this device's scans. */
    tickets: computed(() => list.value.tickets),
    listAsOf: computed(() => list.value.asOf),
    days: computed(() => list.value.days),
    reentry: computed(() => list.value.reentry),
    direction: direction as ReadonlySignal<Direction>,
    today: today as ReadonlySignal<string>,
    queue: queue.scans,
    answer: answer as ReadonlySignal<ShownAnswer | null>,
    online: queue.online,
    notice: notice as ReadonlySignal<string | null>,
    conflicts: queue.conflicts,
    lastCheckIn: lastCheckIn as ReadonlySignal<{ code: string; offline: boolean; scanId: string } | null>,
    express: express as ReadonlySignal<boolean>,
    totalCheckedIn: computed(() => counts.value.checkedIn),
    insideNow: computed(() => counts.value.inside),
    ticketTotal: computed(() => list.value.tickets.size),
    gateCount: computed(() => counts.value.atGate),
    loadEvents,
    openDoor,
    closeDoor,
    /** One scan, checked whatever is on screen (a test's, the fault case's device); the screen's go through `read`. */
    scan: (raw: string) => check(readOf(raw)),
    /** A read as the screen takes it, express mode's flow and all. */
    read: (raw: string) => take(readOf(raw)),
    undoLast,
    syncNow: queue.sync,
    dismissAnswer: () => void (answer.value = null),
    setDirection: (d: Direction) => void (direction.value = d),
    clearConflicts: queue.clearConflicts,
    setExpress,
    /** The volunteer is confirming an undo (express mode holds the verdict meanwhile). */
    hold: (yes: boolean) => void (held.value = yes),
  }
})

export type Door = InstanceType<typeof DoorModel>

/**
 * The door room's model, built by the door route from the start path's session (the one session of the app): the
 * door's calls, the device's IndexedDB (database 'campus-door', store 'kv': the lists and queues kept by earlier
 * versions stay readable) and the browser's network.
 */
/** The door's room (`room(buildDoor)`), from the start path's session. */
export const buildDoor = ({ session }: { session: DoorDeps['session'] }): Door =>
  new DoorModel({ calls: doorApi, session, storage: indexedDbStorage('campus-door'), network: browserNetwork })
