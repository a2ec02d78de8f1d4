// Express mode of the door screen (issue 25 item 4): a good read checks in without a tap, the verdict fills the
// screen for a moment and clears itself, and the same code read again within a few seconds (a ticket still held
// in front of the camera, or a hardware scanner in presentation mode) is not sent again. Kept on the device.
import { signal } from '@preact/signals'
import { splitScan } from '../../../contract/scan-text.ts'

const KEY = 'door-express'

/** How long a verdict stays on screen in express mode: a yes briefly, a no long enough to be read. */
export const VERDICT_MS = { yes: 1500, no: 3000 } as const
/** A code read again less than this long after it was last read is the same person still at the door. */
export const REPEAT_MS = 4000

function stored(): boolean {
  try {
    return localStorage.getItem(KEY) === '1'
  } catch {
    return false
  }
}

/** Whether express mode is on (off until the volunteer turns it on on this device). */
export const express = signal<boolean>(typeof localStorage === 'undefined' ? false : stored())

export function setExpress(on: boolean) {
  express.value = on
  try {
    if (on) localStorage.setItem(KEY, '1')
    else localStorage.removeItem(KEY)
  } catch {
    // Private mode: on for this visit only.
  }
}

/**
 * The ticket a read stands for: the text read less a rotating time code ('<code>-<6 digits>', issue 25 item 1),
 * so a ticket held up across a 30 s step's edge is still the same ticket.
 */
export const ticketOf = (text: string) => splitScan(text.trim()).code

/**
 * A guard against the same ticket twice in a row: answers whether a read should be sent. Each read of a ticket
 * (sent or not) restarts its window, so a ticket held up stays one check-in however long it is held.
 */
export function repeatGuard(repeatMs = REPEAT_MS, now: () => number = () => Date.now()) {
  let last = ''
  let seen = Number.NEGATIVE_INFINITY
  return {
    fresh(text: string): boolean {
      const t = now()
      const code = ticketOf(text)
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
