// A list fetched into signals one fetch at a time, for the councils and my-events models, so both keep the
// same rules: callers arriving while a fetch runs share it; a failed fetch is logged (SPEC §8) and its message
// kept in `error`, the list left as it was.
// events.ts keeps its own copy of this loop on purpose: it is in the first load of /, where routing it through
// this generic helper measured ~60 B (brotli) more, and budget.json leaves that load ~350 B of margin.
import { signal } from '@preact/signals'

/** With `dropFirst`, each fetch empties the list (back to null) as it starts. */
export function fetchedList<T>(get: () => Promise<T[] | undefined>, what: string, dropFirst?: boolean) {
  /** null until a fetch has succeeded. */
  const items = signal<T[] | null>(null)
  const loading = signal(false)
  const error = signal<string | null>(null)
  let inFlight: Promise<void> | null = null

  const load = (): Promise<void> =>
    (inFlight ??= (async () => {
      if (dropFirst) items.value = null
      loading.value = true
      try {
        items.value = (await get()) ?? []
        error.value = null
      } catch (err) {
        console.error(`${what} fetch failed`, err)
        error.value = (err as Error).message
      } finally {
        loading.value = false
        inFlight = null
      }
    })())

  return { items, loading, error, load }
}
