// One writer for the embedded database (issue 10): PGlite is a single process's database, so a second process
// (the operator's CLI while the server runs, or a second server) opening the same folder would write changes the
// first never sees and loses at its next restart. Whoever opens the folder holds a lock file in it (its pid and
// start time); another process is refused with what to do. A lock whose process is gone (killed) is stale and
// taken over, so a crash never blocks the next start.
// Kept hand-written (issue 38 item 6): proper-lockfile and lockfile judge a lock stale by its age, not its holder's pid:
// after a SIGKILL proper-lockfile took the folder back only 11 s later, lockfile never, or by age even from a live server.
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { keepPrivate } from './data-dir-private.ts'

export const LOCK_FILE = 'campus-events.lock'

export class DataDirLocked extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: { pid: number; startedAt?: string; command?: string },
  ) {
    super(
      `The database folder ${dataDir} is in use by another process (pid ${holder.pid}${holder.command ? `, ${holder.command}` : ''}${holder.startedAt ? `, since ${holder.startedAt}` : ''}). ` +
        'The embedded database (PGlite) has one writer: stop the server first (then run this again), or use PostgreSQL (DATABASE_URL) to run the command line and several servers at once.',
    )
    this.name = 'DataDirLocked'
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function readHolder(file: string): { pid: number; startedAt?: string; command?: string } | null {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8'))
    return value && typeof value.pid === 'number' ? value : { pid: 0 }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    return { pid: 0 } // unreadable or half-written: treated as stale
  }
}

/** The live process holding the lock of `dataDir`, or null (no lock, or a stale one): `npm start` asks before building. */
export function lockHolder(dataDir: string): { pid: number; startedAt?: string; command?: string } | null {
  const holder = readHolder(join(dataDir, LOCK_FILE))
  return holder && alive(holder.pid) ? holder : null
}

/** Takes the lock of `dataDir` for this process; answers the release (also run at exit). */
export function lockDataDir(dataDir: string, command = process.argv.slice(1).join(' ').slice(0, 200)): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  keepPrivate(dataDir)
  const file = join(dataDir, LOCK_FILE)
  const me = { pid: process.pid, startedAt: new Date().toISOString(), command }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600)
      writeSync(fd, JSON.stringify(me))
      closeSync(fd)
      let released = false
      const release = () => {
        if (released) return
        released = true
        process.off('exit', release)
        // Only our own lock is removed (never one a later process took over).
        if (readHolder(file)?.pid === process.pid) {
          try {
            unlinkSync(file)
          } catch {}
        }
      }
      process.on('exit', release)
      return release
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const holder = readHolder(file)
      if (holder && alive(holder.pid)) throw new DataDirLocked(dataDir, holder)
      // Stale (its process is gone): remove it and try again.
      try {
        unlinkSync(file)
      } catch {}
    }
  }
  throw new Error(`Could not take the lock ${file}; remove it if no server or command is running.`)
}
