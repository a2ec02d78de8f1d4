// What a door read of a ticket says (issue 25 item 1): '<ticket code>-<time code>' where the event's tickets rotate
// (./time-code.ts writes it), the bare ticket code where they do not. The one split, shared by the door's list and
// express mode (src/lib/door-list.ts `readOf`, which reads each scan once), its offline time check and the server's
// (server/db/door/time-codes.ts). No imports: the door's own chunk takes it without the time code's hashing, and the
// door's offline check (src/lib/door-time-check.ts, a chunk of its own) is handed the split, not the text.

/** A door read: the ticket code, and the time code where the ticket rotates (null: none, or not 6 digits). */
export interface ScanRead {
  code: string
  time: string | null
}

/**
 * A scanned text split into the ticket code (what the ticket list is keyed by) and its time code: split only when it
 * ends in the separator and 6 digits, so any other text (a bare code, a typo) is a code of its own.
 */
export function splitScan(text: string): ScanRead {
  const m = /^(.+)-(\d{6})$/.exec(text)
  return m ? { code: m[1], time: m[2] } : { code: text, time: null }
}
