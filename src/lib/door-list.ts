// The door's ticket list and its rules (issue 38 item 1): one event's list as a value; a read of a scanned text (trimmed
// and split once, here); a scan applied to the list by the per-day admission rule (contract/admission.ts, its one home);
// the server's answer to a scan, or to a sync, applied to the list; the offline decision. Plain functions over values,
// no I/O and no signals: the door model (src/stores/door.ts) holds the list in a signal and the queue
// (src/stores/door-queue.ts) keeps it on the phone. A staff file (scripts/staff-assets.ts: src/lib/door-*), in the
// door's chunk.
import { type Admission, type Direction, type EventDay, dayOf, decide } from '../../contract/admission.ts'
import { type ScanRead, splitScan } from '../../contract/scan-text.ts'
import type { DoorDay, DoorTicket, ScanResult } from '../../contract/types.ts'

/** A scan as the queue keeps it and the sync sends it: `ticket_code` is the text read, time code and all. */
export interface QueuedScan {
  ticket_code: string
  scan_id: string
  gate: string
  scanned_at: string
  /** Absent: in (a queue kept before issue 25 item 3). */
  direction?: Direction
}

/** What the screen shows after a scan: the server's answer, or the list's (`offline: true`), with the ticket code read. */
/** `read`: the whole text read, a rotating code's time code and all (issue 37 item 7: the door's 'Code read' showed the ticket code alone). */
export type ShownAnswer = ScanResult & { offline?: boolean; code: string; read?: string }

/** A read: the text as it goes to the server, its ticket code (what the list is keyed by) and its time code. */
export interface Read extends ScanRead {
  text: string
}

/** The one reading of a scanned text (issue 25: `<code>-<time code>`), also of a queued scan's text. */
export function readOf(raw: string): Read {
  const text = raw.trim()
  return { text, ...splitScan(text) }
}

/** A code read again less than this long after it was last read is the same person still at the door (express mode). */
export const REPEAT_MS = 4000

/**
 * Express mode's guard against the same ticket twice in a row: answers whether a read of `code` should be sent. Each
 * read of a ticket (sent or not) restarts its window, so a ticket held up stays one check-in however long it is held.
 */
export function repeatGuard(repeatMs = REPEAT_MS, now: () => number = () => Date.now()) {
  let last = ''
  let seen = Number.NEGATIVE_INFINITY
  return {
    fresh(code: string): boolean {
      const t = now()
      const repeated = code === last && t - seen < repeatMs
      last = code
      seen = t
      return !repeated
    },
    /** After an undo the same ticket may be scanned in again at once. */
    reset() {
      last = ''
      seen = Number.NEGATIVE_INFINITY
    },
  }
}

/**
 * Whether an answer is a yes: green, the short beep, and in express mode the shorter time on screen. A scan out that
 * went through is a yes too (issue 25 item 3): the gate is ready for the next.
 */
export const isYes = (shown: ShownAnswer) => shown.result === 'CHECKED_IN' || shown.result === 'CHECKED_OUT'

/** The list as the server answers it (/door/p/tickets) and as the phone keeps it (key `tickets:<event id>`). */
export interface KeptList {
  tickets: DoorTicket[]
  as_of: string | null
  released?: string[]
  days?: DoorDay[]
  reentry?: boolean
}

/** One event's ticket list on the door: as last downloaded, and changed by this phone's scans and answers since. */
export interface DoorList {
  /** By ticket code. */
  tickets: ReadonlyMap<string, DoorTicket>
  asOf: string | null
  /** The codes of this event's tickets given back: offline, the door says so (issue 22 item 12). */
  released: ReadonlySet<string>
  /** The event's days as the list gave them (issue 25 item 3), and their spans: each scan counts for one. */
  days: DoorDay[]
  spans: EventDay[]
  /** The organiser allows re-entry: the door scans out and in. */
  reentry: boolean
}

/** The list of a server's answer or of a kept copy (none: the empty list of an event never downloaded here). */
export function listOf({ tickets = [], as_of = null, released = [], days = [], reentry = false }: Partial<KeptList> = {}): DoorList {
  return {
    tickets: new Map(tickets.map((t) => [t.ticket_code, t])),
    asOf: as_of,
    released: new Set(released),
    days,
    spans: days.map((d) => ({ day: d.day, start: Date.parse(d.starts_at), end: Date.parse(d.ends_at) })),
    reentry,
  }
}

