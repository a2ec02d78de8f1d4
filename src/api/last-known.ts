// The last good answer of each read the app starts from (user, events, my events, an event's details), kept in
// localStorage so the app opens with no network: at the gate of a fest there is often no signal. A call that
// could not reach the server (ApiError status 0) answers with the kept copy instead, and the listeners hear
// that the data is not fresh (the offline notice). Only a network failure falls back: a 401, 404 or 5xx answer
// is the server speaking and goes through as it is.
//
// Personal data: /logout clears all of localStorage (SPEC §2) and a sign-in clears these entries; an answer that
// arrives after a logout (a read on its way when the student logged out) is not kept.
import { ApiError, type TokenStorage } from './client.ts'
import { ACCESS_TOKEN, REFRESH_TOKEN } from './token-keys.ts'

/** Where the copies are kept in storage: `lastKnown:<key>` (src/api/last-known-copies.ts reads them too). */
export const PREFIX = 'lastKnown:'

export interface LastKnownStorage extends TokenStorage {
  readonly length: number
  key(index: number): string | null
}

export function createLastKnown(storage: LastKnownStorage) {
  const listeners = new Set<(fromCopy: boolean) => void>()
  const tell = (fromCopy: boolean) => listeners.forEach((listener) => listener(fromCopy))

  /** Runs `fetcher`; keeps its answer under `key`, or answers with the kept one when the network failed. */
  async function remember<T>(key: string, fetcher: () => Promise<T>): Promise<T> {
    let data: T
    try {
      data = await fetcher()
    } catch (err) {
      const kept = err instanceof ApiError && err.status === 0 ? storage.getItem(PREFIX + key) : null
      if (kept === null) throw err
      tell(true)
      return JSON.parse(kept) as T
    }
    // Logged out meanwhile: the tokens went with the rest of storage, and so must this answer.
    if (!storage.getItem(ACCESS_TOKEN) && !storage.getItem(REFRESH_TOKEN)) return data
    try {
      storage.setItem(PREFIX + key, JSON.stringify(data))
    } catch {
      // Storage full or blocked: the app works on, only without an offline copy of this answer.
    }
    tell(false)
    return data
  }

  return {
    remember,
    /** `fromCopy` true: an answer came from the kept copy (offline); false: a fresh answer arrived. */
    listen(listener: (fromCopy: boolean) => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

export type LastKnown = ReturnType<typeof createLastKnown>
