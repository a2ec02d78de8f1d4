// The door screen (issue 12): pick the event and the gate, then scan tickets with the camera (BarcodeDetector
// where present, else the in-house decoder in a worker), a hardware scanner (it types the code and Enter into the
// focused field) or the printed digits typed by hand. Each answer fills the screen (green: name, photo, team; red:
// the reason), with a sound and a vibration that differ for yes and no, and undo of the last check-in. Works
// offline against the ticket list kept on the device. A lazy route outside the student's first load.
// Express mode (issue 25 item 4, the door model's flow): a good read checks in with no tap, the verdict clears itself
// and the camera goes on reading; the answers to questions marked "show at the door" come with every verdict. The page
// draws the model's signals and hands it what is read (`door.read`).
import { useEffect, useRef, useState } from 'preact/hooks'
import type { Scanner } from './scanner/index.ts'
import { buildDoor, type Door, type ShownAnswer } from '../../stores/door.ts'
import { room } from '../../models.ts'
import { formatIST } from '../../lib/dates.ts'
import { isYes } from '../../lib/door-list.ts'
import s from './style.module.css'

const time = (iso: string) => formatIST(iso, '{h}:{mm} {A}')
/**
 * The undo's confirmation, fetched when the door opens (the service worker keeps it, as the scanner's code) rather
 * than carried in the door's own chunk, which the per-day rules (issue 25 item 3) would push past its budget.
 */
let confirm: typeof import('../../components/modal/index.tsx') | null = null
const loadConfirm = () =>
  import('../../components/modal/index.tsx').then(
    (m) => (confirm = m),
    () => {},
  )
/** A kept list's time: "5:42 PM" today, "26 Nov, 5:42 PM" before (a list from yesterday must say so). */
const listTime = (iso: string) =>
  formatIST(iso, '{YYYY}-{MM}-{DD}') === formatIST(Date.now(), '{YYYY}-{MM}-{DD}') ? time(iso) : formatIST(iso, '{D} {MMM}, {h}:{mm} {A}')

/** A short beep: high and short for yes, low and long for no (WebAudio, nothing to download). */
let audio: AudioContext | null = null
function signal(yes: boolean) {
  try {
    audio ??= new AudioContext()
    const osc = audio.createOscillator()
    const gain = audio.createGain()
    osc.frequency.value = yes ? 1320 : 220
    osc.type = yes ? 'sine' : 'square'
    gain.gain.value = 0.2
    osc.connect(gain).connect(audio.destination)
    osc.start()
    osc.stop(audio.currentTime + (yes ? 0.15 : 0.5))
  } catch {
    // No audio: the colour and the vibration still say it.
  }
  navigator.vibrate?.(yes ? 80 : [200, 100, 200])
}

/** The verdict's word for each answer (a code of no ticket: NOT VALID). */
const VERDICTS: Partial<Record<ShownAnswer['result'], string>> = {
  CHECKED_IN: 'CHECKED IN',
  CHECKED_OUT: 'CHECKED OUT',
  ALREADY_CHECKED_IN: 'ALREADY IN',
  NOT_CHECKED_IN: 'NOT IN',
  NOT_INSIDE: 'NOT INSIDE',
}

/**
 * Undo of this device's last check-in, asked first (with the phone's own dialog when the modal's chunk is not here);
 * the model holds express mode while it is asked.
 */
function UndoLast({ door, name, class: cls, label }: { door: Door; name: string | undefined; class: string; label: string }) {
  const [undoing, setUndoing] = useState(false)
  const open = (yes: boolean) => {
    setUndoing(yes)
    door.hold(yes)
  }
  useEffect(() => () => door.hold(false), [])
  const title = `Undo the check-in of ${name ?? 'this ticket'}?`
  return (
    <>
      <button type="button" class={cls} onClick={() => (confirm ? open(true) : window.confirm(title) && void door.undoLast())}>
        {label}
      </button>
      {undoing && confirm && <confirm.ConfirmModal title={title} onConfirm={async () => (await door.undoLast()) || open(false)} onCancel={() => open(false)} />}
    </>
  )
}