/** The list as the phone keeps it. */
export const keptOf = (list: DoorList): KeptList => ({
  tickets: [...list.tickets.values()],
  as_of: list.asOf,
  released: [...list.released],
  days: list.days,
  reentry: list.reentry,
})

/** The event day a scan at `at` (ms) counts for (contract/admission.ts). */
export const dayAt = (list: DoorList, at: number) => dayOf(list.spans, at)

/** A ticket's admissions: the list's, or (a single-day list) its one check-in. */
function admissionsOf(list: DoorList, t: DoorTicket): Admission[] {
  if (t.admissions) return t.admissions
  return t.checked_in_at ? [{ day: dayAt(list, Date.parse(t.checked_in_at)), checked_in_at: t.checked_in_at, gate: t.gate, inside: true }] : []
}

const admissionOn = (list: DoorList, t: DoorTicket, day: string) => admissionsOf(list, t).find((a) => a.day === day)

/** The ticket with one day's admission set (or removed); its admissions decide from then on. */
const withDay = (list: DoorList, t: DoorTicket, day: string, admission: Admission | null): DoorTicket => ({
  ...t,
  admissions: admissionsOf(list, t)
    .filter((a) => a.day !== day)
    .concat(admission ? [admission] : []),
})

/**
 * The counts of `day` (a single-day event's one day: at all): checked in, in now (re-entry: admitted and not scanned out
 * since), and checked in at `gate`, all from the one list (issue 22 item 12: a counter of its own went on counting a
 * ticket whose check-in was undone elsewhere, and "this gate" read more than "checked in").
 */
export function countsOn(list: DoorList, day: string, gate: string) {
  const counts = { checkedIn: 0, inside: 0, atGate: 0 }
  for (const t of list.tickets.values()) {
    const admission = admissionOn(list, t, day)
    if (!admission) continue
    counts.checkedIn += 1
    if (admission.inside) counts.inside += 1
    if (admission.gate === gate) counts.atGate += 1
  }
  return counts
}

/** The list with some tickets changed (`change` answers the ticket after, or null to drop it); the same list if none was. */
function withTickets(list: DoorList, codes: string[], change: (t: DoorTicket, i: number) => DoorTicket | null): DoorList {
  let tickets: Map<string, DoorTicket> | null = null
  codes.forEach((code, i) => {
    const t = (tickets ?? list.tickets).get(code)
    const changed = t && change(t, i)
    if (!t || changed === t) return
    tickets ??= new Map(list.tickets)
    if (changed) tickets.set(code, changed)
    else tickets.delete(code)
  })
  return tickets ? { ...list, tickets } : list
}

/**
 * A scan applied to a ticket as the server would (contract/admission.ts: the day of its time, once a day, out and in
 * with re-entry): the ticket after it, and the answer.
 */
function scanned(list: DoorList, t: DoorTicket, s: QueuedScan): { ticket: DoorTicket; answer: ScanResult } {
  const day = dayAt(list, Date.parse(s.scanned_at))
  const mine = admissionOn(list, t, day)
  const d = decide(mine, s.direction ?? 'IN', list.reentry)
  const next =
    d === 'ADMIT' ? { day, checked_in_at: s.scanned_at, gate: s.gate, inside: true } : d === 'REENTER' || d === 'OUT' ? { ...mine!, inside: d !== 'OUT' } : null
  const answer =
    d === 'ADMIT' || d === 'REENTER'
      ? { error: false, result: 'CHECKED_IN', checked_in_at: s.scanned_at, ...(d === 'REENTER' ? { reentry: true } : {}) }
      : d === 'OUT'
        ? { error: false, result: 'CHECKED_OUT', checked_out_at: s.scanned_at }
        : d === 'ALREADY_IN'
          ? { error: true, message: 'This ticket is already checked in.', result: 'ALREADY_CHECKED_IN', checked_in_at: mine!.checked_in_at, gate: mine!.gate }
          : { error: true, message: list.reentry ? 'Not inside: set the gate to In.' : 'No re-entry here: set the gate to In.', result: 'NOT_INSIDE' }
  return {
    ticket: next ? withDay(list, t, day, next) : t,
    answer: {
      ...answer,
      attendee: { name: t.name, photo_url: t.photo_url, team: t.team, door_answers: t.door_answers },
      ...(list.spans.length > 1 ? { day } : {}),
    } as ScanResult,
  }
}

