// The door screen's model (issue 12): the event and gate chosen, the event's ticket list kept on the device for
// checking with no network, the queue of scans made offline (kept too, sent with /door/p/sync when the network
// returns), the answer on screen, and the counts. Loaded only with the door route; built there (`buildDoor`) from
// the start path's session. Its calls, the device's storage and network are passed in, so a test builds its own.
import { computed, createModel, signal, type ReadonlySignal } from '@preact/signals'
import { type Admission, type Direction, type EventDay, dayOf, decide } from '../../contract/admission.ts'
import { splitScan } from '../../contract/scan-text.ts'
import type { DoorDay, DoorEvent, DoorTicket, User } from '../../contract/types.ts'
import { ApiError, type DoorAnswer, doorApi, PASSING } from '../api/door.ts'
import { indexedDbStorage, type KvStorage } from '../lib/kv-storage.ts'

export interface QueuedScan {
  ticket_code: string
  scan_id: string
  gate: string
  scanned_at: string
  /** Absent: in (a queue kept before issue 25 item 3). */
  direction?: Direction
}

/** What the screen shows after a scan: the server's answer, or the offline list's (`offline: true`). */
export type ShownAnswer = DoorAnswer & { offline?: boolean; code: string }

/** The offline time-code check and the corrected clock (issue 25), loaded with each list so it is kept for offline use. */
const timeCheck = () => import('../lib/door-time-check.ts')

