// The door screen's express mode (issue 25 item 4) in happy-dom, against a fake API and a stand-in camera (the
// scanner module's onCode called by hand): off by default and kept on the device; a read checks in with no tap;
// the verdict is green or red with its vibration and the "show at the door" answers; it clears itself and the
// next ticket is read at once; the same code read again within a few seconds is not sent; a different code
// replaces the verdict; undo stays reachable and holds the verdict while it is confirmed; a hardware scanner's
// code still checks in. Without express mode the answer waits for "Next ticket", as before.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import DoorPage from '../../src/pages/door/index.tsx'
import s from '../../src/pages/door/style.module.css'
import { doorApi } from '../../src/api/door-calls.ts'
import { memoryStorage } from '../../src/lib/kv-storage.ts'
import { REPEAT_MS } from '../../src/lib/door-list.ts'
import { type Door, DoorModel, express, VERDICT_MS } from '../../src/stores/door.ts'
import { session } from '../../src/models.ts'
import { switchedNetwork } from '../fixtures/network.ts'
import { cleanup, click, fakeServer, find, getByText, mount, settle, typeInto, waitFor } from './session-fakes.ts'

const camera = vi.hoisted(() => ({ onCode: null as ((code: string) => void) | null }))
vi.mock('../../src/pages/door/scanner/index.ts', () => ({
  startScanner: async (_video: HTMLVideoElement, onCode: (code: string) => void) => {
    camera.onCode = onCode
    return { decoder: 'in-house', stop: () => void (camera.onCode = null) }
  },
}))

const CODES = { asha: '1000000000000001', kabir: '1000000000000002', meera: '1000000000000003' }
const NAMES: Record<string, string> = { [CODES.asha]: 'Asha Rao', [CODES.kabir]: 'Kabir Shah', [CODES.meera]: 'Meera Iyer' }
const DOOR_ANSWERS: Record<string, { label: string; answer: string }[]> = {
  [CODES.asha]: [
    { label: 'T-shirt size', answer: 'M' },
    { label: 'Food', answer: 'Veg' },
  ],
  [CODES.kabir]: [{ label: 'T-shirt size', answer: 'L' }],
}
const attendee = (code: string) => ({ name: NAMES[code], photo_url: null, team: null, ...(DOOR_ANSWERS[code] && { door_answers: DOOR_ANSWERS[code] }) })

let vibrations: unknown[]
// A door model per test, on the app's real calls (the fake server answers at fetch), with nothing kept between tests.
let door: Door
let network: ReturnType<typeof switchedNetwork>
function doorServer() {
  const inAt = new Map<string, string>()
  const server = fakeServer({
    '/door/p/events': () => [200, { error: false, events: [{ id: 5, name: 'Gala', dates: [], venue: 'Hall', tickets_sold: 3, checked_in: 0 }] }],
    '/door/p/tickets': () => [
      200,
      {
        error: false,
        as_of: new Date().toISOString(),
        released: [],
        tickets: Object.keys(NAMES).map((code) => ({ ticket_code: code, ...attendee(code), checked_in_at: null, gate: null })),
      },
    ],
    '/door/p/check-in': (body) => {
      // The text read may carry a time code (issue 25 item 1): the ticket is its code alone.
      const code = String(body.ticket_code).replace(/-\d{6}$/, '')
      const at = inAt.get(code)
      if (at) return [409, { error: true, message: 'already', result: 'ALREADY_CHECKED_IN', attendee: attendee(code), checked_in_at: at, gate: 'North' }]
      const now = new Date().toISOString()
      inAt.set(code, now)
      return [200, { error: false, result: 'CHECKED_IN', attendee: attendee(code), checked_in_at: now }]
    },
    '/door/p/check-in/undo': (body) => {
      inAt.delete(body.ticket_code)
      return [200, { error: false, message: 'Check-in undone.' }]
    },
    '/door/p/sync': () => [200, { error: false, results: [] }],
  })
  return { ...server, checkIns: () => server.calls('/door/p/check-in').map((r) => r.body.ticket_code) }
}

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  localStorage.setItem('accessToken', 'A')
  localStorage.setItem('refreshToken', 'R')
  vibrations = []
  network = switchedNetwork()
  door = new DoorModel({ calls: doorApi, session, storage: memoryStorage(), network })
  vi.stubGlobal('navigator', { ...navigator, onLine: true, vibrate: (pattern: unknown) => vibrations.push(pattern) })
})
afterEach(() => {
  door.closeDoor()
  cleanup()
  express.value = false
  vi.useRealTimers()
})

