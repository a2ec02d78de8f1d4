// The phone's clock corrected by the server's (issue 25): a ticket's time code must fall in the door's 30-second
// step, and phones' clocks drift or are set by hand. Each answer that carries the server's time (an event's details:
// `server_time`; the door's list: `as_of`) is noted as it arrives; the difference is kept in localStorage, so it holds
// offline. A kept copy of an answer (src/api/last-known.ts) carries a time already noted when it first arrived:
// only a later time than the one noted counts, so an old copy never sets the clock back.
const KEY = 'serverClock'

interface Noted {
  at: number
  offset: number
}

type Store = Pick<Storage, 'getItem' | 'setItem'>

// globalThis's: no localStorage (node tests, a blocked storage) means the phone's own clock.
function local(): Store | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}

function noted(store: Store | undefined): Noted | null {
  try {
    return JSON.parse(store?.getItem(KEY) ?? 'null') as Noted | null
  } catch {
    return null
  }
}

/** Notes the server's time of an answer that has just arrived. */
export function noteServerTime(serverTime: string | undefined, store = local(), now = Date.now()) {
  const at = serverTime ? Date.parse(serverTime) : Number.NaN
  const last = noted(store)
  if (Number.isNaN(at) || (last && last.at >= at)) return
  try {
    store?.setItem(KEY, JSON.stringify({ at, offset: at - now } satisfies Noted))
  } catch {
    // Storage full or blocked: the phone's own clock is used.
  }
}

/** Now, by the server's clock as last seen (the phone's own when never seen). */
export const serverNow = (store = local(), now = Date.now()) => now + (noted(store)?.offset ?? 0)
