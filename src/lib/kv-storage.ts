// Values kept on the device by key (the door's ticket lists and offline queue, issue 12): one IndexedDB object store,
// raw IndexedDB (two calls need no library). Where IndexedDB cannot open (private mode, Node) a read finds nothing
// and a write is dropped, silently: the caller's screen works online, its state in memory only.

/** Values by key, kept between visits; reads answer undefined for a key never written or storage out of reach. */
export interface KvStorage {
  get<T>(key: string): Promise<T | undefined>
  set(key: string, value: unknown): Promise<void>
}

/** The object store `store` of the IndexedDB database `name` (version 1), opened on first use. */
export function indexedDbStorage(name: string, store = 'kv'): KvStorage {
  let opened: Promise<IDBDatabase> | null = null
  const idb = (): Promise<IDBDatabase> =>
    (opened ??= new Promise((resolve, reject) => {
      const request = indexedDB.open(name, 1)
      request.onupgradeneeded = () => request.result.createObjectStore(store)
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    }))
  return {
    async get<T>(key: string) {
      try {
        const db = await idb()
        return await new Promise<T | undefined>((resolve, reject) => {
          const request = db.transaction(store).objectStore(store).get(key)
          request.onsuccess = () => resolve(request.result as T | undefined)
          request.onerror = () => reject(request.error)
        })
      } catch {
        return undefined
      }
    },
    async set(key: string, value: unknown) {
      try {
        const db = await idb()
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction(store, 'readwrite')
          tx.objectStore(store).put(value, key)
          tx.oncomplete = () => resolve()
          tx.onerror = () => reject(tx.error)
        })
      } catch {
        // No IndexedDB here: nothing is kept.
      }
    },
  }
}

/** Values in memory only, copied in and out as IndexedDB copies them (tests; a device with nothing to keep). */
export function memoryStorage(): KvStorage {
  const values = new Map<string, unknown>()
  return {
    get: async <T>(key: string) => (values.has(key) ? (structuredClone(values.get(key)) as T) : undefined),
    set: async (key: string, value: unknown) => void values.set(key, structuredClone(value)),
  }
}