/**
 * The offline decision for a scan of the ticket `code`: the list's answer, and the list after it when the scan changed
 * something (the scan then waits in the queue for the server; a refusal offline is the list's word alone).
 */
export function decideOffline(list: DoorList, code: string, scan: QueuedScan): { answer: ShownAnswer; list?: DoorList } {
  const t = list.tickets.get(code)
  if (!t) {
    const message = list.released.has(code) ? 'This ticket was given back: its code no longer works.' : 'No ticket of this event has this code.'
    return { answer: { error: true, message, result: 'UNKNOWN_TICKET', offline: true, code } }
  }
  const { ticket, answer } = scanned(list, t, scan)
  return { answer: { ...answer, offline: true, code }, list: ticket === t ? undefined : withTickets(list, [code], () => ticket) }
}

/** The list with the scans still queued on this phone applied, in the order they were made, until the server has them. */
export function withQueue(list: DoorList, queue: readonly QueuedScan[]): DoorList {
  const inOrder = [...queue].sort((a, b) => Date.parse(a.scanned_at) - Date.parse(b.scanned_at))
  return withTickets(
    list,
    inOrder.map((s) => readOf(s.ticket_code).code),
    (t, i) => scanned(list, t, inOrder[i]).ticket,
  )
}

/** The server's answer to a scan (`s`: when and at which gate it was made) applied to a ticket: the day's admission as the server has it now. */
function answered(list: DoorList, t: DoorTicket, r: ScanResult, s: Pick<QueuedScan, 'scanned_at' | 'gate'>): DoorTicket {
  const day = 'day' in r && r.day !== undefined ? r.day : dayAt(list, Date.parse(s.scanned_at))
  const mine = admissionOn(list, t, day)
  const next =
    r.result === 'CHECKED_IN'
      ? mine && r.reentry
        ? { ...mine, inside: true }
        : { day, checked_in_at: r.checked_in_at, gate: s.gate, inside: true }
      : r.result === 'ALREADY_CHECKED_IN'
        ? { day, checked_in_at: r.checked_in_at, gate: r.gate, inside: mine?.inside ?? true }
        : r.result === 'CHECKED_OUT' && mine
          ? { ...mine, inside: false }
          : null
  // NOT_CHECKED_IN: a queued scan whose check-in was undone meanwhile (on another device): not in that day.
  return next || r.result === 'NOT_CHECKED_IN' ? withDay(list, t, day, next) : t
}

/** A live scan's answer from the server applied to the list. */
export const withAnswer = (list: DoorList, code: string, r: ScanResult, s: QueuedScan) => withTickets(list, [code], (t) => answered(list, t, r, s))

/**
 * A sync's answers to queued scans applied to the list, and the ones the volunteer must hear of: a scan let in here
 * that another gate had let in first; a code that stopped working when its ticket went to a friend (issue 25: let in on
 * an old list; the list drops the code so it is not let in again); a time code this phone let in and the server did
 * not (its clock was off: only the admission that very scan made is taken back; a re-entry's or a scan out's day
 * stands until the next list).
 */
export function settled(list: DoorList, scans: readonly QueuedScan[], results: readonly ScanResult[]): { list: DoorList; conflicts: ShownAnswer[] } {
  const conflicts: ShownAnswer[] = []
  const codes = scans.map((s, i) => {
    const r = results[i]
    const { code } = readOf(s.ticket_code)
    if (r.result === 'TRANSFERRED' || r.result === 'EXPIRED_CODE' || (r.result === 'ALREADY_CHECKED_IN' && (s.direction ?? 'IN') === 'IN'))
      conflicts.push({ ...r, code })
    return code
  })
  const next = withTickets(list, codes, (t, i) => {
    const s = scans[i]
    const r = results[i]
    if (r.result === 'TRANSFERRED') return null
    if (r.result !== 'EXPIRED_CODE') return answered(list, t, r, s)
    const day = dayAt(list, Date.parse(s.scanned_at))
    return (s.direction ?? 'IN') === 'IN' && admissionOn(list, t, day)?.checked_in_at === s.scanned_at ? withDay(list, t, day, null) : t
  })
  return { list: next, conflicts }
}

/** The list with a ticket's admission of `day` undone. */
export const undone = (list: DoorList, code: string, day: string) => withTickets(list, [code], (t) => withDay(list, t, day, null))
