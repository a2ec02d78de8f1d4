// The first script of index.html, a file of its own (a few hundred bytes, no imports): it starts the first API
// calls of SPEC §4, the user and the events, the moment the HTML is parsed, side by side, while the app's code
// is still on its way. The app's client (src/api/client.ts) takes these answers instead of asking again, and
// runs them through the same rules as any other call: a 401 still leads to one refresh, then the call again,
// then /logout if the refresh fails. A network failure ends there too, with the last known answer.
//
// The names below are those of src/api/client.ts and calls.ts (ACCESS_TOKEN, the paths, the body `true`); they
// are written out because importing them would tie this file to the app's chunks.
import type { EarlyCalls } from './api/client.ts'

const token = (() => {
  try {
    // An access token that has expired or expires within the minute (a student back after a while; its time is kept
    // beside it, src/api/token-keys.ts) is dropped: the app's client renews it before its first call, which therefore
    // is not a 401 (src/api/client.ts).
    const expires = localStorage.getItem('tokenExpires')
    if (expires && +expires < Date.now() + 6e4) localStorage.removeItem('accessToken')
    return localStorage.getItem('accessToken')
  } catch {
    return null // storage blocked: the app will find no session either
  }
})()
const path = location.pathname

// Signing in or out needs neither call; getting-started needs the user only.
if (token && !/^\/(login|logout)(\/|$)/.test(path)) {
  const host = import.meta.env.VITE_API_HOST ?? '' // without its trailing slash (vite.config.ts)
  const call = (p: string, body = 'true') =>
    fetch(`${host}/api/v1${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body,
    })
  const calls: EarlyCalls['calls'] = { '/user/p/me': call('/user/p/me') }
  // Home's events (issue 15): keyed by path and body, as the client looks it up.
  const home = '{"scope":"home"}'
  if (!path.startsWith('/getting-started')) calls[`/event/p/get${home}`] = call('/event/p/get', home)
  // An unhandled rejection (offline) would be logged before the app takes the promise over.
  for (const p of Object.values(calls)) p.catch(() => {})
  ;(globalThis as { __earlyCalls?: EarlyCalls }).__earlyCalls = { token, calls }
}