function uuid(): string {
  // randomUUID needs a secure context; a door phone on plain http still needs unique ids.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const b = crypto.getRandomValues(new Uint8Array(16))
  b[6] = (b[6] & 0x0f) | 0x40
  b[8] = (b[8] & 0x3f) | 0x80
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/**
 * The events kept on this phone, with whose they are: another account signed in on it does not see them (while the
 * user is not known yet offline, the tokens on the phone are still the account that kept them: sign-out clears them).
 */
const EVENTS_KEY = 'events'
interface KeptEvents {
  userId: number | null
  events: DoorEvent[]
  at: string
}

/** The phone's word on its network: online now, and its online and offline events. */
export interface Network {
  online(): boolean
  /** Calls `up` or `down` as the network comes and goes; answers the way to stop listening. */
  watch(up: () => void, down: () => void): () => void
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

export interface DoorDeps {
  /** The door's calls (src/api/door.ts). */
  calls: Pick<typeof doorApi, 'events' | 'tickets' | 'checkIn' | 'checkOut' | 'undo' | 'sync'>
  /** Whose events are kept on this phone. */
  session: { user: ReadonlySignal<User | null> }
  /** Where the events, ticket lists and offline queues are kept (keys `events`, `tickets:<id>`, `queue:<id>`). */
  storage: KvStorage
  network: Network
}

// ---- The model ----

export const DoorModel = createModel(({ calls, session, storage, network }: DoorDeps) => {
  const doorEvents = signal<DoorEvent[] | null>(null)
  /**
   * Set when the server could not be reached and the events shown are the ones kept on this phone (issue 22 item 2):
   * when that list was fetched.
   */
  const eventsKeptFrom = signal<string | null>(null)
  /** When each event's ticket list kept on this phone was downloaded (its `as_of`), by event id. */
  const keptLists = signal<Record<number, string>>({})
  const doorError = signal<string | null>(null)
  const eventId = signal<number | null>(null)
  const gate = signal<string>('')
  /** The ticket list by code, as last downloaded and updated by this device's scans. */
  const tickets = signal<Map<string, DoorTicket>>(new Map())
  const listAsOf = signal<string | null>(null)
  /** The codes of this event's tickets given back, kept with the list: offline, the door says so (issue 22 item 12). */
  const released = signal<Set<string>>(new Set())
  const keptList = (list: DoorTicket[]) => ({
    tickets: list,
    as_of: listAsOf.value,
    released: [...released.value],
    days: eventDayList.value,
    reentry: reentry.value,
  })
  /** The event's days as the list gave them (issue 25 item 3): each scan counts for one (contract/admission.ts). */
  const eventDayList = signal<DoorDay[]>([])
  const spans = computed<EventDay[]>(() => eventDayList.value.map((d) => ({ day: d.day, start: Date.parse(d.starts_at), end: Date.parse(d.ends_at) })))
  /** The organiser allows re-entry: the door scans out and in. */
  const reentry = signal(false)
  /** Which way the gate scans (re-entry only): set by the volunteer, so a double read can never check anyone out. */
  const direction = signal<Direction>('IN')
  /** The volunteer sets the gate In or Out (the door page's switch: pages never write a store's signal, issue 23). */
  const setDirection = (d: Direction) => {
    direction.value = d
  }
  /** The event day a scan now counts for; moved on at each scan and list refresh (the door may stay open past midnight). */
  const today = signal('')
  const moveToday = () => (today.value = dayOf(spans.value, Date.now()))

  /** A ticket's admissions: the list's, or (a single-day list) its one check-in. */
  function admissionsOf(t: DoorTicket): Admission[] {
    if (t.admissions) return t.admissions
    return t.checked_in_at ? [{ day: dayOf(spans.value, Date.parse(t.checked_in_at)), checked_in_at: t.checked_in_at, gate: t.gate, inside: true }] : []
  }
  const todayOf = (t: DoorTicket, day = today.value) => admissionsOf(t).find((a) => a.day === day)

  /** The ticket with one day's admission set (or removed); its admissions decide from then on (admissionsOf). */
  const withDay = (t: DoorTicket, day: string, admission: Admission | null): DoorTicket => ({
    ...t,
    admissions: admissionsOf(t)
      .filter((a) => a.day !== day)
      .concat(admission ? [admission] : []),
  })
  const queue = signal<QueuedScan[]>([])
  const answer = signal<ShownAnswer | null>(null)
  const online = signal(network.online())
  /** Said once after an undo ("Check-in undone"), until the next scan. */
  const doorNotice = signal<string | null>(null)
  /** Offline scans the server settled differently (another gate had let the ticket in first). */
  const conflicts = signal<ShownAnswer[]>([])
  /** The volunteer has read the scans the server settled differently. */
  const clearConflicts = () => {
    conflicts.value = []
  }
  /** The last check-in this device made, for undo. */
  const lastCheckIn = signal<{ code: string; offline: boolean; scanId: string } | null>(null)

  /** Checked in today (a single-day event's one day: checked in at all). */
  const totalCheckedIn = computed(() => {
    let n = 0
    for (const t of tickets.value.values()) if (todayOf(t)) n += 1
    return n
  })
  /** In now, with re-entry: admitted today and not scanned out since. */
  const insideNow = computed(() => {
    let n = 0
    for (const t of tickets.value.values()) if (todayOf(t)?.inside) n += 1
    return n
  })
  const ticketTotal = computed(() => tickets.value.size)
  /**
   * Check-ins at this gate, counted from the same list as the total (issue 22 item 12: a counter of its own went on
   * counting a ticket whose check-in was undone elsewhere, and "this gate" read more than "checked in").
   */
  const gateCount = computed(() => {
    let n = 0
    for (const t of tickets.value.values()) if (todayOf(t)?.gate === gate.value) n += 1
    return n
  })

  const queueKey = () => `queue:${eventId.value}`
  const ticketsKey = () => `tickets:${eventId.value}`

  /** Changes one day's admission of a ticket (today's unless said), on screen and in the kept list. */
  function setTicket(code: string, change: (t: DoorTicket) => DoorTicket) {
    const current = tickets.value.get(code)
    if (!current) return
    const changed = change(current)
    if (changed === current) return
    const next = new Map(tickets.value)
    next.set(code, changed)
    tickets.value = next
    void storage.set(ticketsKey(), keptList([...next.values()]))
  }

  function dropTicket(code: string) {
    if (!tickets.value.has(code)) return
    const next = new Map(tickets.value)
    next.delete(code)
    tickets.value = next
    void storage.set(ticketsKey(), keptList([...next.values()]))
  }

  async function saveQueue(next: QueuedScan[]) {
    queue.value = next
    await storage.set(queueKey(), next)
  }

  // ---- Calls ----

  /**
   * The events the caller may check in at. Each successful answer is kept on this phone, so after a reload with no
   * network (issue 22 item 2) the same events open with the ticket lists downloaded for them.
   */
  async function loadEvents() {
    doorError.value = null
    try {
      const events = await calls.events()
      doorEvents.value = events
      eventsKeptFrom.value = null
      await storage.set(EVENTS_KEY, { userId: session.user.value?.id ?? null, events, at: new Date().toISOString() } satisfies KeptEvents)
    } catch (error) {
      const kept = error instanceof ApiError && PASSING.includes(error.status) ? await storage.get<KeptEvents>(EVENTS_KEY) : undefined
      const me = session.user.value?.id
      if (kept && (me === undefined || kept.userId === null || kept.userId === me)) {
        doorEvents.value = kept.events
        eventsKeptFrom.value = kept.at
        online.value = false
      } else doorError.value = error instanceof Error ? error.message : String(error)
    }
    const lists: Record<number, string> = {}
    for (const e of doorEvents.value ?? []) {
      const list = await storage.get<{ as_of: string | null }>(`tickets:${e.id}`)
      if (list?.as_of) lists[e.id] = list.as_of
    }
    keptLists.value = lists
  }

  /** Downloads the event's ticket list into IndexedDB (kept for offline checks). */
  async function refreshList(): Promise<void> {
    const id = eventId.value
    if (id === null) return
    try {
      const list = await calls.tickets(id)
      if (eventId.value !== id) return
      eventDayList.value = list.days ?? []
      reentry.value = list.reentry ?? false
      if (!reentry.value) direction.value = 'IN'
      moveToday()
      // Scans still queued here stay applied on this device until the server has them (in their order).
      const next = new Map<string, DoorTicket>(list.tickets.map((t) => [t.ticket_code, t]))
      for (const s of [...queue.value].sort((a, b) => Date.parse(a.scanned_at) - Date.parse(b.scanned_at))) {
        const t = next.get(splitScan(s.ticket_code).code)
        if (t) next.set(t.ticket_code, applyScan(t, s).ticket)
      }
      tickets.value = next
      listAsOf.value = list.as_of
      released.value = new Set(list.released ?? [])
      void timeCheck().then((m) => m.noteServerTime(list.as_of)) // this phone's clock, corrected for the time codes
      online.value = true
      await storage.set(ticketsKey(), keptList(list.tickets))
    } catch (error) {
      if (error instanceof ApiError && PASSING.includes(error.status)) online.value = false
      else doorError.value = error instanceof Error ? error.message : String(error)
    }
  }

  let refreshTimer: ReturnType<typeof setInterval> | null = null
  let stopWatching: (() => void) | null = null
  const onOnline = () => {
    online.value = true
    void syncNow().then(refreshList)
  }
  const onOffline = () => {
    online.value = false
  }

  /** Opens the door for an event at a gate: the stored list and queue first, then the fresh list and a sync. */
  async function openDoor(id: number, gateName: string) {
    eventId.value = id
    gate.value = gateName.trim() || 'Gate 1'
    answer.value = null
    lastCheckIn.value = null
    conflicts.value = []
    const stored = await storage.get<{ tickets: DoorTicket[]; as_of: string; released?: string[]; days?: DoorDay[]; reentry?: boolean }>(ticketsKey())
    eventDayList.value = stored?.days ?? []
    reentry.value = stored?.reentry ?? false
    direction.value = 'IN'
    moveToday()
    tickets.value = new Map((stored?.tickets ?? []).map((t) => [t.ticket_code, t]))
    listAsOf.value = stored?.as_of ?? null
    released.value = new Set(stored?.released ?? [])
    queue.value = (await storage.get<QueuedScan[]>(queueKey())) ?? []
    stopWatching?.()
    stopWatching = network.watch(onOnline, onOffline)
    online.value = network.online()
    if (online.value) {
      await syncNow()
      await refreshList()
    }
    // The list refreshes in the background: tickets collected after the door opened are known. Offline, the same
    // call finds out when the server answers again (issue 27: an instance that died leaves the browser online, so
    // no 'online' event comes), then the queued scans go.
    refreshTimer ??= setInterval(() => void syncNow().then(refreshList).then(syncNow), 30_000)
  }

  function closeDoor() {
    if (refreshTimer) clearInterval(refreshTimer)
    refreshTimer = null
    stopWatching?.()
    stopWatching = null
    eventId.value = null
    answer.value = null
  }

  /**
   * A scan applied to a ticket as the server would (contract/admission.ts: the day of its time, once a day, out and
   * in with re-entry): the ticket after it, and the answer.
   */
  function applyScan(t: DoorTicket, s: QueuedScan): { ticket: DoorTicket; answer: DoorAnswer } {
    const day = dayOf(spans.value, Date.parse(s.scanned_at))
    const mine = admissionsOf(t).find((a) => a.day === day)
    const d = decide(mine, s.direction ?? 'IN', reentry.value)
    const next =
      d === 'ADMIT'
        ? { day, checked_in_at: s.scanned_at, gate: s.gate, inside: true }
        : d === 'REENTER' || d === 'OUT'
          ? { ...mine!, inside: d !== 'OUT' }
          : null
    const answer =
      d === 'ADMIT' || d === 'REENTER'
        ? { error: false, result: 'CHECKED_IN', checked_in_at: s.scanned_at, ...(d === 'REENTER' ? { reentry: true } : {}) }
        : d === 'OUT'
          ? { error: false, result: 'CHECKED_OUT', checked_out_at: s.scanned_at }
          : d === 'ALREADY_IN'
            ? { error: true, message: 'This ticket is already checked in.', result: 'ALREADY_CHECKED_IN', checked_in_at: mine!.checked_in_at, gate: mine!.gate }
            : {
                error: true,
                message: reentry.value ? 'Not inside: set the gate to In.' : 'No re-entry here: set the gate to In.',
                result: 'NOT_INSIDE',
              }
    return {
      ticket: next ? withDay(t, day, next) : t,
      answer: {
        ...answer,
        attendee: { name: t.name, photo_url: t.photo_url, team: t.team, door_answers: t.door_answers },
        ...(spans.value.length > 1 ? { day } : {}),
      } as DoorAnswer,
    }
  }

  /**
   * Checks the offline list: who, and whether in today (or, with re-entry, inside now). `text` is what was read (with
   * its time code, issue 25 item 1: the server checks it again against scanned_at), `at` the door's corrected clock.
   */
  function offlineAnswer(code: string, scanId: string, text = code, at = new Date().toISOString()): ShownAnswer {
    const t = tickets.value.get(code)
    if (!t) {
      const message = released.value.has(code) ? 'This ticket was given back: its code no longer works.' : 'No ticket of this event has this code.'
      return { error: true, message, result: 'UNKNOWN_TICKET', offline: true, code }
    }
    const scanned: QueuedScan = { ticket_code: text, scan_id: scanId, gate: gate.value, scanned_at: at, direction: direction.value }
    const { ticket, answer: shown } = applyScan(t, scanned)
    // Only what changed something waits for the server: a refusal offline is the list's word alone.
    if (ticket !== t) {
      setTicket(code, () => ticket)
      void saveQueue([...queue.value, scanned])
    }
    return { ...shown, offline: true, code }
  }

  /** The server's answer to a scan, applied to the list kept here: the day's admission as the server has it now. */
  function learn(code: string, r: DoorAnswer, scannedAt: string) {
    const day = 'day' in r && r.day !== undefined ? r.day : dayOf(spans.value, Date.parse(scannedAt))
    setTicket(code, (t) => {
      const mine = admissionsOf(t).find((a) => a.day === day)
      const next =
        r.result === 'CHECKED_IN'
          ? mine && r.reentry
            ? { ...mine, inside: true }
            : { day, checked_in_at: r.checked_in_at, gate: gate.value, inside: true }
          : r.result === 'ALREADY_CHECKED_IN'
            ? { day, checked_in_at: r.checked_in_at, gate: r.gate, inside: mine?.inside ?? true }
            : r.result === 'CHECKED_OUT' && mine
              ? { ...mine, inside: false }
              : null
      // NOT_CHECKED_IN: a queued scan whose check-in was undone meanwhile (on another device): not in that day.
      return next || r.result === 'NOT_CHECKED_IN' ? withDay(t, day, next) : t
    })
  }

  /** One scan (camera, hardware scanner or typed): the server's answer online, the list's offline. */
  async function scan(raw: string): Promise<ShownAnswer | null> {
    // The text read goes to the server as it is; the list knows the ticket code alone (issue 25: `<code>-<time code>`).
    const text = raw.trim()
    const read = splitScan(text)
    const { code } = read
    const id = eventId.value
    if (!code || id === null) return null
    const scanId = uuid()
    moveToday()
    // The time code first (issue 25; a ticket of a rotating event has its secret in the list): refused, or the corrected
    // time to queue the scan at. The check never loaded (no list yet online): the list decides, the sync checks.
    const offlineScan = async () => {
      const checked = await timeCheck().then(
        (m) => m.offlineCheck(read, tickets.value.get(code)?.secret),
        () => undefined,
      )
      return typeof checked === 'object' ? checked : offlineAnswer(code, scanId, text, checked)
    }
    let shown: ShownAnswer
    if (online.value) {
      try {
        const body = { event_id: id, ticket_code: text, scan_id: scanId, gate: gate.value }
        shown = { ...(await (direction.value === 'OUT' ? calls.checkOut(body) : calls.checkIn(body))), code }
        learn(code, shown, new Date().toISOString())
      } catch (error) {
        if (!(error instanceof ApiError) || !PASSING.includes(error.status)) {
          doorError.value = error instanceof Error ? error.message : String(error)
          return null
        }
        // No answer, or the server not answering now (502/503/504): the list decides, the scan waits in the queue
        // (its scan_id makes it safe if the first try did reach the server).
        online.value = false
        shown = await offlineScan()
      }
    } else shown = await offlineScan()
    if (shown.result === 'CHECKED_IN' && !shown.reentry) lastCheckIn.value = { code, offline: !!shown.offline, scanId }
    doorNotice.value = null
    answer.value = shown
    return shown
  }

  /** Undoes this device's last check-in: on the server, or out of the queue when it never left the device. */
  async function undoLast(): Promise<boolean> {
    const last = lastCheckIn.value
    const id = eventId.value
    if (!last || id === null) return false
    const queued = queue.value.some((s) => s.scan_id === last.scanId)
    if (queued) {
      await saveQueue(queue.value.filter((s) => s.scan_id !== last.scanId))
    } else {
      try {
        await calls.undo(id, last.code)
      } catch (error) {
        doorError.value = error instanceof Error ? error.message : String(error)
        return false
      }
    }
    setTicket(last.code, (t) => withDay(t, today.value, null))
    lastCheckIn.value = null
    answer.value = null
    doorNotice.value = 'Check-in undone'
    return true
  }

  let syncing: Promise<void> | null = null

  /** Sends the queued scans (in chunks the body limit allows); the server's answers replace the device's. */
  function syncNow(): Promise<void> {
    syncing ??= (async () => {
      const id = eventId.value
      while (id !== null && queue.value.length > 0 && eventId.value === id) {
        const chunk = queue.value.slice(0, 50)
        let results: DoorAnswer[]
        try {
          results = await calls.sync({ event_id: id, scans: chunk })
        } catch (error) {
          // Sent again a few times already (SYNC_RETRIES): the queue stays, and goes when the server answers.
          if (error instanceof ApiError && PASSING.includes(error.status)) online.value = false
          else doorError.value = error instanceof Error ? error.message : String(error)
          return
        }
        const settled: ShownAnswer[] = []
        results.forEach((r, i) => {
          const { code } = splitScan(chunk[i].ticket_code)
          learn(code, r, chunk[i].scanned_at)
          if (r.result === 'ALREADY_CHECKED_IN' && (chunk[i].direction ?? 'IN') === 'IN') settled.push({ ...r, code })
          // A code that stopped working when its ticket went to a friend (issue 25): let in on an old list; the
          // volunteer hears of it, and this phone's list drops the code so it is not let in again.
          if (r.result === 'TRANSFERRED') {
            dropTicket(code)
            settled.push({ ...r, code })
          }
          // A time code this phone let in and the server did not (issue 25: its clock was off): the ticket is not in.
          if (r.result === 'EXPIRED_CODE') {
            const { scanned_at, direction: way } = chunk[i]
            const day = dayOf(spans.value, Date.parse(scanned_at))
            // Only the admission this very scan made is taken back (a re-entry's or a scan out's day stands until the
            // next list).
            setTicket(code, (t) => ((way ?? 'IN') === 'IN' && todayOf(t, day)?.checked_in_at === scanned_at ? withDay(t, day, null) : t))
            settled.push({ ...r, code })
          }
        })
        if (settled.length) conflicts.value = [...conflicts.value, ...settled]
        const sent = new Set(chunk.map((s) => s.scan_id))
        await saveQueue(queue.value.filter((s) => !sent.has(s.scan_id)))
      }
    })().finally(() => {
      syncing = null
    })
    return syncing
  }

  function dismissAnswer() {
    answer.value = null
  }

  return {
    /** The events the volunteer may check in at; null until the first answer (or kept copy). */
    events: doorEvents as ReadonlySignal<DoorEvent[] | null>,
    eventsKeptFrom: eventsKeptFrom as ReadonlySignal<string | null>,
    keptLists: keptLists as ReadonlySignal<Record<number, string>>,
    error: doorError as ReadonlySignal<string | null>,
    /** The event the door is open for, or null while one is picked. */
    eventId: eventId as ReadonlySignal<number | null>,
    gate: gate as ReadonlySignal<string>,
    tickets: tickets as ReadonlySignal<Map<string, DoorTicket>>,
    listAsOf: listAsOf as ReadonlySignal<string | null>,
    days: eventDayList as ReadonlySignal<DoorDay[]>,
    reentry: reentry as ReadonlySignal<boolean>,
    direction: direction as ReadonlySignal<Direction>,
    today: today as ReadonlySignal<string>,
    queue: queue as ReadonlySignal<QueuedScan[]>,
    answer: answer as ReadonlySignal<ShownAnswer | null>,
    online: online as ReadonlySignal<boolean>,
    notice: doorNotice as ReadonlySignal<string | null>,
    conflicts: conflicts as ReadonlySignal<ShownAnswer[]>,
    lastCheckIn: lastCheckIn as ReadonlySignal<{ code: string; offline: boolean; scanId: string } | null>,
    totalCheckedIn,
    insideNow,
    ticketTotal,
    gateCount,
    admissionsOf,
    loadEvents: loadEvents,
    refreshList: refreshList,
    openDoor: openDoor,
    closeDoor: closeDoor,
    scan: scan,
    undoLast: undoLast,
    syncNow: syncNow,
    dismissAnswer: dismissAnswer,
    setDirection: setDirection,
    clearConflicts: clearConflicts,
  }
})

export type Door = InstanceType<typeof DoorModel>

/**
 * The door room's model, built by the door route from the start path's session (the one session of the app): the
 * door's calls, the device's IndexedDB (database 'campus-door', store 'kv': the lists and queues kept by earlier
 * versions stay readable) and the browser's network.
 */
export const buildDoor = (session: DoorDeps['session']): Door =>
  new DoorModel({ calls: doorApi, session, storage: indexedDbStorage('campus-door'), network: browserNetwork })
