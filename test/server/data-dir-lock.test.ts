// Issue 10, item 4: one writer for the embedded database. A process that opens a PGlite folder holds a lock file
// in it; the CLI or a second server opening the same folder is refused with what to do, and a lock left by a
// killed process is taken over instead of blocking forever.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DataDirLocked, LOCK_FILE, lockDataDir } from '../../server/db/data-dir-lock.ts'
import { openDatabase } from '../../server/db/index.ts'

const fresh = () => mkdtempSync(join(tmpdir(), 'campus-lock-'))

describe('the data folder lock', () => {
  it('a second opener is refused while the first holds the folder, with what to do; released, the folder opens again', () => {
    const dir = fresh()
    const release = lockDataDir(dir)
    const lock = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))
    expect(lock.pid).toBe(process.pid)
    expect(typeof lock.startedAt).toBe('string')
    let err: unknown
    try {
      lockDataDir(dir)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(DataDirLocked)
    expect((err as Error).message).toMatch(/in use by another process \(pid \d+/)
    expect((err as Error).message).toMatch(/stop the server first/)
    expect((err as Error).message).toMatch(/use PostgreSQL \(DATABASE_URL\)/)
    release()
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
    lockDataDir(dir)()
  })

  it('a lock left by a killed process (its pid gone) is stale and taken over', () => {
    const dir = fresh()
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString()
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: Number(gone), startedAt: '2026-01-01T00:00:00Z' }))
    const release = lockDataDir(dir)
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')).pid).toBe(process.pid)
    release()
  })

  it('a half-written lock file does not block either', () => {
    const dir = fresh()
    writeFileSync(join(dir, LOCK_FILE), '{"pi')
    lockDataDir(dir)()
  })

  it('openDatabase on a folder a running process holds refuses before touching it (the CLI while the server runs)', async () => {
    const dir = fresh()
    const server = await openDatabase({ dataDir: dir })
    try {
      await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/in use by another process/)
    } finally {
      await server.close()
    }
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false)
    const again = await openDatabase({ dataDir: dir })
    await again.close()
  })
})
