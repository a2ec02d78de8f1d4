// When an access token expires, read from the token (a JWT) by the code that stores one (src/api/refresh.ts,
// src/stores/session-flows.ts), both lazy: nothing of it is in the first load, which reads the time kept beside the
// token instead (src/boot.ts).

import { TOKEN_EXPIRES } from './token-keys.ts'

/** When an access token (a JWT) expires, in ms since the epoch; 0 when it cannot be read. */
export function expiryOf(token: string): number {
  try {
    return JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).exp * 1e3 || 0
  } catch {
    return 0
  }
}

/** Keeps when `accessToken` expires beside it; a token whose time cannot be read leaves none (it is sent as it is). */
export function keepExpiry(storage: { setItem(key: string, value: string): void; removeItem(key: string): void }, accessToken: string) {
  const at = expiryOf(accessToken)
  if (at) storage.setItem(TOKEN_EXPIRES, String(at))
  else storage.removeItem(TOKEN_EXPIRES)
}