/** The door screen, the event opened, the camera on; express mode switched on first when asked. */
async function openDoor(options: { express: boolean }) {
  const api = doorServer()
  const root = mount(<DoorPage door={door} />)
  await click(await waitFor(() => getByText(root, 'Gala', 'span').closest('button')!))
  await waitFor(() => expect(find(root, '[data-testid=ticket-total]').textContent).toBe('3'))
  const toggle = getByText(root, 'Express mode', 'label').querySelector('input')!
  expect(toggle.checked).toBe(false)
  if (options.express) await click(toggle)
  await click(getByText(root, 'Scan with camera', 'button'))
  await waitFor(() => expect(camera.onCode).toBeTypeOf('function'))
  return { root, api }
}

/** The camera reads `code`; resolves once the screen has had time to answer. */
async function read(code: string) {
  camera.onCode!(code)
  await settle()
  await settle()
}
const verdict = (root: HTMLElement) => root.querySelector<HTMLElement>('[role=alert][data-result]')
const shown = (root: HTMLElement, result: string, code: string) =>
  waitFor(() => {
    const v = verdict(root)
    expect(v?.dataset.result).toBe(result)
    expect(v?.dataset.code).toBe(code)
    return v!
  })

describe('express mode', () => {
  it('is off by default and kept on the device once switched on', async () => {
    const { root } = await openDoor({ express: true })
    expect(localStorage.getItem('door-express')).toBe('1')
    const toggle = getByText(root, 'Express mode', 'label').querySelector('input')!
    expect(toggle.checked).toBe(true)
    expect(toggle.getAttribute('aria-describedby')).toBe('express-help')
    await click(toggle)
    expect(localStorage.getItem('door-express')).toBeNull()
  })

  it('checks in on a read with no tap: green, the door answers, a short vibration; then ready for the next at once', async () => {
    const { root, api } = await openDoor({ express: true })
    const field = root.querySelector<HTMLInputElement>('input[name=ticket_code]')!
    await waitFor(() => expect(document.activeElement).toBe(field))
    await read(CODES.asha)
    const green = await shown(root, 'CHECKED_IN', CODES.asha)
    expect(green.classList.contains(s.yes)).toBe(true)
    expect(green.getAttribute('aria-live')).toBe('assertive')
    expect(green.textContent).toContain('CHECKED IN')
    expect(green.textContent).toContain('Asha Rao')
    expect([...green.querySelectorAll('dt')].map((d) => `${d.textContent}: ${d.nextElementSibling!.textContent}`)).toEqual(['T-shirt size: M', 'Food: Veg'])
    expect(vibrations).toEqual([80])
    // The verdict takes no focus: a hardware scanner's next code still lands in the code field.
    expect(document.activeElement).toBe(field)
    // The same ticket still held up: not sent again.
    await read(CODES.asha)
    await vi.advanceTimersByTimeAsync(REPEAT_MS - 1000)
    await read(CODES.asha)
    expect(api.checkIns()).toEqual([CODES.asha])
    // The verdict has cleared itself; undo of the last check-in is on the screen.
    await waitFor(() => expect(verdict(root)).toBeNull())
    expect(door.answer.value).toBeNull()
    expect(getByText(root, 'Undo last check-in (Asha Rao)', 'button')).toBeTruthy()
    // The next person: checked in with no tap either.
    await read(CODES.kabir)
    await shown(root, 'CHECKED_IN', CODES.kabir)
    expect(api.checkIns()).toEqual([CODES.asha, CODES.kabir])
  })

  it('a green clears itself after its moment, a red stays longer; a different code replaces a verdict at once', async () => {
    const { root } = await openDoor({ express: true })
    await read(CODES.asha)
    await shown(root, 'CHECKED_IN', CODES.asha)
    await vi.advanceTimersByTimeAsync(VERDICT_MS.yes - 200)
    expect(verdict(root)).not.toBeNull()
    await vi.advanceTimersByTimeAsync(400)
    await waitFor(() => expect(verdict(root)).toBeNull())
    // Asha again, after the repeat window: red ALREADY IN, the long vibration.
    await vi.advanceTimersByTimeAsync(REPEAT_MS)
    await read(CODES.asha)
    const red = await shown(root, 'ALREADY_CHECKED_IN', CODES.asha)
    expect(red.classList.contains(s.no)).toBe(true)
    expect(red.textContent).toContain('ALREADY IN')
    expect(red.textContent).toContain('T-shirt size')
    expect(vibrations).toEqual([80, [200, 100, 200]])
    await vi.advanceTimersByTimeAsync(VERDICT_MS.yes + 200)
    expect(verdict(root)?.dataset.result).toBe('ALREADY_CHECKED_IN')
    // Meera steps up before the red has gone: her verdict replaces it.
    await read(CODES.meera)
    const next = await shown(root, 'CHECKED_IN', CODES.meera)
    expect(next.querySelector('dl')).toBeNull() // no door answers of hers: none shown
  })

  it('a read while a check-in is on its way is checked in after it, not lost', async () => {
    const { root, api } = await openDoor({ express: true })
    camera.onCode!(CODES.asha)
    camera.onCode!(CODES.kabir)
    await waitFor(() => expect(api.checkIns()).toEqual([CODES.asha, CODES.kabir]))
    await shown(root, 'CHECKED_IN', CODES.kabir)
  })

  it('undo stays reachable: it holds the verdict while confirmed, and the same ticket can then be read again at once', async () => {
    const { root, api } = await openDoor({ express: true })
    await read(CODES.asha)
    const green = await shown(root, 'CHECKED_IN', CODES.asha)
    await click(getByText(green, 'Undo check-in', 'button'))
    const dialog = await waitFor(() => find(root, '[role=dialog]'))
    await vi.advanceTimersByTimeAsync(VERDICT_MS.no * 2)
    expect(verdict(root)?.dataset.result).toBe('CHECKED_IN')
    // Nobody else is checked in under the dialog (the undo is of the last check-in).
    await read(CODES.kabir)
    expect(api.checkIns()).toEqual([CODES.asha])
    await click(getByText(dialog, 'Confirm', 'button'))
    await waitFor(() => expect(api.calls('/door/p/check-in/undo')).toHaveLength(1))
    await waitFor(() => expect(verdict(root)).toBeNull())
    await read(CODES.asha)
    await shown(root, 'CHECKED_IN', CODES.asha)
    expect(api.checkIns()).toEqual([CODES.asha, CODES.asha])
  })

  it('a rotating code’s text (code-timecode, issue 25 item 1): one ticket held across a step’s edge is one read', async () => {
    const { root, api } = await openDoor({ express: true })
    await read(`${CODES.kabir}-123456`)
    // The verdict names the ticket (the code alone); the text read, time code and all, went to the server.
    await shown(root, 'CHECKED_IN', CODES.kabir)
    await read(`${CODES.kabir}-654321`)
    await read(CODES.kabir)
    expect(api.checkIns()).toEqual([`${CODES.kabir}-123456`])
  })

  it('a refused read shows the whole text read, its time code included (issue 37 item 7)', async () => {
    const { root } = await openDoor({ express: false })
    await read(`${CODES.kabir}-123456`)
    await shown(root, 'CHECKED_IN', CODES.kabir)
    await click(getByText(root, 'Next ticket', 'button'))
    await read(`${CODES.kabir}-654321`)
    const red = await shown(root, 'ALREADY_CHECKED_IN', CODES.kabir)
    expect(red.textContent).toContain(`Code read: ${CODES.kabir}-654321`)
  })

  it('offline, the kept list decides: green with the door answers the list carries, the scan queued', async () => {
    const { root, api } = await openDoor({ express: true })
    network.set(false)
    await read(CODES.asha)
    const green = await shown(root, 'CHECKED_IN', CODES.asha)
    expect(green.textContent).toContain('Checked offline against the ticket list')
    expect([...green.querySelectorAll('dd')].map((d) => d.textContent)).toEqual(['M', 'Veg'])
    expect(api.checkIns()).toEqual([])
    expect(door.queue.value.map((q) => q.ticket_code)).toEqual([CODES.asha])
    await vi.advanceTimersByTimeAsync(VERDICT_MS.yes)
    await waitFor(() => expect(verdict(root)).toBeNull())
    await vi.advanceTimersByTimeAsync(REPEAT_MS)
    await read(CODES.asha)
    expect((await shown(root, 'ALREADY_CHECKED_IN', CODES.asha)).classList.contains(s.no)).toBe(true)
  })

  it('a hardware scanner (the code typed into the field, then Enter) checks in with no tap too', async () => {
    const { root, api } = await openDoor({ express: true })
    const field = root.querySelector<HTMLInputElement>('input[name=ticket_code]')!
    await typeInto(field, CODES.kabir)
    field.form!.requestSubmit()
    await shown(root, 'CHECKED_IN', CODES.kabir)
    await typeInto(field, CODES.meera)
    field.form!.requestSubmit()
    await shown(root, 'CHECKED_IN', CODES.meera)
    expect(api.checkIns()).toEqual([CODES.kabir, CODES.meera])
  })
})

describe('without express mode nothing changes', () => {
  it('the answer waits for "Next ticket" (focused), and reads meanwhile are not sent', async () => {
    const { root, api } = await openDoor({ express: false })
    await read(CODES.asha)
    const green = await shown(root, 'CHECKED_IN', CODES.asha)
    await waitFor(() => expect(document.activeElement).toBe(getByText(green, 'Next ticket', 'button')))
    expect(green.textContent).toContain('T-shirt size')
    await vi.advanceTimersByTimeAsync(VERDICT_MS.no * 3)
    await read(CODES.kabir)
    expect(verdict(root)?.dataset.code).toBe(CODES.asha)
    expect(api.checkIns()).toEqual([CODES.asha])
    await click(getByText(green, 'Next ticket', 'button'))
    expect(verdict(root)).toBeNull()
  })
})