/**
 * The answer, full screen. In express mode it takes no focus (a hardware scanner's next code still lands in the
 * code field behind it).
 */
function Answer({ door, shown }: { door: Door; shown: ShownAnswer }) {
  const yes = isYes(shown)
  const attendee = 'attendee' in shown ? shown.attendee : null
  // Focus moves to the answer's button, so Enter (or a hardware scanner's Enter) goes on to the next ticket.
  const next = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    if (!door.express.value) next.current?.focus()
  }, [])
  const answers = attendee?.door_answers ?? []
  return (
    <div class={`${s.answer} ${yes ? s.yes : s.no}`} role="alert" aria-live="assertive" data-result={shown.result} data-code={shown.code}>
      <p class={s.verdict}>{VERDICTS[shown.result] ?? 'NOT VALID'}</p>
      {attendee?.photo_url && <img class={s.photo} src={attendee.photo_url} alt="" width={160} height={160} />}
      {attendee && <p class={s.who}>{attendee.name}</p>}
      {attendee?.team && <p class={s.team}>Team {attendee.team.name}</p>}
      {answers.length > 0 && (
        <dl class={s.doorAnswers}>
          {answers.map((a, i) => (
            <div key={i}>
              <dt>{a.label}</dt>
              <dd>{a.answer}</dd>
            </div>
          ))}
        </dl>
      )}
      {shown.result === 'ALREADY_CHECKED_IN' && (
        <p class={s.reason}>
          Checked in {'day' in shown && shown.day ? 'today ' : ''}at {time(shown.checked_in_at)}
          {shown.gate ? ` at ${shown.gate}` : ''}
        </p>
      )}
      {(shown.result === 'UNKNOWN_TICKET' ||
        shown.result === 'NOT_CHECKED_IN' ||
        shown.result === 'TRANSFERRED' ||
        shown.result === 'NOT_INSIDE' ||
        shown.result === 'EXPIRED_CODE') && <p class={s.reason}>{shown.message}</p>}
      {shown.result === 'CHECKED_IN' && shown.reentry && <p class={s.reason}>Back in (re-entry)</p>}
      {!yes && <p class={s.small}>Code read: {shown.read}</p>}
      {shown.offline && <p class={s.small}>Checked offline against the ticket list</p>}
      <div class={s.answerActions}>
        {shown.result === 'CHECKED_IN' && door.lastCheckIn.value?.code === shown.code && (
          <UndoLast door={door} name={attendee?.name} class={s.undo} label="Undo check-in" />
        )}
        <button type="button" class={s.next} onClick={door.dismissAnswer} ref={next}>
          Next ticket
        </button>
      </div>
    </div>
  )
}

function Pick({ door }: { door: Door }) {
  const [gateName, setGateName] = useState(door.gate.value || 'Gate 1')
  useEffect(() => {
    void door.loadEvents()
  }, [])
  const events = door.events.value
  return (
    <section class={s.pick}>
      <h1>Door check-in</h1>
      <label class={s.field}>
        Gate name
        <input value={gateName} maxLength={40} onInput={(e) => setGateName(e.currentTarget.value)} />
      </label>
      {door.error.value && <p role="alert">{door.error.value}</p>}
      {door.eventsKeptFrom.value && (
        <p class={s.offline} role="status">
          Offline: your events as of {listTime(door.eventsKeptFrom.value)} and the lists kept on this phone.
        </p>
      )}
      {events === null && !door.error.value && <p>Loading your events…</p>}
      {events?.length === 0 && <p>No event is open for check-in that you are on the door team of.</p>}
      <ul class={s.events}>
        {events?.map((e) => {
          const kept = door.keptLists.value[e.id]
          // Offline, an event with no list on this phone cannot check anyone: every code would read as unknown.
          const unusable = !!door.eventsKeptFrom.value && !kept
          return (
            <li key={e.id}>
              <button type="button" class={s.eventButton} disabled={unusable} onClick={() => void door.openDoor(e.id, gateName)}>
                <span class={s.eventName}>{e.name}</span>
                <span class={s.small}>
                  {e.checked_in} of {e.tickets_sold} checked in
                  {door.eventsKeptFrom.value ? ` (as of ${listTime(door.eventsKeptFrom.value)})` : ''}
                </span>
                <span class={s.small}>{kept ? `List from ${listTime(kept)}` : unusable ? 'No ticket list on this phone' : ''}</span>
              </button>
            </li>
          )
        })}
      </ul>
    </section>
  )
}

