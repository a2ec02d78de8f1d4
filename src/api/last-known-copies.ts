// What is done with the last known answers (src/api/last-known.ts) beyond keeping them, apart so that it loads
// with the code that needs it (the offline tickets, a sign-in), not with the first screen.
import { PREFIX, type LastKnownStorage } from './last-known.ts'

/** Whether a copy is kept under `key` (an event's details, for the offline tickets). */
export const isKept = (storage: Pick<LastKnownStorage, 'getItem'>, key: string) => storage.getItem(PREFIX + key) !== null

/** Forgets every kept answer (another student signs in on this phone), and nothing else. */
export function forgetCopies(storage: LastKnownStorage) {
  const keys: string[] = []
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i)
    if (key?.startsWith(PREFIX)) keys.push(key)
  }
  keys.forEach((key) => storage.removeItem(key))
}