function Scanning({ door }: { door: Door }) {
  const video = useRef<HTMLVideoElement>(null)
  const input = useRef<HTMLInputElement>(null)
  const scanner = useRef<Scanner | null>(null)
  const [code, setCode] = useState('')
  const [camera, setCamera] = useState<'off' | 'starting' | 'on' | string>('off')
  const [parts, setParts] = useState<typeof import('./admission.tsx') | null>(null)
  // Each verdict as it comes (two in a row included), heard and felt.
  useEffect(() => door.answer.subscribe((shown) => shown && signal(isYes(shown))), [])
  useEffect(() => () => scanner.current?.stop(), [])
  // The camera's code is fetched while there is a network, so the service worker keeps it for a later offline start.
  useEffect(() => {
    if (navigator.onLine) void import('./scanner/index.ts').catch(() => {})
    // The per-day count and the In/Out switch (issue 25 item 3) come in a chunk of their own, kept by the service
    // worker like the scanner's, so the door's own chunk stays within its budget.
    void import('./admission.tsx').then(setParts, () => {})
    void loadConfirm()
  }, [])
  // Back to the code field after each answer, so a hardware scanner's next code lands in it.
  useEffect(() => {
    if (!door.answer.value) input.current?.focus()
  }, [door.answer.value])

  const startCamera = async () => {
    setCamera('starting')
    try {
      const { startScanner } = await import('./scanner/index.ts')
      scanner.current = await startScanner(video.current!, (text) => void door.read(text), { onError: (e) => setCamera(e.message) })
      setCamera('on')
    } catch (error) {
      setCamera(`The camera could not start (${error instanceof Error ? error.name : 'error'}): type the code instead.`)
    }
  }
  const stopCamera = () => {
    scanner.current?.stop()
    scanner.current = null
    setCamera('off')
  }

  const events = door.events.value ?? []
  const event = events.find((e) => e.id === door.eventId.value)
  const last = door.lastCheckIn.value
  const lastName = last ? door.tickets.value.get(last.code)?.name : undefined
  return (
    <section class={s.scanning}>
      <header class={s.bar}>
        <button type="button" class={s.link} onClick={door.closeDoor}>
          Change event
        </button>
        <div>
          <h1 class={s.title}>{event?.name ?? 'Door'}</h1>
          <p class={s.small}>{door.gate.value}</p>
        </div>
      </header>
      <dl class={s.counts} aria-live="polite">
        <div>
          <dt>This gate</dt>
          <dd data-testid="gate-count">{door.gateCount.value}</dd>
        </div>
        <div>
          <dt>Checked in</dt>
          <dd data-testid="total-count">{door.totalCheckedIn.value}</dd>
        </div>
        <div>
          <dt>Tickets</dt>
          <dd data-testid="ticket-total">{door.ticketTotal.value}</dd>
        </div>
      </dl>
      {parts && <parts.AdmissionParts door={door} />}
      {!door.online.value && (
        <p class={s.offline} role="status">
          offline: {door.queue.value.length} {door.queue.value.length === 1 ? 'scan' : 'scans'} waiting
        </p>
      )}
      {door.online.value && door.queue.value.length > 0 && (
        <p class={s.offline} role="status">
          Sending {door.queue.value.length} offline scans…{' '}
          <button type="button" class={s.link} onClick={() => void door.syncNow()}>
            Send now
          </button>
        </p>
      )}
      {door.conflicts.value.length > 0 && (
        <div class={s.conflicts} role="alert">
          <p>Let in offline here, but checked in earlier elsewhere or given to a friend:</p>
          <ul>
            {door.conflicts.value.map((c) => (
              <li key={c.code}>
                {'attendee' in c ? c.attendee.name : c.code}
                {c.result === 'ALREADY_CHECKED_IN' ? ` — ${time(c.checked_in_at)}${c.gate ? ` at ${c.gate}` : ''}` : ''}
                {c.result === 'TRANSFERRED' ? ' — an old code: the ticket was given to a friend' : ''}
                {c.result === 'EXPIRED_CODE' ? ' — code expired: not in' : ''}
              </li>
            ))}
          </ul>
          <button type="button" class={s.link} onClick={door.clearConflicts}>
            Dismiss
          </button>
        </div>
      )}
      {door.error.value && <p role="alert">{door.error.value}</p>}
      <p role="status">{door.notice.value}</p>
      <div class={s.camera}>
        <video ref={video} class={s.video} muted playsInline aria-label="Camera preview" hidden={camera !== 'on'} />
        {camera === 'on' ? (
          <button type="button" class={s.secondary} onClick={stopCamera}>
            Stop camera
          </button>
        ) : (
          <button type="button" class={s.primary} onClick={() => void startCamera()} disabled={camera === 'starting'}>
            {camera === 'starting' ? 'Starting camera…' : 'Scan with camera'}
          </button>
        )}
        {camera !== 'off' && camera !== 'on' && camera !== 'starting' && <p role="alert">{camera}</p>}
        <label class={s.express}>
          <input type="checkbox" checked={door.express.value} onChange={(e) => door.setExpress(e.currentTarget.checked)} aria-describedby="express-help" />
          Express mode
        </label>
        <p id="express-help" class={s.small}>
          Checks in on a good read with no tap; the verdict clears itself and the next ticket can be read at once.
        </p>
        {door.express.value && !door.answer.value && last && (
          <UndoLast door={door} name={lastName} class={s.secondary} label={`Undo last check-in (${lastName ?? last.code})`} />
        )}
      </div>
      <form
        class={s.manual}
        onSubmit={(e) => {
          e.preventDefault()
          const typed = code
          setCode('')
          void door.read(typed)
        }}
      >
        <label class={s.field}>
          Ticket code (typed, or from a hardware scanner)
          <input ref={input} value={code} inputMode="numeric" autoComplete="off" onInput={(e) => setCode(e.currentTarget.value)} name="ticket_code" />
        </label>
        <button type="submit" class={s.primary}>
          {door.direction.value === 'OUT' ? 'Check out' : 'Check in'}
        </button>
      </form>
      {door.listAsOf.value && <p class={s.small}>List from {listTime(door.listAsOf.value)}, kept on this phone for offline checks.</p>}
      {door.answer.value && <Answer door={door} key={door.answer.value.code} shown={door.answer.value} />}
    </section>
  )
}

/** The door screen; a test passes its own model (`door`), the route none: the door's room (`room(buildDoor)`), built when the door first opens and kept for the visit. */
export default function DoorPage({ door = room(buildDoor) }: { door?: Door }) {
  useEffect(() => {
    document.documentElement.classList.add('door-screen', 'wide')
    return () => {
      document.documentElement.classList.remove('door-screen', 'wide')
      door.closeDoor()
    }
  }, [])
  return <main class={s.page}>{door.eventId.value === null ? <Pick door={door} /> : <Scanning door={door} />}</main>
}
